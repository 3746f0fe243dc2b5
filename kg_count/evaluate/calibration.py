"""Reliability tables: how often held-out predictions were right, by tenths of their probability."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable


def reliability(predictions: Iterable[tuple[float, int]]) -> list[dict]:
    """``(probability, label)`` pairs in tenths of the probability: per bin its name (``0.3-0.4``), how
    many (``n``), their mean probability (``mean_p``) and the share labelled 1 (``right``)."""
    bins: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for p, label in predictions:
        bins[min(int(p * 10), 9)].append((p, label))
    return [
        {
            "bin": f"{b / 10:.1f}-{(b + 1) / 10:.1f}",
            "n": len(v),
            "mean_p": round(sum(p for p, _ in v) / len(v), 3),
            "right": round(sum(y for _, y in v) / len(v), 3),
        }
        for b, v in sorted(bins.items())
    ]
