"""The one place that turns a DocumentRecord into triples: the document's named graph.

Per document: a kgc:Document (NIF context) with its DCT; one kgc:ReportedEvent per event type
it reports, with type, synsets, frames, mentions (gaf:denotedBy NIF strings carrying CoNLL token
ids), time estimate, DBpedia places, counts and participants.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from functools import lru_cache
from typing import Iterable
from urllib.parse import quote, unquote

from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef

from kg_count.graph.namespaces import DOC, GAF, GRANULARITY_UNITS, KGC, NIF, SEM, TIME, bind_prefixes
from kg_count.nlp.version import pipeline_version
from kg_count.nlp.record import DocumentRecord, MentionRecord
from kg_count.settings import stage_fingerprint

COUNT_PROPERTIES = (("killed", KGC.killedCount), ("injured", KGC.injuredCount), ("fired", KGC.firedCount))


@lru_cache(maxsize=1)
def graph_format_version() -> str:
    """A hash of the source that decides how a record and its document become triples (this module and every
    kg_count module it imports: the reader that cuts a document's lead among them)."""
    return stage_fingerprint((), (__name__,))[:16]


def content_hash(document_key: str) -> str:
    """The content hash a document graph records: SHA-256 of the document's key (its content and the
    pipeline version, ``kg_count.nlp.record_cache.document_key``) and the graph format version, so a
    changed extraction or a changed graph writer rewrites the graph."""
    return hashlib.sha256(f"{document_key}\n{graph_format_version()}".encode()).hexdigest()


def document_iri(doc_id: str) -> URIRef:
    """The IRI of a document, which is also the name of its graph."""
    return DOC[quote(doc_id, safe="")]


def document_id(iri: str) -> str:
    """The document id of a document's IRI (``document_iri`` read back)."""
    return unquote(str(iri).removeprefix(str(DOC)))


def document_ids_literal(doc_ids: Iterable[str]) -> Literal:
    """One literal naming documents by id: each id as it ends its IRI (``document_iri``: percent-encoded, so no
    space), separated by spaces; ``document_ids_of`` reads it back."""
    return Literal(" ".join(quote(doc_id, safe="") for doc_id in doc_ids))


def document_ids_of(literal: str) -> list[str]:
    """The document ids of a ``document_ids_literal``, in its order."""
    return [unquote(part) for part in str(literal).split()]


def _mention(graph: set, doc: URIRef, mention: MentionRecord, kind: URIRef) -> URIRef:
    node = URIRef(f"{doc}#char={mention.begin},{mention.end}")
    graph.add((node, RDF.type, NIF.String))
    graph.add((node, RDF.type, kind))
    graph.add((node, NIF.beginIndex, Literal(mention.begin, datatype=XSD.nonNegativeInteger)))
    graph.add((node, NIF.endIndex, Literal(mention.end, datatype=XSD.nonNegativeInteger)))
    graph.add((node, NIF.anchorOf, Literal(mention.text)))
    graph.add((node, NIF.referenceContext, doc))
    graph.add((node, KGC.tokenIds, Literal(" ".join(mention.token_ids))))
    return node


def _add_time(graph: set, doc: URIRef, record: DocumentRecord) -> URIRef:
    """Add the incident date's estimate with its time mentions; return its node."""
    time_node = URIRef(f"{doc}#time")
    graph.add((time_node, RDF.type, TIME.Instant))
    graph.add((time_node, RDF.type, KGC.TimeEstimate))
    graph.add((time_node, TIME.inXSDDate, Literal(record.incident_date, datatype=XSD.date)))
    graph.add((time_node, KGC.granularity, GRANULARITY_UNITS[record.date_granularity]))
    graph.add((time_node, KGC.certainty, Literal(record.date_certainty)))
    for mention in record.time_mentions:
        graph.add((time_node, GAF.denotedBy, _mention(graph, doc, mention, KGC.TimeMention)))
    return time_node


def _add_people(graph: set, doc: URIRef, record: DocumentRecord) -> list[URIRef]:
    """Add the named participants with their mentions; return their nodes."""
    people = []
    for n, person in enumerate(record.participants):
        node = URIRef(f"{doc}#person{n}")
        people.append(node)
        graph.add((node, RDF.type, KGC.Person))
        graph.add((node, KGC.fullName, Literal(person.full_name)))
        graph.add((node, KGC.firstName, Literal(person.first_name)))
        graph.add((node, KGC.lastName, Literal(person.last_name)))
        if person.age is not None:
            graph.add((node, KGC.age, Literal(person.age, datatype=XSD.nonNegativeInteger)))
        graph.add((node, KGC.role, KGC[person.role]))
        graph.add((node, KGC.status, KGC[person.status]))
        for mention in person.mentions:
            graph.add((node, GAF.denotedBy, _mention(graph, doc, mention, KGC.EntityMention)))
    return people


def _add_places(graph: set, record: DocumentRecord) -> list[tuple[URIRef, URIRef]]:
    """Add the state and city as places; return (property, place) pairs for the reported events."""
    places = []
    if record.state_iri:
        state = URIRef(record.state_iri)
        places.append((KGC.state, state))
        graph.add((state, RDF.type, SEM.Place))
        if record.city_iri:
            city = URIRef(record.city_iri)
            places.append((KGC.city, city))
            graph.add((city, RDF.type, SEM.Place))
            graph.add((city, RDFS.label, Literal(record.city)))
            graph.add((city, KGC.inState, state))
    return places


def document_graph(record: DocumentRecord, content_hash: str | None = None, lead: str | None = None) -> Graph:
    """Return the named graph of one document (its identifier is the document IRI): ``document_triples``."""
    graph = Graph(identifier=document_iri(record.doc_id))
    bind_prefixes(graph)
    for triple in document_triples(record, content_hash, lead):
        graph.add(triple)
    return graph


def document_triples(record: DocumentRecord, content_hash: str | None = None, lead: str | None = None) -> set[tuple]:
    """The triples (rdflib terms) of the named graph of one document; ``content_hash`` (the hash of the document's
    content and the pipeline version) and ``lead`` (the body's opening words, which document coreference compares)
    are recorded when given. A set, not an rdflib Graph: a build writes them straight to the store."""
    doc = document_iri(record.doc_id)
    graph: set[tuple] = set()
    graph.add((doc, RDF.type, KGC.Document))
    graph.add((doc, RDF.type, NIF.Context))
    graph.add((doc, KGC.docId, Literal(record.doc_id)))
    graph.add((doc, KGC.dct, Literal(record.dct, datatype=XSD.date)))
    graph.add((doc, KGC.title, Literal(record.title)))
    if lead:
        graph.add((doc, KGC.lead, Literal(lead)))
    for name in record.place_names:
        graph.add((doc, KGC.placeName, Literal(name)))
    graph.add((doc, KGC.followUpProbability, Literal(Decimal(str(record.follow_up)), datatype=XSD.decimal)))

    time_node = _add_time(graph, doc, record)
    people = _add_people(graph, doc, record)
    places = _add_places(graph, record)

    for event_type in record.event_types:
        event = URIRef(f"{doc}#event_{event_type}")
        graph.add((event, RDF.type, KGC.ReportedEvent))
        graph.add((event, RDF.type, SEM.Event))
        graph.add((event, SEM.eventType, KGC[event_type]))
        graph.add((event, KGC.reportedIn, doc))
        graph.add((event, SEM.hasTime, time_node))
        for prop, place in places:
            graph.add((event, prop, place))
            graph.add((event, SEM.hasPlace, place))
        for name, prop in COUNT_PROPERTIES:
            graph.add((event, prop, Literal(getattr(record, name), datatype=XSD.nonNegativeInteger)))
        for person in people:
            graph.add((event, SEM.hasActor, person))
        for mention in record.event_mentions:
            if mention.event_type != event_type:
                continue
            graph.add((event, GAF.denotedBy, _mention(graph, doc, mention, KGC.EventMention)))
            if mention.synset:
                graph.add((event, KGC.synset, Literal(mention.synset)))
            if mention.frame:
                graph.add((event, KGC.frame, KGC[f"frame_{mention.frame}"]))
    if content_hash is not None:
        graph.add((doc, KGC.contentHash, Literal(content_hash)))
    graph.add((doc, KGC.pipelineVersion, Literal(pipeline_version())))
    return graph
