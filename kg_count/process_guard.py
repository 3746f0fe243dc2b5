"""Helper processes that end with the process that started them, however it ends (SIGKILL, the OOM killer).

A process a build forks or spawns (a spaCy worker, the encoder beside it, a pair-scoring share) calls
``exit_with_parent(parent)`` first, with the process id its parent passed it: a daemon thread then watches
the parent's process id and ends this process the moment it differs (the parent died and the orphan was
handed to init or a subreaper). The parent's id comes from the parent, not from ``os.getppid()`` at the
helper's start: a parent killed before the helper ran its first line would otherwise be missed. Polling is used
rather than Linux's parent-death signal, which fires when the *thread* that started the child ends, not
the process.
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 0.5


def exit_with_parent(parent: int, poll_seconds: float = POLL_SECONDS) -> None:
    """Exit at once (status 1, without cleanup: nothing this process holds is the parent's to keep) if this
    process's parent is no longer ``parent`` (the starter's ``os.getpid()``), and otherwise watch it from a
    daemon thread and exit the moment it is gone."""
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_seconds)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
