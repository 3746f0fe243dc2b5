"""Who holds an embedded store for writing, so that readers can work beside it and a second writer is told.

An embedded Oxigraph store is a RocksDB folder that one process at a time opens for writing (its ``LOCK``
file). A writer records itself in ``kg_count.writer`` (process id, command line without its arguments'
values, start time) while it holds the folder. A read command that finds the folder locked opens it
read-only instead: it sees every update the writer has committed when it opens, and none after (an
incident graph version is switched in one update, so readers get the incidents before an update or
after it, never a part). A second writer is refused with a message naming the holder.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import time
from pathlib import Path

import pyoxigraph

HOLDER_FILE = "kg_count.writer"
READ_ONLY_TRIES = 40  # a writer's flush retires a log file in milliseconds; 40 tries wait about 2 s in all


def is_lock_error(error: BaseException) -> bool:
    """Whether opening a store failed because another process holds its lock."""
    text = str(error).lower()
    return "lock" in text and ("temporarily unavailable" in text or "resource busy" in text or "held" in text)


def is_vanished_file_error(error: BaseException) -> bool:
    """Whether opening a store read-only failed because a file it listed was gone when it came to read it: the
    writer beside it had just retired a log or table file (RocksDB's 'No such file or directory')."""
    return "no such file or directory" in str(error).lower()


def open_read_only(folder: Path) -> pyoxigraph.Store:
    """The embedded store at ``folder`` opened read-only, as the writer's committed updates left it.

    A read-only open lists the store's files and then reads them; a writer that flushes in between retires a
    file the list named, and the open fails. It is tried again (up to ``READ_ONLY_TRIES`` times, a little
    longer each time); any other error, or the same one after the last try, is raised (OSError or ValueError).
    """
    for attempt in range(READ_ONLY_TRIES - 1):
        try:
            return pyoxigraph.Store.read_only(str(folder))
        except OSError as error:
            if not is_vanished_file_error(error):
                raise
        time.sleep(0.01 * (1 + attempt // 4))
    return pyoxigraph.Store.read_only(str(folder))


def record_writer(folder: Path) -> None:
    """Record this process as the folder's writer (written whole: a reader never sees half of it)."""
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:2]]) if sys.argv and sys.argv[0] else "python"
    holder = {"pid": os.getpid(), "command": command, "since": dt.datetime.now().isoformat(timespec="seconds")}
    partial = folder / f".{HOLDER_FILE}.{os.getpid()}"
    partial.write_text(json.dumps(holder), encoding="utf-8")
    os.replace(partial, folder / HOLDER_FILE)


def release_writer(folder: Path) -> None:
    """Remove this process's record as the folder's writer (another writer's record is left alone)."""
    holder = read_holder(folder)
    if holder is not None and holder.get("pid") == os.getpid():
        (folder / HOLDER_FILE).unlink(missing_ok=True)


def read_holder(folder: Path) -> dict | None:
    """The folder's recorded writer, None when there is none or it is unreadable."""
    try:
        holder = json.loads((folder / HOLDER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return holder if isinstance(holder, dict) else None


def holder_description(folder: Path) -> str:
    """Words naming the process that holds the folder, for a message."""
    holder = read_holder(folder)
    if holder is None:
        return "another process"
    return f"process {holder.get('pid')} ({holder.get('command', '?')}, since {holder.get('since', '?')})"
