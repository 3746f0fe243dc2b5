"""RDF terms and statements as N-Triples text, written without rdflib's term objects (which check every IRI and
convert every literal: most of the time of turning a document's record into its graph).

The text is what a SPARQL ``INSERT DATA`` block or an N-Triples file takes: ``<iri>``, ``"text"`` and
``"text"^^<datatype>``, a statement ``s p o .``.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from functools import lru_cache

from rdflib import XSD

# characters an IRI may not hold (RFC 3987 and SPARQL's IRIREF), written percent-encoded
IRI_ESCAPES = str.maketrans({c: f"%{ord(c):02X}" for c in '<>"{}|^`\\ ' + "".join(map(chr, range(0x21)))})
LITERAL_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"})
INTEGER_TYPE = str(XSD.nonNegativeInteger)


def iri(text: str) -> str:
    """The N-Triples form of the IRI ``text``: ``<text>``, with the characters an IRI may not hold percent-encoded."""
    return f"<{text.translate(IRI_ESCAPES)}>"


@lru_cache(maxsize=1024)
def term(text: str) -> str:
    """``iri`` of a vocabulary term, rendered once per process."""
    return iri(text)


def literal(text: str, datatype: str | None = None) -> str:
    """The N-Triples form of a literal of lexical form ``text``: quoted, its backslashes, quotes and line breaks
    escaped, with ``^^<datatype>`` when a datatype IRI is given."""
    quoted = f'"{text.translate(LITERAL_ESCAPES)}"'
    return quoted if datatype is None else f"{quoted}^^{term(datatype)}"


def count_literal(value: int) -> str:
    """An ``xsd:nonNegativeInteger`` literal of ``value``."""
    return literal(str(int(value)), INTEGER_TYPE)


def date_literal(value: dt.date) -> str:
    """An ``xsd:date`` literal of ``value`` (ISO 8601, no time zone)."""
    return literal(value.isoformat(), str(XSD.date))


def decimal_literal(value: float) -> str:
    """An ``xsd:decimal`` literal of ``value`` as its shortest decimal text, without an exponent ("0.0000001")."""
    return literal(format(Decimal(str(value)), "f"), str(XSD.decimal))


def statement(subject: str, predicate: str, object_: str) -> str:
    """One statement of three N-Triples terms."""
    return f"{subject} {predicate} {object_} ."
