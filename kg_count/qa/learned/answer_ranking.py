"""Ranking an ESTER question's candidate answers: which event the graph relates to the anchor comes first.

The semantic scorer judges each (anchor, event) pair alone; the ranker compares the candidates of one
question with each other. Its features are what the graph holds about each candidate: the relation's
confidence and its rank among the candidates, how near the event is to the anchor (its rank by
distance, on either side), the relation asked crossed with the side, and the phrase's length. It is a
conditional logit (softmax over one question's candidates), fitted on cross-validated confidences so
that it learns how far to trust them. The first answer is the likeliest candidate; further answers
are those whose probability reaches ``threshold``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from kg_count.errors import InputError, SetupError
from kg_count.io.atomic import read_json, write_json_atomic
from kg_count.learning.linear_model import logit
from kg_count.qa.inputs.readers import EsterQuestion
from kg_count.qa.datasets.scoring import ester_question_scores, holds_gold_trigger
from kg_count.settings import settings

RELATIONS = ("causes", "conditions", "counterfactual", "subEventOf", "coreferent")
DISTANCE_RANKS = 5
FEATURES = (
    "confidence_logit",
    *(f"confidence_rank={i}" for i in range(3)),
    *(f"distance_rank={i}" for i in range(DISTANCE_RANKS)),
    f"distance_rank>={DISTANCE_RANKS}",
    "nearest_on_its_side",
    "second_on_its_side",
    "log_char_distance",
    *(f"{relation}&{side}" for relation in RELATIONS for side in ("before", "after")),
    "phrase_words/10",
    "same_sentence_as_anchor",
    "question_word_share",
    "reporting_event",
    "log_confidence_below_best",
    "log_candidates",
)


@dataclass
class AnswerCandidate:
    """A candidate answer read from the passage graph: trigger offsets, phrase, relation confidence."""

    begin: int
    end: int
    phrase: str
    confidence: float
    same_sentence: bool = False  # the event lies in the anchor's sentence
    question_share: float = 0.0  # share of the phrase's content words that the question also uses
    reporting: bool = False  # the event is a reporting verb ("said", "told")


@dataclass
class QuestionCandidates:
    """One question's candidates (best confidence first) and their ranking features."""

    relation: str
    anchor_begin: int
    candidates: list[AnswerCandidate]
    features: np.ndarray = field(init=False)

    def __post_init__(self):
        self.features = rank_features(self.candidates, self.anchor_begin, self.relation)


def _ranks(order: Sequence[AnswerCandidate]) -> dict[int, int]:
    return {c.begin: i for i, c in enumerate(order)}


def rank_features(candidates: Sequence[AnswerCandidate], anchor_begin: int, relation: str) -> np.ndarray:
    """A (candidates × FEATURES) matrix for candidates given best confidence first."""
    distance = lambda c: abs(c.begin - anchor_begin)  # noqa: E731
    by_distance = _ranks(sorted(candidates, key=distance))
    best = max((c.confidence for c in candidates), default=0.0)
    on_side = {}
    for after in (False, True):
        on_side.update(_ranks(sorted((c for c in candidates if (c.begin > anchor_begin) == after), key=distance)))
    rows = []
    for index, c in enumerate(candidates):
        near = by_distance[c.begin]
        side = "after" if c.begin > anchor_begin else "before"
        row = [logit(c.confidence, 1e-4), *(index == i for i in range(3))]
        row += [*(near == i for i in range(DISTANCE_RANKS)), near >= DISTANCE_RANKS]
        row += [on_side[c.begin] == 0, on_side[c.begin] == 1, math.log1p(distance(c))]
        row += [relation == r and side == s for r in RELATIONS for s in ("before", "after")]
        row.append(len(c.phrase.split()) / 10)
        row += [c.same_sentence, c.question_share, c.reporting]
        row += [math.log(c.confidence + 1e-4) - math.log(best + 1e-4), math.log(len(candidates))]
        rows.append(row)
    return np.array(rows, dtype=float).reshape(len(rows), len(FEATURES))


def _softmax(scores: np.ndarray) -> np.ndarray:
    exp = np.exp(scores - scores.max())
    return exp / exp.sum()


@dataclass
class AnswerRanker:
    """Conditional-logit weights over FEATURES and the probability a further answer must reach."""

    weights: np.ndarray
    threshold: float = 0.5
    retrain = "kg-count train qa"

    @classmethod
    def confidence_only(cls) -> AnswerRanker:
        """A ranker that trusts the relation's confidence alone and gives one answer (for models
        without a fitted ranker, such as those of a cross-validation fold)."""
        weights = np.zeros(len(FEATURES))
        weights[0] = 1.0
        return cls(weights, settings().training.extra_answer_grid[-1])

    def probabilities(self, question: QuestionCandidates) -> np.ndarray:
        """Each candidate's probability of being the best answer."""
        return _softmax(question.features @ self.weights)

    def answers(self, question: QuestionCandidates, limit: int) -> list[str]:
        """Answer phrases, likeliest first: the top candidate, then those at or above ``threshold``,
        distinct phrases, at most ``limit``."""
        if not question.candidates:
            return []
        probabilities = self.probabilities(question)
        answers, seen = [], set()
        for index in np.argsort(-probabilities, kind="stable"):
            phrase = question.candidates[index].phrase
            if phrase.lower() in seen:
                continue
            if answers and probabilities[index] < self.threshold:
                break
            answers.append(phrase)
            seen.add(phrase.lower())
            if len(answers) == limit:
                break
        return answers

    def to_json(self) -> dict:
        """The ranker as a JSON object: its features, weights and threshold."""
        return {
            "features": list(FEATURES),
            "weights": [round(float(w), 6) for w in self.weights],
            "threshold": self.threshold,
        }

    @classmethod
    def from_json(cls, data: dict) -> AnswerRanker:
        """The ranker as ``to_json`` wrote it; ValueError when its features are not this version's."""
        if data["features"] != list(FEATURES):
            raise ValueError("its features are not this version's")
        return cls(np.array(data["weights"], dtype=float), float(data["threshold"]))

    def save(self, path: str | Path) -> None:
        """Write the ranker as JSON, atomically."""
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path) -> AnswerRanker:
        """Read a ranker file; SetupError naming it when it is missing, broken or has other features."""
        try:
            return cls.from_json(read_json(path))
        except (InputError, ValueError, KeyError, TypeError) as error:
            raise SetupError(f"{path}: cannot read the answer ranker ({error}); retrain with {cls.retrain}") from None


def fit_ranker(
    groups: Sequence[tuple[np.ndarray, np.ndarray]], l2: float | None = None, iterations: int | None = None
) -> np.ndarray:
    """Weights maximising the mean log-likelihood of the right candidates, each group a question's
    (features, 0/1 right) with at least one right candidate; gradient ascent from trusting the
    confidence alone. ``l2`` and ``iterations`` default to the [training] settings."""
    fitting = settings().training
    l2 = fitting.answer_ranker_l2 if l2 is None else l2
    iterations = fitting.answer_ranker_iterations if iterations is None else iterations
    weights = AnswerRanker.confidence_only().weights
    usable = [(x, y / y.sum()) for x, y in groups if y.sum() > 0]
    if not usable:
        return weights
    for _ in range(iterations):
        gradient = -l2 * weights
        for features, target in usable:
            gradient += features.T @ (target - _softmax(features @ weights)) / len(usable)
        weights += 0.5 * gradient
    return weights


def train_answer_ranker(pairs: Sequence[tuple[EsterQuestion, QuestionCandidates]], limit: int) -> AnswerRanker:
    """A ranker fitted on questions with gold triggers and their (cross-validated) candidates: a
    candidate is right when its phrase holds a gold trigger. The further-answer threshold is the
    ``[training] extra_answer_grid`` value with the highest mean token F1 over the questions with answer phrases
    (ties to the lowest); ``limit`` answers at most."""
    labelled = [(q, c) for q, c in pairs if c is not None and c.candidates and q.gold_triggers]
    groups = [
        (c.features, np.array([holds_gold_trigger(x.phrase, q) for x in c.candidates], float)) for q, c in labelled
    ]
    ranker = AnswerRanker(fit_ranker(groups))
    phrased = [(q, c) for q, c in labelled if q.answer_texts]

    def mean_f1(threshold: float) -> float:
        ranker.threshold = threshold
        return sum(ester_question_scores(ranker.answers(c, limit), q)["f1"] for q, c in phrased)

    grid = settings().training.extra_answer_grid
    ranker.threshold = max(grid, key=lambda t: (mean_f1(t), -t)) if phrased else grid[-1]
    return ranker
