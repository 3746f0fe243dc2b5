"""Package data: installed as part of kg_count (see setup.py); read with importlib.resources."""
