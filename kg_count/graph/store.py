"""The graph store: rdflib's Dataset, one named graph per document, over either of two back ends.

- a folder: an embedded Oxigraph store on disk (oxrdflib), the default;
- an ``http(s)://`` URL: a SPARQL 1.1 server with query and update (rdflib's SPARQLUpdateStore),
  at ``URL/query`` and ``URL/update`` (``oxigraph serve --union-default-graph``, or a Fuseki
  dataset with ``tdb2:unionDefaultGraph true``): queries read the union of the named graphs.
"""

from __future__ import annotations

from pathlib import Path

from rdflib import XSD, Dataset, Graph, Literal

from kg_count.errors import InputError
from kg_count.graph.build import document_graph, document_iri
from kg_count.graph.namespaces import KGC, bind_prefixes
from kg_count.graph.queries import read_query
from kg_count.nlp.pipeline import PIPELINE_VERSION
from kg_count.nlp.record import DocumentRecord

StoreLocation = Path | str
FLUSH_EVERY = 500


def store_location(text: str) -> StoreLocation:
    """Parse a ``--store`` value: an ``http(s)://`` endpoint URL stays a string, anything else is a folder."""
    return text.rstrip("/") if is_endpoint(text) else Path(text)


def is_endpoint(location: StoreLocation) -> bool:
    """True when ``location`` is the URL of a SPARQL server rather than a folder."""
    return isinstance(location, str) and location.startswith(("http://", "https://"))


def _open_folder(path: Path) -> Dataset:
    if path.exists() and not path.is_dir():
        raise InputError("the store must be a folder", path)
    exists = path.is_dir() and any(path.iterdir())
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir() and not exists:
        path.rmdir()
    dataset = Dataset(store="Oxigraph", default_union=True)
    try:
        dataset.open(str(path), create=not exists)
    except (OSError, ValueError) as error:
        raise InputError(f"cannot open the store: {error}", path) from None
    return dataset


def _open_endpoint(url: str) -> Dataset:
    from rdflib.plugins.stores.sparqlstore import SPARQLUpdateStore

    backend = SPARQLUpdateStore(query_endpoint=f"{url}/query", update_endpoint=f"{url}/update",
                                returnFormat="json")
    dataset = Dataset(store=backend, default_union=True)
    try:
        dataset.query("ASK { ?s ?p ?o }")
    except Exception as error:  # urllib and the result parsers raise unrelated types
        raise InputError(f"cannot reach the SPARQL server: {error}", url) from None
    return dataset


def _simple(term):
    if isinstance(term, Literal) and term.datatype == XSD.string:
        return Literal(str(term))
    return term


class GraphStore:
    """A persistent store holding one named graph per document (see the module docstring for locations)."""

    def __init__(self, location: StoreLocation) -> None:
        self.location = location
        self.remote = is_endpoint(location)
        self.path = None if self.remote else Path(location)
        self.dataset = _open_endpoint(location) if self.remote else _open_folder(self.path)
        bind_prefixes(self.dataset)
        self.writes = 0

    def close(self) -> None:
        self.dataset.close()

    def __enter__(self) -> "GraphStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def has_document(self, doc_id: str) -> bool:
        """True when the document's graph is complete (its pipeline version marker, written last, is there)."""
        graph = self.dataset.graph(document_iri(doc_id))
        return (document_iri(doc_id), KGC.pipelineVersion, Literal(PIPELINE_VERSION)) in graph

    def document_versions(self) -> dict[str, str]:
        """The pipeline version of every complete document graph, by document id."""
        return {str(row.docId): str(row.version) for row in self.query(read_query("document_ids"))}

    def complete_documents(self) -> set[str]:
        """Ids of the documents whose graph is complete for the current pipeline version."""
        return {doc_id for doc_id, version in self.document_versions().items() if version == PIPELINE_VERSION}

    def add(self, record: DocumentRecord) -> int:
        """Replace the document's graph with the one built from ``record``; return its triple count."""
        return self.replace_graph(document_graph(record))

    def document_turtle(self, doc_id: str) -> str:
        """The Turtle of one document's graph; InputError when the store does not hold it."""
        if not self.has_document(doc_id):
            raise InputError(f"document {doc_id!r} is not in the store", self.location)
        graph = self.dataset.graph(document_iri(doc_id))
        return self.graph_turtle(graph.identifier, set(graph.subjects()))

    def replace_graph(self, graph: Graph) -> int:
        """Replace the named graph ``graph.identifier`` with ``graph`` in one step; return its triple count."""
        if self.remote:
            name = graph.identifier.n3()
            triples = "\n".join(f"{s.n3()} {p.n3()} {o.n3()} ." for s, p, o in graph)
            self.dataset.update(f"DROP SILENT GRAPH {name} ;\nINSERT DATA {{ GRAPH {name} {{\n{triples}\n}} }}")
        else:
            self.dataset.remove_graph(graph.identifier)
            self.dataset.addN((s, p, o, graph.identifier) for s, p, o in graph)
            self.writes += 1
            if self.writes % FLUSH_EVERY == 0:
                self.flush()
        return len(graph)

    def flush(self) -> None:
        """Write the embedded store's buffered writes to disk. Called every FLUSH_EVERY graphs: without
        it a build's memory grew by about 200 MB per 1,000 documents; with it, it stays flat."""
        if not self.remote:
            self.dataset.store._inner.flush()

    def graph_turtle(self, identifier, subjects) -> str:
        """The Turtle of the triples of named graph ``identifier`` whose subject is in ``subjects``."""
        out = Graph()
        bind_prefixes(out)
        for triple in self.dataset.graph(identifier):
            if triple[0] in subjects:
                out.add(triple)
        return out.serialize(format="turtle")

    def query(self, sparql: str, bindings: dict | None = None):
        """Run a SPARQL query over all graphs (the default graph is their union)."""
        return self.dataset.query(sparql, initBindings=bindings or {})

    def quads(self) -> set[tuple]:
        """Every (subject, predicate, object, graph name) the store holds: for comparing two stores.

        Simple literals are written without ``xsd:string`` (RDF 1.1 makes the two one term; the
        back ends' result formats differ in which they return).
        """
        rows = self.dataset.query("SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return {(row.s, row.p, _simple(row.o), row.g) for row in rows}

    def __len__(self) -> int:
        return len(self.dataset)
