"""Plain news articles as JSON lines (doc_id, title, dct, content), turned into task-style Documents.

Token ids follow the CoNLL scheme: ``ID.t1.N`` for the title, ``ID.bP.N`` for body paragraph P,
with tokens from spaCy's tokenizer; line breaks become NEWLINE tokens.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from typing import Iterator

from kg_count.errors import InputError
from kg_count.io.conll import NEWLINE_TOKEN, Document, Token

REQUIRED_FIELDS = ("doc_id", "title", "dct", "content")


def _tokens(tokenizer, doc_id: str, title: str, content: str) -> list[Token]:
    tokens = [Token(f"{doc_id}.t1.{i}", t.text, "TITLE", "t1", i)
              for i, t in enumerate((t for t in tokenizer(title) if not t.is_space), start=1)]
    paragraphs = [p.strip() for p in content.split("\n") if p.strip()]
    for number, paragraph in enumerate(paragraphs, start=1):
        first = 1 if number == 1 else 0
        words = [t.text for t in tokenizer(paragraph) if not t.is_space]
        sentence = f"b{number}"
        tokens += [Token(f"{doc_id}.{sentence}.{i}", w, "BODY", sentence, i) for i, w in enumerate(words, start=first)]
        tokens.append(Token(f"{doc_id}.{sentence}.{first + len(words)}", NEWLINE_TOKEN, "BODY", sentence,
                            first + len(words)))
    return tokens


def iter_articles(path: str | os.PathLike) -> Iterator[Document]:
    """Yield one Document per JSON line; InputError names the file and line of a bad record."""
    from kg_count.nlp.model import load_model

    tokenizer = load_model().tokenizer
    try:
        handle = open(path, encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise InputError(f"invalid JSON: {error.msg}", path, number) from None
            missing = [f for f in REQUIRED_FIELDS if not isinstance(record, dict) or f not in record]
            if missing:
                raise InputError(f"article lacks {', '.join(missing)}", path, number)
            doc_id = str(record["doc_id"])
            try:
                dct = dt.date.fromisoformat(str(record["dct"])[:10])
            except ValueError:
                raise InputError(f"dct {record['dct']!r} is not a date", path, number, f"document {doc_id}") from None
            tokens = _tokens(tokenizer, doc_id, str(record["title"]), str(record["content"]))
            if not any(not t.is_layout for t in tokens):
                raise InputError("article has no text", path, number, f"document {doc_id}")
            yield Document(doc_id, dct, tokens)


def iter_any(path: str | os.PathLike) -> Iterator[Document]:
    """Documents from a CoNLL file, or from JSON lines when the name ends in .jsonl or .json."""
    from kg_count.io.conll import iter_documents

    name = str(path).lower()
    return iter_articles(path) if name.endswith((".jsonl", ".json")) else iter_documents(path)


def count_any(path: str | os.PathLike) -> int:
    """The number of documents in a CoNLL or JSON-lines file, by a quick scan of its lines (for progress bars)."""
    articles = str(path).lower().endswith((".jsonl", ".json"))
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            if articles:
                return sum(1 for line in handle if line.strip())
            return sum(1 for line in handle if line.startswith("#begin document"))
    except FileNotFoundError:
        raise InputError("file not found", path) from None
