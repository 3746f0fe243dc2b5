"""The project's SPARQL queries: the files of the top-level ``queries/`` folder, installed as the
package data ``kg_count.queries``."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files


@lru_cache(maxsize=None)
def read_query(name: str) -> str:
    """Return the text of ``queries/<name>.rq`` (``name`` may hold a subfolder: ``answer/city``), read once."""
    folder, _, stem = name.rpartition("/")
    package = "kg_count.queries" + (f".{folder.replace('/', '.')}" if folder else "")
    return files(package).joinpath(f"{stem}.rq").read_text(encoding="utf-8")
