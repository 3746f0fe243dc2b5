"""Items made ahead in a thread: order, errors raised in the caller, a stop that leaves no thread behind."""

import threading
import time

import pytest

from kg_count.nlp.made_ahead import made_ahead


def _threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "made-ahead"}


def test_items_come_in_order_and_whole():
    assert list(made_ahead(iter(range(1000)), depth=3)) == list(range(1000))
    assert list(made_ahead(iter([]), depth=3)) == []
    assert not _threads()


def test_what_making_raises_is_raised_to_the_caller_after_the_items_before_it():
    def items():
        yield 1
        yield 2
        raise ValueError("line 3 is broken")

    got = []
    with pytest.raises(ValueError, match="line 3 is broken"):
        for item in made_ahead(items(), depth=1):
            got.append(item)
    assert got == [1, 2]
    assert not _threads()


def test_a_caller_that_stops_early_stops_the_thread():
    made = []

    def items():
        for number in range(10_000):
            made.append(number)
            yield number

    ahead = made_ahead(items(), depth=2)
    assert [next(ahead) for _ in range(3)] == [0, 1, 2]
    ahead.close()
    assert not _threads()
    count = len(made)
    time.sleep(0.3)
    assert len(made) == count < 10
