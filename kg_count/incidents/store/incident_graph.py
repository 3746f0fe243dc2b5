"""The one place that turns Incidents into triples: the store's incident graph.

Each incident is a kgc:Incident (a sem:Event) with its types, a time estimate with granularity,
DBpedia places, reconciled counts, its people, prov:wasDerivedFrom its documents, the values an answer reads of it
(its documents' ids among them) and of each of its people packed in one literal each (kgc:answerFacts:
``answer_facts``), and the reasons of its merges (kgc:mergeReason).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping
from urllib.parse import quote

from rdflib import RDF, XSD, Graph, Literal, Namespace, URIRef

from kg_count.graph.document_graph import document_iri
from kg_count.graph.namespaces import GEO, GRANULARITY_UNITS, KGC, PROV, SEM, TIME
from kg_count.incidents.store.answer_facts import IncidentFacts, PersonFacts
from kg_count.incidents.grouping.reconcile import Incident
from kg_count.geography import iri_coordinates
from kg_count.nlp.participants import normalised_name

INCIDENT_GRAPH = URIRef("http://kg-count.org/incidents")
INCIDENT = Namespace("http://kg-count.org/incident/")


def incident_iri(incident_id: str) -> URIRef:
    """The IRI of an incident from its id."""
    return INCIDENT[quote(incident_id, safe="")]


def name_key(name: str) -> str:
    """The form names are matched in: lower case, single spaces, no full stops, hyphens joined, plain apostrophes."""
    return " ".join(normalised_name(name).replace(".", " ").lower().split())


def _count(value: int) -> Literal:
    return Literal(value, datatype=XSD.nonNegativeInteger)


SCORE_PREDICATES = (KGC.confidence, KGC.evidence, KGC.answerFacts)  # what add_scores writes


def add_scores(graph: Graph | set, node: URIRef, incident: Incident) -> None:
    """Add the incident's confidence, the evidence it rests on and the values an answer reads (which hold the
    confidence and the documents' ids: ``answer_facts.IncidentFacts``) to ``graph`` (a Graph, or a set of
    triples), about ``node``."""
    graph.add((node, KGC.confidence, Literal(f"{incident.confidence:.4f}", datatype=XSD.decimal)))
    for feature in incident.evidence:
        graph.add((node, KGC.evidence, Literal(feature)))
    facts = IncidentFacts(
        incident.date,
        incident.certainty,
        incident.granularity,
        incident.killed,
        incident.injured,
        incident.fired,
        incident.confidence,
        tuple(incident.doc_ids),
    )
    graph.add((node, KGC.answerFacts, facts.literal()))


def _add_person(graph: Graph | set, node: URIRef, actor: URIRef, person, probabilities: Mapping[str, float]) -> None:
    """Add one of the incident ``node``'s people as ``actor``: names and their matching keys, age, role, status and
    the person-status model's ``probabilities`` by status."""
    graph.add((node, SEM.hasActor, actor))
    graph.add((actor, RDF.type, KGC.Person))
    graph.add((actor, KGC.fullName, Literal(person.full_name)))
    graph.add((actor, KGC.firstName, Literal(person.first_name)))
    graph.add((actor, KGC.lastName, Literal(person.last_name)))
    graph.add((actor, KGC.firstNameKey, Literal(name_key(person.first_name))))
    graph.add((actor, KGC.lastNameKey, Literal(name_key(person.last_name))))
    for full in {person.full_name, f"{person.first_name} {person.last_name}"}:
        graph.add((actor, KGC.fullNameKey, Literal(name_key(full))))
    if person.age is not None:
        graph.add((actor, KGC.age, Literal(person.age, datatype=XSD.nonNegativeInteger)))
    graph.add((actor, KGC.role, KGC[person.role]))
    graph.add((actor, KGC.status, KGC[person.status]))
    for status, probability in sorted(probabilities.items()):
        graph.add((actor, KGC[f"{status}Probability"], Literal(f"{probability:.4f}", datatype=XSD.decimal)))
    facts = PersonFacts.of(person.role, probabilities)
    if facts is not None:
        graph.add((actor, KGC.answerFacts, facts.literal()))


def add_incident(graph: Graph | set, incident: Incident) -> URIRef:
    """Add one incident's triples to ``graph`` (a Graph, or a set of triples); return its IRI."""
    node = incident_iri(incident.incident_id)
    graph.add((node, RDF.type, KGC.Incident))
    graph.add((node, RDF.type, SEM.Event))
    graph.add((node, KGC.incidentId, Literal(incident.incident_id)))
    for event_type in incident.types:
        graph.add((node, SEM.eventType, KGC[event_type]))
    time_node = URIRef(f"{node}#time")
    graph.add((node, SEM.hasTime, time_node))
    graph.add((time_node, RDF.type, TIME.Instant))
    graph.add((time_node, RDF.type, KGC.TimeEstimate))
    graph.add((time_node, TIME.inXSDDate, Literal(incident.date, datatype=XSD.date)))
    graph.add((time_node, KGC.granularity, GRANULARITY_UNITS[incident.granularity]))
    graph.add((time_node, KGC.certainty, Literal(incident.certainty)))
    if incident.state_iri:
        graph.add((node, KGC.state, URIRef(incident.state_iri)))
        graph.add((node, SEM.hasPlace, URIRef(incident.state_iri)))
    if incident.city_iri:
        graph.add((node, KGC.city, URIRef(incident.city_iri)))
        graph.add((node, SEM.hasPlace, URIRef(incident.city_iri)))
        where = iri_coordinates(incident.city_iri)
        if where is not None:
            graph.add((URIRef(incident.city_iri), GEO.lat, Literal(where[0], datatype=XSD.double)))
            graph.add((URIRef(incident.city_iri), GEO.long, Literal(where[1], datatype=XSD.double)))
    graph.add((node, KGC.killedCount, _count(incident.killed)))
    graph.add((node, KGC.injuredCount, _count(incident.injured)))
    graph.add((node, KGC.firedCount, _count(incident.fired)))
    add_scores(graph, node, incident)
    for n, person in enumerate(incident.people):
        probabilities = incident.status_probabilities[n] if n < len(incident.status_probabilities) else {}
        _add_person(graph, node, URIRef(f"{node}#person{n}"), person, probabilities)
    for doc_id in incident.doc_ids:
        graph.add((node, PROV.wasDerivedFrom, document_iri(doc_id)))
    if incident.component:
        graph.add((node, KGC.component, Literal(incident.component)))
    for merge in incident.merges:
        graph.add(
            (
                node,
                KGC.mergeReason,
                Literal(f"{merge.doc_a} + {merge.doc_b} ({merge.score:g}): " + "; ".join(merge.reasons)),
            )
        )
    return node


def incidents_as_triples(incidents: Iterable[Incident], grouped: Mapping[str, str] | None = None) -> Iterator[tuple]:
    """The triples of each incident (``add_incident``), one incident at a time, then the content hash each
    document was grouped in (``grouped``: hash by document id, as ``kgc:groupedVersion``)."""
    for incident in incidents:
        triples: set[tuple] = set()
        add_incident(triples, incident)
        yield from triples
    for doc_id, version in (grouped or {}).items():
        yield document_iri(doc_id), KGC.groupedVersion, Literal(version)
