"""Every project term the graphs use is declared in ontology/kg_count.ttl, with its kind."""

from importlib.resources import files
from pathlib import Path

import pytest
from rdflib import OWL, RDF, Graph

from kg_count.graph.namespaces import KGC
from kg_count.graph.store import GraphStore
from kg_count.io.conll import iter_documents, write_documents

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
KINDS = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, KGC.EventType}


def declared() -> dict:
    ontology = Graph().parse(data=files("kg_count.ontology").joinpath("kg_count.ttl").read_text(), format="turtle")
    return {term: set(ontology.objects(term, RDF.type)) for term in ontology.subjects(RDF.type, None)}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from kg_count.graph.loader import build_store
    from kg_count.incidents.materialise import ensure_incidents

    folder = tmp_path_factory.mktemp("vocabulary")
    write_documents(folder / "docs.conll", [d for _, d in zip(range(12), iter_documents(SAMPLE / "docs.conll"))])
    build_store(folder / "docs.conll", folder / "store")
    with GraphStore(folder / "store") as opened:
        ensure_incidents(opened)
        yield opened


def test_document_and_incident_graphs_use_only_declared_project_terms(store):
    terms = declared()
    predicates = {row.p for row in store.query("SELECT DISTINCT ?p WHERE { GRAPH ?g { ?s ?p ?o } }")}
    classes = {row.c for row in store.query("SELECT DISTINCT ?c WHERE { GRAPH ?g { ?s a ?c } }")}
    undeclared = sorted(str(t) for t in predicates | classes if t.startswith(str(KGC)) and t not in terms)
    assert undeclared == []
    assert all(terms[p] & {OWL.ObjectProperty, OWL.DatatypeProperty} for p in predicates if p in terms)
    assert all(OWL.Class in terms[c] for c in classes if c in terms)


def test_object_properties_link_resources_and_datatype_properties_hold_literals(store):
    terms = declared()
    rows = store.query("SELECT DISTINCT ?p (isLiteral(?o) AS ?literal) WHERE { GRAPH ?g { ?s ?p ?o } }")
    wrong = sorted(f"{row.p} {'literal' if row.literal.toPython() else 'resource'}" for row in rows
                   if row.p in terms and (OWL.DatatypeProperty in terms[row.p]) != row.literal.toPython())
    assert wrong == []


def test_the_frame_lexicon_uses_only_declared_project_terms():
    lexicon = Graph().parse(data=files("kg_count.ontology").joinpath("frames.ttl").read_text(), format="turtle")
    terms = declared()
    used = {p for p in lexicon.predicates()} | set(lexicon.objects(None, RDF.type))
    assert sorted(str(t) for t in used if t.startswith(str(KGC)) and t not in terms) == []
