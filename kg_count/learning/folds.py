"""Folds by unit: every member of one unit (a state, an incident, a document) in the same fold; folds balanced by
size (``balanced_folds``) or drawn by a hash of the unit (``hashed_fold``). The one place folds are assigned."""

from __future__ import annotations

import hashlib

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


def hashed_fold(key: str, folds: int, draw: int = 0) -> int:
    """A stable fold number (0 ... folds-1) for the unit named ``key`` (a document, an incident): its SHA-1 modulo
    ``folds``, so that every member of a unit shares its fold, whatever else is folded. ``draw`` above 0 gives
    another assignment, independent of the first (inner folds inside outer ones)."""
    salted = key if draw == 0 else f"{draw}:{key}"
    return int(hashlib.sha1(salted.encode("utf-8")).hexdigest(), 16) % folds
