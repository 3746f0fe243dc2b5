"""The question-level decision to answer nothing (TORQUE), and to answer the best event when none reaches
its threshold.

A third of TORQUE's questions have no answer, and a reader that always names something loses every one
of them. Per-event thresholds cannot say "nothing fits": each event is judged alone. This gate reads the
question as a whole: what it asks (relation, modality, negation), whether its anchor was found, how many
events fit, and how its candidates' confidences stand against their threshold. It is a logistic
regression over named features giving P(the question has no answer):

- at or above ``thresholds["nothing"]`` the answer is empty;
- below ``thresholds["best_one"]``, a question whose candidates all miss their threshold is answered
  with its best candidate (the gate is sure something fits);
- otherwise the candidates at or above their threshold answer, as without the gate.

Both thresholds are chosen on held-out folds by mean F1 + EM (``choose_gate_thresholds``).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from kg_count.learning.bins import interval_name
from kg_count.learning.linear_model import Example, LinearModel, train
from kg_count.qa.datasets.scoring import torque_question_scores
from kg_count.qa.learned.torque_candidates import Candidates
from kg_count.qa.inputs.readers import Span, TorqueQuestion


CONFIDENCE_EDGES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
MARGIN_EDGES = (-0.4, -0.2, -0.1, 0.0, 0.1, 0.2, 0.4)
COUNT_EDGES = (1, 2, 3, 5, 8)
NOTHING_GRID = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1.01)
BEST_ONE_GRID = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)


def nothing_features(kind: str, candidates: Candidates | None, threshold: float) -> list[str]:
    """Named features of one question for the gate: its ``kind`` (``TemporalQuestion.kind``), and, from its
    ``candidates`` (None: no anchor or relation was found) and their decision ``threshold``, how many fit
    and reach it, the best confidences and their margin over the threshold, and how many candidates lie
    before and after the anchor in the text."""
    features = [f"kind={kind}"]
    if candidates is None:
        return features + ["no_candidates", f"no_candidates&kind={kind}"]
    confidences = [confidence for _, _, confidence in candidates.rows]
    above = sum(c >= threshold for c in confidences)
    best = confidences[0] if confidences else 0.0
    second = confidences[1] if len(confidences) > 1 else 0.0
    features += [
        f"fitting={interval_name(len(confidences), COUNT_EDGES)}",
        f"events={interval_name(candidates.events, COUNT_EDGES)}",
        f"above={interval_name(above, COUNT_EDGES)}",
        f"above={interval_name(above, COUNT_EDGES)}&kind={kind}",
        f"best={interval_name(best, CONFIDENCE_EDGES)}",
        f"second={interval_name(second, CONFIDENCE_EDGES)}",
        f"margin={interval_name(best - threshold, MARGIN_EDGES)}",
        f"margin={interval_name(best - threshold, MARGIN_EDGES)}&kind={kind}",
        f"sum={interval_name(sum(confidences), (0.25, 0.5, 1, 2, 4))}",
    ]
    if candidates.anchor_begin >= 0:
        later = sum(begin > candidates.anchor_begin for begin, _, _ in candidates.rows)
        earlier = len(confidences) - later
        features += [
            f"later={interval_name(later, COUNT_EDGES)}&asked={candidates.asked}",
            f"earlier={interval_name(earlier, COUNT_EDGES)}&asked={candidates.asked}",
        ]
    return features


def no_answer(question: TorqueQuestion) -> bool:
    """Whether answering nothing is right for ``question``: one of its annotators gave no answer, and no
    answer word of the file was left unplaced."""
    return not question.unsure and any(not spans for spans in question.answers or ((),))


def decided_spans(candidates: Candidates | None, threshold: float, gate: LinearModel | None, kind: str) -> list[Span]:
    """The answer to one question: nothing when ``gate`` says so, its best candidate when the gate is sure
    something fits but none reaches ``threshold``, else the candidates at or above ``threshold``
    (``gate`` None: the last alone)."""
    if candidates is None or gate is None:
        return [] if candidates is None else candidates.spans(threshold)
    p_nothing = gate.probability(nothing_features(kind, candidates, threshold))
    return gated_spans(candidates, threshold, p_nothing, gate.thresholds["nothing"], gate.thresholds["best_one"])


def gated_spans(
    candidates: Candidates | None, threshold: float, p_nothing: float, nothing_at: float, best_one_below: float
) -> list[Span]:
    """``decided_spans``'s rule for a known P(no answer) ``p_nothing`` and gate thresholds."""
    if candidates is None or p_nothing >= nothing_at:
        return []
    spans = candidates.spans(threshold)
    if not spans and candidates.rows and p_nothing < best_one_below:
        return [candidates.rows[0][:2]]
    return spans


Item = tuple[TorqueQuestion, "Candidates | None", float, str]  # question, candidates, threshold, kind


def train_gate(items: Iterable[Item], l2: float) -> LinearModel:
    """A gate fitted on ``items`` (each question with its held-out candidates, their threshold and its kind),
    labelled by ``no_answer``; its thresholds are not yet chosen."""
    examples = [Example(nothing_features(kind, c, t), int(no_answer(q))) for q, c, t, kind in items]
    return train(examples, l2=l2, min_count=3)


def choose_gate_thresholds(items: Sequence[Item], p_nothing: Sequence[float]) -> dict[str, float]:
    """``{"nothing": t, "best_one": u}`` with the highest summed F1 + EM over ``items`` given each one's
    held-out P(no answer) (ties to the lower ``nothing``, then the lower ``best_one``)."""

    def total(nothing: float, best_one: float) -> float:
        return sum(
            sum(torque_question_scores(gated_spans(c, t, p, nothing, best_one), q))
            for (q, c, t, _), p in zip(items, p_nothing)
        )

    best = max(
        ((n, b) for n in NOTHING_GRID for b in BEST_ONE_GRID if b <= n),
        key=lambda pair: (total(*pair), -pair[0], -pair[1]),
    )
    return {"nothing": best[0], "best_one": best[1]}


def cross_fitted_probabilities(
    items: Sequence[Item], fold_of: Callable[[TorqueQuestion], int], folds: int, l2: float
) -> list[float]:
    """Each item's P(no answer) from a gate fitted on the items of the other folds."""
    probabilities = [0.0] * len(items)
    for fold in range(folds):
        held = [i for i, item in enumerate(items) if fold_of(item[0]) == fold]
        if not held:
            continue
        gate = train_gate([item for item in items if fold_of(item[0]) != fold], l2)
        for i in held:
            q, c, t, kind = items[i]
            probabilities[i] = gate.probability(nothing_features(kind, c, t))
    return probabilities


def fit_gate(items: Sequence[Item], fold_of: Callable[[TorqueQuestion], int], folds: int, l2: float) -> LinearModel:
    """A gate fitted on all ``items``, with thresholds chosen on their cross-fitted probabilities."""
    gate = train_gate(items, l2)
    gate.thresholds = choose_gate_thresholds(items, cross_fitted_probabilities(items, fold_of, folds, l2))
    return gate
