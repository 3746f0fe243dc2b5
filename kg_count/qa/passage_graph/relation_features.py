"""Features of event pairs and of single events, read by the learned relation and status scorers."""

from __future__ import annotations

from functools import lru_cache

from kg_count.learning.bins import interval_name
from kg_count.qa.passage_graph.passage import REPORTING, PassageEvent

CONNECTIVES = {
    "before",
    "after",
    "when",
    "while",
    "because",
    "so",
    "since",
    "as",
    "if",
    "then",
    "until",
    "and",
    "but",
    "following",
    "during",
    "by",
    "to",
    "thus",
    "therefore",
    "unless",
    "once",
    "for",
    "from",
    "led",
    "cause",
    "caused",
    "result",
    "resulted",
    "due",
    "including",
    "include",
    "such",
    "amid",
    "without",
    "in",
    "with",
    "later",
    "earlier",
    "ago",
    "prior",
    "also",
    "which",
    "that",
    "said",
}


def event_features(event: PassageEvent) -> list[str]:
    """Features of one event: part of speech, tense, aspect, status and modality marks."""
    features = [
        f"pos={event.pos}",
        f"tense={event.tense}",
        f"aspect={event.aspect}",
        f"status={event.status}",
        f"tense_aspect={event.tense}_{event.aspect}",
    ]
    features += [f"mod={m}" for m in sorted(event.modality)] or ["mod=none"]
    if event.lemma in REPORTING:
        features.append("reporting")
    if event.lemma == "be":
        features.append("copula")
    return features


def _dependency(doc, event: PassageEvent, anchor: PassageEvent) -> list[str]:
    e, a = doc[event.token], doc[anchor.token]
    features = []
    if e.head.i == a.i:
        features.append(f"e_child_of_a={e.dep_}")
        features += [f"e_child_mark={c.lower_}" for c in e.children if c.dep_ in ("mark", "advmod", "prep")][:2]
    if a.head.i == e.i:
        features.append(f"a_child_of_e={a.dep_}")
        features += [f"a_child_mark={c.lower_}" for c in a.children if c.dep_ in ("mark", "advmod", "prep")][:2]
    if e.head.i == a.head.i and e.i != a.i:
        features.append("siblings")
    if e.head.dep_ == "prep" and e.head.head.i == a.i:
        features.append(f"a_prep_e={e.head.lower_}")
    if a.head.dep_ == "prep" and a.head.head.i == e.i:
        features.append(f"e_prep_a={a.head.lower_}")
    if a in e.ancestors:
        features.append("a_ancestor")
    if e in a.ancestors:
        features.append("e_ancestor")
    if event.lemma in REPORTING and e in a.ancestors:
        features.append("e_reports_a")
    if anchor.lemma in REPORTING and a in e.ancestors:
        features.append("a_reports_e")
    return features


@lru_cache(maxsize=20000)
def _senses(lemma: str) -> tuple[frozenset, frozenset]:
    """The first three WordNet senses of ``lemma`` and their hypernyms up to three steps."""
    from kg_count.resources.wordnet import wordnet

    senses = wordnet().synsets(lemma)[:3]
    hypernyms = frozenset(h for s in senses for h in s.closure(lambda x: x.hypernyms(), depth=3))
    return frozenset(senses), hypernyms


def _wordnet_relation(lemma: str, other: str) -> str:
    """How the senses of two lemmas relate: same lemma, synonym (a shared sense), hyponym or
    hypernym (within three steps) of the other, or none."""
    if lemma == other:
        return "same_lemma"
    (first, first_up), (second, second_up) = _senses(lemma), _senses(other)
    if not first or not second:
        return "none"
    if first & second:
        return "synonym"
    if first_up & second:
        return "e_hyponym"
    if second_up & first:
        return "e_hypernym"
    return "none"


def relation_pair_features(doc, event: PassageEvent, anchor: PassageEvent) -> list[str]:
    """Features of ``event`` seen from ``anchor``: order, distance, syntax, connectives, tenses, WordNet."""
    before = event.start < anchor.start
    features = [
        f"order={'before' if before else 'after'}",
        f"sent_dist={interval_name(abs(event.sentence - anchor.sentence), (0, 1, 2), closed='above')}",
        f"tok_dist={interval_name(abs(event.token - anchor.token), (2, 5, 10, 20), closed='above')}",
        f"tense_pair={event.tense}>{anchor.tense}",
        f"status_pair={event.status}>{anchor.status}",
    ]
    features += event_features(event)
    features += [f"a_{f}" for f in event_features(anchor)[:4]]
    features += _dependency(doc, event, anchor)
    if event.sentence == anchor.sentence:
        low, high = sorted((event.token, anchor.token))
        between = {t.lower_ for t in doc[low + 1 : high]} & CONNECTIVES
        features += [f"between={w}|{'e_first' if before else 'a_first'}" for w in sorted(between)]
    features.append(f"wordnet={_wordnet_relation(event.lemma, anchor.lemma)}")
    order = features[0]
    structural = [f for f in features if f.startswith(("e_", "a_child", "a_rep", "a_anc", "sib"))]
    features += [f"{order}&{f}" for f in features[1:5] + structural]
    return features


def pair_vector(vectors, event: PassageEvent, anchor: PassageEvent):
    """The encoder's view of a pair: the event's and the anchor's token vectors and their product."""
    import numpy as np

    e, a = vectors[event.token], vectors[anchor.token]
    return np.concatenate([e, a, e * a])


def crossed(prefix: str, features: list[str]) -> list[str]:
    """Features both as they are and crossed with ``prefix`` (the relation asked)."""
    return features + [f"{prefix}|{f}" for f in features] + [prefix]
