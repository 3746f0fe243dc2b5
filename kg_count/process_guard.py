"""Helper processes that end with the process that started them, however it ends (SIGKILL, the OOM killer).

A process a build forks or spawns (a spaCy worker, the encoder beside it, a pair-scoring share) calls
``exit_with_parent`` first: a daemon thread then watches the parent's process id and ends this process
the moment it changes (the parent died and the orphan was handed to init or a subreaper). Polling is used
rather than Linux's parent-death signal, which fires when the *thread* that started the child ends, not
the process.
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 0.5


def exit_with_parent(poll_seconds: float = POLL_SECONDS) -> None:
    """Watch the parent of this process from a daemon thread and exit at once (status 1, without cleanup:
    nothing this process holds is the parent's to keep) when it is gone."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_seconds)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
