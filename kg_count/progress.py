"""Progress bars for long steps: tqdm on standard error, shown only on a terminal unless forced."""

from __future__ import annotations

import os
from typing import Iterable, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(items: Iterable[T], description: str, total: int | None = None, unit: str = "it") -> Iterable[T]:
    """Wrap ``items`` in a progress bar; ``KG_COUNT_PROGRESS=1`` forces it on, ``0`` off."""
    setting = os.environ.get("KG_COUNT_PROGRESS")
    disable = None if setting is None else setting == "0"
    return tqdm(items, desc=description, total=total, unit=unit, disable=disable, leave=False, dynamic_ncols=True)
