"""Which store serves a documents file: its default place, and whether it already holds the file's documents."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from kg_count.resources.project_cache import project_cache

logger = logging.getLogger(__name__)


def default_store(docs: Path) -> Path:
    """The store used for ``docs`` when none is given: under the kg_count cache, named after the file."""
    digest = hashlib.sha256(str(docs.resolve()).encode()).hexdigest()[:10]
    return project_cache() / "stores" / f"{docs.stem}-{digest}"


def warn_of_other_documents(in_store: int, documents: int, docs) -> None:
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
