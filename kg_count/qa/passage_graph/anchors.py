"""Finding the passage event a question is about (its anchor) from the question's words."""

from __future__ import annotations

from kg_count.qa.passage_graph.passage import PassageEvent
from kg_count.qa.passage_graph.question_parsing import QUESTION_WORDS
from kg_count.settings import settings


def _verb_forms(lemmas: set[str]) -> set[str]:
    """WordNet's verb base forms of the lemmas ('shooting' -> 'shoot'), for nominal questions on verbal events."""
    from kg_count.resources.wordnet import wordnet

    reader = wordnet()
    return {form for lemma in lemmas if (form := reader.morphy(lemma, "v")) and form != lemma}


def question_lemmas(doc) -> tuple[set[str], list[str]]:
    """(content lemmas with their verb forms, predicate lemmas in order) of a parsed question or clause."""
    content = {t.lemma_.lower() for t in doc if t.is_alpha and not t.is_stop and t.lemma_.lower() not in QUESTION_WORDS}
    content |= _verb_forms(content)
    predicates = [
        t.lemma_.lower()
        for t in doc
        if t.pos_ in ("VERB", "NOUN", "ADJ", "AUX") and t.lemma_.lower() not in QUESTION_WORDS
    ]
    return content, predicates


def find_anchor(events: list[PassageEvent], passage_doc, anchor_doc, relaxed: bool = False) -> PassageEvent | None:
    """The event whose trigger lemma the anchor text names, its neighbours' words breaking ties.

    Without a lemma match, the event whose neighbourhood shares the most of the anchor's words:
    with ``relaxed`` any share, else at least ``anchor_min_word_share`` ([reading] settings). None when
    nothing qualifies.
    """
    weights = settings().reading
    content, predicates = question_lemmas(anchor_doc)
    if not content:
        return None
    best, best_score = None, 0.0
    for event in events:
        score = 0.0
        complements = {c.lemma_.lower() for c in passage_doc[event.token].children if c.dep_ in ("acomp", "attr")}
        if event.lemma in content or event.text.lower() in content or complements & content:
            score += weights.anchor_lemma_match
            if predicates and event.lemma == predicates[0]:
                score += 1.0
        sentence = passage_doc[event.token].sent
        window = {
            t.lemma_.lower()
            for t in sentence[max(0, event.token - sentence.start - 6) : event.token - sentence.start + 7]
            if t.is_alpha
        }
        score += weights.anchor_word_match * len((content - {event.lemma}) & window) / max(1, len(content))
        if score > best_score:
            best, best_score = event, score
    if best_score >= min(weights.anchor_lemma_match, weights.anchor_min_word_share) or (relaxed and best_score > 0):
        return best
    return None
