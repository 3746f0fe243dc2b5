"""The vocabularies the graphs use, as rdflib namespaces."""

from rdflib import OWL, RDF, RDFS, XSD, Graph, Namespace

from kg_count.task import DBPEDIA_PREFIX, KGC_NAMESPACE

KGC = Namespace(KGC_NAMESPACE)
DOC = Namespace("http://kg-count.org/doc/")
SEM = Namespace("http://semanticweb.cs.vu.nl/2009/11/sem/")
GAF = Namespace("http://groundedannotationframework.org/gaf#")
NIF = Namespace("http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#")
TIME = Namespace("http://www.w3.org/2006/time#")
PROV = Namespace("http://www.w3.org/ns/prov#")
DBR = Namespace(DBPEDIA_PREFIX)
GEO = Namespace("http://www.w3.org/2003/01/geo/wgs84_pos#")

PREFIXES = {
    "kgc": KGC,
    "doc": DOC,
    "sem": SEM,
    "gaf": GAF,
    "nif": NIF,
    "time": TIME,
    "prov": PROV,
    "dbr": DBR,
    "geo": GEO,
}
STANDARD_PREFIXES = {"rdf": RDF, "rdfs": RDFS, "xsd": XSD, "owl": OWL}
SPARQL_PROLOGUE = "\n".join(
    f"PREFIX {prefix}: <{namespace}>" for prefix, namespace in {**STANDARD_PREFIXES, **PREFIXES}.items()
)
GRANULARITY_UNITS = {"day": TIME.unitDay, "week": TIME.unitWeek, "month": TIME.unitMonth, "year": TIME.unitYear}


def bind_prefixes(graph: Graph) -> None:
    """Bind the project prefixes on a graph, for readable Turtle and for queries run on it. A prefix rdflib
    binds by default to another namespace ("geo" is GeoSPARQL's) is taken over."""
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace, replace=True)
