"""Array helpers NumPy gives more slowly than they need to take."""

from __future__ import annotations

import numpy as np


def sorted_unique(values: np.ndarray, in_place: bool = False) -> np.ndarray:
    """The distinct values of ``values`` (flattened), sorted: what ``np.unique`` gives, by one sort (of ``values``
    itself when ``in_place``, a one-dimensional array it may reorder). NumPy 2.4's ``np.unique`` of integers goes
    through a hash table first, which takes over ten times as long for millions of distinct values (35 s against
    2.2 s for 23 million pair codes on this project's 2-core machine)."""
    if in_place and values.ndim == 1:
        values.sort()
        ordered = values
    else:
        ordered = np.sort(values, axis=None)
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])]
