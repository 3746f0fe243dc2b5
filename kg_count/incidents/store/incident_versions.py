"""Where the store's incidents live: a numbered version graph that readers find through a pointer.

A grouping of the whole store writes its incident graph anew under the next version's name
(``http://kg-count.org/incidents/version/N``), in transactions of ``[batch] incident_write_chunk`` triples
(one transaction for a large archive's incidents held gigabytes), and then switches readers to it in one small
update: the pointer ``<http://kg-count.org/incidents> kgc:currentGraph <version>`` in the index graph
``INCIDENT_GRAPH``. The version before is then dropped, in chunks, from an embedded store (which one process
holds at a time); a SPARQL server keeps it until the next full write, so that a reader in another process
that found it just before the switch still reads it whole. A write cut short leaves a partial version no
pointer names, which the next full write drops. Regrouping after added documents changes the current
version in place, in one update.

Queries name the incident graph by the slot ``%INCIDENTS%`` (``GRAPH %INCIDENTS% { ... }``), which
``incident_sparql`` fills with the current version: a query that forgets it does not parse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from rdflib import RDF, Namespace, URIRef

from kg_count.graph.namespaces import KGC
from kg_count.incidents.store.incident_graph import INCIDENT_GRAPH
from kg_count.progress import progress_bar
from kg_count.settings import settings

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore

INCIDENTS_SLOT = "%INCIDENTS%"
INCIDENT_VERSION = Namespace(f"{INCIDENT_GRAPH}/version/")
NO_INCIDENTS = INCIDENT_VERSION["none"]  # what the slot reads before any grouping: a graph that holds nothing


def current_version(store: GraphStore) -> URIRef | None:
    """The graph the store's incidents are read from now, or None before the first grouping."""
    index = INCIDENT_GRAPH.n3()
    rows = list(store.values(f"SELECT ?g WHERE {{ GRAPH {index} {{ {index} <{KGC.currentGraph}> ?g }} }}"))
    return URIRef(rows[0][0]) if rows else None


def incident_sparql(store: GraphStore, sparql: str) -> str:
    """``sparql`` with its ``%INCIDENTS%`` slot naming the store's current incident graph; ValueError when the
    query has no slot (it would read every version, or none)."""
    if INCIDENTS_SLOT not in sparql:
        raise ValueError(f"an incident query names the incident graph by {INCIDENTS_SLOT}: {sparql[:80]!r}")
    return sparql.replace(INCIDENTS_SLOT, (current_version(store) or NO_INCIDENTS).n3())


def _version_number(name: URIRef | None) -> int:
    return int(str(name).removeprefix(str(INCIDENT_VERSION))) if name is not None else 0


def stored_versions(store: GraphStore) -> list[URIRef]:
    """Every incident version graph the store holds (current, previous and any a cut-short write left)."""
    query = f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?g a <{KGC.IncidentGraph}> }} }}"
    return [URIRef(name) for (name,) in store.values(query)]


def write_version(store: GraphStore, triples: Iterable[tuple], facts: Iterable[tuple] = ()) -> URIRef:
    """Write a new incident version holding ``triples`` (rdflib triples, in transactions of ``[batch]
    incident_write_chunk``) and the (predicate, object) ``facts`` about the version itself, then point readers
    at it in one update and, in an embedded store, drop the version before; return its name. First drops the
    versions no reader can still be reading (all but the current) and what a store of the single-graph layout
    kept in the index."""
    current = current_version(store)
    for name in stored_versions(store):
        if name != current:
            store.delete_in_chunks(name)
    store.delete_in_chunks(INCIDENT_GRAPH, keep=KGC.currentGraph)
    version = INCIDENT_VERSION[str(_version_number(current) + 1)]
    store.update_graph(version, [], [(version, RDF.type, KGC.IncidentGraph), *((version, *fact) for fact in facts)])
    with progress_bar("writing the incident graph", unit=" triples") as bar:
        for chunk in triple_chunks(triples, settings().batch.incident_write_chunk):
            store.update_graph(version, [], chunk)
            store.flush()  # unflushed, the store's write buffers grew by 0.9 GB over 940,000 triples
            bar.update(len(chunk))
    pointer = [(INCIDENT_GRAPH, KGC.currentGraph, version)]
    before = [] if current is None else [f"{INCIDENT_GRAPH.n3()} <{KGC.currentGraph}> {current.n3()} ."]
    store.update_graph(INCIDENT_GRAPH, before, pointer)
    if current is not None and not store.remote:  # no other process reads an embedded store
        store.delete_in_chunks(current)
    store.flush()
    return version


def triple_chunks(triples: Iterable[tuple], size: int) -> Iterable[list[tuple]]:
    """``triples`` in lists of ``size`` (the last one shorter)."""
    chunk: list[tuple] = []
    for triple in triples:
        chunk.append(triple)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def current_triples(store: GraphStore) -> set[tuple]:
    """The triples of the current incident version (rdflib terms, simple literals without ``xsd:string``), its
    own name written as ``INCIDENT_GRAPH``: two stores with the same incidents give the same set whatever their
    version numbers."""
    from kg_count.graph.results import simple_literal

    version = current_version(store)
    if version is None:
        return set()
    rows = store.query(f"SELECT ?s ?p ?o WHERE {{ GRAPH {version.n3()} {{ ?s ?p ?o }} }}")
    return {(INCIDENT_GRAPH if row.s == version else row.s, row.p, simple_literal(row.o)) for row in rows}
