"""The incident graph's versions: a full write goes into a new version graph in chunks, readers switch to it in one
update, and what no reader can still be reading is dropped by the next full write."""

import pytest
from rdflib import RDF, Literal, URIRef

from kg_count.graph.namespaces import KGC
from kg_count.graph.store import GraphStore
from kg_count.incidents.store.incident_graph import INCIDENT_GRAPH
from kg_count.incidents.store.incident_versions import (
    INCIDENT_VERSION,
    NO_INCIDENTS,
    current_triples,
    current_version,
    incident_sparql,
    stored_versions,
    write_version,
)
from kg_count.settings import SETTINGS_ENV

EX = "http://example.org/"


def triples(n: int, tag: str) -> list[tuple]:
    return [(URIRef(f"{EX}i{k}"), KGC.incidentId, Literal(f"{tag}{k}")) for k in range(n)]


def graph_size(store: GraphStore, name: URIRef) -> int:
    return int(next(iter(store.values(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {name.n3()} {{ ?s ?p ?o }} }}")))[0])


@pytest.fixture
def store(tmp_path, monkeypatch):
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text("[batch]\nincident_write_chunk = 3\n")  # several transactions for a few triples
    monkeypatch.setenv(SETTINGS_ENV, str(settings_file))
    with GraphStore(tmp_path / "store") as opened:
        yield opened


def test_before_any_grouping_the_slot_names_a_graph_that_holds_nothing(store):
    assert current_version(store) is None
    assert NO_INCIDENTS.n3() in incident_sparql(store, "SELECT * WHERE { GRAPH %INCIDENTS% { ?s ?p ?o } }")
    assert current_triples(store) == set()


def test_a_query_without_the_slot_is_refused(store):
    with pytest.raises(ValueError, match="%INCIDENTS%"):
        incident_sparql(store, "SELECT * WHERE { ?s kgc:incidentId ?id }")


def test_readers_read_the_version_written_last_whole_and_an_embedded_store_keeps_no_other(store):
    first = write_version(store, triples(10, "a"), [(KGC.builtFrom, Literal("one"))])
    assert first == INCIDENT_VERSION["1"] and current_version(store) == first
    assert current_triples(store) == {
        *triples(10, "a"),
        (INCIDENT_GRAPH, KGC.builtFrom, Literal("one")),
        (INCIDENT_GRAPH, RDF.type, KGC.IncidentGraph),
    }
    second = write_version(store, triples(4, "b"))
    assert second == INCIDENT_VERSION["2"]
    query = "SELECT ?id WHERE { GRAPH %INCIDENTS% { ?i kgc:incidentId ?id } }"
    ids = {row[0] for row in store.values(incident_sparql(store, query))}
    assert ids == {"b0", "b1", "b2", "b3"}
    assert stored_versions(store) == [second] and graph_size(store, first) == 0


def test_a_server_keeps_the_version_before_until_the_next_full_write(oxigraph_server, tmp_path, monkeypatch):
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text("[batch]\nincident_write_chunk = 3\n")
    monkeypatch.setenv(SETTINGS_ENV, str(settings_file))
    with GraphStore(oxigraph_server) as server:
        first = write_version(server, triples(5, "a"))
        second = write_version(server, triples(5, "b"))
        assert set(stored_versions(server)) == {first, second}  # a reader elsewhere may have just found the first
        third = write_version(server, triples(5, "c"))
        assert set(stored_versions(server)) == {second, third} and graph_size(server, first) == 0


def test_the_next_full_write_drops_what_a_cut_short_write_left_and_the_single_graph_layout(store):
    write_version(store, triples(5, "a"))
    left = INCIDENT_VERSION["9"]  # a write cut short: its graph, no pointer to it
    store.update_graph(left, [], [(left, RDF.type, KGC.IncidentGraph), *triples(7, "x")])
    store.update_graph(INCIDENT_GRAPH, [], triples(8, "legacy"))  # what the single-graph layout kept there
    second = write_version(store, triples(5, "c"))
    assert stored_versions(store) == [second]
    assert graph_size(store, left) == 0
    assert graph_size(store, INCIDENT_GRAPH) == 1  # the pointer alone
