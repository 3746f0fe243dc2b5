"""The project's SPARQL queries, kept as files in ``queries/``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

QUERY_DIR = Path(__file__).resolve().parents[2] / "queries"


@lru_cache(maxsize=None)
def read_query(name: str) -> str:
    """Return the text of ``queries/<name>.rq`` (read once per process)."""
    return (QUERY_DIR / f"{name}.rq").read_text(encoding="utf-8")
