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
from pathlib import Path

HOLDER_FILE = "kg_count.writer"


def is_lock_error(error: BaseException) -> bool:
    """Whether opening a store failed because another process holds its lock."""
    text = str(error).lower()
    return "lock" in text and ("temporarily unavailable" in text or "resource busy" in text or "held" in text)


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
