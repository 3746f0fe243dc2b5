"""A prior over the answers of S2 and S3 questions, by question shape, learned from labelled questions.

The likelihood (the candidates' probabilities, ``answer.count_distribution``) says how likely each
count is given what the graph found; it does not know which answers questions of a kind have. In the
task, a question with exactly one incident was made an S1 question, so S2 answers of 1 are rare, and
broad questions (a state and a year) have large answers. The prior is a distribution over answers
0 ... ``cap``-1 and a tail from ``cap`` on (geometric, or a power law for answers that spread over a wide
range, such as a state's injured in a year: ``TAILS``), for each question shape (subtask, asked
properties and their granularities, event type), smoothed towards the shape's subtask-and-properties
distribution, and that towards the subtask's. It is fitted on the gold answers of the training
questions only, for any answer distribution; nothing in it names a value.

The answer is the count ``n`` with the largest ``log likelihood(n) + weight[subtask] * log prior(n)``;
weight 0 (or ``--answer-prior none``) gives the likelihood-only answer, the mode of the likelihood.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence
from kg_count.learning.model_files import load_shipped_model
from kg_count.settings import settings

TAILS = ("geometric", "power")
LARGE_ANSWERS = ("mode", "mean")  # how a count of cap or more is answered: the most probable, or the mean


def shape_keys(question) -> list[str]:
    """A question's shapes, narrowest first: subtask with each asked property's granularity and the event
    type; subtask with the asked properties; subtask alone (``io.questions.Question``)."""
    subtask = f"s{question.subtask}"
    return [
        f"{subtask}:{question.property_pair}:{question.shape}:{question.event_type}",
        f"{subtask}:{question.property_pair}",
        subtask,
    ]


@dataclass
class AnswerPrior:
    """Smoothed answer distributions by shape (probabilities of 0 ... cap-1, then the tail's mass), the
    tail's form (``TAILS``) with its geometric ratio and power-law exponent by subtask, how much the
    decision weighs the prior, by subtask, and how a large answer is given (``LARGE_ANSWERS``: an exact
    count of a state's injured in a year is rarely right, so its mean may serve the squared error better)."""

    distributions: dict[str, list[float]] = field(default_factory=dict)
    tail_ratio: dict[str, float] = field(default_factory=dict)
    tail_exponent: dict[str, float] = field(default_factory=dict)
    weight: dict[str, float] = field(default_factory=dict)
    cap: int = field(default_factory=lambda: settings().training.answer_prior_cap)
    tail: str = "geometric"
    large_answer: str = "mode"

    def distribution_for(self, question) -> list[float] | None:
        """The narrowest learned distribution of the question's shapes; None when none was learned."""
        for key in shape_keys(question):
            if key in self.distributions:
                return self.distributions[key]
        return None

    def log_prior(self, question, answers: int) -> list[float]:
        """log prior of the answers 0 ... ``answers``-1 for ``question`` (all 0.0 when nothing was learned)."""
        known = self.distribution_for(question)
        if known is None:
            return [0.0] * answers
        logs = [math.log(known[n]) for n in range(min(answers, self.cap))]
        return logs + [math.log(known[self.cap]) + self._log_tail_share(question, n) for n in range(self.cap, answers)]

    def _log_tail_share(self, question, n: int) -> float:
        """log of the share of the tail's mass that falls on ``n`` (``n`` >= cap)."""
        subtask = f"s{question.subtask}"
        if self.tail == "power":  # a Pareto density from cap - 0.5, integrated over [n - 0.5, n + 0.5]
            exponent, start = self.tail_exponent.get(subtask, 2.0), self.cap - 0.5
            return math.log((start / (n - 0.5)) ** (exponent - 1) - (start / (n + 0.5)) ** (exponent - 1))
        ratio = self.tail_ratio.get(subtask, 0.5)
        return math.log(1 - ratio) + (n - self.cap) * math.log(ratio)

    def decide(self, question, likelihood: Sequence[float], weight: float | None = None) -> int:
        """The answer with the largest log likelihood plus the weighted log prior (the smaller on ties); when that
        is ``cap`` or more and ``large_answer`` is "mean", the rounded mean of the weighted distribution.

        ``likelihood`` is the distribution over 0, 1, 2 ... from the candidates; ``weight`` overrides the
        subtask's learned weight (0: the likelihood alone)."""
        weight = self.weight.get(str(question.subtask), 0.0) if weight is None else weight
        prior = self.log_prior(question, len(likelihood)) if weight else [0.0] * len(likelihood)
        scores = [math.log(p) + weight * q if p > 0 else -math.inf for p, q in zip(likelihood, prior)]
        best = max(range(len(scores)), key=lambda n: (scores[n], -n))
        if best < self.cap or self.large_answer != "mean":
            return best
        weights = [math.exp(score - scores[best]) for score in scores]
        return round(sum(n * w for n, w in enumerate(weights)) / sum(weights))

    def to_json(self) -> dict:
        """The prior as a JSON object (rounded), the form ``from_json`` reads."""
        return {
            "cap": self.cap,
            "tail": self.tail,
            "large_answer": self.large_answer,
            "tail_ratio": {k: round(v, 4) for k, v in sorted(self.tail_ratio.items())},
            "weight": dict(sorted(self.weight.items())),
            "tail_exponent": {k: round(v, 4) for k, v in sorted(self.tail_exponent.items())},
            "distributions": {k: [round(p, 5) for p in v] for k, v in sorted(self.distributions.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping) -> "AnswerPrior":
        """The prior as ``to_json`` wrote it; an empty object gives an empty prior."""
        return cls(
            {k: [float(p) for p in v] for k, v in data.get("distributions", {}).items()},
            {k: float(v) for k, v in data.get("tail_ratio", {}).items()},
            {k: float(v) for k, v in data.get("tail_exponent", {}).items()},
            {k: float(v) for k, v in data.get("weight", {}).items()},
            int(data.get("cap", settings().training.answer_prior_cap)),
            str(data.get("tail", "geometric")),
            str(data.get("large_answer", "mode")),
        )


def _binned(answers: Iterable[int], cap: int) -> list[int]:
    counts = [0] * (cap + 1)
    for answer in answers:
        counts[min(answer, cap)] += 1
    return counts


def _smoothed(counts: Sequence[int], towards: Sequence[float], pseudo: float) -> list[float]:
    total = sum(counts) + pseudo
    return [(c + pseudo * t) / total for c, t in zip(counts, towards)]


def fit_prior(
    answers: Iterable[tuple[object, int]],
    weight: Mapping[str, float] | None = None,
    cap: int | None = None,
    *,
    pseudo: float,
    tail: str = "geometric",
    large_answer: str = "mode",
) -> AnswerPrior:
    """Fit the distributions on (question, gold answer) pairs of S2 and S3 questions.

    A subtask's distribution is its answers' shares with one pseudo-question spread evenly; every
    narrower shape is smoothed towards the next broader one with ``pseudo`` pseudo-questions. Over a
    subtask's answers of ``cap`` or more, the geometric tail's ratio is ``m / (1 + m)`` for their mean excess
    ``m`` over ``cap``, the power-law tail's exponent the maximum-likelihood one of a Pareto from ``cap`` - 0.5.
    ``tail`` names the form the prior uses, ``large_answer`` how a large answer is given."""
    cap = cap or settings().training.answer_prior_cap
    by_key: dict[str, list[int]] = {}
    broader: dict[str, str | None] = {}  # each shape's next broader one (None for a subtask), broader ones first
    for question, answer in answers:
        keys = shape_keys(question)
        for key, wider in reversed(list(zip(keys, [*keys[1:], None]))):
            broader.setdefault(key, wider)
            by_key.setdefault(key, []).append(int(answer))
    uniform = [1.0 / (cap + 1)] * (cap + 1)
    distributions: dict[str, list[float]] = {}
    for key, wider in broader.items():
        towards, pseudo_count = (uniform, 1.0) if wider is None else (distributions[wider], pseudo)
        distributions[key] = _smoothed(_binned(by_key[key], cap), towards, pseudo_count)
    ratios, exponents = {}, {}
    for key, values in by_key.items():
        if broader[key] is None:
            large = [v for v in values if v >= cap]
            mean = sum(v - cap for v in large) / len(large) if large else 1.0
            ratios[key] = mean / (1 + mean)
            logs = [math.log((v + 0.5) / (cap - 0.5)) for v in large]
            exponents[key] = 1 + len(logs) / sum(logs) if logs else 2.0
    return AnswerPrior(distributions, ratios, exponents, dict(weight or {}), cap, tail, large_answer)


def shipped_answer_prior() -> AnswerPrior:
    """The shipped answer prior (``kg_count/models/answer_prior.json``, written by ``kg-count train incident-match``
    beside the incident-match model), read once."""
    return load_shipped_model("answer_prior", AnswerPrior.from_json)
