"""What an answer reads of an incident and of each of its people, packed in one literal each (``kgc:answerFacts``).

The incident graph keeps every value as a triple of its own (``kgc:killedCount``, ``time:inXSDDate``,
``kgc:killedProbability`` ...); a question's query reads the same values of each candidate from one literal
instead, one lookup where there were ten (300 questions over 50,000 rendered articles: 1.8 times faster, the same
answers; see docs/benchmark-history.md):

- an incident's: ``DATE CERTAINTY GRANULARITY KILLED INJURED FIRED CONFIDENCE DOCUMENT...``, its documents' ids
  last (``graph.document_graph.document_ids_literal``), e.g. ``"2016-04-06 text day 0 1 0 0.8499 a1b2 c3d4"`` (the
  date first, so that a query reads it with ``SUBSTR``; the ids here, not in a literal of their own, saved a lookup
  a candidate: a big city's year at 100,000 articles about a quarter faster, see docs/benchmark-history.md);
- a person's: ``ROLE PARTICIPANT KILLED INJURED``, the role and the person-status model's probabilities, e.g.
  ``"victim 0.2132 0.4990 0.3683"``.

Numbers are written as their own triples write them (four decimals), so both read the same values.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Mapping

from rdflib import Literal

from kg_count.graph.document_graph import document_ids_literal, document_ids_of

PERSON_PROBABILITIES = ("participant", "killed", "injured")


@dataclass(frozen=True)
class IncidentFacts:
    """An incident's values that answering reads."""

    date: dt.date
    certainty: str
    granularity: str
    killed: int
    injured: int
    fired: int
    confidence: float
    doc_ids: tuple[str, ...]

    def literal(self) -> Literal:
        """The facts as the one literal ``kgc:answerFacts`` holds."""
        return Literal(
            f"{self.date.isoformat()} {self.certainty} {self.granularity} {self.killed} {self.injured} {self.fired} "
            f"{self.confidence:.4f} {document_ids_literal(self.doc_ids)}"
        )

    @classmethod
    def read(cls, text: str) -> IncidentFacts:
        """The facts of an incident's ``kgc:answerFacts`` text; ValueError when it is not in that form (the form
        before the documents' ids came in it included)."""
        date, certainty, granularity, killed, injured, fired, confidence, documents = text.split(" ", 7)
        counts = int(killed), int(injured), int(fired)
        doc_ids = tuple(document_ids_of(documents))
        return cls(dt.date.fromisoformat(date), certainty, granularity, *counts, float(confidence), doc_ids)


@dataclass(frozen=True)
class PersonFacts:
    """One of an incident's people as answering reads them: the role and how likely they took part, were killed
    and were injured (the person-status model)."""

    role: str
    participant: float
    killed: float
    injured: float

    def literal(self) -> Literal:
        """The facts as the one literal ``kgc:answerFacts`` holds."""
        return Literal(f"{self.role} {self.participant:.4f} {self.killed:.4f} {self.injured:.4f}")

    @classmethod
    def of(cls, role: str, probabilities: Mapping[str, float]) -> PersonFacts | None:
        """The facts of a person of ``role`` with the model's ``probabilities`` by status; None when one of
        ``PERSON_PROBABILITIES`` is missing (answering then finds no such person, as without the facts)."""
        if any(status not in probabilities for status in PERSON_PROBABILITIES):
            return None
        return cls(role, *(probabilities[status] for status in PERSON_PROBABILITIES))

    @classmethod
    def read(cls, text: str) -> PersonFacts:
        """The facts of a person's ``kgc:answerFacts`` text; ValueError when it is not in that form."""
        role, participant, killed, injured = text.split(" ")
        return cls(role, float(participant), float(killed), float(injured))

    def probabilities(self) -> dict[str, float]:
        """The probabilities by status, as the incidents an answer finds carry them."""
        return {"participant": self.participant, "killed": self.killed, "injured": self.injured}
