"""The vocabularies the graphs use, as rdflib namespaces."""

from functools import lru_cache

from rdflib import OWL, RDF, RDFS, XSD, Graph, Namespace, URIRef

from kg_count.task import DBPEDIA_PREFIX, KGC_NAMESPACE


class Vocabulary(Namespace):
    """A namespace of a vocabulary's few terms, each made once: rdflib's ``Namespace`` makes and checks a new
    ``URIRef`` at every ``KGC.city`` (a tenth of writing an update's incidents went to that)."""

    def term(self, name: str) -> URIRef:
        """The term ``name`` of the vocabulary (the same object each time)."""
        return _vocabulary_term(str(self), name if isinstance(name, str) else "")


@lru_cache(maxsize=4096)
def _vocabulary_term(base: str, name: str) -> URIRef:
    return URIRef(base + name)


KGC = Vocabulary(KGC_NAMESPACE)
DOC = Namespace("http://kg-count.org/doc/")
SEM = Vocabulary("http://semanticweb.cs.vu.nl/2009/11/sem/")
GAF = Vocabulary("http://groundedannotationframework.org/gaf#")
NIF = Vocabulary("http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#")
TIME = Vocabulary("http://www.w3.org/2006/time#")
PROV = Vocabulary("http://www.w3.org/ns/prov#")
DBR = Namespace(DBPEDIA_PREFIX)
GEO = Vocabulary("http://www.w3.org/2003/01/geo/wgs84_pos#")

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
