"""Helper processes end with the process that started them, however it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from tests.helpers import descendants, still_running_after

PARENT = """
import multiprocessing, sys, time
from kg_count.process_guard import exit_with_parent

def helper(guarded):
    if guarded:
        exit_with_parent(0.05)
    time.sleep(120)

if __name__ == "__main__":
    child = multiprocessing.get_context("fork").Process(target=helper, args=(sys.argv[1] == "guarded",))
    child.start()
    print(child.pid, flush=True)
    time.sleep(120)
"""


def killed_parent_leaves(guarded: bool) -> set[int]:
    """Start a parent that forks one helper, SIGKILL the parent, and return its helpers still running after."""
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, "guarded" if guarded else "bare"], stdout=subprocess.PIPE, text=True
    )
    child = int(parent.stdout.readline())
    assert child in descendants(parent.pid)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=30)
    left = still_running_after({child}, patience=10 if guarded else 1)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def test_a_guarded_helper_ends_when_its_parent_is_killed():
    assert killed_parent_leaves(guarded=True) == set()


def test_an_unguarded_helper_would_outlive_it():
    # the test above could not fail if a killed parent took its children with it anyway
    assert killed_parent_leaves(guarded=False) != set()
