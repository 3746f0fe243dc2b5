"""Helpers for the pipeline tests: documents from plain sentences, annotated with the real model."""

from __future__ import annotations

import datetime as dt

from kg_count.io.conll import Document, Token
from kg_count.nlp.annotate import annotate


def document(body: str, title: str = "", dct: str = "2017-01-25", doc_id: str = "d") -> Document:
    """A Document whose title and body sentences (split on ' | ') are the given space-separated words."""
    tokens = [Token(f"{doc_id}.t1.{i}", w, "TITLE", "t1", i) for i, w in enumerate(title.split(), start=1)]
    for n, sentence in enumerate(body.split(" | "), start=1):
        first = 1 if n == 1 else 0
        tokens += [
            Token(f"{doc_id}.b{n}.{i}", w, "BODY", f"b{n}", i) for i, w in enumerate(sentence.split(), start=first)
        ]
    return Document(doc_id, dt.date.fromisoformat(dct), tokens)


def annotated(body: str, title: str = "", dct: str = "2017-01-25"):
    return next(annotate([document(body, title, dct)]))
