"""Reading comprehension over passage event graphs: TORQUE (temporal order) and ESTER (semantic relations).

A passage is parsed by the pipeline's spaCy model, its events found and described (tense, aspect,
modality, status, arguments, phrase), their relations added, and the whole written as an RDF graph
in an in-memory Oxigraph store; a parsed question becomes a SPARQL query over that graph.
"""
