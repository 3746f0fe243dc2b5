"""Every project term the graphs use is declared in ontology/kg_count.ttl, with its kind: the document and
incident graphs of a built store, and the passage graphs of reading comprehension (TORQUE and ESTER style)."""

from importlib.resources import files

import pytest
from rdflib import OWL, RDF, Graph

from kg_count.graph.namespaces import KGC, SEM
from kg_count.graph.store import GraphStore
from kg_count.io.conll import iter_documents, write_documents

from tests.helpers import SAMPLE

KINDS = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, KGC.EventType}


def declared() -> dict:
    ontology = Graph().parse(data=files("kg_count.ontology").joinpath("kg_count.ttl").read_text(), format="turtle")
    return {term: set(ontology.objects(term, RDF.type)) for term in ontology.subjects(RDF.type, None)}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from kg_count.graph.loader import build_store
    from kg_count.incidents.update.materialise import ensure_incidents

    folder = tmp_path_factory.mktemp("vocabulary")
    write_documents(folder / "docs.conll", [d for _, d in zip(range(12), iter_documents(SAMPLE / "docs.conll"))])
    build_store(folder / "docs.conll", folder / "store")
    with GraphStore(folder / "store") as opened:
        ensure_incidents(opened)
        yield opened


def undeclared_terms(predicates: set[str], classes: set[str]) -> list[str]:
    """Project terms among ``predicates`` and ``classes`` that the ontology lacks or declares as another kind."""
    terms = {str(term): {str(kind) for kind in kinds} for term, kinds in declared().items()}
    properties = {str(OWL.ObjectProperty), str(OWL.DatatypeProperty)}
    return sorted(
        [t for t in predicates | classes if t.startswith(str(KGC)) and t not in terms]
        + [f"{p} is not a property" for p in predicates if p in terms and not terms[p] & properties]
        + [f"{c} is not a class" for c in classes if c in terms and str(OWL.Class) not in terms[c]]
    )


def wrongly_filled(uses: set[tuple[str, bool]]) -> list[str]:
    """The ``(predicate, object is a literal)`` pairs where a datatype property holds a resource, or an
    object property (or a SEM property) holds a literal."""
    terms = {str(term): {str(kind) for kind in kinds} for term, kinds in declared().items()}
    return sorted(
        f"{p} {'literal' if literal else 'resource'}"
        for p, literal in uses
        if (p in terms and (str(OWL.DatatypeProperty) in terms[p]) != literal) or (p.startswith(str(SEM)) and literal)
    )


def test_document_and_incident_graphs_use_only_declared_project_terms(store):
    predicates = {str(row.p) for row in store.query("SELECT DISTINCT ?p WHERE { GRAPH ?g { ?s ?p ?o } }")}
    classes = {str(row.c) for row in store.query("SELECT DISTINCT ?c WHERE { GRAPH ?g { ?s a ?c } }")}
    assert undeclared_terms(predicates, classes) == []


def test_object_properties_link_resources_and_datatype_properties_hold_literals(store):
    rows = store.query("SELECT DISTINCT ?p (isLiteral(?o) AS ?literal) WHERE { GRAPH ?g { ?s ?p ?o } }")
    assert wrongly_filled({(str(row.p), row.literal.toPython()) for row in rows}) == []


PASSAGE = (
    "The police arrested the man after he shot two people outside a bar in Dayton on Friday. "
    "He will appear in court next week, and he might plead guilty."
)


@pytest.mark.parametrize("style", ["torque", "ester"])
def test_passage_graphs_use_declared_terms_of_the_right_kind(style):
    from kg_count.qa.passage_graph.analysis import analyse_passage
    from kg_count.qa.learned.model_set import shipped_qa_models

    graph = analyse_passage("p1", PASSAGE, shipped_qa_models(), style).graph.store
    uses = {
        (row["p"].value, row["literal"].value == "true")
        for row in graph.query("SELECT DISTINCT ?p (isLiteral(?o) AS ?literal) WHERE { ?s ?p ?o }")
    }
    classes = {row["c"].value for row in graph.query("SELECT DISTINCT ?c WHERE { ?s a ?c }")}
    predicates = {p for p, _ in uses}
    scored = KGC.statusEstimate if style == "torque" else KGC.relation
    assert {str(SEM.hasActor), str(KGC.object), str(KGC.eventStatus), str(scored)} <= predicates
    assert undeclared_terms(predicates, classes) == []
    assert wrongly_filled(uses) == []


def test_the_frame_lexicon_uses_only_declared_project_terms():
    lexicon = Graph().parse(data=files("kg_count.ontology").joinpath("frames.ttl").read_text(), format="turtle")
    terms = declared()
    used = {p for p in lexicon.predicates()} | set(lexicon.objects(None, RDF.type))
    assert sorted(str(t) for t in used if t.startswith(str(KGC)) and t not in terms) == []
