"""The shipped extraction models (``extraction.json``), read by ``kg_count.nlp.ranker``."""
