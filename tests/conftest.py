"""Shared fixtures (the helpers they and the tests use are in tests/helpers.py)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, TASK_DATA


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def pytest_collection_modifyitems(items):
    """Tests that read ``../shared/data`` (the ``task_data`` fixture, or a skip when absent) are marked shared_data."""
    for item in items:
        reads_shared = "task_data" in getattr(item, "fixturenames", ()) or any(
            "shared" in str(mark.kwargs.get("reason", "")) for mark in item.iter_markers("skipif")
        )
        if reads_shared:
            item.add_marker(pytest.mark.shared_data)


@pytest.fixture
def task_data() -> Path:
    if not TASK_DATA.is_dir():
        pytest.skip(f"shared task data not found at {TASK_DATA}")
    return TASK_DATA


@pytest.fixture(autouse=True, scope="session")
def private_record_cache(tmp_path_factory):
    """Commands that cache records, sentence vectors and pair probabilities write them under the test session's
    temporary folder."""
    patch = pytest.MonkeyPatch()
    cache = tmp_path_factory.mktemp("cache")
    patch.setenv("KG_COUNT_RECORD_CACHE", str(cache / "records.sqlite"))
    patch.setenv("KG_COUNT_VECTOR_CACHE", str(cache / "sentence_vectors.sqlite"))
    patch.setenv("KG_COUNT_PAIR_CACHE", str(cache / "pair_probabilities"))
    yield
    patch.undo()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def oxigraph_server(tmp_path):
    """A real `oxigraph serve` on 127.0.0.1 whose default graph is the union of the named graphs."""
    binary = Path(sys.executable).parent / "oxigraph"
    port = _free_port()
    server = subprocess.Popen(
        [
            str(binary),
            "serve",
            "--location",
            str(tmp_path / "server"),
            "--bind",
            f"127.0.0.1:{port}",
            "--union-default-graph",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                pytest.fail("oxigraph serve did not start")
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=10)
