"""The answering job: build what the store lacks, build the incidents, answer with SPARQL."""

from __future__ import annotations

import contextlib
import hashlib
import logging
from pathlib import Path
from typing import Mapping

from kg_count.errors import StoreHeld, UsageError
from kg_count.io.answers import SystemAnswer
from kg_count.io.questions import Question
from kg_count.resources.wordnet import project_cache

logger = logging.getLogger(__name__)


def default_store(docs: Path) -> Path:
    """The store used for ``docs`` when none is given: under the kg_count cache, named after the file."""
    digest = hashlib.sha256(str(docs.resolve()).encode()).hexdigest()[:10]
    return project_cache() / "stores" / f"{docs.stem}-{digest}"


def answer_with_graph(
    questions: Mapping[str, Question],
    docs: Path,
    store_path=None,
    conll_out: Path | None = None,
    build: dict | None = None,
    answer_prior: bool = True,
) -> dict[str, SystemAnswer]:
    """Answer ``questions`` over the documents ``docs``; optionally write their coreference chains.

    Reads documents (CoNLL or JSON lines) into the store (a folder or an endpoint URL; ``build``
    holds the options of ``build_store``) and returns the answers by question id; ``answer_prior`` False
    counts from the likelihood alone. An embedded store another process is writing is read as that writer's
    last update left it (documents and incidents), with a warning, and DOCS are not added.
    """
    from kg_count.graph.loader import built_store
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.update.materialise import ensure_incidents

    store_path = store_path or default_store(docs)
    documents = documents_in_store(docs, store_path)
    if documents is not None:
        with GraphStore(store_path, create=False) as store:
            _warn_of_other_documents(store.document_count(), documents, docs)
            return _answered(store, questions, docs, conll_out, answer_prior)
    with contextlib.ExitStack() as building:
        try:
            store, summary = building.enter_context(built_store(docs, store_path, **(build or {})))
        except StoreHeld as held:
            logger.warning("%s; answering from the store as its writer's last update left it, without DOCS", held)
            with GraphStore(store_path, create=False) as store:
                return _answered(store, questions, docs, conll_out, answer_prior)
        logger.info("store %s: %d documents already in it, %d added", store_path, summary.skipped, summary.added)
        _warn_of_other_documents(summary.in_store, summary.documents, docs)
        count, rebuilt = ensure_incidents(store)
        logger.info("incidents: %d (%s)", count, "rebuilt" if rebuilt else "up to date")
        return _answered(store, questions, docs, conll_out, answer_prior)


def _warn_of_other_documents(in_store: int, documents: int, docs: Path) -> None:
    """Warn when the store holds ``in_store`` documents, more than the ``documents`` of ``docs``."""
    if in_store > documents:
        logger.warning(
            "the store holds %d documents besides the %d of %s; answers count incidents over all %d",
            in_store - documents,
            documents,
            docs,
            in_store,
        )


def documents_in_store(docs: Path, location) -> int | None:
    """The number of documents of ``docs`` when the embedded store at ``location`` already holds each from the
    same content and incidents grouped over all its documents (nothing to write), read without taking the store
    from a writer; None otherwise, and for a server store or a folder that is not a store yet."""
    from kg_count.graph.document_graph import content_hash
    from kg_count.graph.store import GraphStore, is_endpoint, is_store_folder
    from kg_count.incidents.update.materialise import fingerprint, stored_fingerprint
    from kg_count.io.articles import iter_any
    from kg_count.nlp.record_cache import document_key

    if is_endpoint(location) or not is_store_folder(Path(location)):
        return None
    wanted = {document.doc_id: content_hash(document_key(document)) for document in iter_any(docs)}
    with GraphStore(location, create=False) as store:
        if store.document_versions(list(wanted)) != wanted:
            return None
        stored = stored_fingerprint(store)
        return len(wanted) if stored is not None and stored == fingerprint(store) else None


def _answered(store, questions: Mapping[str, Question], docs: Path, conll_out: Path | None, answer_prior: bool) -> dict:
    """The answers from ``store`` by question id; with ``conll_out``, the chains of ``docs`` written there too."""
    from kg_count.answer.graph_answer import answer_from_store

    answers = answer_from_store(store, questions, answer_prior)
    if conll_out is not None:
        from kg_count.answer.chains import write_chains
        from kg_count.io.articles import iter_any

        write_chains(conll_out, store, list(iter_any(docs)))
    return answers


def answer_file(
    system: str,
    docs: Path,
    questions: Path,
    out: Path,
    store_path=None,
    conll_out: Path | None = None,
    build: dict | None = None,
    answer_prior: bool = True,
) -> dict:
    """Answer the questions file ``questions`` over the documents ``docs`` with ``system``; write ``out``.

    Questions are validated before the documents are read. The graph system first builds what
    the store lacks (``build``: the options of ``build_store``) and the incidents over the whole
    store, and weighs the learned answer prior unless ``answer_prior`` is False. Returns the answers by
    question id.
    """
    from kg_count.io.answers import write_system_answers
    from kg_count.io.questions import read_questions

    parsed = read_questions(questions)
    if system == "baseline":
        from kg_count.answer.baseline import answer_baseline
        from kg_count.io.articles import read_any

        if conll_out is not None:
            raise UsageError("--conll-out needs the graph system")
        answers = answer_baseline(parsed, read_any(docs))
    else:
        answers = answer_with_graph(parsed, docs, store_path, conll_out, build, answer_prior)
    write_system_answers(out, answers)
    return answers
