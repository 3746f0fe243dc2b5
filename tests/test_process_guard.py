"""Helper processes end with the process that started them, however it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from tests.helpers import descendants, still_running_after

PARENT = """
import multiprocessing, os, sys, time
from kg_count.process_guard import exit_with_parent

def helper(guarded, parent):
    if guarded:
        exit_with_parent(parent, 0.05)
    time.sleep(120)

if __name__ == "__main__":
    child = multiprocessing.get_context("fork").Process(
        target=helper, args=(sys.argv[1] == "guarded", os.getpid())
    )
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


GONE_BEFORE_START = """
import multiprocessing, os, sys, time
from kg_count.process_guard import exit_with_parent

def helper(parent):
    while os.getppid() == parent:  # the parent is killed before the guard is set up
        time.sleep(0.01)
    exit_with_parent(parent, 0.05)
    time.sleep(120)

if __name__ == "__main__":
    child = multiprocessing.get_context("fork").Process(target=helper, args=(os.getpid(),))
    child.start()
    print(child.pid, flush=True)
    time.sleep(120)
"""


def test_a_helper_whose_parent_died_before_its_guard_ends_at_once():
    parent = subprocess.Popen([sys.executable, "-c", GONE_BEFORE_START], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=30)
    left = still_running_after({child}, patience=10)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == set()
