"""The graph store: one named graph per document, over either of two back ends.

- a folder: an embedded Oxigraph store on disk (rdflib's Dataset over oxrdflib), the default;
  a folder is taken as a store only when it is empty or holds one (``kg_count.store`` marks it);
- an ``http(s)://`` URL: a SPARQL 1.1 server with query and update (``endpoint.SparqlEndpoint``),
  at ``URL/query`` and ``URL/update`` (``oxigraph serve --union-default-graph``, or a Fuseki
  dataset with ``tdb2:unionDefaultGraph true``): queries read the union of the named graphs.
"""

from __future__ import annotations

import datetime as dt
import decimal
import re
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph
from oxrdflib import OxigraphStore
from rdflib import XSD, Dataset, Graph, Literal, URIRef

from kg_count.settings import settings
from kg_count.errors import InputError, StoreError, StoreHeld
from kg_count.graph.document_graph import document_id, document_iri, document_statements
from kg_count.graph.endpoint import SparqlEndpoint
from kg_count.graph.namespaces import KGC, SPARQL_PROLOGUE, bind_prefixes
from kg_count.graph.queries import read_query
from kg_count.graph.results import readable_graph, simple_literal
from kg_count.graph.store_holder import (
    holder_description,
    is_lock_error,
    open_read_only,
    record_writer,
    release_writer,
)
from kg_count.nlp.record import DocumentRecord

StoreLocation = Path | str
STORE_MARKER = "kg_count.store"
URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def store_location(text: str) -> StoreLocation:
    """Parse a ``--store`` value: an ``http(s)://`` endpoint URL stays a string, anything else is a folder.

    A URL of any other scheme (``ftp://``, ``file://``) is refused with a ValueError.
    """
    if URL_SCHEME.match(text):
        if not is_endpoint(text):
            raise ValueError(f"{text!r}: a store is a folder or an http(s):// SPARQL server URL")
        return text.rstrip("/")
    return Path(text)


def is_endpoint(location: StoreLocation) -> bool:
    """True when ``location`` is the URL of a SPARQL server rather than a folder."""
    return isinstance(location, str) and location.lower().startswith(("http://", "https://"))


def is_store_folder(path: Path) -> bool:
    """True when ``path`` is a folder holding a kg_count store (its marker, or the embedded store's own files)."""
    return path.is_dir() and (
        (path / STORE_MARKER).is_file() or ((path / "CURRENT").is_file() and (path / "IDENTITY").is_file())
    )


def _open_folder(path: Path, create: bool) -> tuple[Dataset, pyoxigraph.Store, bool]:
    """Open (or, when ``create``, make) the embedded store at ``path``; return rdflib's Dataset over it, the
    Oxigraph store itself (for flushing) and whether it was opened read-only. A read command (not ``create``)
    opens it read-only, so it never takes the folder from a writer: it sees the updates committed when it
    opens. A writer finding the folder held is refused, naming the holder (kg_count.graph.store_holder)."""
    if path.exists() and not path.is_dir():
        raise StoreError("the store must be a folder, not a file", path)
    empty = not path.is_dir() or not any(path.iterdir())
    if empty and not create:
        raise StoreError(f"no store here; build one with: kg-count build --docs DOCS --store {path}", path)
    if not empty and not is_store_folder(path):
        raise StoreError("not a kg_count store: the folder holds other files (give a new or empty folder)", path)
    if not create:
        try:
            oxigraph = open_read_only(path)
        except (OSError, ValueError) as error:
            raise StoreError(f"cannot open the store to read it: {error}", path) from None
        return Dataset(store=OxigraphStore(store=oxigraph), default_union=True), oxigraph, True
    path.mkdir(parents=True, exist_ok=True)
    try:
        oxigraph = pyoxigraph.Store(str(path))
    except (OSError, ValueError) as error:
        if is_lock_error(error):
            raise StoreHeld(
                f"the store is being written by {holder_description(path)}; one process writes a store at a "
                "time: wait for it to finish (read commands work beside it)",
                path,
            ) from None
        raise StoreError(f"cannot open the store: {error}", path) from None
    (path / STORE_MARKER).touch()
    record_writer(path)
    return Dataset(store=OxigraphStore(store=oxigraph), default_union=True), oxigraph, False


def _statements(triples: Iterable[tuple]) -> Iterator[str]:
    """An N-Triples-like line for each of ``triples`` (rdflib terms), for a SPARQL INSERT or DELETE DATA block."""
    return (f"{s.n3()} {p.n3()} {o.n3()} ." for s, p, o in triples)


STRING = str(XSD.string)
WHOLE_NUMBERS = {str(XSD.integer), str(XSD.nonNegativeInteger), str(XSD.int), str(XSD.long)}
# datatypes read without an rdflib Literal, to the value rdflib's toPython gives (dates without a time zone)
PLAIN_READERS = {
    str(XSD.decimal): decimal.Decimal,
    str(XSD.double): float,
    str(XSD.date): lambda text: (
        dt.date.fromisoformat(text) if len(text) == 10 else Literal(text, datatype=XSD.date).value
    ),
}


def _value(term):
    return term.toPython() if isinstance(term, Literal) else str(term)


def _oxigraph_value(term):
    """A pyoxigraph term as ``_value`` gives the rdflib one."""
    if term is None:
        return None
    if isinstance(term, pyoxigraph.Literal):
        datatype = term.datatype.value
        if datatype == STRING and term.language is None:
            return term.value
        if datatype in WHOLE_NUMBERS:
            return int(term.value)
        if datatype in PLAIN_READERS:
            return PLAIN_READERS[datatype](term.value)
        return Literal(term.value, lang=term.language, datatype=datatype).toPython()
    return term.value


class GraphStore:
    """A persistent store holding one named graph per document (see the module docstring for locations).

    ``create=False`` (read commands) refuses a location that holds no store instead of making one, and opens
    an embedded store read-only (``read_only``), so that it reads beside a writer, as the writer's committed
    updates left the store. Reads go through SPARQL only, so reading never creates or changes a graph.
    """

    def __init__(self, location: StoreLocation, create: bool = True) -> None:
        self.location = location
        self.remote = is_endpoint(location)
        self.path = None if self.remote else Path(location)
        self.read_only = False
        if self.remote:
            self.endpoint = SparqlEndpoint(location)
            self.endpoint.query("ASK { ?s ?p ?o }")
            self.dataset = self._oxigraph = None
        else:
            self.endpoint = None
            self.dataset, self._oxigraph, self.read_only = _open_folder(self.path, create)
            bind_prefixes(self.dataset)
        self.writes = 0

    def close(self) -> None:
        """Write the embedded store's buffered writes to disk and release it (its folder lock goes with the last
        reference to it). Without the flush, the next process to open the store replays the writes from its log
        (after the one-transaction incident write of 20,000 articles: about 1.5 minutes and 3.5 GB)."""
        if self.dataset is not None:
            if not self.read_only:
                self._oxigraph.flush()
            self.dataset.close()
            self.dataset = self._oxigraph = None
            if not self.read_only:
                release_writer(self.path)

    def __enter__(self) -> "GraphStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def has_document(self, doc_id: str) -> bool:
        """True when the document's graph is complete (its pipeline version marker, written last, is there)."""
        doc = document_iri(doc_id).n3()
        return bool(self.query(f"ASK {{ GRAPH {doc} {{ {doc} <{KGC.pipelineVersion}> ?version }} }}").askAnswer)

    def document_versions(self, doc_ids: Iterable[str] | None = None) -> dict[str, str]:
        """The content hash of every complete document graph (of those of ``doc_ids``, when given), by document id
        ("" for graphs written before hashes were stored, which are then rebuilt). An embedded store reads them from
        its quad index (a fifth of the time SPARQL's join takes at 50,000 documents; a few given ids, at once)."""
        if self.remote:
            versions = {str(doc_id): str(content or "") for doc_id, content in self.values(read_query("document_ids"))}
            return versions if doc_ids is None else {d: versions[d] for d in doc_ids if d in versions}
        if doc_ids is None:
            return {document_id(graph): content for graph, content in self._marked_graphs(None)}
        return {d: content for d in doc_ids for _, content in self._marked_graphs(document_iri(d))}

    def document_count(self) -> int:
        """The number of complete document graphs."""
        query = f"SELECT (COUNT(?doc) AS ?n) WHERE {{ GRAPH ?doc {{ ?doc <{KGC.pipelineVersion}> ?version }} }}"
        return int(next(self.values(query))[0])

    def _marked_graphs(self, doc: URIRef | None) -> Iterator[tuple[str, str]]:
        """(graph name, content hash) of each document graph holding its completion marker (``doc``'s alone, when
        given), from the embedded store's quad index. A graph is written in one transaction, so one holding a
        content hash holds its marker: when as many graphs hold a marker as hold a hash (``document_count``, which
        reads no names), the hashes alone name them and the markers need not be read (half the time)."""
        node = None if doc is None else pyoxigraph.NamedNode(str(doc))
        marker, content = (pyoxigraph.NamedNode(str(p)) for p in (KGC.pipelineVersion, KGC.contentHash))
        quads = self._oxigraph.quads_for_pattern
        if doc is None:  # SPARQL builds fewer Python objects than the quad index: 0.45 s against 0.63 s at 50,500
            rows = self._oxigraph.query(f"SELECT ?g ?h WHERE {{ GRAPH ?g {{ ?g {content} ?h }} }}")
            hashes = {row[0].value: row[1].value for row in rows}
        else:
            hashes = {q.graph_name.value: q.object.value for q in quads(node, content, None, node) if q.subject == node}
        if doc is not None or len(hashes) != self.document_count():
            complete = {q.graph_name.value for q in quads(node, marker, None, node) if q.subject == q.graph_name}
        else:
            complete = hashes.keys()
        return ((graph, hashes.get(graph, "")) for graph in sorted(complete))

    def add(self, record: DocumentRecord, content_hash: str | None = None, lead: str | None = None) -> int:
        """Replace the document's graph with the one built from ``record`` (the document's content hash
        ``content_hash``, its opening words ``lead``); return its triple count."""
        lines = document_statements(record, content_hash, lead)
        self.replace_statements(document_iri(record.doc_id), lines)
        return len(lines)

    def document_turtle(self, doc_id: str) -> str:
        """The Turtle of one document's graph; InputError when the store does not hold it."""
        if not self.has_document(doc_id):
            raise InputError(f"document {doc_id!r} is not in the store", self.location)
        return self.graph_turtle(document_iri(doc_id))

    def replace_graph(self, graph: Graph) -> int:
        """Replace the named graph ``graph.identifier`` with ``graph`` (``replace_triples``); return its size."""
        self.replace_triples(graph.identifier, graph)
        return len(graph)

    def replace_triples(self, name: URIRef, triples: Iterable[tuple]) -> None:
        """Replace the named graph ``name`` with ``triples`` (rdflib terms): ``replace_statements``."""
        self.replace_statements(name, _statements(triples))

    def replace_statements(self, name: URIRef, lines: Iterable[str]) -> None:
        """Replace the named graph ``name`` with the statements ``lines`` (N-Triples) in one SPARQL update (one
        transaction: a reader sees the old graph or the new one, and a write cut short leaves the old). A graph the
        store does not hold is not dropped first (``_may_hold``)."""
        graph = name.n3()
        dropped = f"DROP SILENT GRAPH {graph} ;\n" if self._may_hold(name) else ""
        block = "\n".join(lines)
        self._update(f"{dropped}INSERT DATA {{ GRAPH {graph} {{\n{block}\n}} }}")

    def _may_hold(self, name: URIRef) -> bool:
        """Whether the named graph ``name`` may hold triples: in an embedded store, whether Oxigraph lists it among its
        graphs (one key read; dropping a graph that is not there took 1.2 ms in a store of 50,000 documents, for the
        index scans); in a server's, always."""
        return self.remote or self._oxigraph.contains_named_graph(pyoxigraph.NamedNode(str(name)))

    def update_graph(self, name: URIRef, deleted: Iterable[str], inserted: Iterable[tuple]) -> None:
        """Delete the statements ``deleted`` (N-Triples, as ``statements`` reads them from the named graph ``name``)
        from it and add the triples ``inserted``, in one SPARQL update (one transaction, as ``replace_triples``). A
        statement both deleted and inserted is left as it is: neither written nor removed."""
        graph = name.n3()
        removed, added = set(deleted), set(_statements(inserted))
        both = removed & added
        removed_lines, added_lines = "\n".join(removed - both), "\n".join(added - both)
        self._update(
            f"DELETE DATA {{ GRAPH {graph} {{\n{removed_lines}\n}} }} ;\n"
            f"INSERT DATA {{ GRAPH {graph} {{\n{added_lines}\n}} }}"
        )

    def delete_in_chunks(self, name: URIRef, keep: URIRef | None = None) -> None:
        """Delete the triples of the named graph ``name`` (all but those with the predicate ``keep``) in
        transactions of ``[batch] incident_write_chunk`` triples each, so that dropping a large graph holds
        little memory. The graph must hold no blank nodes."""
        size = settings().batch.incident_write_chunk
        kept = f" FILTER(?p != {keep.n3()})" if keep is not None else ""
        query = f"SELECT ?s ?p ?o WHERE {{ GRAPH {name.n3()} {{ ?s ?p ?o{kept} }} }} LIMIT {size}"
        while statements := self.statements(query):
            self.update_graph(name, statements, [])
            self.flush()

    def _update(self, update: str) -> None:
        if self.remote:
            self.endpoint.update(update)
            return
        self._oxigraph.update(update)
        self.writes += 1
        if self.writes % settings().batch.flush_every == 0:
            self.flush()

    def flush(self) -> None:
        """Write the embedded store's buffered writes to disk. Called every ``[batch] flush_every`` graphs: without
        it a build's memory grew by about 200 MB per 1,000 documents; with it, it stays flat."""
        if not self.remote:
            self._oxigraph.flush()

    def compact(self) -> None:
        """Compact the embedded store's files (Oxigraph's ``optimize``): what was deleted is reclaimed and the
        newest writes are merged into the rest, so that the next process to write owes no compaction. A store
        as a whole grouping of 50,000 articles leaves it started 1.8 s of compaction when opened, and its next
        update's writes more, on the cores the update works on; compacting it took 18.7 s (3.8 GB to 2.2 GB). A
        server store is left to the server."""
        if not self.remote:
            self._oxigraph.optimize()

    def graph_turtle(self, identifier: URIRef) -> str:
        """The Turtle of named graph ``identifier``, with the project prefixes and simple literals."""
        query = f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH {identifier.n3()} {{ ?s ?p ?o }} }}"
        return readable_graph(self.query(query).graph).serialize(format="turtle")

    def query(self, sparql: str, bindings: dict | None = None):
        """Run a SPARQL query over all graphs (the default graph is their union); return an rdflib Result."""
        if self.remote:
            if bindings:
                names = sorted(bindings)
                row = " ".join(bindings[name].n3() for name in names)
                sparql = f"{sparql}\nVALUES ({' '.join('?' + n for n in names)}) {{ ({row}) }}"
            return self.endpoint.query(f"{SPARQL_PROLOGUE}\n{sparql}")
        return self.dataset.query(sparql, initBindings=bindings or {})

    def values(self, sparql: str) -> Iterator[tuple]:
        """The rows of a SELECT query over all graphs as plain Python values, in the query's variable order:
        an IRI as its string, a literal as rdflib makes it (``int``, ``datetime.date``, ``str`` ...), unbound as
        None. Much faster than ``query`` on an embedded store, for reading many rows."""
        return (values for _, values in self._value_rows(sparql))

    def records(self, sparql: str) -> Iterator[dict]:
        """The rows of a SELECT query as ``values`` gives them, each a dict by variable name."""
        return (dict(zip(names, values)) for names, values in self._value_rows(sparql))

    def _value_rows(self, sparql: str) -> Iterator[tuple[list[str], tuple]]:
        if self.remote:
            result = self.query(sparql)
            names = [str(variable) for variable in result.vars]
            for row in result:
                yield names, tuple(None if term is None else _value(term) for term in row)
            return
        solutions = self._oxigraph.query(f"{SPARQL_PROLOGUE}\n{sparql}", use_default_graph_as_union=True)
        names = [variable.value for variable in solutions.variables]
        for solution in solutions:
            yield names, tuple(_oxigraph_value(solution[name]) for name in names)

    def statements(self, sparql: str) -> list[str]:
        """The rows of a ``SELECT ?s ?p ?o`` query as N-Triples statements (for ``update_graph``'s deletions)."""
        if self.remote:
            return [f"{row.s.n3()} {row.p.n3()} {row.o.n3()} ." for row in self.query(sparql)]
        solutions = self._oxigraph.query(f"{SPARQL_PROLOGUE}\n{sparql}", use_default_graph_as_union=True)
        return [f"{solution['s']} {solution['p']} {solution['o']} ." for solution in solutions]

    def quads(self) -> set[tuple]:
        """Every (subject, predicate, object, graph name) the store holds: for comparing two stores.

        Simple literals are written without ``xsd:string`` (RDF 1.1 makes the two one term; the
        back ends' result formats differ in which they return).
        """
        rows = self.query("SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return {(row.s, row.p, simple_literal(row.o), row.g) for row in rows}

    def __len__(self) -> int:
        rows = list(self.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"))
        return int(rows[0].n)
