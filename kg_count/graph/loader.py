"""Building or updating a store from a document file: skip what is there, extract the rest, summarise."""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator, Protocol

from kg_count.graph.document_graph import content_hash
from kg_count.graph.store import GraphStore, StoreLocation
from kg_count.interrupts import check, deferred_interrupts
from kg_count.io.articles import document_ids, iter_any
from kg_count.io.conll import Document
from kg_count.nlp.parallel import parallel_records
from kg_count.nlp.record_cache import RecordCache, cached_records, document_key
from kg_count.progress import progress_bar

TITLES_A_MESSAGE = 64  # report titles sent to the encoder process at a time


class TitleEncoder(Protocol):
    """What a build gives the titles of its added reports to (``kg_count.incidents.reports.title_vectors
    .EncoderBeside``): a process started on demand that encodes texts while the build goes on."""

    @property
    def started(self) -> bool:
        """Whether its process has been started."""
        ...

    def start(self) -> None:
        """Start its process (nothing when it is started already)."""
        ...

    def encode(self, texts: list[str]) -> None:
        """Give it ``texts`` to encode into its vector cache; returns at once."""
        ...


@dataclass
class BuildSummary:
    """What a build did and found."""

    documents: int = 0
    skipped: int = 0
    added: int = 0
    in_store: int = 0
    triples: int = 0
    seconds: float = 0.0
    event_types: Counter = field(default_factory=Counter)
    with_city: int = 0
    with_state: int = 0
    dated_from_text: int = 0
    killed: int = 0
    injured: int = 0
    fired: int = 0

    def count(self, record, triples: int) -> None:
        """Count one added document's record (a DocumentRecord) and the triples its graph holds."""
        self.triples += triples
        self.added += 1
        self.event_types.update(record.event_types)
        self.with_city += record.city_iri is not None
        self.with_state += record.state_iri is not None
        self.dated_from_text += record.date_certainty == "text"
        self.killed += record.killed
        self.injured += record.injured
        self.fired += record.fired

    def lines(self) -> list[str]:
        """The summary as the lines ``kg-count build`` prints."""
        rate = self.added / self.seconds if self.seconds else 0.0
        types = ", ".join(f"{t} {n}" for t, n in self.event_types.most_common()) or "none"
        return [
            f"documents: {self.documents} read, {self.skipped} already in the store, {self.added} added or updated "
            f"({self.triples} triples, {self.seconds:.1f} s, {rate:.1f} documents/s)",
            f"event types: {types}",
            f"places: {self.with_city} with a city, {self.with_state} with a state; "
            f"dates from the text: {self.dated_from_text}",
            f"stated counts (summed over documents): killed {self.killed}, injured {self.injured}, fired {self.fired}",
        ]


def build_store(docs: str | os.PathLike, location: StoreLocation, **options) -> BuildSummary:
    """Add every document of ``docs`` (CoNLL or JSON lines) that the store at ``location`` lacks or holds
    from other content (``built_store``, whose keyword ``options`` it takes); return a summary."""
    with built_store(docs, location, **options) as (_, summary):
        return summary


@contextlib.contextmanager
def built_store(
    docs: str | os.PathLike,
    location: StoreLocation,
    batch_size: int | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    cache: str | os.PathLike | None = None,
    titles: TitleEncoder | None = None,
) -> Iterator[tuple[GraphStore, BuildSummary]]:
    """The store at ``location`` with every document of ``docs`` (CoNLL or JSON lines) that it lacked or held
    from other content added, still open for the caller's next writes (its incidents: no other writer can
    take the store in between), and the summary of what was added.

    The file is scanned first (an id that appears twice is an InputError, before anything is
    written). Documents stream from the file through extraction (in this process, in ``workers``
    local processes, or on the Dask ``scheduler``) into the store; a document whose graph was built
    from the same content by the same pipeline version and graph writer is skipped, an edited one
    extracted again (a record the cache holds for it is reused when only the graph writer changed).
    The record cache at ``cache`` (a SQLite file) serves records already extracted from the same
    content. Each document's graph is written whole, its completion marker last, so an interrupted
    build resumes with the documents it had not finished. When the store lacks some of the file's ids, ``titles``
    (a ``TitleEncoder`` not started yet) is started and encodes the titles of the added reports while the
    build goes on, so that grouping them finds their vectors cached.
    """
    summary = BuildSummary()
    started = time.perf_counter()
    ids = document_ids(docs)
    with GraphStore(location) as store:
        stored = store.document_versions(ids)
        if titles is not None and any(doc_id not in stored for doc_id in ids):
            titles.start()  # forked before extraction starts threads; it loads the encoder beside the first batch
        _add_documents(
            store,
            docs,
            stored,
            len(ids),
            summary,
            cache,
            lambda documents: parallel_records(documents, workers, scheduler, batch_size),
            titles if titles is not None and titles.started else None,
        )
        summary.in_store = store.document_count()
        summary.seconds = time.perf_counter() - started
        yield store, summary


def _add_documents(
    store: GraphStore,
    docs,
    stored: dict[str, str],
    total: int,
    summary: BuildSummary,
    cache,
    extract,
    titles: TitleEncoder | None,
) -> None:
    """Add to ``store`` the documents of ``docs`` (``total`` of them) that it lacks or holds from other content
    (``stored``: the content hash of each it holds), their records from the cache at ``cache`` or from ``extract``
    (documents to records), counting them in ``summary`` and giving the titles of those with events to
    ``titles`` to encode (unless None)."""
    waiting: list[str] = []  # titles not yet given to ``titles``
    with (
        RecordCache(cache) if cache is not None else contextlib.nullcontext() as records_cache,
        progress_bar("building", total=total, unit="doc") as bar,
        deferred_interrupts() as interrupted,
    ):
        pending: dict[str, tuple[str, str]] = {}  # doc id -> (record key, lead) of a document being extracted

        def todo() -> Iterator[Document]:
            for document in iter_any(docs):
                check(interrupted)
                summary.documents += 1
                key = document_key(document)
                if stored.get(document.doc_id) == content_hash(key):
                    summary.skipped += 1
                    bar.update(1)
                else:
                    pending[document.doc_id] = (key, document.lead())
                    yield document

        records = (
            extract(todo())
            if records_cache is None
            else cached_records(todo(), records_cache, extract, lambda document: pending[document.doc_id][0])
        )
        for record in records:
            check(interrupted)
            key, lead = pending.pop(record.doc_id)
            summary.count(record, store.add(record, content_hash(key), lead))
            bar.update(1)
            if titles is not None and record.event_types and record.title.strip():
                waiting.append(record.title)
                if len(waiting) >= TITLES_A_MESSAGE:
                    titles.encode(waiting)
                    waiting = []
        if titles is not None and waiting:
            titles.encode(waiting)
