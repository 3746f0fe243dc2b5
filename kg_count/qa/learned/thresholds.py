"""Choosing the TORQUE decision thresholds from cross-validated confidences.

Each kind of question (the relation asked of its anchor, or the warm-up status) gets the threshold
that scores best on the questions of that kind: highest mean F1 + EM, ties to the one nearest 0.5.
Questions of different kinds are disjoint, so choosing kind by kind maximises the overall means.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterable

from kg_count.learning.linear_model import LinearModel
from kg_count.qa.learned.answer_nothing import decided_spans
from kg_count.qa.learned.torque_candidates import Candidates
from kg_count.qa.inputs.readers import TorqueQuestion
from kg_count.qa.datasets.scoring import torque_question_scores
from kg_count.settings import settings


def choose_torque_thresholds(questions: Iterable[TorqueQuestion], candidates: dict) -> dict[str, float]:
    """``{asked: threshold}`` from ``candidates`` (``{passageID: {question: Candidates | None}}``)
    and the questions' gold answers."""
    grid = settings().training.torque_threshold_grid
    by_asked = defaultdict(list)
    for q in questions:
        found = (candidates.get(q.passage_id) or {}).get(q.question)
        if found is not None:
            by_asked[found.asked].append((q, found))
    return {
        asked: max(
            grid,
            key=lambda t: (sum(sum(torque_question_scores(c.spans(t), q)) for q, c in pairs), -abs(t - 0.5)),
        )
        for asked, pairs in sorted(by_asked.items())
    }


def threshold_from(chosen: dict[str, float], default: float = 0.5) -> Callable[[Candidates], float]:
    """The threshold of what each question asks from a ``{asked: threshold}`` choice (``default``
    for a kind without one)."""
    return lambda candidates: chosen.get(candidates.asked, default)


def predictions_with(
    candidates: dict, threshold_of: Callable[[Candidates], float], gate: LinearModel | None = None
) -> dict:
    """``{passageID: {question: [[start, end], ...]}}``: each question's candidates at or above
    ``threshold_of`` them, as the answer-nothing ``gate`` (None: none) decides (nothing for a question
    without candidates)."""
    return {
        pid: {
            question: [] if c is None else [list(s) for s in decided_spans(c, threshold_of(c), gate, c.kind)]
            for question, c in by_question.items()
        }
        for pid, by_question in candidates.items()
    }
