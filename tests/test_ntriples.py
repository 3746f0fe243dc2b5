"""N-Triples text of terms and statements, written without rdflib: what it writes reads back as the values given,
by rdflib's parser and by Oxigraph's."""

import datetime as dt
from decimal import Decimal

import pyoxigraph
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import XSD, Graph, Literal, URIRef

from kg_count.graph.ntriples import count_literal, date_literal, decimal_literal, iri, literal, statement

SUBJECT = iri("http://example.org/s")
PREDICATE = iri("http://example.org/p")


def _read_back(object_: str):
    """The object of the one statement ``SUBJECT PREDICATE object_`` as rdflib and Oxigraph read it."""
    text = statement(SUBJECT, PREDICATE, object_)
    (triple,) = Graph().parse(data=text, format="nt")
    (quad,) = pyoxigraph.parse(text.encode(), format=pyoxigraph.RdfFormat.N_TRIPLES)
    return triple[2], quad.object


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
def test_any_text_reads_back_as_itself(text):
    by_rdflib, by_oxigraph = _read_back(literal(text))
    assert str(by_rdflib) == text and by_oxigraph.value == text


def test_quotes_backslashes_and_line_breaks_are_escaped():
    text = 'a "quoted" \\ word\nand\r\tmore'
    assert literal(text) == '"a \\"quoted\\" \\\\ word\\nand\\r\tmore"'
    assert str(_read_back(literal(text))[0]) == text


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.dates(), st.floats(min_value=0, max_value=1))
def test_typed_literals_read_back_as_rdflib_writes_them(count, date, probability):
    assert _read_back(count_literal(count))[0] == Literal(count, datatype=XSD.nonNegativeInteger)
    assert _read_back(date_literal(date))[0] == Literal(date, datatype=XSD.date)
    assert _read_back(decimal_literal(probability))[0] == Literal(Decimal(str(probability)), datatype=XSD.decimal)


def test_a_decimal_has_no_exponent():
    assert decimal_literal(1e-07).startswith('"0.0000001"^^')
    assert _read_back(date_literal(dt.date(2017, 1, 5)))[1].value == "2017-01-05"


def test_characters_an_iri_may_not_hold_are_percent_encoded():
    written = iri('http://example.org/a b<c>"d"')
    assert written == "<http://example.org/a%20b%3Cc%3E%22d%22>"
    by_rdflib, _ = _read_back(written)
    assert by_rdflib == URIRef("http://example.org/a%20b%3Cc%3E%22d%22")
    assert iri("http://dbpedia.org/resource/Memphis,_Tennessee") == "<http://dbpedia.org/resource/Memphis,_Tennessee>"
