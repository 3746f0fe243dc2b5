"""Silver TORQUE questions made from TimeML documents and their MATRES relations.

TORQUE asks, over passages of a couple of sentences of news, which events happened before, after or
while an anchor event, and three warm-up questions about each event's status at the time of writing.
TimeBank, AQUAINT and TE3-Platinum are the same kind of news with every event trigger annotated, and
MATRES orders the start points of their verb events, as TORQUE does. So each window of
``sentences`` sentences gives TORQUE-style questions:

- for each anchor event MATRES relates to other events of the window, "What happened before / after /
  while <the anchor's phrase>?", answered by the events MATRES puts before / after / at the same time
  (EQUAL) as the anchor; a VAGUE pair is not an answer;
- the three warm-up questions, answered by the events whose status the annotation gives: their TLINK to
  the document creation time where there is one, else their tense and aspect (past or perfect:
  finished; present: ongoing; future or a modal: future); negated events and events with neither
  (nouns, infinitives) are left unjudged.

The output is TORQUE's file format (``kg_count.qa.inputs.readers.read_torque`` reads it), with two
additions: each question lists the events its answer was judged over (``judged``: the events MATRES
relates to the anchor, or whose status is known), since the rest of the window's events were never
compared with the anchor; and passage ids are ``docid_<document>_sentid_<first sentence>``, as TORQUE's
are, so folds by source document keep a document's windows together.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Iterator

from kg_count.qa.inputs.timeml import TimemlDocument, TimemlEvent, read_timebank

WARM_UP = {
    "finished": "What events have already finished?",
    "ongoing": "What events have begun but has not finished?",
    "future": "What will happen in the future?",
}
ASKED_OF_RELATION = {"BEFORE": "before", "AFTER": "after", "EQUAL": "while"}
INVERSE_MATRES = {"BEFORE": "AFTER", "AFTER": "BEFORE", "EQUAL": "EQUAL", "VAGUE": "VAGUE"}
DCT_STATUS = {
    "BEFORE": "finished",
    "IBEFORE": "finished",
    "AFTER": "future",
    "IAFTER": "future",
    "INCLUDES": "ongoing",
    "BEGUN_BY": "ongoing",
}


def annotated_status(event: TimemlEvent) -> str | None:
    """The event's status at the time of writing from its annotation, or None when it gives none: its TLINK
    to the document time where that decides it, else its tense and aspect; a negated event has none."""
    if event.polarity == "NEG":
        return None
    if event.dct_relation in DCT_STATUS:
        return DCT_STATUS[event.dct_relation]
    if event.modality or event.tense == "FUTURE":
        return "future"
    if event.tense in ("PAST", "PASTPART") or event.aspect.startswith("PERFECTIVE"):
        return "finished"
    if event.tense in ("PRESENT", "PRESPART"):
        return "ongoing"
    return None


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` without the white space an annotation's span sometimes takes in at either end."""
    words = text[start:end]
    return start + len(words) - len(words.lstrip()), end - (len(words) - len(words.rstrip()))


def _offsets(span: tuple[int, int]) -> str:
    return f"({span[0]},{span[1]})"


def _answer(spans: list[tuple[int, int]], text: str) -> dict:
    ordered = sorted(set(spans))
    return {"spans": [text[s:e] for s, e in ordered], "indices": [_offsets(s) for s in ordered]}


def _question_entry(answers: list[tuple[int, int]], judged: list[tuple[int, int]], text: str, default: bool) -> dict:
    answer = _answer(answers, text)
    return {
        "answer": answer,
        "individual_answers": [answer],
        "judged": _answer(judged, text),
        "cluster_id": "",
        "is_default_question": default,
    }


def anchor_phrase(doc, start: int) -> str:
    """The words a question names the event at character ``start`` of ``doc`` by: its phrase (trigger with
    its arguments, kg_count.qa.passage_graph.passage.phrase), the first word lowercased unless a name."""
    from kg_count.qa.passage_graph.passage import phrase

    token = next((t for t in doc if start < t.idx + len(t) and not t.is_space), doc[-1])
    first, end = phrase(token)
    words = doc[first:end]
    text = words.text
    return text if words[0].pos_ == "PROPN" or words[0].text == "I" else text[:1].lower() + text[1:]


def _relations(document: TimemlDocument, pairs: list[tuple[str, str, str]]) -> dict:
    """``{(eiid of event, eiid of anchor): MATRES relation of event to anchor}``, both directions."""
    relations = {}
    for first, second, relation in pairs:
        relations[(first, second)] = relation
        relations[(second, first)] = INVERSE_MATRES[relation]
    return relations


def _windows(document: TimemlDocument, sentences: int) -> Iterator[tuple[int, int, int]]:
    """(first sentence, start, end) character ranges of ``sentences`` consecutive sentences of the document's
    parse, stepping ``sentences`` at a time."""
    from kg_count.qa.passage_graph.passage import parse

    bounds = [(s.start_char, s.end_char) for s in parse(document.text).sents if s.text.strip()]
    for first in range(0, len(bounds), sentences):
        chunk = bounds[first : first + sentences]
        yield first, chunk[0][0], chunk[-1][1]


def window_questions(document: TimemlDocument, pairs: list[tuple[str, str, str]], sentences: int = 2) -> dict:
    """TORQUE-format passages (``{passageID: {passage, events, question_answer_pairs}}``) of one document's
    windows: the warm-up questions where some status is known, and a before/after/while question for each
    anchor and relation MATRES gives an answer to."""
    from kg_count.qa.passage_graph.passage import parse

    relations = _relations(document, pairs)
    passages = {}
    for first, start, end in _windows(document, sentences):
        text = document.text[start:end].strip()
        offset = start + (len(document.text[start:end]) - len(document.text[start:end].lstrip()))
        inside = [e for e in document.events if offset <= e.start and e.end <= offset + len(text)]
        if not inside:
            continue
        span = {e.eiid: _trimmed(text, e.start - offset, e.end - offset) for e in inside}
        questions = {}
        statuses = {e.eiid: annotated_status(e) for e in inside}
        judged = [span[i] for i, s in statuses.items() if s]
        if judged:
            for status, question in WARM_UP.items():
                answers = [span[i] for i, s in statuses.items() if s == status]
                questions[question] = _question_entry(answers, judged, text, True)
        doc = parse(text)
        for anchor in inside:
            related = {e.eiid: relations[(e.eiid, anchor.eiid)] for e in inside if (e.eiid, anchor.eiid) in relations}
            if not related:
                continue
            phrase = anchor_phrase(doc, span[anchor.eiid][0])
            for relation, asked in ASKED_OF_RELATION.items():
                answers = [span[i] for i, r in related.items() if r == relation]
                if answers or asked != "while":
                    question = f"What happened {asked} {phrase}?"
                    questions[question] = _question_entry(answers, [span[i] for i in related], text, False)
        if questions:
            passages[f"docid_{document.doc_id}_sentid_{first}"] = {
                "passage": text,
                "events": [{"answer": _answer(list(span.values()), text)}],
                "question_answer_pairs": questions,
            }
    return passages


def silver_torque(timebank: Path, sentences: int = 2) -> dict:
    """Silver TORQUE passages and questions of every TimeML document under ``timebank`` that MATRES covers
    (module docstring), in TORQUE's file format with ``judged`` spans per question."""
    from kg_count.progress import progress

    documents, pairs = read_timebank(timebank)
    by_document = defaultdict(list)
    for doc_id, first, second, relation in pairs:
        by_document[doc_id].append((first, second, relation))
    passages = {}
    for doc_id in progress(sorted(by_document), "silver TORQUE questions", unit="document"):
        if doc_id in documents:
            passages.update(window_questions(documents[doc_id], by_document[doc_id], sentences))
    return passages


def judged_spans(entry: dict) -> dict[str, set[tuple[int, int]]] | None:
    """``{question: {judged (start, end)}}`` of one silver passage entry; None for a passage without them
    (a real TORQUE passage, whose answers were judged over every event)."""
    from kg_count.qa.inputs.readers import parse_offsets

    pairs = entry.get("question_answer_pairs") or {}
    if not any("judged" in qa for qa in pairs.values()):
        return None
    return {
        question: {parse_offsets(i, Path("silver"), question) for i in qa.get("judged", {}).get("indices", [])}
        for question, qa in pairs.items()
    }
