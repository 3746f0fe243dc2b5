"""ValueCandidate values with named features, and the feature helpers the candidate finders share.

A candidate is one value a document could give a slot (an incident date, a state, a city, a
killed or injured count) with the binary features of the mentions that state it; the learned
ranker (kg_count.nlp.extraction_models) scores candidates by their features and keeps the best.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections import Counter
from typing import Hashable

FOLLOW_UP_CUES = frozenset(
    {
        "arrest",
        "charge",
        "court",
        "trial",
        "sentence",
        "funeral",
        "vigil",
        "hearing",
        "appear",
        "plead",
        "memorial",
        "anniversary",
        "arraign",
        "bond",
        "indict",
        "verdict",
        "convict",
        "jury",
        "judge",
        "remember",
        "honor",
        "rally",
        "march",
        "bury",
        "mourn",
        "identify",
        "release",
        "autopsy",
        "lawsuit",
        "testify",
        "guilty",
        "prison",
        "jail",
        "custody",
        "warrant",
        "extradite",
        "bail",
        "prosecutor",
        "attorney",
        "candlelight",
        "service",
        "gather",
        "year",
        "month",
        "ago",
        "since",
        "later",
        "still",
        "remain",
        "continue",
        "update",
        "investigation",
    }
)
INCIDENT_CUES = frozenset(
    {
        "shoot",
        "shooting",
        "kill",
        "die",
        "wound",
        "injure",
        "happen",
        "occur",
        "respond",
        "call",
        "find",
        "fire",
        "stab",
        "dead",
        "hospital",
        "pronounce",
        "report",
        "gunfire",
        "shot",
        "scene",
        "around",
        "night",
        "morning",
        "afternoon",
        "evening",
        "early",
        "about",
        "just",
        "before",
        "after",
    }
)


@dataclass
class ValueCandidate:
    """One value for a slot and the set of its features' names."""

    value: Hashable
    features: set[str] = field(default_factory=set)


def sentence_cues(sentence) -> set[str]:
    """``cue:LEMMA`` for each follow-up or incident cue word among a spaCy sentence's lemmas."""
    lemmas = {t.lemma_.lower() for t in sentence}
    return {f"cue:{lemma}" for lemma in lemmas & (FOLLOW_UP_CUES | INCIDENT_CUES)}


def merge(candidates: dict, value: Hashable, features: set[str]) -> None:
    """Add ``features`` to the candidate of ``value`` in ``candidates`` (created when new)."""
    candidates.setdefault(value, ValueCandidate(value)).features.update(features)


def sole_leader(votes: Counter) -> Hashable | None:
    """The value ``votes`` count most, or None when it counts none or two values share the lead."""
    ranked = votes.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def vote_features(votes: Counter, name: str) -> dict[Hashable, set[str]]:
    """The candidates a piece of evidence votes for (``votes``: value -> votes), with features: ``name`` for every
    value voted for, ``name:top`` for the ``sole_leader``."""
    found = {value: {name} for value in votes}
    leader = sole_leader(votes)
    if leader is not None:
        found[leader].add(f"{name}:top")
    return found


def mention_count_features(prefix: str, number: int) -> set[str]:
    """``prefix:n=1``, ``=2`` or ``>=3``: how many mentions state a candidate."""
    return {f"{prefix}:n={number}" if number < 3 else f"{prefix}:n>=3"}


def governor_features(root, event_types: dict[int, str]) -> set[str]:
    """What a mention's syntactic governors (up to three heads above its root token) are: a typed event
    mention ("was shot Monday": ``governor:injuring``) or a follow-up cue ("arrested
    Monday": ``governor:cue``); ``event_types`` gives the type of each typed event by its first token."""
    features = set()
    node = root
    for _ in range(3):
        if node.head is node:
            break
        node = node.head
        if node.i in event_types:
            features.add(f"governor:{event_types[node.i]}")
        elif node.lemma_.lower() in FOLLOW_UP_CUES:
            features.add("governor:cue")
    return features
