"""The TORQUE and ESTER metrics, as the datasets define them.

TORQUE: per question, the best over annotators of the F1 between the predicted and the gold
trigger spans, and of exact match; C = share of contrast groups whose questions all reach F1 >= 0.8.
ESTER: token F1 over the pooled unigrams of all answers (lowercased, punctuation removed),
HIT@1 (a gold trigger occurs in the first answer), EM (the answer sets are equal, lowercased).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Iterable, Sequence

from kg_count.qa.inputs.readers import EsterQuestion, Span, TorqueQuestion

CONSISTENT_F1 = 0.8


def set_f1(predicted: set, gold: set) -> float:
    """F1 of two sets; 1.0 when both are empty."""
    if not predicted and not gold:
        return 1.0
    common = len(predicted & gold)
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def torque_question_scores(predicted: Iterable[Span], question: TorqueQuestion) -> tuple[float, float]:
    """(F1, EM) of one question's predicted spans: the best over its annotators' answers."""
    guess = set(map(tuple, predicted))
    golds = [set(spans) for spans in question.answers] or [set()]
    return max(set_f1(guess, g) for g in golds), max(float(guess == g) for g in golds)


def _mean(values: Sequence[float]) -> float:
    return 100.0 * sum(values) / len(values) if values else 0.0


def torque_scores(
    questions: Sequence[TorqueQuestion], predictions: dict, clusters: dict | None = None, kind_of=None
) -> dict:
    """Score ``{passageID: {question: [[start, end], ...]}}``: overall F1, EM, C and the same by kind.

    ``kind_of(question) -> str`` names a question's kind (default: default/other); a question
    missing from the predictions counts as answered with nothing.
    """
    per_question, by_kind = {}, defaultdict(list)
    for q in questions:
        spans = (predictions.get(q.passage_id) or {}).get(q.question) or []
        f1, em = torque_question_scores([tuple(s) for s in spans], q)
        per_question[(q.passage_id, q.question)] = f1
        by_kind[kind_of(q) if kind_of else ("default" if q.is_default else "other")].append((f1, em))
    result = {
        "questions": len(questions),
        "f1": _mean([f for pairs in by_kind.values() for f, _ in pairs]),
        "em": _mean([e for pairs in by_kind.values() for _, e in pairs]),
    }
    if clusters is not None:
        groups = [
            [per_question.get((pid, q)) for q in group]
            for pid, passage_groups in clusters.items()
            for group in passage_groups
        ]
        groups = [[f for f in g if f is not None] for g in groups]
        groups = [g for g in groups if g]
        result["c"] = _mean([float(all(f >= CONSISTENT_F1 for f in g)) for g in groups])
        result["contrast_groups"] = len(groups)
    result["by_kind"] = {
        kind: {"questions": len(pairs), "f1": _mean([f for f, _ in pairs]), "em": _mean([e for _, e in pairs])}
        for kind, pairs in sorted(by_kind.items())
    }
    return result


def _unigrams(answers: Iterable[str]) -> Counter:
    return Counter(word for answer in answers for word in re.sub(r"[^\w\s]", "", answer.lower()).split())


def holds_gold_trigger(phrase: str, question: EsterQuestion) -> bool:
    """Whether an answer phrase contains one of the question's gold answer triggers (HIT@1's test)."""
    lowered = phrase.lower()
    return any(t and t in lowered for t in question.gold_triggers)


def ester_question_scores(predicted: Sequence[str], question: EsterQuestion) -> dict:
    """Token F1, HIT@1 and EM of one question's ranked answer phrases.

    A question without answer texts (the released test file) gets HIT@1 only; one without
    gold triggers gets no HIT@1.
    """
    scores = {}
    if question.gold_triggers:
        scores["hit1"] = float(bool(predicted) and holds_gold_trigger(predicted[0], question))
    if question.answer_texts:
        guess, gold = _unigrams(predicted), _unigrams(question.answer_texts)
        common = sum((guess & gold).values())
        precision = common / sum(guess.values()) if guess else 0.0
        recall = common / sum(gold.values()) if gold else 0.0
        scores["f1"] = 2 * precision * recall / (precision + recall) if common else 0.0
        scores["em"] = float(
            {p.lower().strip() for p in predicted} == {g.lower().strip() for g in question.answer_texts}
        )
    return scores


def ester_scores(questions: Sequence[EsterQuestion], predictions: dict) -> dict:
    """Score ``{"<index>": [answer, ...]}``: token F1, HIT@1 and EM overall and by gold question type.

    Each metric is averaged over the questions that have its gold (answer texts for F1 and EM,
    answer triggers for HIT@1); a metric no question has gold for is left out.
    """
    by_type = defaultdict(list)
    for q in questions:
        by_type[q.type or "unknown"].append(ester_question_scores(predictions.get(str(q.index)) or [], q))

    def summary(rows):
        return {
            "questions": len(rows),
            **{k: _mean([r[k] for r in rows if k in r]) for k in ("f1", "hit1", "em") if any(k in r for r in rows)},
        }

    every = [row for rows in by_type.values() for row in rows]
    return {**summary(every), "by_type": {t: summary(rows) for t, rows in sorted(by_type.items())}}
