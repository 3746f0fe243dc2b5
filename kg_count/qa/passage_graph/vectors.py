"""The encoder's token vectors of a parsed passage, kept in memory for recent passages and, when
``$KG_COUNT_ENCODER_CACHE`` names a folder (training, benchmarks), on disk by passage text."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

import numpy as np

from kg_count.learning.encoder import VECTOR_LAYERS, load_encoder
from kg_count.qa.passage_graph.passage import parse


def _disk_cache() -> Path | None:
    """``$KG_COUNT_ENCODER_CACHE`` when set: a folder where token vectors are kept by passage text."""
    folder = os.environ.get("KG_COUNT_ENCODER_CACHE")
    return Path(folder) if folder else None


@lru_cache(maxsize=64)
def _vectors_of_text(text: str, token_starts: tuple[int, ...]) -> np.ndarray:
    folder = _disk_cache()
    key = hashlib.sha1(repr((text, token_starts, VECTOR_LAYERS)).encode("utf-8")).hexdigest()
    if folder is not None and (folder / f"{key}.npy").is_file():
        return np.load(folder / f"{key}.npy").astype(np.float32)
    vectors = load_encoder().token_vectors(parse(text)).astype(np.float16)  # as the disk cache keeps them
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f"{key}.{os.getpid()}.npy"
        np.save(temporary, vectors)
        temporary.replace(folder / f"{key}.npy")
    return vectors.astype(np.float32)


def cached_token_vectors(doc) -> np.ndarray:
    """``load_encoder().token_vectors(doc)``, kept in memory for recent passages and, when
    ``$KG_COUNT_ENCODER_CACHE`` names a folder (training, benchmarks), on disk by passage text."""
    return _vectors_of_text(doc.text, tuple(t.idx for t in doc))
