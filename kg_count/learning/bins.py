"""Named bins of a number, for models over named binary features."""

from __future__ import annotations

from typing import Sequence


def interval_name(value: float, edges: Sequence[float]) -> str:
    """The name of the bin ``value`` falls in: ``<e0``, ``e0-e1`` ... ``>=eN`` (each bin closed below)."""
    if value < edges[0]:
        return f"<{edges[0]:g}"
    for low, high in zip(edges, edges[1:]):
        if value < high:
            return f"{low:g}-{high:g}"
    return f">={edges[-1]:g}"
