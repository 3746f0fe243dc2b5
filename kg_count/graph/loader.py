"""Building or updating a store from a document file: skip what is there, extract the rest, summarise."""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field

from kg_count.graph.store import GraphStore
from kg_count.io.articles import iter_any
from kg_count.nlp.pipeline import process
from kg_count.progress import progress


@dataclass
class BuildSummary:
    """What a build did and found."""

    documents: int = 0
    skipped: int = 0
    added: int = 0
    triples: int = 0
    seconds: float = 0.0
    event_types: Counter = field(default_factory=Counter)
    with_city: int = 0
    with_state: int = 0
    dated_from_text: int = 0
    killed: int = 0
    injured: int = 0
    fired: int = 0

    def lines(self) -> list[str]:
        rate = self.added / self.seconds if self.seconds else 0.0
        types = ", ".join(f"{t} {n}" for t, n in self.event_types.most_common()) or "none"
        return [
            f"documents: {self.documents} read, {self.skipped} already in the store, {self.added} added "
            f"({self.triples} triples, {self.seconds:.1f} s, {rate:.1f} documents/s)",
            f"event types: {types}",
            f"places: {self.with_city} with a city, {self.with_state} with a state; "
            f"dates from the text: {self.dated_from_text}",
            f"stated counts (summed over documents): killed {self.killed}, injured {self.injured}, fired {self.fired}",
        ]


def build_store(docs: str | os.PathLike, store_path: str | os.PathLike, batch_size: int = 32) -> BuildSummary:
    """Add every document of ``docs`` (CoNLL or JSON lines) that the store lacks; return a summary.

    Each document's graph is written whole, its completion marker last, so an interrupted build
    resumes with the documents it had not finished.
    """
    summary = BuildSummary()
    started = time.perf_counter()
    with GraphStore(store_path) as store:
        documents = list(iter_any(docs))
        summary.documents = len(documents)
        todo = [d for d in documents if not store.has_document(d.doc_id)]
        summary.skipped = len(documents) - len(todo)
        for record in progress(process(todo, batch_size=batch_size), "building", total=len(todo), unit="doc"):
            summary.triples += store.add(record)
            summary.added += 1
            summary.event_types.update(record.event_types)
            summary.with_city += record.city_iri is not None
            summary.with_state += record.state_iri is not None
            summary.dated_from_text += record.date_certainty == "text"
            summary.killed += record.killed
            summary.injured += record.injured
            summary.fired += record.fired
    summary.seconds = time.perf_counter() - started
    return summary
