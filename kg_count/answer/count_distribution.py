"""How many incidents or people a question's candidates add up to: a distribution over counts, and its mode.

The S2 and S3 answers read it (``graph_answer``): each candidate incident's probability of being an asked
one, each one's size (people, for S3) and the expected number the queries miss give the distribution;
the answer prior (``answer.answer_prior``) weighs it, or its mode is the answer.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np


def count_distribution(
    probabilities: Sequence[float], sizes: Sequence[int] | None = None, missed: float = 0.0, cap: int = 400
) -> list[float]:
    """The distribution of ``sum(size_i * X_i) + M`` for independent ``X_i ~ Bernoulli(p_i)`` and
    ``M ~ Poisson(missed)`` (what the query did not find).

    With ``sizes`` None every size is 1 (a Poisson-binomial: the number of incidents). Sums above
    ``cap`` are folded into ``cap``. Returns the probabilities of 0 ... the largest sum.
    """
    sizes = [1] * len(probabilities) if sizes is None else [min(max(int(s), 0), cap) for s in sizes]
    distribution = np.ones(1)
    for p, size in zip(probabilities, sizes):
        mixed = np.zeros(min(len(distribution) + size, cap + 1))
        mixed[: len(distribution)] = distribution * (1 - p)
        kept = min(len(distribution), cap - size)  # totals that stay under the cap; the rest fold into it
        mixed[size : size + kept] += distribution[:kept] * p
        for value in distribution[kept:]:
            mixed[cap] += value * p
        distribution = mixed
    if missed > 0:
        poisson = [math.exp(-missed)]
        while len(poisson) <= cap and (len(poisson) <= missed or poisson[-1] > 1e-9):
            poisson.append(poisson[-1] * missed / len(poisson))
        terms = np.asarray(poisson)
        total = np.zeros(min(cap + 1, len(distribution) + len(terms) - 1))
        for n, a in enumerate(distribution):
            reach = min(len(terms), len(total) - n)
            total[n : n + reach] += a * terms[:reach]
        distribution = total
    return distribution.tolist()


def most_probable(distribution: Sequence[float]) -> int:
    """The mode of a distribution over 0, 1, 2 ...; the smaller value on ties."""
    return max(range(len(distribution)), key=lambda n: (distribution[n], -n))
