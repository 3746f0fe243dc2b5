"""An iterator's items made ahead in a thread, so that making the next ones overlaps the caller's work on this one.

spaCy's parser and entity recogniser parse, and its matrix products run, without holding Python's interpreter
lock, so a thread running spaCy's ``pipe`` leaves the caller most of the lock for its own (pure Python) extraction
and graph writing: one process keeps two cores busy.
"""

from __future__ import annotations

import threading
from queue import Empty, Full, Queue
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")
_DONE = object()
_WAIT_S = 0.1  # how often a blocked thread looks whether the caller has stopped


class _Raised:
    """What the making thread raised, passed to the caller to raise there."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def made_ahead(items: Iterable[T], depth: int) -> Iterator[T]:
    """The items of ``items`` in order, made up to ``depth`` ahead of the caller by a thread; what making them
    raises (an input error, an interrupt the iterator checks for) is raised here, in the caller's thread. When the
    caller stops early (closes the generator), the thread stops after the item it is making."""
    queue: Queue = Queue(maxsize=max(1, depth))
    stopped = threading.Event()

    def put(item) -> None:
        while not stopped.is_set():
            try:
                queue.put(item, timeout=_WAIT_S)
                return
            except Full:
                continue

    def make() -> None:
        try:
            for item in items:
                if stopped.is_set():
                    return
                put(item)
            put(_DONE)
        except BaseException as error:  # noqa: BLE001 - handed to the caller, which raises it
            put(_Raised(error))

    thread = threading.Thread(target=make, name="made-ahead", daemon=True)
    thread.start()
    try:
        while (item := queue.get()) is not _DONE:
            if isinstance(item, _Raised):
                raise item.error
            yield item
    finally:
        stopped.set()
        while thread.is_alive():
            try:
                queue.get(timeout=_WAIT_S)
            except Empty:
                pass
        thread.join()
