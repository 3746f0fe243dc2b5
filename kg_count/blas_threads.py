"""Matrix products on one BLAS thread, so that a result is the same bit for bit in every process that makes it."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator

_blas_lock = threading.Lock()
_blas_users = 0
_blas_restore = None


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Matrix products inside the block run on one BLAS thread, whatever the process's thread count, so a result
    is the same bit for bit in every process that makes it (OpenBLAS sums in another order on more threads).
    Threads of one process may nest it: the first in sets the limit, the last out restores it."""
    global _blas_users, _blas_restore
    with _blas_lock:
        if _blas_users == 0:
            _blas_restore = _blas_controller().limit(limits=1, user_api="blas")
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0:
                _blas_restore.unregister()


@lru_cache(maxsize=1)
def _blas_controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()
