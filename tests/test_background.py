"""A call run beside a block (``background.running_beside``) is always waited for, and its error is raised."""

import threading

import pytest

from kg_count.background import running_beside


def test_the_call_runs_beside_the_block_and_is_waited_for():
    started, release, finished = threading.Event(), threading.Event(), []

    def call(value):
        started.set()
        release.wait(10)
        finished.append(value)

    with running_beside(call, 7):
        assert started.wait(10)  # the call runs while the block does
        assert finished == []
        release.set()
    assert finished == [7]


def test_the_calls_error_is_raised_after_the_block():
    ran = []

    def failing():
        raise ValueError("the store refused the update")

    with pytest.raises(ValueError, match="refused"):
        with running_beside(failing):
            ran.append(True)
    assert ran == [True]


def test_when_the_block_fails_the_call_still_finishes_and_the_blocks_error_is_raised():
    release, finished = threading.Event(), []

    def call():
        release.wait(10)
        finished.append(True)

    with pytest.raises(KeyError):
        with running_beside(call):
            release.set()
            raise KeyError("block")
    assert finished == [True]
