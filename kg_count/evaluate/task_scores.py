"""SemEval-2018 Task 5 incident- and document-level scores, as the task's scorer defines them.

- answered: share of gold questions the system gives an entry for;
- accuracy: exact numerical matches over answered questions; RMSE over answered questions;
- document precision, recall, F1 per question (both sets empty → 1), macro-averaged over answered;
- ``*_norm``: the figure multiplied by the answered share, as the official rankings use.
All shares are percentages; RMSE is a plain number.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Mapping, NamedTuple

from kg_count.io.answers import GoldAnswer, SystemAnswer
from kg_count.io.questions import Question, subtask_of_id

FINE_CLASS_TOP = 10


class DocumentScore(NamedTuple):
    """Precision, recall and F1 of one question's answer documents against gold."""

    precision: float
    recall: float
    f1: float


def document_score(system: Iterable[str], gold: Iterable[str]) -> DocumentScore:
    """Precision, recall and F1 of one question's answer documents (as fractions; both empty → 1, 1, 1)."""
    system, gold = set(system), set(gold)
    if not system and not gold:
        return DocumentScore(1.0, 1.0, 1.0)
    true_positives = len(system & gold)
    precision = true_positives / len(system) if system else 0.0
    recall = true_positives / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return DocumentScore(precision, recall, f1)


def answer_class(count: int, top: int = 4) -> str:
    """The gold answer class a count falls in: 0, 1, 2, 3 or 4+ (``top`` sets where the open class starts)."""
    return str(count) if count < top else f"{top}+"


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _score_group(
    question_ids: list[str],
    gold: Mapping[str, GoldAnswer],
    system: Mapping[str, SystemAnswer],
    counts: bool,
    n_gold: int,
) -> dict:
    """Scores of the answered questions ``question_ids`` out of ``n_gold`` gold questions."""
    answered_share = 100.0 * len(question_ids) / n_gold if n_gold else 0.0
    docs = [document_score(system[q].documents, gold[q].documents) for q in question_ids]
    scores = {
        "questions": n_gold,
        "answered_questions": len(question_ids),
        "answered": answered_share,
        "doc_precision": 100.0 * _mean([d.precision for d in docs]),
        "doc_recall": 100.0 * _mean([d.recall for d in docs]),
        "doc_f1": 100.0 * _mean([d.f1 for d in docs]),
    }
    scores["doc_precision_norm"] = scores["doc_precision"] * answered_share / 100.0
    scores["doc_recall_norm"] = scores["doc_recall"] * answered_share / 100.0
    scores["doc_f1_norm"] = scores["doc_f1"] * answered_share / 100.0
    if counts:
        errors = [system[q].numerical_answer - gold[q].numerical_answer for q in question_ids]
        scores["accuracy"] = 100.0 * _mean([1.0 if e == 0 else 0.0 for e in errors])
        scores["accuracy_norm"] = scores["accuracy"] * answered_share / 100.0
        scores["rmse"] = math.sqrt(_mean([float(e * e) for e in errors]))
    return scores


def _breakdown(
    key: Callable[[str], str], gold_ids: list[str], answered: set[str], gold, system, counts: bool
) -> dict[str, dict]:
    groups: dict[str, list[str]] = {}
    for qid in gold_ids:
        groups.setdefault(key(qid), []).append(qid)
    return {
        name: _score_group([q for q in ids if q in answered], gold, system, counts, len(ids))
        for name, ids in sorted(groups.items())
    }


def score_subtask(
    gold: Mapping[str, GoldAnswer],
    system: Mapping[str, SystemAnswer],
    subtask: int,
    questions: Mapping[str, Question] | None = None,
    system_source: object = None,
) -> dict:
    """Score one subtask's answers against gold; returns the overall scores plus breakdowns. A count question
    the system answered without a count is an InputError naming ``system_source`` (the system answers' file).

    Breakdowns: ``by_answer_class`` (gold count 0, 1, 2, 3, 4+) and ``by_count`` (0 ... 9, 10+) for S2
    and S3, and ``by_event_type``
    and ``by_property_pair`` and ``by_shape`` (the asked granularities: ``state+year``) when the questions are given.
    """
    counts = subtask != 1
    gold_ids = list(gold)
    missing_counts = [q for q in gold_ids if q in system and counts and system[q].numerical_answer is None]
    if missing_counts:
        from kg_count.errors import InputError

        raise InputError(
            f"subtask {subtask} answers need numerical_answer", system_source, item=f"question {missing_counts[0]}"
        )
    answered = {q for q in gold_ids if q in system}
    scores = _score_group([q for q in gold_ids if q in answered], gold, system, counts, len(gold_ids))
    scores["subtask"] = subtask
    if counts:
        scores["by_answer_class"] = _breakdown(
            lambda q: answer_class(gold[q].numerical_answer), gold_ids, answered, gold, system, counts
        )
        scores["by_count"] = _breakdown(
            lambda q: answer_class(gold[q].numerical_answer, FINE_CLASS_TOP), gold_ids, answered, gold, system, counts
        )
    if questions:
        known = [q for q in gold_ids if q in questions]
        scores["by_event_type"] = _breakdown(lambda q: questions[q].event_type, known, answered, gold, system, counts)
        scores["by_property_pair"] = _breakdown(
            lambda q: questions[q].property_pair, known, answered, gold, system, counts
        )
        scores["by_shape"] = _breakdown(lambda q: questions[q].shape, known, answered, gold, system, counts)
    return scores


def subtask_of(question_id: str, gold: GoldAnswer, questions: Mapping[str, Question] | None) -> int:
    """The subtask of a gold question: from the questions file, else the id's prefix, else 2 (3 with part_info)."""
    if questions and question_id in questions:
        return questions[question_id].subtask
    return subtask_of_id(question_id) or (3 if gold.part_info else 2)


def evaluate_answers(
    gold: Mapping[str, GoldAnswer],
    system: Mapping[str, SystemAnswer],
    questions: Mapping[str, Question] | None = None,
    subtask: int | None = None,
    system_source: object = None,
) -> dict:
    """Score a system's answers against gold (``system_source``: where the system answers were read, for errors).

    With one subtask among the gold questions (or ``subtask`` given) the result is that subtask's
    scores; with several, ``{"subtasks": {"1": {...}, "2": {...}}}``. ``unknown_questions`` lists
    system ids that are not in the gold.
    """
    by_subtask: dict[int, list[str]] = {}
    for qid, answer in gold.items():
        by_subtask.setdefault(subtask or subtask_of(qid, answer, questions), []).append(qid)
    results = {}
    for number, ids in sorted(by_subtask.items()):
        results[str(number)] = score_subtask({q: gold[q] for q in ids}, system, number, questions, system_source)
    unknown = sorted(set(system) - set(gold))
    if len(results) == 1:
        (only,) = results.values()
        return {**only, "unknown_questions": unknown}
    return {"subtasks": results, "unknown_questions": unknown}
