"""Sentence vectors of report titles (all-MiniLM-L6-v2, ``kg_count.learning.encoder``), cached on disk.

Document coreference compares two reports' titles by the cosine of their sentence vectors. A
title is encoded once per machine: vectors are kept (float16) in a SQLite file keyed by the
SHA-256 of the encoder's name and the text, so rebuilding a store's incidents encodes nothing new.
Titles not cached are encoded in batches (``Encoder.sentence_vectors``).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterable

import numpy as np

from kg_count.io.sqlite_cache import SqliteCache
from kg_count.learning.encoder import PACKAGE, load_encoder
from kg_count.progress import progress_bar

CACHE_ENV = "KG_COUNT_VECTOR_CACHE"
ENCODE_CHUNK = 1024  # titles encoded (in batches) between writes to the cache


def default_vector_cache_path() -> Path:
    """``$KG_COUNT_VECTOR_CACHE``, else ``sentence_vectors.sqlite`` in the project cache folder."""
    from kg_count.resources.wordnet import project_cache

    return Path(os.environ.get(CACHE_ENV) or project_cache() / "sentence_vectors.sqlite")


def _key(text: str) -> str:
    return hashlib.sha256(f"{PACKAGE}\n{text}".encode()).hexdigest()


def sentence_vectors(texts: Iterable[str], cache: Path | None = None) -> dict[str, np.ndarray]:
    """Each distinct text of ``texts`` -> its normalised sentence vector (float32 from the float16 the cache keeps),
    read from the cache at ``cache`` (default ``default_vector_cache_path()``) or encoded and then cached: the same
    numbers either way, so that a grouping does not depend on what the cache held (a cosine of 0.39999 encoded
    and 0.40001 read back once put a pair in another bin). Empty texts get none."""
    wanted = sorted({t for t in texts if t.strip()})
    found: dict[str, np.ndarray] = {}
    with SqliteCache(
        cache or default_vector_cache_path(), "vectors", "vector", kind="BLOB", what="sentence-vector cache"
    ) as stored:
        for text in wanted:
            blob = stored.get(_key(text))
            if blob is not None:
                found[text] = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
        missing = [t for t in wanted if t not in found]
        with progress_bar("encoding titles", total=len(missing), unit="title") as bar:
            for start in range(0, len(missing), ENCODE_CHUNK):
                chunk = missing[start : start + ENCODE_CHUNK]
                for text, vector in zip(chunk, load_encoder().sentence_vectors(chunk)):
                    kept = vector.astype(np.float16)  # as the cache keeps it, so that a cached text reads the same
                    stored.put(_key(text), kept.tobytes())
                    found[text] = kept.astype(np.float32)
                bar.update(len(chunk))
    return found


def cosine(a: np.ndarray | None, b: np.ndarray | None) -> float | None:
    """The cosine of two sentence vectors, or None when either is missing."""
    if a is None or b is None:
        return None
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
