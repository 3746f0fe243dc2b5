"""Array helpers NumPy gives more slowly than they need to take."""

from __future__ import annotations

import numpy as np


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """The distinct values of ``values`` (flattened), sorted: what ``np.unique`` gives, by one sort. NumPy 2.4's
    ``np.unique`` of integers goes through a hash table first, which takes over ten times as long for millions of
    distinct values (35 s against 2.2 s for 23 million pair codes on this project's 2-core machine)."""
    ordered = np.sort(values, axis=None)
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])]
