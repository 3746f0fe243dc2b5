"""How many incidents or people a question's candidates add up to: a distribution over counts, and its mode.

The S2 and S3 answers read it (``graph_answer``): each candidate incident's probability of being an asked
one, each one's size (people, for S3) and the expected number the queries miss give the distribution;
the answer prior (``incidents.answer_prior``) weighs it, or its mode is the answer.
"""

from __future__ import annotations

import math
from typing import Sequence


def count_distribution(
    probabilities: Sequence[float], sizes: Sequence[int] | None = None, missed: float = 0.0, cap: int = 400
) -> list[float]:
    """The distribution of ``sum(size_i * X_i) + M`` for independent ``X_i ~ Bernoulli(p_i)`` and
    ``M ~ Poisson(missed)`` (what the query did not find).

    With ``sizes`` None every size is 1 (a Poisson-binomial: the number of incidents). Sums above
    ``cap`` are folded into ``cap``. Returns the probabilities of 0 ... the largest sum.
    """
    sizes = [1] * len(probabilities) if sizes is None else [min(max(int(s), 0), cap) for s in sizes]
    distribution = [1.0]
    for p, size in zip(probabilities, sizes):
        longer = distribution + [0.0] * size
        mixed = [value * (1 - p) for value in longer]
        for total, value in enumerate(distribution):
            mixed[min(total + size, cap)] += value * p
        distribution = mixed[: cap + 1]
    if missed > 0:
        poisson = [math.exp(-missed)]
        while len(poisson) <= cap and (len(poisson) <= missed or poisson[-1] > 1e-9):
            poisson.append(poisson[-1] * missed / len(poisson))
        total = [0.0] * min(cap + 1, len(distribution) + len(poisson) - 1)
        for n, a in enumerate(distribution):
            for m, b in enumerate(poisson[: len(total) - n]):
                total[n + m] += a * b
        distribution = total
    return distribution


def most_probable(distribution: Sequence[float]) -> int:
    """The mode of a distribution over 0, 1, 2 ...; the smaller value on ties."""
    return max(range(len(distribution)), key=lambda n: (distribution[n], -n))
