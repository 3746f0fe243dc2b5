"""Events of a passage: triggers, tense, aspect, modality, status, arguments and phrase.

Triggers are chosen by a learned token classifier (``models/triggers.json``, trained on the
passages' trigger annotations, see ``kg-count train qa``) over features of the spaCy parse;
the descriptions of each event are rules over that parse.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from kg_count.settings import settings

UNCERTAIN = {"may", "might", "could", "would", "should", "can", "must", "ought"}
FUTURE = {"will", "shall", "'ll"}
INTENTION_VERBS = {
    "plan",
    "want",
    "expect",
    "hope",
    "try",
    "seek",
    "intend",
    "aim",
    "propose",
    "threaten",
    "promise",
    "agree",
    "decide",
    "prepare",
    "schedule",
    "set",
    "vow",
    "wish",
    "need",
    "urge",
    "ask",
    "call",
    "demand",
    "order",
    "refuse",
    "attempt",
    "fail",
    "going",
}
REPETITIVE = {"often", "usually", "always", "regularly", "frequently", "repeatedly", "every", "sometimes", "again"}
REPORTING = {
    "say",
    "tell",
    "report",
    "announce",
    "add",
    "state",
    "claim",
    "note",
    "confirm",
    "deny",
    "insist",
    "explain",
    "warn",
    "accuse",
    "quote",
    "write",
    "declare",
    "describe",
    "argue",
    "suggest",
    "believe",
    "think",
    "know",
}
HYPOTHETICAL_MARKS = {"if", "unless", "whether", "once"}
CLAUSE_DEPS = {"advcl", "ccomp", "xcomp", "relcl", "conj", "csubj", "parataxis", "acl", "cc", "punct", "mark"}


@dataclass
class PassageEvent:
    """One event of a passage; offsets are character offsets into the passage."""

    index: int
    token: int
    start: int
    end: int
    text: str
    lemma: str
    pos: str
    sentence: int
    tense: str = "none"
    aspect: str = "simple"
    modality: frozenset = frozenset()
    status: str = "finished"
    arguments: dict = field(default_factory=dict)
    phrase: tuple = (0, 0, "")


@lru_cache(maxsize=20000)
def noun_lexname(lemma: str) -> str:
    """The WordNet lexicographer file of a noun's most frequent sense ('' when not a noun)."""
    from kg_count.resources.wordnet import wordnet

    senses = wordnet().synsets(lemma.replace(" ", "_"), pos="n")
    return senses[0].lexname() if senses else ""


@lru_cache(maxsize=20000)
def has_verb_sense(lemma: str) -> bool:
    """Whether WordNet knows ``lemma`` as a verb (nouns like 'attack', 'election' derive from verbs)."""
    from kg_count.resources.wordnet import wordnet

    reader = wordnet()
    if reader.synsets(lemma, pos="v"):
        return True
    return any(
        f.synset().pos() == "v"
        for s in reader.synsets(lemma, pos="n")[:2]
        for lemma_form in s.lemmas()
        for f in lemma_form.derivationally_related_forms()
    )


def trigger_features(token, style: str) -> list[str]:
    """Features of one token for the trigger classifier (each also crossed with the annotation ``style``)."""
    features = _token_features(token)
    return features + [f"{style}|{f}" for f in features] + [f"style={style}"]


def _token_features(token) -> list[str]:
    lemma = token.lemma_.lower()
    features = [
        f"pos={token.pos_}",
        f"tag={token.tag_}",
        f"dep={token.dep_}",
        f"lemma={lemma}",
        f"pos_dep={token.pos_}_{token.dep_}",
        f"head_pos={token.head.pos_}",
        f"dep_headpos={token.dep_}_{token.head.pos_}",
    ]
    if token.is_stop:
        features.append("stop")
    if not token.is_alpha:
        features.append("not_alpha")
    if token.pos_ in ("NOUN", "PROPN"):
        features.append(f"lexname={noun_lexname(lemma)}")
        features.append(f"noun_verb_sense={has_verb_sense(lemma)}")
    if token.ent_type_:
        features.append(f"ent={token.ent_type_}")
    children = {c.dep_ for c in token.children}
    for dep in ("nsubj", "nsubjpass", "dobj", "aux", "auxpass", "cop", "neg", "det", "prep", "acomp", "attr"):
        if dep in children:
            features.append(f"child={dep}")
    if token.pos_ == "AUX" and token.dep_ == "ROOT":
        features.append("copula_root")
    if lemma == "be" and any(c.dep_ in ("attr", "acomp") for c in token.children):
        features.append("copula_with_complement")
    return features


def _sentence_index(doc) -> dict[int, int]:
    return {t.i: n for n, sentence in enumerate(doc.sents) for t in sentence}


def _aux(token) -> list:
    return [c for c in token.children if c.dep_ in ("aux", "auxpass", "neg")]


def _governing_verb(token):
    """The verb a nominal event hangs from (its head chain up to the first verb), or the token itself."""
    current = token
    for _ in range(4):
        if current.pos_ in ("VERB", "AUX"):
            return current
        if current.head.i == current.i:
            break
        current = current.head
    return token


def tense_aspect(token) -> tuple[str, str]:
    """(tense, aspect) of a verb from its tag and auxiliaries; a noun takes its governing verb's."""
    verb = _governing_verb(token)
    if verb.pos_ not in ("VERB", "AUX"):
        return "none", "simple"
    auxes = _aux(verb)
    aux_lemmas = [a.lemma_.lower() for a in auxes]
    aux_tags = [a.tag_ for a in auxes]
    perfect = "have" in aux_lemmas and verb.tag_ == "VBN"
    progressive = verb.tag_ == "VBG" and "be" in aux_lemmas
    aspect = (
        "perfect-progressive"
        if perfect and progressive
        else "perfect"
        if perfect
        else "progressive"
        if progressive
        else "simple"
    )
    words = {a.lower_ for a in auxes}
    if words & FUTURE or (verb.head.lemma_ == "go" and verb.dep_ == "xcomp" and verb.head.tag_ == "VBG"):
        return "future", aspect
    if words & UNCERTAIN:
        return "modal", aspect
    tags = aux_tags + [verb.tag_]
    finite = [t for t in tags if t in ("VBD", "VBZ", "VBP", "MD")]
    if finite:
        return ("past" if finite[0] == "VBD" else "present"), aspect
    if verb.tag_ in ("VB", "VBG", "VBN") and verb.dep_ in ("xcomp", "advcl", "acl", "pcomp", "relcl", "conj", "ccomp"):
        head_tense, _ = tense_aspect(verb.head) if verb.head.i != verb.i else ("none", "simple")
        return ("infinitive" if verb.tag_ == "VB" else head_tense), aspect
    return "none", aspect


def modality(token) -> frozenset:
    """Modality marks of an event: negated, uncertain, hypothetical, intended, repetitive, reported."""
    verb = _governing_verb(token)
    marks = set()
    scope = [verb, token] if verb is not token else [token]
    for node in scope:
        for child in node.children:
            word = child.lower_
            if child.dep_ == "neg" or word in ("never", "no", "not", "n't"):
                marks.add("negated")
            if word in UNCERTAIN:
                marks.add("uncertain")
            if child.dep_ == "mark" and word in HYPOTHETICAL_MARKS:
                marks.add("hypothetical")
            if word in REPETITIVE:
                marks.add("repetitive")
    head = verb.head
    if head.lemma_.lower() in INTENTION_VERBS and verb.tag_ == "VB":
        marks.add("intended")
    if head.i != verb.i:
        if head.lemma_.lower() in REPORTING:
            marks.add("reported")
        if any(c.dep_ == "mark" and c.lower_ in HYPOTHETICAL_MARKS for c in head.children):
            marks.add("hypothetical")
    return frozenset(marks)


def event_status(tense: str, aspect: str, marks: frozenset) -> str:
    """Whether the event has finished, is ongoing or lies in the future, relative to the document time."""
    if tense == "future" or "intended" in marks or tense == "infinitive":
        return "future"
    if tense == "modal" or "hypothetical" in marks:
        return "future"
    if aspect in ("progressive", "perfect-progressive") and tense == "present":
        return "ongoing"
    if tense == "present" and aspect == "simple":
        return "ongoing"
    return "finished"


def _span_words(doc, start: int, end: int, around: int) -> tuple[int, int]:
    """Shrink token range [start, end) to at most ``max_phrase_words`` ([reading] settings) words, keeping
    token ``around``."""
    limit = settings().reading.max_phrase_words
    while end - start > limit:
        if around - start > end - 1 - around:
            start += 1
        else:
            end -= 1
    return start, end


def arguments(token) -> dict[str, tuple[int, int]]:
    """Token ranges of an event's subject, object, place and time arguments (first of each)."""
    verb = token if token.pos_ in ("VERB", "AUX") else None
    found = {}
    for child in token.children:
        if child.dep_ in ("nsubj", "nsubjpass", "csubj", "poss") and "subject" not in found:
            found["subject"] = (child.left_edge.i, child.i + 1)
        elif child.dep_ in ("dobj", "attr", "oprd", "acomp") and "object" not in found:
            found["object"] = (child.left_edge.i, child.right_edge.i + 1)
        elif child.dep_ == "prep":
            for pobj in child.children:
                if pobj.dep_ != "pobj":
                    continue
                label = (
                    "place"
                    if pobj.ent_type_ in ("GPE", "LOC", "FAC")
                    else "time"
                    if pobj.ent_type_ in ("DATE", "TIME")
                    else "object"
                    if verb is None
                    else None
                )
                if label and label not in found:
                    found[label] = (child.i, pobj.right_edge.i + 1)
        elif child.ent_type_ in ("DATE", "TIME") and child.dep_ in ("npadvmod", "tmod") and "time" not in found:
            found["time"] = (child.left_edge.i, child.right_edge.i + 1)
    return found


def phrase(token) -> tuple[int, int]:
    """Token range of the event phrase: the trigger with its arguments, clauses cut off, at most
    ``max_phrase_words`` long."""
    keep = [token]
    for child in token.children:
        if child.dep_ in CLAUSE_DEPS or child.is_punct:
            continue
        if child.dep_ == "prep" and any(g.dep_ == "pcomp" and g.pos_ == "VERB" for g in child.children):
            continue
        keep.extend(child.subtree)
    start, end = min(t.i for t in keep), max(t.i for t in keep) + 1
    while start < token.i and (
        token.doc[start].dep_ in ("cc", "mark", "punct", "det", "prep", "advmod") and token.doc[start].head is token
    ):
        start += 1
    while end - 1 > token.i and token.doc[end - 1].is_punct:
        end -= 1
    return _span_words(token.doc, start, end, token.i)


def trigger_blocks(style: str) -> tuple[str, ...]:
    """The trigger model's dense blocks for a token of a passage annotated in ``style``."""
    return "shared", f"style={style}"


def describe_event(doc, token, index: int, sentences: dict[int, int]) -> PassageEvent:
    """The event of trigger ``token``: tense, aspect, modality, status, arguments and phrase."""
    tense, aspect = tense_aspect(token)
    marks = modality(token)
    start, end = phrase(token)
    args = {
        role: (doc[a].idx, doc[b - 1].idx + len(doc[b - 1]), doc[a:b].text) for role, (a, b) in arguments(token).items()
    }
    return PassageEvent(
        index,
        token.i,
        token.idx,
        token.idx + len(token),
        token.text,
        token.lemma_.lower(),
        token.pos_,
        sentences[token.i],
        tense,
        aspect,
        marks,
        event_status(tense, aspect, marks),
        args,
        (doc[start].idx, doc[end - 1].idx + len(doc[end - 1]), doc[start:end].text),
    )


def candidate_tokens(doc) -> list:
    """The tokens that can be triggers (no punctuation or space)."""
    return [t for t in doc if not (t.is_punct or t.is_space or not t.text.strip())]


def events_at(doc, token_indices) -> list[PassageEvent]:
    """The events of the given trigger tokens, in text order."""
    sentences = _sentence_index(doc)
    return [describe_event(doc, doc[i], n, sentences) for n, i in enumerate(sorted(set(token_indices)))]


def find_events(doc, model, style: str, threshold: float, vectors=None) -> list[PassageEvent]:
    """The events of a parsed passage, in text order, each described.

    ``model`` scores tokens as triggers in the annotation ``style`` (torque or ester) from their
    parse features and, with ``vectors`` (the encoder's token vectors), their contextual vector;
    tokens whose probability reaches ``threshold`` are events.
    """
    blocks = trigger_blocks(style)
    return events_at(
        doc,
        [
            t.i
            for t in candidate_tokens(doc)
            if model.probability(trigger_features(t, style), None if vectors is None else vectors[t.i], blocks)
            >= threshold
        ],
    )


PARSES_KEPT = 2048  # the most recent parses kept: several questions share one passage
_parses: OrderedDict = OrderedDict()  # text -> spaCy Doc, oldest first


def parse(text: str):
    """The spaCy parse of a passage (kept for the ``PARSES_KEPT`` most recent texts, or parsed ahead by
    ``parse_ahead``)."""
    from kg_count.blas_threads import single_threaded_blas
    from kg_count.nlp.model import load_model

    doc = _parses.get(text)
    if doc is None:
        with single_threaded_blas():
            doc = load_model()(text)
    _keep(text, doc)
    return doc


def parse_ahead(texts: Iterable[str]) -> None:
    """Parse the ``texts`` not parsed yet in spaCy batches (faster than one at a time), for ``parse`` to find."""
    from kg_count.blas_threads import single_threaded_blas
    from kg_count.nlp.model import load_model

    missing = [text for text in dict.fromkeys(texts) if text not in _parses]
    with single_threaded_blas():
        for text, doc in zip(missing, load_model().pipe(missing, batch_size=settings().batch.documents)):
            _keep(text, doc)


def _keep(text: str, doc) -> None:
    _parses[text] = doc
    _parses.move_to_end(text)
    while len(_parses) > PARSES_KEPT:
        _parses.popitem(last=False)
