"""Extraction spread over processes: a local process pool, or the workers of a Dask distributed cluster.

Both are ``concurrent.futures`` executors (Dask's through ``Client.get_executor``). Documents go
out in batches, each worker loads the spaCy model once (``load_model`` is cached per process),
and only the small DocumentRecords come back. A bounded window of batches is in flight at a
time, so the documents stream through and memory does not grow with their number.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from itertools import islice
from typing import Iterable, Iterator

from kg_count.errors import InputError
from kg_count.io.conll import Document
from kg_count.nlp.record import DocumentRecord
from kg_count.settings import settings


def extract_batch(documents: list[Document], spacy_batch_size: int | None = None) -> list[DocumentRecord]:
    """Annotate and extract one batch of documents in this process; return their records in order."""
    from kg_count.nlp.pipeline import process

    return list(process(documents, batch_size=spacy_batch_size))


def _load_model_once(parent: int) -> None:
    """A worker's start: end with the parent process ``parent`` (kg_count.process_guard), leave Ctrl-C to it (it stops
    between documents), load the model."""
    import signal

    from kg_count.nlp.model import load_model
    from kg_count.process_guard import exit_with_parent

    exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    load_model()


def batches(documents: Iterable[Document], size: int) -> Iterator[list[Document]]:
    """Split ``documents`` into lists of at most ``size``, lazily."""
    iterator = iter(documents)
    while batch := list(islice(iterator, size)):
        yield batch


def records_from_executor(
    documents: Iterable[Document], executor: Executor, workers: int, batch_size: int | None = None
) -> Iterator[DocumentRecord]:
    """Extract ``documents`` on ``executor`` in batches of ``batch_size`` (default: [batch] documents);
    yield the records in order."""
    batching = settings().batch
    batch_size = batch_size or batching.documents
    window: deque = deque()
    for batch in batches(documents, batch_size):
        window.append(executor.submit(extract_batch, batch, batch_size))
        if len(window) >= batching.batches_per_worker * workers:
            yield from window.popleft().result()
    while window:
        yield from window.popleft().result()


@contextlib.contextmanager
def local_pool(workers: int) -> Iterator[Executor]:
    """A pool of ``workers`` fresh processes, each loading the spaCy model when it starts."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_load_model_once, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


@contextlib.contextmanager
def dask_cluster(address: str) -> Iterator[tuple[Executor, int]]:
    """An executor on the Dask scheduler at ``address`` and its number of worker threads."""
    from distributed import Client

    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise InputError(f"cannot reach the Dask scheduler: {error}", address) from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        yield client.get_executor(pure=False), workers
    finally:
        client.close()


def parallel_records(
    documents: Iterable[Document], workers: int = 1, scheduler: str | None = None, batch_size: int | None = None
) -> Iterator[DocumentRecord]:
    """Records of ``documents`` in order: in this process, in ``workers`` local processes, or on ``scheduler``."""
    if scheduler is not None:
        with dask_cluster(scheduler) as (executor, threads):
            yield from records_from_executor(documents, executor, threads, batch_size)
    elif workers > 1:
        with local_pool(workers) as pool:
            yield from records_from_executor(documents, pool, workers, batch_size)
    else:
        from kg_count.nlp.pipeline import process

        yield from process(documents, batch_size=batch_size, ahead=True)
