"""spaCy annotation on a document's own tokens, so every span maps back to CoNLL token ids.

The NEWLINE and EMPTY placeholder tokens are left out of the spaCy ``Doc``; ``positions[i]``
gives the document token position of spaCy token ``i``. Sentence starts come from the CoNLL
sentence ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator

from kg_count.blas_threads import single_threaded_blas
from kg_count.io.conll import Document
from kg_count.nlp.model import load_model
from kg_count.settings import settings

PLAIN_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})  # typographic quotes, one for one

if TYPE_CHECKING:
    from spacy.tokens import Doc


@dataclass
class AnnotatedDocument:
    """A document, its spaCy ``Doc`` and the map from spaCy token index to document token position."""

    document: Document
    doc: Doc
    positions: list[int]

    def token_ids(self, start: int, end: int) -> list[str]:
        """CoNLL token ids of spaCy tokens ``start`` to ``end`` (exclusive)."""
        return [self.document.tokens[self.positions[i]].token_id for i in range(start, end)]


def to_spacy_doc(document: Document, vocab) -> tuple[object, list[int]]:
    """Build an unannotated spaCy ``Doc`` from a document's words with CoNLL sentence starts, typographic quotes
    made plain (``PLAIN_QUOTES``: the tagger and recogniser read "O'Neal" as a name, not "O’Neal"; one character for
    one, so character offsets stay the document's)."""
    from spacy.tokens import Doc

    words, positions, starts = [], [], []
    previous_sentence = None
    for position, token in enumerate(document.tokens):
        if token.is_layout:
            continue
        starts.append(token.sentence != previous_sentence)
        previous_sentence = token.sentence
        words.append(token.text.translate(PLAIN_QUOTES))
        positions.append(position)
    doc = Doc(vocab, words=words, sent_starts=[True if s else False for s in starts] if words else None)
    return doc, positions


def annotate(documents: Iterable[Document], batch_size: int | None = None, nlp=None) -> Iterator[AnnotatedDocument]:
    """Run the spaCy pipeline (``nlp``, else ``load_model()``) over documents in batches (of [batch] documents
    unless given), its matrix products on one BLAS thread; yield them annotated, in order."""
    nlp = nlp or load_model()
    pending: list[tuple[Document, list[int]]] = []

    def docs() -> Iterator[object]:
        for document in documents:
            doc, positions = to_spacy_doc(document, nlp.vocab)
            pending.append((document, positions))
            yield doc

    with single_threaded_blas():
        for doc in nlp.pipe(docs(), batch_size=batch_size or settings().batch.documents):
            document, positions = pending.pop(0)
            yield AnnotatedDocument(document, doc, positions)
