"""The constants of SemEval-2018 Task 5 that every layer shares: event types, their synsets, IRI bases.

This module sits at the bottom of the package: it imports nothing of kg_count's. The event types'
WordNet synsets are read from the ontology (``kgc:synset`` on each ``kgc:EventType``), so the
ontology is their one source.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

EVENT_TYPES = ("killing", "injuring", "fire_burning", "job_firing")
GUN_TYPES = frozenset({"killing", "injuring"})
KGC_NAMESPACE = "http://kg-count.org/ontology#"
DBPEDIA_PREFIX = "http://dbpedia.org/resource/"


@lru_cache(maxsize=1)
def event_synsets() -> dict[str, tuple[str, ...]]:
    """Read each event type's WordNet 3.0 synset names from ``ontology/kg_count.ttl``.

    Returns {event type: synset names} in ``EVENT_TYPES`` order; a type the ontology does not
    declare, or declares without synsets, is an error of the installed package.
    """
    from rdflib import RDF, Graph, Literal, Namespace

    kgc = Namespace(KGC_NAMESPACE)
    ontology = Graph().parse(data=files("kg_count.ontology").joinpath("kg_count.ttl").read_text(), format="turtle")
    synsets = {}
    for event_type in EVENT_TYPES:
        node = kgc[event_type]
        names = sorted(str(o) for o in ontology.objects(node, kgc.synset) if isinstance(o, Literal))
        if (node, RDF.type, kgc.EventType) not in ontology or not names:
            raise RuntimeError(f"ontology/kg_count.ttl declares no synsets for event type {event_type!r}")
        synsets[event_type] = tuple(names)
    return synsets
