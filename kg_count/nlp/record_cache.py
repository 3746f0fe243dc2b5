"""A cache of extracted DocumentRecords keyed by the hash of the document's content and the pipeline version.

One SQLite file (``kg_count.io.sqlite_cache``), shared by every build on the machine, so builds
running side by side share it. A document whose content or pipeline version
changed gets a new key, so stale records are never read.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import deque
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kg_count.io.conll import Document
from kg_count.io.sqlite_cache import SqliteCache
from kg_count.nlp.version import pipeline_version
from kg_count.nlp.record import DocumentRecord


def default_record_cache_path() -> Path:
    """``$KG_COUNT_RECORD_CACHE``, else ``records.sqlite`` in the project cache folder."""
    from kg_count.resources.project_cache import project_cache

    return Path(os.environ.get("KG_COUNT_RECORD_CACHE") or project_cache() / "records.sqlite")


def document_key(document: Document) -> str:
    """SHA-256 of the pipeline version, the document id, its DCT and every token (id, word, part)."""
    digest = hashlib.sha256(f"{pipeline_version()}\n{document.doc_id}\n{document.dct.isoformat()}\n".encode())
    for token in document.tokens:
        digest.update(f"{token.token_id}\t{token.text}\t{token.part}\n".encode())
    return digest.hexdigest()


class RecordCache(SqliteCache):
    """Records by document key in a SQLite file (created when missing)."""

    def __init__(self, path: str | os.PathLike) -> None:
        super().__init__(path, "records", "record", what="record cache", hint="--no-cache builds without it")

    def get(self, key: str) -> DocumentRecord | None:
        """The record cached under ``key``, or None."""
        text = super().get(key)
        return DocumentRecord.from_json(json.loads(text)) if text is not None else None

    def put(self, key: str, record: DocumentRecord) -> None:
        """Cache ``record`` under ``key``."""
        super().put(key, json.dumps(record.to_json()))


def cached_records(
    documents: Iterable[Document],
    cache: RecordCache,
    extract: Callable[[Iterable[Document]], Iterator[DocumentRecord]],
    key_of: Callable[[Document], str] = document_key,
) -> Iterator[DocumentRecord]:
    """Yield a record per document: from ``cache`` when it holds one, else from ``extract`` (then cached).

    ``extract`` reads an iterable of documents and yields their records; ``key_of`` gives a
    document's cache key (a caller that already hashed the documents passes their hashes).
    Documents stream through, so memory does not grow with their number; cached records may come
    out ahead of their turn.
    """
    hits: deque[DocumentRecord] = deque()
    keys: dict[str, str] = {}

    def misses() -> Iterator[Document]:
        for document in documents:
            key = key_of(document)
            record = cache.get(key)
            if record is None:
                keys[document.doc_id] = key
                yield document
            else:
                hits.append(record)

    for record in extract(misses()):
        while hits:
            yield hits.popleft()
        cache.put(keys.pop(record.doc_id), record)
        yield record
    while hits:
        yield hits.popleft()
