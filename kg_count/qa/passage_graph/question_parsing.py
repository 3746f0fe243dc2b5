"""Question parsing: the relation asked, its modality and negation, and the anchor event's words.

TORQUE questions ask for events that stand in a temporal relation to an anchor ("What happened
before the heads of donkeys were sacrificed?") or have a status (the three warm-up questions).
ESTER questions ask for events in a semantic relation (causal, conditional, counterfactual,
sub-event, coreference) to the event the question names, recognised by cue phrases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_QUESTIONS = {  # TORQUE's warm-up questions, as its dev and train splits word them
    "what events have already finished?": "finished",
    "what event has already finished?": "finished",
    "what event has already happened?": "finished",
    "what events have begun but has not finished?": "ongoing",
    "what event has begun but has not finished?": "ongoing",
    "what is happening now?": "ongoing",
    "what will happen in the future?": "future",
}
STATUS_CUES = (  # a question without a relation cue that names a time asks for a status
    (r"\bin the past\b|\balready\b", "finished"),
    (r"\bin the future\b|\beventually\b", "future"),
)
TEMPORAL_CUES = (  # the earliest in the question wins; at the same place, the one listed first
    ("at the same time as", "during"),
    ("around the same time", "during"),
    ("at the same time", "during"),
    ("in the time of", "during"),
    ("in the middle of", "during"),
    ("right before", "before"),
    ("just before", "before"),
    ("right after", "after"),
    ("just after", "after"),
    ("prior to", "before"),
    ("following", "after"),
    ("later than", "after"),
    ("earlier than", "before"),
    ("once", "after"),
    ("led to", "before"),
    ("lead to", "before"),
    ("since", "after"),
    ("before", "before"),
    ("after", "after"),
    ("during", "during"),
    ("while", "during"),
    ("when", "during"),
    ("until", "before"),
    ("as", "during"),
)
INVERSE_RELATION = {"before": "after", "after": "before"}
MODALITY_CUES = (
    ("uncertain", r"\b(might|may|could|possibly|probably|likely|maybe)\b"),
    ("future", r"\b(will|going to|shall|would|about to|plan|planned|expected)\b"),
    ("negated", r"\b(not|n't|never|fail|failed|didn't|did not)\b|\*not\*"),
    ("certain", r"\b(definitely|certainly|surely)\b"),
    ("should", r"\b(should|must|ought)\b"),
)
QUESTION_WORDS = {
    "what",
    "which",
    "who",
    "when",
    "why",
    "how",
    "event",
    "events",
    "happen",
    "happened",
    "happens",
    "happening",
    "occur",
    "occurred",
    "take",
    "took",
    "place",
    "do",
    "does",
    "did",
    "be",
    "is",
    "was",
    "were",
    "are",
    "has",
    "have",
    "had",
    "will",
    "would",
    "could",
    "might",
    "may",
    "can",
    "the",
    "a",
    "an",
    "of",
    "to",
    "that",
    "this",
    "these",
    "those",
    "it",
    "according",
}
ESTER_CUES = (  # (type, direction, pattern); direction: which side of the relation the answer is
    (
        "Counterfactual",
        "effect",
        r"\b(if .*\b(not|n't|never|no)\b|had .* not|without|wouldn't|would not have|"
        r"could not have|hadn't|otherwise)\b",
    ),
    (
        "Coreference",
        "same",
        r"\b(refer|refers|referred|referring|same as|another word|also called|"
        r"what is meant|describe[sd]? as|known as|another name)\b",
    ),
    (
        "Sub-event",
        "part",
        r"\b(include|includes|included|including|part of|consist|consists|involve|involves|"
        r"involved|sub-?event|steps?|what happened (during|in|at)|comprise|"
        r"what (did|do|does|was|were) .* do (in|during|to|as part))\b",
    ),
    (
        "Conditional",
        "effect",
        r"\b(if|would|could|might|may|can|will|possible|possibly|likely|unless|"
        r"should|what happens|what will happen|lead to|enable)\b",
    ),
    (
        "Causal",
        "cause",
        r"\b(why|caused?|causes|led to|lead to|leads to|made|makes|reason|because|"
        r"result|resulted|due to|prompted|trigger(ed)?|how did|what did .* do)\b",
    ),
)
EFFECT_DIRECTION = (
    r"\b(what did .* (cause|lead to|result in)|result of|consequence|effect of|"
    r"what (happened|happens|will happen|would happen) (because|as a result|after))\b"
)


@dataclass(frozen=True)
class TemporalQuestion:
    """A parsed TORQUE question: default kind or relation, modality marks, and the anchor text."""

    text: str
    default: str | None
    relation: str
    modality: frozenset
    anchor_text: str

    @property
    def kind(self) -> str:
        """A short name of the question's kind, for scores by kind."""
        if self.default:
            return f"default:{self.default}"
        marked = next((m for m in ("negated", "uncertain", "future", "should", "certain") if m in self.modality), "")
        return f"{self.relation}+{marked}" if marked else self.relation


@dataclass(frozen=True)
class SemanticQuestion:
    """A parsed ESTER question: relation type, which side the answer is, modality marks and anchor text."""

    text: str
    relation: str
    direction: str
    modality: frozenset
    anchor_text: str


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def _modality(text: str) -> frozenset:
    return frozenset(name for name, pattern in MODALITY_CUES if re.search(pattern, text))


def is_warm_up(text: str) -> bool:
    """Whether ``text`` is one of TORQUE's warm-up (status) questions, however the file marks it."""
    return _normalise(text) in DEFAULT_QUESTIONS


def parse_temporal_question(text: str) -> TemporalQuestion:
    """Parse a TORQUE question: warm-up kind, or relation + modality + anchor clause."""
    normal = _normalise(text)
    if normal in DEFAULT_QUESTIONS:
        return TemporalQuestion(text, DEFAULT_QUESTIONS[normal], "status", frozenset(), "")
    relation, anchor = "other", normal
    best = None
    for cue, name in TEMPORAL_CUES:
        match = re.search(rf"\b{re.escape(cue)}\b", normal)
        if match and (best is None or match.start() < best[0].start()):
            best = (match, name)
    if best:
        match, relation = best
        head, anchor = normal[: match.start()], normal[match.end() :]
        if not anchor.strip(" ?.!") and relation in INVERSE_RELATION:  # "What did the raid lead to?"
            relation, anchor = INVERSE_RELATION[relation], head
    else:
        head = normal
        status = next((name for pattern, name in STATUS_CUES if re.search(pattern, normal)), None)
        if status:
            return TemporalQuestion(text, status, "status", _modality(normal), "")
    return TemporalQuestion(text, None, relation, _modality(head), anchor.strip(" ?.!"))


def parse_semantic_question(text: str) -> SemanticQuestion:
    """Parse an ESTER question: its relation type by cue phrase (first match), direction and anchor words."""
    normal = _normalise(text)
    relation, direction = "Causal", "cause"
    for name, side, pattern in ESTER_CUES:
        if re.search(pattern, normal):
            relation, direction = name, side
            break
    if relation == "Causal" and re.search(EFFECT_DIRECTION, normal):
        direction = "effect"
    if relation in ("Conditional", "Counterfactual"):
        direction = "effect" if re.search(r"\b(if|unless|had|without)\b", normal) else "cause"
    return SemanticQuestion(text, relation, direction, _modality(normal), normal.strip(" ?.!"))
