"""The organisers' reference baseline for SemEval-2018 Task 5.

A document answers a question when (1) one of its tokens is a lemma of the event type's WordNet
synsets, (2) every asked location and participant value occurs in its text (a location as the
last part of its DBpedia IRI, underscores as spaces), and (3) its DCT falls in the asked time.
S1 is answered only when some document matches (one incident); S2 and S3 count one incident
per matching document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from kg_count.io.answers import SystemAnswer
from kg_count.io.conll import Document
from kg_count.io.questions import Question
from kg_count.progress import progress
from kg_count.task import EVENT_TYPES, event_synsets


def event_lemmas(event_type: str) -> frozenset[str]:
    """Return the lemma names (underscores as spaces) of the WordNet synsets of an event type."""
    from kg_count.resources.wordnet import wordnet

    reader = wordnet()
    return frozenset(
        name.replace("_", " ") for synset in event_synsets()[event_type] for name in reader.synset(synset).lemma_names()
    )


def question_keywords(question: Question) -> list[str]:
    """Return the surface strings a matching document must contain: location and participant values."""
    keywords = []
    if question.location is not None and question.location[1]:
        keywords.append(question.location[1].rsplit("/", 1)[-1].replace("_", " "))
    if question.participant is not None:
        keywords.append(question.participant[1])
    return keywords


@dataclass(frozen=True)
class IndexedDocument:
    """A document reduced to what the baseline reads: DCT, token set and space-joined text."""

    doc_id: str
    dct: object
    tokens: frozenset[str]
    text: str

    @classmethod
    def of(cls, doc: Document) -> "IndexedDocument":
        """A document indexed for the baseline: its id, DCT, word set and text."""
        return cls(doc.doc_id, doc.dct, frozenset(doc.words()), doc.text)


def matching_documents(question: Question, documents: Iterable[IndexedDocument], lemmas: frozenset[str]) -> list[str]:
    """Return the ids of the documents that satisfy the three baseline conditions for ``question``."""
    keywords = question_keywords(question)
    return [
        doc.doc_id
        for doc in documents
        if (question.time is None or question.time.contains(doc.dct))
        and not lemmas.isdisjoint(doc.tokens)
        and all(keyword in doc.text for keyword in keywords)
    ]


def answer_baseline(questions: Mapping[str, Question], documents: Mapping[str, Document]) -> dict[str, SystemAnswer]:
    """Answer every question with the baseline; S1 questions without a matching document stay unanswered."""
    indexed = [IndexedDocument.of(doc) for doc in documents.values()]
    lemmas = {event_type: event_lemmas(event_type) for event_type in EVENT_TYPES}
    answers = {}
    for qid, question in progress(questions.items(), "answering (baseline)", total=len(questions), unit="q"):
        docs = matching_documents(question, indexed, lemmas[question.event_type])
        if question.subtask == 1:
            if docs:
                answers[qid] = SystemAnswer(None, docs)
        else:
            answers[qid] = SystemAnswer(len(docs), docs)
    return answers
