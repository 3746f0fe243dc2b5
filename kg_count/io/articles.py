"""Plain news articles as JSON lines (doc_id, title, dct, content), turned into task-style Documents.

Token ids follow the CoNLL scheme: ``ID.t1.N`` for the title, ``ID.bP.N`` for body paragraph P,
with tokens from spaCy's English tokenizer rules (the same rules as the pipeline's model, without
loading it); line breaks become NEWLINE tokens.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from functools import lru_cache
from typing import Iterator

from spacy.tokenizer import Tokenizer

from kg_count.errors import InputError
from kg_count.io.conll import BEGIN_RE, NEWLINE_TOKEN, Document, Token, parse_dct, text_lines

REQUIRED_FIELDS = ("doc_id", "title", "dct", "content")


@lru_cache(maxsize=1)
def english_tokenizer() -> Tokenizer:
    """spaCy's rule-based English tokenizer (no trained model needed)."""
    import spacy

    return spacy.blank("en").tokenizer


def _tokens(tokenizer: Tokenizer, doc_id: str, title: str, content: str) -> list[Token]:
    tokens = [
        Token(f"{doc_id}.t1.{i}", t.text, "TITLE", "t1", i)
        for i, t in enumerate((t for t in tokenizer(title) if not t.is_space), start=1)
    ]
    paragraphs = [p.strip() for p in content.split("\n") if p.strip()]
    for number, paragraph in enumerate(paragraphs, start=1):
        first = 1 if number == 1 else 0
        words = [t.text for t in tokenizer(paragraph) if not t.is_space]
        sentence = f"b{number}"
        tokens += [Token(f"{doc_id}.{sentence}.{i}", w, "BODY", sentence, i) for i, w in enumerate(words, start=first)]
        tokens.append(
            Token(f"{doc_id}.{sentence}.{first + len(words)}", NEWLINE_TOKEN, "BODY", sentence, first + len(words))
        )
    return tokens


def _json_lines(path: str | os.PathLike) -> Iterator[tuple[int, object]]:
    """Yield (line number, parsed JSON) of each non-blank line; InputError names the line of invalid JSON."""
    for number, line in text_lines(path):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"invalid JSON: {error.msg}", path, number) from None


def _checked_article(record: object, path: object, number: int) -> tuple[str, dt.date]:
    """The id and DCT of one article record; InputError names the file, line and id of a bad one."""
    missing = [f for f in REQUIRED_FIELDS if not isinstance(record, dict) or f not in record]
    if missing:
        raise InputError(f"article lacks {', '.join(missing)}", path, number)
    doc_id = str(record["doc_id"])
    dct = parse_dct(str(record["dct"])[:10], path, number, doc_id)
    if not str(record["title"]).strip() and not str(record["content"]).strip():
        raise InputError("article has no text", path, number, f"document {doc_id}")
    return doc_id, dct


def iter_articles(path: str | os.PathLike) -> Iterator[Document]:
    """Yield one Document per JSON line; InputError names the file and line of a bad record."""
    tokenizer = english_tokenizer()
    for number, record in _json_lines(path):
        doc_id, dct = _checked_article(record, path, number)
        tokens = _tokens(tokenizer, doc_id, str(record["title"]), str(record["content"]))
        if not any(not t.is_layout for t in tokens):
            raise InputError("article has no text", path, number, f"document {doc_id}")
        yield Document(doc_id, dct, tokens)


def iter_any(path: str | os.PathLike) -> Iterator[Document]:
    """Documents from a CoNLL file, or from JSON lines when the name ends in .jsonl or .json."""
    from kg_count.io.conll import iter_documents

    return iter_articles(path) if _is_articles(path) else iter_documents(path)


def read_any(path: str | os.PathLike) -> dict[str, Document]:
    """Every document of a CoNLL or JSON-lines file (``iter_any``), keyed by document id."""
    from kg_count.io.conll import keyed_documents

    return keyed_documents(iter_any(path), path)


def _is_articles(path: str | os.PathLike) -> bool:
    return str(path).lower().endswith((".jsonl", ".json"))


def document_ids(path: str | os.PathLike) -> list[str]:
    """The document ids of a CoNLL or JSON-lines file in file order, by a quick scan of its lines.

    InputError names the file, the line and the id when an id appears twice (a second document
    under one id would silently replace the first), when the file holds no document, and, for
    articles, when a record lacks a field, has a bad DCT or no text.
    """
    seen: dict[str, int] = {}
    if _is_articles(path):
        entries = ((n, _checked_article(r, path, n)[0]) for n, r in _json_lines(path))
    else:
        entries = ((n, m["doc"]) for n, m in ((n, BEGIN_RE.match(line)) for n, line in text_lines(path)) if m)
    for number, doc_id in entries:
        if doc_id in seen:
            raise InputError(
                f"document id appears twice (first on line {seen[doc_id]})", path, number, f"document {doc_id}"
            )
        seen[doc_id] = number
    if not seen:
        kind = "JSON lines of articles" if _is_articles(path) else "'#begin document (ID);' lines"
        raise InputError(f"no documents found (expected {kind})", path)
    return list(seen)
