"""A process's descendants and whether they still run, read from /proc (Linux), for tests that kill processes."""

from __future__ import annotations

import time
from pathlib import Path

PROC = Path("/proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None when it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``: its children, theirs, and so on."""
    parents: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents.setdefault(stat[1], []).append(int(entry.name))
    found, frontier = set(), [pid]
    while frontier:
        children = parents.get(frontier.pop(), [])
        found.update(children)
        frontier.extend(children)
    return found


def running(pids: set[int]) -> set[int]:
    """The processes of ``pids`` that still run (a zombie waiting to be reaped does not)."""
    return {pid for pid in pids if (stat := _stat(pid)) is not None and stat[0] != "Z"}


def still_running_after(pids: set[int], patience: float = 30.0) -> set[int]:
    """The processes of ``pids`` still running once they have had ``patience`` seconds to end."""
    deadline = time.monotonic() + patience
    while running(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return running(pids)
