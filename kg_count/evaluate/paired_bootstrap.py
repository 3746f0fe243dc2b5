"""Is one system's counting better than another's on the same questions, or within the noise of which were asked?

A paired bootstrap: the questions are resampled with replacement in clusters (a question's state, as the
cross-validation folds by: ``training.incident_match_fitting.fold_unit``), both systems are scored on each resample
by the task's measures (accuracy and RMSE of the count, mean document F1), and the differences B - A are read as a
distribution: their mean, a 95 % interval and how often B does better. A difference whose interval holds 0 is one
the questions cannot tell from chance.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Mapping

from kg_count.evaluate.task_scores import document_score
from kg_count.io.answers import GoldAnswer, SystemAnswer
from kg_count.io.questions import Question

MEASURES = ("accuracy", "rmse", "doc_f1")
LOWER_IS_BETTER = {"rmse"}


@dataclass(frozen=True)
class QuestionOutcome:
    """One question's scores under one system: its count right (1/0), squared error and document F1 (0-1)."""

    right: float
    squared_error: float
    doc_f1: float


@dataclass(frozen=True)
class Difference:
    """One measure of A and of B on all the questions, B - A there (``observed``), its mean over resamples, a 95 %
    interval and how often B did better (``better_share``, 0-1)."""

    a: float
    b: float
    observed: float
    mean: float
    low: float
    high: float
    better_share: float


def outcome(answer: SystemAnswer, gold: GoldAnswer) -> QuestionOutcome:
    """The scores of one answer against its gold (a missing count counts as 0)."""
    error = (answer.numerical_answer or 0) - gold.numerical_answer
    return QuestionOutcome(float(error == 0), float(error * error), document_score(answer.documents, gold.documents).f1)


def measure(outcomes: list[QuestionOutcome], name: str) -> float:
    """Accuracy (%), RMSE or mean document F1 (%) of ``outcomes``."""
    if name == "accuracy":
        return 100.0 * sum(o.right for o in outcomes) / len(outcomes)
    if name == "rmse":
        return math.sqrt(sum(o.squared_error for o in outcomes) / len(outcomes))
    return 100.0 * sum(o.doc_f1 for o in outcomes) / len(outcomes)


def paired_differences(
    questions: Mapping[str, Question],
    gold: Mapping[str, GoldAnswer],
    system_a: Mapping[str, SystemAnswer],
    system_b: Mapping[str, SystemAnswer],
    cluster: Callable[[Question], str],
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Difference]:
    """B - A of every measure over the questions that have gold and are answered by both systems, the questions
    resampled ``resamples`` times by their ``cluster`` (seeded by ``seed``); ValueError when no question is left."""
    shared = sorted(q for q in gold if q in system_a and q in system_b and q in questions)
    if not shared:
        raise ValueError("no question has gold and an answer from both systems")
    clusters: dict[str, list[str]] = {}
    for qid in shared:
        clusters.setdefault(cluster(questions[qid]), []).append(qid)
    scored = {q: (outcome(system_a[q], gold[q]), outcome(system_b[q], gold[q])) for q in shared}
    names = sorted(clusters)
    draws: dict[str, list[float]] = {name: [] for name in MEASURES}
    generator = random.Random(seed)
    for _ in range(resamples):
        picked = [scored[q] for name in generator.choices(names, k=len(names)) for q in clusters[name]]
        for name in MEASURES:
            draws[name].append(_difference(picked, name))
    everything = [scored[q] for q in shared]
    return {name: _summary(everything, values, name) for name, values in draws.items()}


def _difference(pairs: list[tuple[QuestionOutcome, QuestionOutcome]], name: str) -> float:
    return measure([b for _, b in pairs], name) - measure([a for a, _ in pairs], name)


def _summary(pairs: list[tuple[QuestionOutcome, QuestionOutcome]], values: list[float], name: str) -> Difference:
    """The Difference of measure ``name`` on all the ``pairs`` with its resampled ``values``."""
    ordered = sorted(values)
    low, high = ordered[int(0.025 * (len(ordered) - 1))], ordered[int(0.975 * (len(ordered) - 1))]
    better = sum(1 for v in values if (v < 0 if name in LOWER_IS_BETTER else v > 0)) / len(values)
    a, b = measure([a for a, _ in pairs], name), measure([b for _, b in pairs], name)
    return Difference(a, b, b - a, sum(values) / len(values), low, high, better)
