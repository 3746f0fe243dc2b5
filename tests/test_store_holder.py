"""Opening a store read-only beside a writer: a file the writer retires while the reader opens is tried again;
any other failure is reported at once."""

from __future__ import annotations

import types

import pyoxigraph
import pytest

from kg_count.errors import StoreError
from kg_count.graph import store_holder
from kg_count.graph.store import GraphStore

VANISHED = (
    "IO error: No such file or directory: While opening a file for sequentially reading: "
    "{folder}/000045.log: No such file or directory"
)


def flaky_read_only(failures: list[str]):
    """A stand-in for pyoxigraph's module whose Store.read_only raises each of ``failures`` in turn, then opens."""

    def read_only(path: str) -> pyoxigraph.Store:
        if failures:
            raise OSError(failures.pop(0).format(folder=path))
        return pyoxigraph.Store.read_only(path)

    return types.SimpleNamespace(Store=types.SimpleNamespace(read_only=read_only))


@pytest.fixture
def store_folder(tmp_path):
    folder = tmp_path / "store"
    with GraphStore(folder) as store:
        store.dataset.update(
            "INSERT DATA { GRAPH <http://example.org/g> { <http://example.org/s> a <http://example.org/C> } }"
        )
    return folder


def test_a_log_file_retired_while_opening_is_tried_again(store_folder, monkeypatch):
    failures = [VANISHED] * 3
    monkeypatch.setattr(store_holder, "pyoxigraph", flaky_read_only(failures))
    with GraphStore(store_folder, create=False) as store:
        assert store.read_only
        assert len(store.dataset) == 1
    assert failures == []


def test_a_file_that_stays_gone_is_reported_with_the_store_named(store_folder, monkeypatch):
    monkeypatch.setattr(store_holder, "pyoxigraph", flaky_read_only([VANISHED] * store_holder.READ_ONLY_TRIES))
    monkeypatch.setattr(store_holder.time, "sleep", lambda seconds: None)
    with pytest.raises(StoreError, match="cannot open the store to read it") as raised:
        GraphStore(store_folder, create=False)
    assert str(store_folder) in str(raised.value)


def test_another_failure_is_not_tried_again(store_folder, monkeypatch):
    failures = ["IO error: Permission denied", VANISHED]
    monkeypatch.setattr(store_holder, "pyoxigraph", flaky_read_only(failures))
    with pytest.raises(StoreError, match="Permission denied"):
        GraphStore(store_folder, create=False)
    assert failures == [VANISHED]
