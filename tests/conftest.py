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


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
