"""Progress bars for long steps (tqdm on standard error, shown only on a terminal unless forced) and
status messages (logged at INFO when bars are shown, else at DEBUG)."""

from __future__ import annotations

import logging
import os
import sys
from typing import Iterable, TypeVar

from tqdm import tqdm

T = TypeVar("T")
logger = logging.getLogger(__name__)


def _disabled() -> bool | None:
    setting = os.environ.get("KG_COUNT_PROGRESS")
    return None if setting is None else setting == "0"


def progress_bar(
    description: str, total: int | None = None, unit: str = "it", items: Iterable[T] | None = None
) -> tqdm:
    """A progress bar over ``items``, or, without them, one advanced by hand (``bar.update(n)``) as a
    context manager; ``KG_COUNT_PROGRESS=1`` forces it on, ``0`` off, else it shows on a terminal."""
    return tqdm(items, desc=description, total=total, unit=unit, disable=_disabled(), leave=False, dynamic_ncols=True)


def progress(items: Iterable[T], description: str, total: int | None = None, unit: str = "it") -> Iterable[T]:
    """Wrap ``items`` in a progress bar (see ``progress_bar``)."""
    return progress_bar(description, total, unit, items)


def status(message: str) -> None:
    """Log what a long step without a bar is doing: at INFO when bars are shown, else at DEBUG."""
    shown = _disabled() is False or (_disabled() is None and sys.stderr.isatty())
    logger.log(logging.INFO if shown else logging.DEBUG, "%s ...", message)
