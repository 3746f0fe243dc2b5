"""How many of a TORQUE question's candidates answer it: the set with the highest expected score.

A fixed threshold answers every question of a kind the same way, however its candidates' confidences
spread. Here each question gets the answer set its own confidences make best. Calibrated for what the
question asks (``q = sigmoid(slope * logit(p) + intercept)``, fitted on cross-validated confidences),
and taken as independent, the candidates' probabilities give every top-k set an expected F1 and an
expected exact match; the gold answers the candidates miss (events the trigger scorer did not find, or
the anchor not found) are a Poisson count with the kind's mean. The answer is the top-k set with the
highest expected F1 + exact match (the two measures TORQUE scores each question by), the empty set
included: a question whose candidates are all doubtful is answered with nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

import numpy as np

from kg_count.learning.linear_model import logit

if TYPE_CHECKING:
    from kg_count.qa.datasets.torque import Candidates
    from kg_count.qa.inputs.readers import TorqueQuestion

MAX_MISSED = 8


@dataclass(frozen=True)
class Calibration:
    """Platt scaling of one kind's confidences, and the mean number of gold answers no candidate holds."""

    slope: float = 1.0
    intercept: float = 0.0
    missed: float = 0.0

    def probabilities(self, confidences: Sequence[float]) -> np.ndarray:
        """The calibrated probability of each confidence."""
        z = np.array([self.slope * logit(p, 1e-6) + self.intercept for p in confidences], dtype=float)
        return 1.0 / (1.0 + np.exp(-np.clip(z, -35, 35)))

    def to_json(self) -> list[float]:
        """``[slope, intercept, missed]``, rounded."""
        return [round(self.slope, 5), round(self.intercept, 5), round(self.missed, 5)]

    @classmethod
    def from_json(cls, values: Sequence[float]) -> Calibration:
        """The calibration ``to_json`` wrote."""
        return cls(*map(float, values))


def poisson_binomial(probabilities: Iterable[float]) -> np.ndarray:
    """P(count = 0, 1, ..., n) of n independent events with the given probabilities."""
    distribution = np.ones(1)
    for p in probabilities:
        distribution = np.concatenate([distribution * (1 - p), [0.0]]) + np.concatenate([[0.0], distribution * p])
    return distribution


def _poisson(mean: float, size: int) -> np.ndarray:
    return np.array([math.exp(-mean) * mean**k / math.factorial(k) for k in range(size)])


def expected_scores(probabilities: Sequence[float], missed: float = 0.0, exact_weight: float = 1.0) -> np.ndarray:
    """Expected F1 + ``exact_weight`` x exact match of answering with the top k candidates, for k = 0 .. n
    (probabilities given best first; ``missed``: the mean number of gold answers outside the candidates)."""
    q = np.asarray(probabilities, dtype=float)
    n = len(q)
    outside_missed = _poisson(missed, MAX_MISSED + 1) if missed > 0 else np.ones(1)
    scores = np.zeros(n + 1)
    for k in range(n + 1):
        hits = poisson_binomial(q[:k])
        others = np.convolve(poisson_binomial(q[k:]), outside_missed)
        x = np.arange(len(hits))[:, None]
        y = np.arange(len(others))[None, :]
        total = k + x + y
        f1 = np.where(total == 0, 1.0, 2 * x / np.maximum(total, 1))
        f1 = np.where((k > 0) & (x == 0), 0.0, f1)
        expected_f1 = float(hits @ f1 @ others)
        exact = float(np.prod(q[:k]) * np.prod(1 - q[k:])) * float(outside_missed[0])
        scores[k] = expected_f1 + exact_weight * exact
    return scores


def best_answer(candidates: Candidates, calibration: Calibration, exact_weight: float = 1.0) -> list[tuple[int, int]]:
    """The trigger spans of the top-k set with the highest expected F1 + exact match, in text order."""
    rows = sorted(candidates.rows, key=lambda row: -row[2])
    spans, confidences = [], []
    for begin, end, confidence in rows:
        if (begin, end) not in spans:
            spans.append((begin, end))
            confidences.append(confidence)
    if not spans:
        return []
    k = int(np.argmax(expected_scores(calibration.probabilities(confidences), calibration.missed, exact_weight)))
    return sorted(spans[:k])


def fit_calibrations(
    questions: Iterable[TorqueQuestion], candidates: dict, gold_of, l2: float = 1.0
) -> dict[str, Calibration]:
    """``{asked: Calibration}`` fitted on the questions' cross-validated ``candidates``
    (``{passageID: {question: Candidates | None}}``): logistic regression of "the candidate is a gold answer"
    (``gold_of(question)``: its gold spans) on the confidence's logit, and the mean number of gold spans no
    candidate holds."""
    from scipy.optimize import minimize

    by_asked: dict[str, list] = {}
    for q in questions:
        found = (candidates.get(q.passage_id) or {}).get(q.question)
        if found is not None:
            by_asked.setdefault(found.asked, []).append((gold_of(q), found))
    calibrations = {}
    for asked, pairs in sorted(by_asked.items()):
        x, y, missed = [], [], []
        for gold, found in pairs:
            spans = {(b, e) for b, e, _ in found.rows}
            for begin, end, confidence in found.rows:
                x.append(logit(confidence, 1e-6))
                y.append(float((begin, end) in gold))
            missed.append(len(gold - spans))
        x_array, y_array = np.array(x), np.array(y)

        def loss(theta):
            z = theta[0] * x_array + theta[1]
            p = 1.0 / (1.0 + np.exp(-np.clip(z, -35, 35)))
            value = np.sum(np.logaddexp(0, z) - y_array * z) + 0.5 * l2 * (theta[0] - 1.0) ** 2
            g = p - y_array
            return value, np.array([g @ x_array + l2 * (theta[0] - 1.0), g.sum()])

        theta = minimize(loss, np.array([1.0, 0.0]), jac=True, method="L-BFGS-B").x if len(x) else (1.0, 0.0)
        calibrations[asked] = Calibration(float(theta[0]), float(theta[1]), float(np.mean(missed)))
    return calibrations
