"""Document graphs: built from the sample, valid against the SHACL shapes, stored, dumped, queried."""

from pathlib import Path

import pyshacl
import pytest
from rdflib import Graph

from kg_count.cli import main
from kg_count.graph.document_graph import document_graph
from kg_count.graph.store import GraphStore
from kg_count.io.conll import iter_documents
from kg_count.nlp.pipeline import process
from tests.helpers import SAMPLE

ONTOLOGY = Path(__file__).resolve().parents[1] / "ontology"


@pytest.fixture(scope="module")
def records():
    documents = [d for _, d in zip(range(12), iter_documents(SAMPLE / "docs.conll"))]
    return list(process(documents))


def test_graphs_satisfy_the_shacl_shapes(records):
    shapes = Graph().parse(ONTOLOGY / "shapes.ttl")
    ontology = Graph().parse(ONTOLOGY / "kg_count.ttl")
    for record in records:
        graph = document_graph(record)
        conforms, _, report = pyshacl.validate(graph, shacl_graph=shapes, ont_graph=ontology, inference="rdfs")
        assert conforms, report


def test_shapes_reject_a_broken_graph(records):
    from rdflib import Literal

    from kg_count.graph.namespaces import KGC

    graph = document_graph(records[0])
    event = next(graph.subjects(KGC.reportedIn, None))
    graph.add((event, KGC.killedCount, Literal(-1)))
    shapes = Graph().parse(ONTOLOGY / "shapes.ttl")
    conforms, _, _ = pyshacl.validate(
        graph, shacl_graph=shapes, ont_graph=Graph().parse(ONTOLOGY / "kg_count.ttl"), inference="rdfs"
    )
    assert not conforms


def test_every_mention_keeps_its_conll_token_ids(records):
    for record in records:
        for mention in record.event_mentions:
            assert mention.token_ids and all(t.startswith(record.doc_id + ".") for t in mention.token_ids)


def test_store_persists_skips_and_replaces(tmp_path, records):
    with GraphStore(tmp_path / "store") as store:
        for record in records[:3]:
            store.add(record)
        size = len(store)
        store.add(records[0])
        assert len(store) == size
    with GraphStore(tmp_path / "store") as store:
        assert store.has_document(records[0].doc_id) and not store.has_document(records[5].doc_id)
        rows = list(store.query("SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { ?d a kgc:Document }"))
        assert int(rows[0][0]) == 3
        assert "kgc:reportedIn" in store.document_turtle(records[1].doc_id) or records[1].event_types == []


def test_build_resume_dump_sparql_extract_from_the_cli(tmp_path, capsys):
    docs = tmp_path / "docs.conll"
    from kg_count.io.conll import write_documents

    documents = [d for _, d in zip(range(4), iter_documents(SAMPLE / "docs.conll"))]
    write_documents(docs, documents[:2])
    store = tmp_path / "store"
    assert main(["build", "--docs", str(docs), "--store", str(store)]) == 0
    assert "2 added" in capsys.readouterr().out
    write_documents(docs, documents)
    assert main(["build", "--docs", str(docs), "--store", str(store)]) == 0
    assert "2 already in the store, 2 added" in capsys.readouterr().out
    assert main(["dump", "--store", str(store), "--doc", documents[0].doc_id]) == 0
    turtle = capsys.readouterr().out
    assert Graph().parse(data=turtle, format="turtle")
    assert (
        main(["sparql", "--store", str(store), "--format", "csv", "SELECT ?id WHERE { ?d kgc:docId ?id } ORDER BY ?id"])
        == 0
    )
    assert capsys.readouterr().out.splitlines()[1:] == sorted(d.doc_id for d in documents)
    assert main(["dump", "--store", str(store), "--doc", "nope"]) == 1
    assert main(["sparql", "--store", str(store), "SELECT WHERE {"]) == 1
    out = tmp_path / "docs.jsonl"
    assert main(["extract", "--docs", str(docs), "--out", str(out)]) == 0
    import json

    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["doc_id"] for line in lines] == [d.doc_id for d in documents]
    assert {"event_types", "incident_date", "city", "state", "killed", "injured", "fired", "participants"} <= set(
        lines[0]
    )


def test_a_vocabulary_gives_each_term_once_and_as_rdflib_would():
    from rdflib import Namespace, URIRef

    from kg_count.graph.namespaces import KGC, TIME

    plain = Namespace(str(KGC))
    assert KGC.city is KGC.city and KGC["city"] is KGC.city
    assert KGC.city == plain.city and type(KGC.city) is URIRef
    assert TIME.inXSDDate == URIRef("http://www.w3.org/2006/time#inXSDDate")
    assert KGC.title == plain.title  # str.title is a method; rdflib's namespace gives the term
