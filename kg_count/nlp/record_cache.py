"""A cache of extracted DocumentRecords keyed by the hash of the document's content and the pipeline version.

One SQLite file in write-ahead-log mode, shared by every build on the machine: each record is
written in its own short transaction, and a writer waits for another's (up to BUSY_TIMEOUT
seconds), so builds running side by side share it. A document whose content or pipeline version
changed gets a new key, so stale records are never read.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections import deque
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kg_count.errors import InputError
from kg_count.io.conll import Document
from kg_count.nlp.version import pipeline_version
from kg_count.nlp.record import DocumentRecord

BUSY_TIMEOUT = 60.0


def default_cache_path() -> Path:
    """``$KG_COUNT_RECORD_CACHE``, else ``records.sqlite`` in the project cache folder."""
    from kg_count.resources.wordnet import project_cache

    return Path(os.environ.get("KG_COUNT_RECORD_CACHE") or project_cache() / "records.sqlite")


def document_key(document: Document) -> str:
    """SHA-256 of the pipeline version, the document id, its DCT and every token (id, word, part)."""
    digest = hashlib.sha256(f"{pipeline_version()}\n{document.doc_id}\n{document.dct.isoformat()}\n".encode())
    for token in document.tokens:
        digest.update(f"{token.token_id}\t{token.text}\t{token.part}\n".encode())
    return digest.hexdigest()


class RecordCache:
    """Records by document key in a SQLite file (created when missing)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.execute("CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, record TEXT NOT NULL)")
        except sqlite3.Error as error:
            raise InputError(
                f"cannot use the record cache: {error} (--no-cache builds without it)", self.path
            ) from None

    def get(self, key: str) -> DocumentRecord | None:
        row = self.connection.execute("SELECT record FROM records WHERE key = ?", (key,)).fetchone()
        return DocumentRecord.from_json(json.loads(row[0])) if row else None

    def put(self, key: str, record: DocumentRecord) -> None:
        self.connection.execute("INSERT OR REPLACE INTO records VALUES (?, ?)", (key, json.dumps(record.to_json())))

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> "RecordCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


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
