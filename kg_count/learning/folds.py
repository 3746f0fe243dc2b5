"""Folds by unit: every member of one unit (a state, an incident) in the same fold, folds balanced by size."""

from __future__ import annotations

from typing import Hashable, Mapping, Sequence


def balanced_folds(units: Mapping[str, Sequence[Hashable]], folds: int) -> dict[Hashable, int]:
    """A fold number (0 ... folds-1) for every member of ``units`` (members by unit name): the units, most members
    first (then by name), each dealt whole into the fold with the fewest members so far (the lowest on ties)."""
    sizes = [0] * folds
    fold_of: dict[Hashable, int] = {}
    for _, members in sorted(units.items(), key=lambda item: (-len(item[1]), item[0])):
        fold = min(range(folds), key=lambda f: (sizes[f], f))
        sizes[fold] += len(members)
        fold_of.update({member: fold for member in members})
    return fold_of
