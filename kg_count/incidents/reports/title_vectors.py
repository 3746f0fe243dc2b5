"""Sentence vectors of report titles (all-MiniLM-L6-v2, ``kg_count.learning.encoder``), cached on disk.

Document coreference compares two reports' titles by the cosine of their sentence vectors. A
title is encoded once per machine: vectors are kept (float16) in a SQLite file keyed by the
SHA-256 of the encoder's name and the text, so rebuilding a store's incidents encodes nothing new.
Titles not cached are encoded in batches (``Encoder.sentence_vectors``); ``encoded_beside`` encodes them in a
forked process while the caller does other work, for a later ``sentence_vectors`` to read from the cache.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from kg_count.io.sqlite_cache import SqliteCache
from kg_count.learning.encoder import PACKAGE, load_encoder, start_encoding_process
from kg_count.progress import progress_bar

CACHE_ENV = "KG_COUNT_VECTOR_CACHE"
ENCODE_CHUNK = 1024  # titles encoded (in batches) between writes to the cache


def default_vector_cache_path() -> Path:
    """``$KG_COUNT_VECTOR_CACHE``, else ``sentence_vectors.sqlite`` in the project cache folder."""
    from kg_count.resources.project_cache import project_cache

    return Path(os.environ.get(CACHE_ENV) or project_cache() / "sentence_vectors.sqlite")


def _key(text: str) -> str:
    return hashlib.sha256(f"{PACKAGE}\n{text}".encode()).hexdigest()


def sentence_vectors(texts: Iterable[str], cache: Path | None = None) -> dict[str, np.ndarray]:
    """Each distinct text of ``texts`` -> its normalised sentence vector (float32 from the float16 the cache keeps),
    read from the cache at ``cache`` (default ``default_vector_cache_path()``) or encoded and then cached: the same
    numbers either way, so that a grouping does not depend on what the cache held (a cosine of 0.39999 encoded
    and 0.40001 read back once put a pair in another bin). Empty texts get none. A process that has not loaded the
    encoder encodes [batch] ``helper_encoding_titles`` titles or more in a forked process that ends with it
    (``encoded_in_helper``), so that the weights and their working memory leave with that process."""
    wanted = sorted({t for t in texts if t.strip()})
    cache = cache or default_vector_cache_path()
    found = _cached_vectors(wanted, cache)
    missing = [t for t in wanted if t not in found]
    if _helper_pays(len(missing)) and encoded_in_helper(missing, cache):
        found.update(_cached_vectors(missing, cache))
        missing = [t for t in missing if t not in found]
    found.update(_encoded_here(missing, cache))
    return found


def _open_cache(cache: Path) -> SqliteCache:
    return SqliteCache(cache, "vectors", "vector", kind="BLOB", what="sentence-vector cache")


def _cached_vectors(texts: list[str], cache: Path) -> dict[str, np.ndarray]:
    """Each of ``texts`` the cache at ``cache`` holds -> its vector (float32)."""
    found: dict[str, np.ndarray] = {}
    with _open_cache(cache) as stored:
        for text in texts:
            blob = stored.get(_key(text))
            if blob is not None:
                found[text] = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
    return found


def _encoded_here(texts: list[str], cache: Path) -> dict[str, np.ndarray]:
    """Each of ``texts`` -> its vector, encoded in this process (in chunks, each cached as it is done)."""
    found: dict[str, np.ndarray] = {}
    if not texts:
        return found
    with _open_cache(cache) as stored, progress_bar("encoding titles", total=len(texts), unit="title") as bar:
        for start in range(0, len(texts), ENCODE_CHUNK):
            chunk = texts[start : start + ENCODE_CHUNK]
            for text, vector in zip(chunk, load_encoder().sentence_vectors(chunk)):
                kept = vector.astype(np.float16)  # as the cache keeps it, so that a cached text reads the same
                stored.put(_key(text), kept.tobytes())
                found[text] = kept.astype(np.float32)
            bar.update(len(chunk))
    return found


def _helper_pays(missing: int) -> bool:
    """Whether ``missing`` titles are encoded in a helper process: enough of them, the encoder not loaded here
    (a process that holds it already gains nothing) and processes can be forked."""
    from kg_count.settings import settings

    chosen = settings().batch.helper_encoding_titles
    return 0 < chosen <= missing and load_encoder.cache_info().currsize == 0 and "fork" in get_all_start_methods()


def encoded_in_helper(texts: list[str], cache: Path) -> bool:
    """Encode ``texts`` into the cache at ``cache`` in a forked process and wait for it; whether it ended well (if
    not, what it did not cache is encoded by the caller). Ctrl-C, or any exception while waiting, ends the process
    at once and is raised; the process ends with this one however this one ends (``start_encoding_process``)."""
    helper = get_context("fork").Process(target=_encode_in_helper, args=(texts, cache, os.getpid()), daemon=True)
    helper.start()
    try:
        helper.join()
    except BaseException:
        helper.kill()
        helper.join()
        raise
    return helper.exitcode == 0


def _encode_in_helper(texts: list[str], cache: Path, parent: int) -> None:
    """The helper process of ``encoded_in_helper``: exits with status 1, quietly, on any error (the caller then
    encodes the texts itself and reports what goes wrong)."""
    start_encoding_process(parent)
    try:
        _encoded_here(texts, cache)
    except BaseException:
        os._exit(1)


def uncached(texts: Iterable[str], cache: Path | None = None) -> list[str]:
    """The distinct non-empty ``texts`` whose vectors the cache at ``cache`` (default ``default_vector_cache_path()``)
    does not hold yet, sorted."""
    with _open_cache(cache or default_vector_cache_path()) as stored:
        return [t for t in sorted({t for t in texts if t.strip()}) if stored.get(_key(t)) is None]


class EncoderBeside:
    """A forked process that loads the encoder as it starts (``start``, or the first ``encode``) and encodes the texts
    it is given (``encode``) into the vector cache at ``cache`` (default ``default_vector_cache_path()``) while the
    caller goes on; ``finish`` waits for them. Its matrix products take one core, leaving the caller the others. A
    process that dies (killed, out of memory) leaves what it had not cached to a later ``sentence_vectors``. Start
    it before this process runs threads of its own: a fork copies only the forking thread."""

    def __init__(self, cache: Path | None = None):
        self.cache = cache
        self._executor: ProcessPoolExecutor | None = None
        self._pending: list = []

    def start(self) -> None:
        """Fork the process, which loads the weights at once; nothing when it is started already."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                1, mp_context=get_context("fork"), initializer=start_encoding_process, initargs=(os.getpid(),)
            )
            self._pending.append(self._executor.submit(_load))

    @property
    def started(self) -> bool:
        """Whether the process was forked (and not closed since)."""
        return self._executor is not None

    def encode(self, texts: Iterable[str]) -> None:
        """Encode the ``texts`` the cache does not hold (``uncached``) into it, beside the caller."""
        if missing := uncached(texts, self.cache):
            self.start()
            self._pending.append(self._executor.submit(_encode, missing, self.cache))

    def finish(self) -> None:
        """Wait for the texts given to ``encode`` to be cached, raising what the process raised."""
        pending, self._pending = self._pending, []
        try:
            for future in pending:
                future.result()
        except BrokenProcessPool:
            pass

    def close(self) -> None:
        """End the process, once it has done what it had started (a later ``start`` or ``encode`` forks another)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


@contextmanager
def encoder_beside(
    wanted: bool = True, cache: Path | None = None, start: bool = True
) -> Iterator[EncoderBeside | None]:
    """An ``EncoderBeside`` for the block, started unless ``start`` is False (then by its ``start`` or first
    ``encode``), closed on leaving it; None where it is not ``wanted`` or processes cannot be forked."""
    if not wanted or "fork" not in get_all_start_methods():
        yield None
        return
    beside = EncoderBeside(cache)
    try:
        if start:
            beside.start()
        yield beside
    finally:
        beside.close()


@contextmanager
def encoded_beside(
    texts: Iterable[str], cache: Path | None = None, beside: EncoderBeside | None = None
) -> Iterator[None]:
    """Encode the ``texts`` the cache does not hold into it while the block runs, in the process ``beside`` (an
    ``EncoderBeside`` started earlier, so that its weights are loaded already) or in one forked for the block, and
    wait for it on leaving the block, raising what it raised: a ``sentence_vectors`` of them after the block reads
    them from the cache. Where processes cannot be forked, none is missing, or the process dies, the block just
    runs and ``sentence_vectors`` encodes what is missing later, here."""
    texts = list(texts)
    with ExitStack() as started:
        if beside is None:
            beside = started.enter_context(encoder_beside(bool(uncached(texts, cache)), cache))
        if beside is not None:
            beside.encode(texts)
        yield
        if beside is not None:
            beside.finish()


def _load() -> None:
    """Load the encoder's weights in this process (``load_encoder`` keeps them)."""
    load_encoder()


def _encode(texts: list[str], cache: Path | None) -> int:
    """Encode ``texts`` into the cache, here; the number encoded (the vectors stay in the file)."""
    return len(_encoded_here(texts, cache or default_vector_cache_path()))


def cosine(a: np.ndarray | None, b: np.ndarray | None) -> float | None:
    """The cosine of two sentence vectors, or None when either is missing."""
    if a is None or b is None:
        return None
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
