"""The graph store: rdflib's Dataset over an Oxigraph store on disk (oxrdflib), one named graph per document."""

from __future__ import annotations

import os
from pathlib import Path

from rdflib import Dataset, Literal

from kg_count.errors import InputError
from kg_count.graph.build import document_graph, document_iri
from kg_count.graph.namespaces import KGC, bind_prefixes
from kg_count.nlp.pipeline import PIPELINE_VERSION
from kg_count.nlp.record import DocumentRecord


class GraphStore:
    """A persistent Oxigraph store holding one named graph per document."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise InputError("the store must be a folder", self.path)
        exists = self.path.is_dir() and any(self.path.iterdir())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.is_dir() and not exists:
            self.path.rmdir()
        self.dataset = Dataset(store="Oxigraph", default_union=True)
        try:
            self.dataset.open(str(self.path), create=not exists)
        except (OSError, ValueError) as error:
            raise InputError(f"cannot open the store: {error}", self.path) from None
        bind_prefixes(self.dataset)

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

    def add(self, record: DocumentRecord) -> int:
        """Replace the document's graph with the one built from ``record``; return its triple count."""
        return self.replace_graph(document_graph(record))

    def document_turtle(self, doc_id: str) -> str:
        """The Turtle of one document's graph; InputError when the store does not hold it."""
        if not self.has_document(doc_id):
            raise InputError(f"document {doc_id!r} is not in the store", self.path)
        graph = self.dataset.graph(document_iri(doc_id))
        return self.graph_turtle(graph.identifier, set(graph.subjects()))

    def replace_graph(self, graph) -> int:
        """Replace the named graph ``graph.identifier`` with ``graph``; return its triple count."""
        self.dataset.remove_graph(graph.identifier)
        self.dataset.addN((s, p, o, graph.identifier) for s, p, o in graph)
        return len(graph)

    def graph_turtle(self, identifier, subjects) -> str:
        """The Turtle of the triples of named graph ``identifier`` whose subject is in ``subjects``."""
        from rdflib import Graph

        out = Graph()
        bind_prefixes(out)
        for triple in self.dataset.graph(identifier):
            if triple[0] in subjects:
                out.add(triple)
        return out.serialize(format="turtle")

    def query(self, sparql: str, bindings: dict | None = None):
        """Run a SPARQL query over all graphs (the default graph is their union)."""
        return self.dataset.query(sparql, initBindings=bindings or {})

    def __len__(self) -> int:
        return len(self.dataset)
