"""The locked fold: test-dev questions set aside before any tuning, scored once at the end.

A question belongs to a fold unit (``incident_match_fitting.fold_unit``: its state, else the asked name's last
word). ``draw_locked_units`` deals a seeded fifth of the units to the locked fold, states and other units
apart: the states in a seeded order, each taken while the locked share of state questions stays at most
``most``, until it reaches ``share`` (so that one state holding a third of the questions is not drawn
whole); the other units the same way. The drawn units are written to ``benchmarks/locked_fold.json``
and committed, so every later measurement leaves out the same questions.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Iterable, Mapping

from kg_count.errors import InputError
from kg_count.io.atomic import read_json, write_json_atomic
from kg_count.io.questions import Question
from kg_count.training.incident_match_fitting import fold_unit

LOCKED_SEED = 27
LOCKED_SHARE = 0.2
LOCKED_MOST = 0.25


def _draw(units: Counter, rng: random.Random, share: float, most: float) -> list[str]:
    """Units in a seeded order, each kept while the kept questions stay within ``most`` of all, until ``share``."""
    total = sum(units.values())
    order = sorted(units)
    rng.shuffle(order)
    kept, size = [], 0
    for unit in order:
        if size >= share * total:
            break
        if size + units[unit] <= most * total:
            kept.append(unit)
            size += units[unit]
    return sorted(kept)


def draw_locked_units(
    questions: Iterable[Question], seed: int = LOCKED_SEED, share: float = LOCKED_SHARE, most: float = LOCKED_MOST
) -> list[str]:
    """The fold units of the locked fold: about ``share`` of the state questions and of the others, by seed."""
    units = Counter(fold_unit(q) for q in questions)
    states = Counter({u: n for u, n in units.items() if u.startswith("state:")})
    others = Counter({u: n for u, n in units.items() if not u.startswith("state:")})
    rng = random.Random(seed)
    return sorted(_draw(states, rng, share, most) + _draw(others, rng, share, most))


def write_locked_fold(path: Path, units: list[str], seed: int = LOCKED_SEED) -> None:
    """Write the locked fold's units (and the seed that drew them) to ``path``."""
    write_json_atomic(path, {"seed": seed, "share": LOCKED_SHARE, "units": units})


def read_locked_units(path: Path) -> frozenset[str]:
    """The fold units of a locked-fold file; InputError naming the file when it is not one."""
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("units"), list):
        raise InputError("not a locked-fold file: no list of units", path)
    return frozenset(data["units"])


def split_locked(questions: Mapping[str, Question], units: frozenset[str]) -> tuple[set[str], set[str]]:
    """The question ids outside the locked fold (for tuning) and inside it (scored once)."""
    locked = {q for q, question in questions.items() if fold_unit(question) in units}
    return set(questions) - locked, locked
