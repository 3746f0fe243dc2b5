"""Ctrl-C during long work: stop at the next safe point instead of wherever the interpreter happens to be.

A KeyboardInterrupt raised inside a finaliser (spaCy's and rdflib's objects have them) is printed
as "Exception ignored" and lost, and the work runs on. Inside ``deferred_interrupts`` the first
Ctrl-C only sets a flag, which ``check()`` turns into a KeyboardInterrupt where the caller
chooses (between documents); a second Ctrl-C interrupts at once.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from typing import Iterator

logger = logging.getLogger(__name__)
STOPPING = "stopping after the current document (Ctrl-C again to stop at once)"


class _Flag:
    raised = False


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[_Flag]:
    """Within the block, SIGINT sets ``flag.raised`` (a second one raises at once); the main thread only."""
    flag = _Flag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def on_interrupt(signum, frame):
        if flag.raised:
            raise KeyboardInterrupt
        flag.raised = True
        # logged from another thread: this handler may run while the main thread is inside a write to standard
        # error, and a buffered writer refuses a reentrant call (a RuntimeError and a traceback instead of a stop)
        threading.Thread(target=logger.warning, args=(STOPPING,), name="interrupt-note", daemon=True).start()

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def check(flag: _Flag) -> None:
    """Raise KeyboardInterrupt when an interrupt was deferred."""
    if flag.raised:
        raise KeyboardInterrupt
