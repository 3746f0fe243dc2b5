"""kg_count's Python API: open or build an archive, answer questions, list and explain incidents, run SPARQL.

An archive is a kg_count store: a folder (the embedded Oxigraph store) or the URL of a SPARQL server. The
command line does the same through this module, so what a notebook gets is what ``kg-count`` prints::

    import kg_count

    with kg_count.build_archive("docs.conll", "store") as archive:   # add what the store lacks, group incidents
        answer = archive.answer({"subtask": 2, "event_type": "killing", ...})
        table = archive.incidents_frame()                         # pandas, when it is installed

    with kg_count.open_archive("store") as archive:                # read-only, beside a running build
        rows = archive.sparql("SELECT ?doc WHERE { GRAPH ?doc { ?doc a ?type } } LIMIT 5")

Every function reads and returns plain Python values or the dataclasses named in ``kg_count.__all__`` (the
package's top level lists this module's public names); errors are ``kg_count.errors.KgCountError`` subclasses
naming the file, line or id.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from kg_count.errors import InputError, KgCountError, SetupError, UsageError
from kg_count.incidents.views.incident_views import DocumentView, IncidentView  # noqa: F401 (DocumentView: offered by kg_count)
from kg_count.io.answers import SystemAnswer
from kg_count.io.questions import Question, parse_question, read_questions

if TYPE_CHECKING:
    import pandas

    from kg_count.graph.store import GraphStore

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class IncidentGrouping:
    """What ``build_archive`` did to the incidents: how many the store holds, whether they were grouped again
    (False: they were up to date with the documents) and the seconds it took."""

    count: int
    regrouped: bool
    seconds: float

    def line(self) -> str:
        """The grouping in one line, as ``kg-count build`` prints it."""
        return f"incidents: {self.count} ({f'grouped in {self.seconds:.1f} s' if self.regrouped else 'up to date'})"


class Archive:
    """An open kg_count store: its answers, incidents and SPARQL. Close it (or use ``with``) to release it."""

    def __init__(self, store: GraphStore, closing: contextlib.ExitStack, summary=None, grouping=None) -> None:
        self.store = store
        self.summary = summary  # what build_archive added (kg_count.graph.loader.BuildSummary); None when opened
        self.grouping: IncidentGrouping | None = grouping  # None when opened, or built without incidents
        self._closing = closing

    @property
    def location(self) -> str:
        """The store's folder or URL, as given."""
        return str(self.store.location)

    def close(self) -> None:
        """Release the store (a writer's buffered writes are flushed first)."""
        self._closing.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def answer(self, question: Question | Mapping, question_id: str = "question", answer_prior: bool = True):
        """The ``SystemAnswer`` (count and documents) to one question: a ``Question``, or a dict in the task's
        question form (InputError naming ``question_id`` when it is not one). ``answer_prior`` False counts from
        the likelihood alone."""
        from kg_count.answer.graph_answer import answer_task_question

        if not isinstance(question, Question):
            question = parse_question(question_id, question)
        return answer_task_question(self.store, question, answer_prior)

    def answer_questions(
        self, questions: Mapping[str, Question] | str | os.PathLike, answer_prior: bool = True
    ) -> dict[str, SystemAnswer]:
        """The answers to ``questions`` (by id, or a questions JSON file) by question id."""
        from kg_count.answer.graph_answer import answer_from_store

        if not isinstance(questions, Mapping):
            questions = read_questions(questions)
        return answer_from_store(self.store, questions, answer_prior)

    def write_chains(self, path: str | os.PathLike, docs: str | os.PathLike) -> None:
        """Write the documents of ``docs`` (CoNLL or JSON lines) as CoNLL with the store's event coreference
        chains to ``path`` (atomically)."""
        from kg_count.answer.chains import write_chains
        from kg_count.io.articles import iter_any

        write_chains(Path(path), self.store, list(iter_any(docs)))

    def incidents(
        self, event_type: str | None = None, place: str | None = None, date: str | None = None
    ) -> list[IncidentView]:
        """The store's incidents, most documents first, optionally only those of ``event_type`` (a task type such
        as "killing"), whose place names ``place`` ("Memphis") and whose date starts with ``date`` ("2016-03")."""
        from kg_count.incidents.views.incident_views import document_views, incident_views

        incidents, _ = incident_views(self.store, document_views(self.store))
        wanted = (place or "").lower()
        return sorted(
            (
                incident
                for incident in incidents.values()
                if (event_type is None or event_type in incident.types)
                and wanted in f"{incident.city} {incident.state}".lower()
                and incident.date.startswith(date or "")
            ),
            key=lambda incident: (-len(incident.documents), incident.incident_id),
        )

    def incidents_frame(self, **filters) -> pandas.DataFrame:
        """``incidents(**filters)`` as a pandas DataFrame, one row an incident, its documents' ids in a list
        (SetupError when pandas is not installed)."""
        try:
            import pandas
        except ImportError:
            raise SetupError("incidents_frame needs pandas: pip install pandas (or use incidents())") from None
        rows = []
        for incident in self.incidents(**filters):
            row = asdict(incident)
            row["documents"] = [document.doc_id for document in incident.documents]
            row["title"] = incident.title
            rows.append(row)
        return pandas.DataFrame(rows, columns=[*IncidentView.__dataclass_fields__, "title"])

    def explain(self, incident_id: str) -> str:
        """An incident in words: its documents and why they were grouped (InputError for an unknown id)."""
        from kg_count.incidents.views.explain import explain_incident

        return explain_incident(self.store, incident_id)

    def turtle(self, incident_id: str | None = None, doc_id: str | None = None) -> str:
        """One incident's graph, or one document's (``doc_id``), as Turtle."""
        if (incident_id is None) == (doc_id is None):
            raise UsageError("give an incident id or a document id")
        if doc_id is not None:
            return self.store.document_turtle(doc_id)
        from kg_count.incidents.views.explain import incident_turtle

        return incident_turtle(self.store, incident_id)

    def query(self, text: str, allow_service: bool = False):
        """The result of the read-only SPARQL query ``text`` (rdflib's Result); ``%INCIDENTS%`` names the current
        incident graph. A query that calls another endpoint (SERVICE) is refused unless ``allow_service``."""
        from kg_count.graph.results import refuse_service_calls
        from kg_count.incidents.store.incident_versions import INCIDENTS_SLOT, incident_sparql

        refuse_service_calls(text, allow_service)
        if INCIDENTS_SLOT in text:
            text = incident_sparql(self.store, text)
        try:
            return self.store.query(text)
        except Exception as error:  # pyparsing / oxigraph syntax errors have no common base class
            raise KgCountError(f"SPARQL query failed: {error}") from None

    def sparql(self, text: str, allow_service: bool = False) -> list[dict[str, object]] | bool:
        """``query``'s rows as dicts from variable name to a Python value (IRIs as strings, literals as their
        Python values, unbound as None); an ASK query's answer as a bool."""
        result = self.query(text, allow_service)
        if result.type == "ASK":
            return bool(result.askAnswer)
        if result.type != "SELECT":
            raise UsageError("sparql() takes SELECT and ASK queries; query() returns other results")
        names = [str(v) for v in result.vars]
        return [{name: _python(value) for name, value in zip(names, row)} for row in result]


def _python(term) -> object:
    """A SPARQL term as a Python value (None for unbound)."""
    if term is None:
        return None
    value = term.toPython()
    return str(value) if not isinstance(value, (int, float, bool, str)) and hasattr(term, "n3") else value


def open_archive(location: str | os.PathLike) -> Archive:
    """The store at ``location`` (a folder or a SPARQL URL) opened for reading: a folder is opened read-only, so
    it reads beside a build that is writing it. StoreError when there is no store there."""
    from kg_count.graph.store import GraphStore

    closing = contextlib.ExitStack()
    store = closing.enter_context(GraphStore(location, create=False))
    return Archive(store, closing)


def build_archive(
    docs: str | os.PathLike,
    location: str | os.PathLike,
    incidents: bool = True,
    workers: int = 1,
    cache: str | os.PathLike | None = "default",
    batch_size: int | None = None,
    scheduler: str | None = None,
) -> Archive:
    """The store at ``location`` (made when absent) with every document of ``docs`` (CoNLL or JSON lines) that it
    lacked added and, unless ``incidents`` is False, its incidents grouped; it stays open for writing until
    closed, so no other process writes it in between. ``workers`` extraction processes, or the Dask
    ``scheduler`` at its address (tcp://HOST:8786); ``batch_size`` documents per batch (None: the settings');
    ``cache`` the record cache file ("default": kg_count's own; None: none). The archive's ``summary`` says
    what was added and its ``grouping`` what grouping did. StoreHeld when another process is writing the store.
    """
    from kg_count.graph.loader import built_store
    from kg_count.incidents.reports.title_vectors import encoder_beside
    from kg_count.incidents.update.materialise import ensure_incidents
    from kg_count.nlp.record_cache import default_record_cache_path

    if not Path(docs).is_file():
        raise InputError("no such document file", docs)
    cache = default_record_cache_path() if cache == "default" else cache
    options = {"batch_size": batch_size, "workers": workers, "scheduler": scheduler, "cache": cache}
    closing = contextlib.ExitStack()
    try:
        with encoder_beside(incidents, start=False) as titles:  # the added reports' titles, encoded as they come
            store, summary = closing.enter_context(built_store(docs, location, titles=titles, **options))
            grouping = None
            if incidents:
                started = time.perf_counter()
                count, regrouped = ensure_incidents(store, beside=titles)
                grouping = IncidentGrouping(count, regrouped, time.perf_counter() - started)
    except BaseException:
        closing.close()
        raise
    return Archive(store, closing, summary, grouping)


def archive_for(docs: str | os.PathLike, location: str | os.PathLike | None = None, **build) -> Archive:
    """An archive holding every document of ``docs`` with its incidents grouped, for answering questions about
    them: the store at ``location`` (None: one under kg_count's cache named after ``docs``) opened read-only when
    it already holds them all from the same content, else built as by ``build_archive`` (``build``: its keyword
    arguments). When another process is writing the store, it is opened read-only as that writer's last update
    left it, without ``docs``, with a warning. Warns when the store holds documents besides those of ``docs``
    (answers count incidents over all of them)."""
    from kg_count.answer.store_for_documents import default_store, documents_in_store, warn_of_other_documents
    from kg_count.errors import StoreHeld

    location = location or default_store(Path(docs))
    documents = documents_in_store(Path(docs), location)
    if documents is not None:
        archive = open_archive(location)
        warn_of_other_documents(archive.store.document_count(), documents, docs)
        return archive
    try:
        archive = build_archive(docs, location, **build)
    except StoreHeld as held:
        from kg_count.incidents.update.materialise import require_answerable_incidents

        logger.warning("%s; answering from the store as its writer's last update left it, without DOCS", held)
        archive = open_archive(location)
        try:
            require_answerable_incidents(archive.store)
        except BaseException:
            archive.close()
            raise
        return archive
    summary = archive.summary
    logger.info("store %s: %d documents already in it, %d added", location, summary.skipped, summary.added)
    warn_of_other_documents(summary.in_store, summary.documents, docs)
    if archive.grouping is not None:
        logger.info("%s", archive.grouping.line())
    return archive
