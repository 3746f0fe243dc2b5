"""Shared fixtures: paths to the small hand-written files and to the optional shared data."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TASK_DATA = SHARED_DATA / "semeval2018-task5"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def task_data() -> Path:
    if not TASK_DATA.is_dir():
        pytest.skip(f"shared task data not found at {TASK_DATA}")
    return TASK_DATA


@pytest.fixture(autouse=True, scope="session")
def private_record_cache(tmp_path_factory):
    """Commands that cache extracted records write them under the test session's temporary folder."""
    patch = pytest.MonkeyPatch()
    patch.setenv("KG_COUNT_RECORD_CACHE", str(tmp_path_factory.mktemp("cache") / "records.sqlite"))
    yield
    patch.undo()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
