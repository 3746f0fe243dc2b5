"""Named bins of a number, for models over named binary features."""

from __future__ import annotations

from typing import Sequence

import numpy as np


def interval_name(value: float, edges: Sequence[float], closed: str = "below") -> str:
    """The name of the bin ``value`` falls in. ``closed="below"`` (bins closed below): ``<e0``, ``e0-e1`` ...
    ``>=eN``; ``closed="above"`` (bins closed above, as the extraction features name them): ``<=e`` for the first
    edge ``value`` does not exceed, ``>eN`` past all of them."""
    if closed == "above":
        for edge in edges:
            if value <= edge:
                return f"<={edge}"
        return f">{edges[-1]}"
    if closed != "below":
        raise ValueError(f"closed must be 'below' or 'above', not {closed!r}")
    if value < edges[0]:
        return f"<{edges[0]:g}"
    for low, high in zip(edges, edges[1:]):
        if value < high:
            return f"{low:g}-{high:g}"
    return f">={edges[-1]:g}"


def interval_indices(values: np.ndarray, edges: Sequence[float]) -> np.ndarray:
    """The bin of each of ``values`` (bins closed below, as ``interval_name`` names them): 0 under the first edge,
    k from the k-th edge on."""
    return np.searchsorted(np.asarray(edges, dtype=float), values, side="right")


def interval_names(prefix: str, edges: Sequence[float]) -> list[str]:
    """``prefix`` + the name of each bin of ``interval_indices``, in its order."""
    return [prefix + interval_name(value, edges) for value in (edges[0] - 1, *edges)]
