"""RDF: turning DocumentRecords into named graphs, and the Oxigraph-backed store."""
