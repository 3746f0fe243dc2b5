"""The encoder's token vectors of a parsed passage, kept in memory for recent passages and, when
``$KG_COUNT_ENCODER_CACHE`` names a folder (training, benchmarks), on disk by passage text.

``encode_ahead`` encodes passages in a second process, forked with the encoder loaded, while the caller parses
and scores others (the two share no lock, as threads would share Python's); it takes all cores but the caller's
for its matrix products.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np

from kg_count.learning.encoder import VECTOR_LAYERS, load_encoder, start_encoding_process, token_spans

Spans = tuple[tuple[int, int], ...]  # each token's (begin, end) character offsets

_ahead: dict[tuple[str, Spans], Future] = {}  # passages being encoded ahead, by text and token spans
_encoder_process: ProcessPoolExecutor | None = None


def _disk_cache() -> Path | None:
    """``$KG_COUNT_ENCODER_CACHE`` when set: a folder where token vectors are kept by passage text."""
    folder = os.environ.get("KG_COUNT_ENCODER_CACHE")
    return Path(folder) if folder else None


@lru_cache(maxsize=64)
def _vectors_of_text(text: str, spans: Spans) -> np.ndarray:
    folder = _disk_cache()
    starts = tuple(begin for begin, _ in spans)
    key = hashlib.sha1(repr((text, starts, VECTOR_LAYERS)).encode("utf-8")).hexdigest()
    if folder is not None and (folder / f"{key}.npy").is_file():
        return np.load(folder / f"{key}.npy").astype(np.float32)
    vectors = load_encoder().span_vectors(text, list(spans)).astype(np.float16)  # as the disk cache keeps them
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f"{key}.{os.getpid()}.npy"
        np.save(temporary, vectors)
        temporary.replace(folder / f"{key}.npy")
    return vectors.astype(np.float32)


def cached_token_vectors(doc) -> np.ndarray:
    """``load_encoder().token_vectors(doc)``, kept in memory for recent passages and, when
    ``$KG_COUNT_ENCODER_CACHE`` names a folder (training, benchmarks), on disk by passage text; taken from
    the encoding process when ``encode_ahead`` gave it the passage (here if that process died)."""
    global _encoder_process
    key = (doc.text, token_spans(doc))
    ahead = _ahead.pop(key, None)
    if ahead is not None:
        try:
            return ahead.result()
        except BrokenProcessPool:
            _encoder_process = None  # the next encode_ahead forks a new one
    return _vectors_of_text(*key)


def encode_ahead(docs: Iterable) -> None:
    """Start encoding the token vectors of the parsed passages ``docs``, in their order, in the encoding
    process, for ``cached_token_vectors`` to take (it waits for a passage still being encoded). Does nothing
    where processes cannot be forked: each passage is then encoded when it is asked for."""
    global _encoder_process
    if "fork" not in multiprocessing.get_all_start_methods():
        return
    if _encoder_process is None:
        load_encoder()  # before the fork, so that the process starts with it
        context = multiprocessing.get_context("fork")
        _encoder_process = ProcessPoolExecutor(
            1, mp_context=context, initializer=start_encoding_process, initargs=(os.getpid(),)
        )
    for doc in docs:
        key = (doc.text, token_spans(doc))
        if key not in _ahead:
            _ahead[key] = _encoder_process.submit(_vectors_of_text, *key)


def stop_encoding_ahead() -> None:
    """Cancel what ``encode_ahead`` has not started and forget what nobody took (a batch ended or was cut short)."""
    for future in _ahead.values():
        future.cancel()
    _ahead.clear()


def stop_encoding_process() -> None:
    """Let what ``encode_ahead`` gave go, and end the encoding process (the next ``encode_ahead`` forks another):
    its CPU time then counts among the caller's children (``os.times``)."""
    global _encoder_process
    stop_encoding_ahead()
    if _encoder_process is not None:
        _encoder_process.shutdown(wait=True)
        _encoder_process = None
