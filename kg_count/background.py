"""Running one call in a thread beside the block that follows: for a call that leaves the interpreter free (the
embedded store's SPARQL update runs in Rust without holding it), so that Python work can go on meanwhile."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Callable, Iterator


@contextmanager
def running_beside(call: Callable[..., object], *args: object) -> Iterator[None]:
    """Run ``call(*args)`` in a thread while the block runs; on leaving the block, wait for it and raise what it
    raised. When the block raises, the call is still waited for (it is never left running), and the block's
    error is the one raised."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="beside") as executor:
        outcome = executor.submit(call, *args)
        try:
            yield
        finally:
            error = outcome.exception()  # waits for the call
        if error is not None:
            raise error
