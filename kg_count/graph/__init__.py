"""RDF: DocumentRecords as named graphs, the store (an Oxigraph folder or a SPARQL server) and its queries."""
