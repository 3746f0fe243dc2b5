"""The one place that turns a DocumentRecord into triples: the document's named graph.

Per document: a kgc:Document (NIF context) with its DCT; one kgc:ReportedEvent per event type
it reports, with type, synsets, frames, mentions (gaf:denotedBy NIF strings carrying CoNLL token
ids), time estimate, DBpedia places, counts and participants.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from types import SimpleNamespace
from typing import Iterable
from urllib.parse import quote, unquote

from rdflib import RDF, RDFS, Graph, Literal, URIRef

from kg_count.graph.namespaces import DOC, GAF, GRANULARITY_UNITS, KGC, NIF, SEM, TIME, bind_prefixes
from kg_count.graph.ntriples import count_literal, date_literal, decimal_literal, iri, literal, statement, term
from kg_count.nlp.version import pipeline_version
from kg_count.nlp.record import DocumentRecord, MentionRecord
from kg_count.settings import stage_fingerprint

VOCABULARY = (
    (RDF, "rdf", "type"),
    (RDFS, "rdfs", "label"),
    (GAF, "gaf", "denotedBy"),
    (NIF, "nif", "Context String anchorOf beginIndex endIndex referenceContext"),
    (TIME, "time", "Instant inXSDDate"),
    (SEM, "sem", "Event Place eventType hasActor hasPlace hasTime"),
    (
        KGC,
        "kgc",
        "Document EntityMention EventMention Person ReportedEvent TimeEstimate TimeMention age certainty city "
        "contentHash dct docId firedCount firstName followUpProbability frame fullName granularity inState "
        "injuredCount killedCount lastName lead pipelineVersion placeName reportedIn role state status synset title "
        "tokenIds",
    ),
)
# the vocabulary terms a document graph uses, each rendered once as N-Triples: V.kgc_docId is "<...#docId>"
V = SimpleNamespace(
    **{
        f"{prefix}_{name}": iri(str(namespace) + name)
        for namespace, prefix, names in VOCABULARY
        for name in names.split()
    }
)
COUNT_PROPERTIES = (("killed", V.kgc_killedCount), ("injured", V.kgc_injuredCount), ("fired", V.kgc_firedCount))


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


class _Lines(dict):
    """A document graph's statements in the order first written, each once (a dict of N-Triples lines)."""

    def add(self, subject: str, predicate: str, object_: str) -> None:
        """Add the statement ``subject predicate object_`` (three N-Triples terms)."""
        self[statement(subject, predicate, object_)] = None


def _mention(lines: _Lines, doc: str, mention: MentionRecord, kind: str) -> str:
    node = iri(f"{doc}#char={mention.begin},{mention.end}")
    lines.add(node, V.rdf_type, V.nif_String)
    lines.add(node, V.rdf_type, kind)
    lines.add(node, V.nif_beginIndex, count_literal(mention.begin))
    lines.add(node, V.nif_endIndex, count_literal(mention.end))
    lines.add(node, V.nif_anchorOf, literal(mention.text))
    lines.add(node, V.nif_referenceContext, iri(doc))
    lines.add(node, V.kgc_tokenIds, literal(" ".join(mention.token_ids)))
    return node


def _add_time(lines: _Lines, doc: str, record: DocumentRecord) -> str:
    """Add the incident date's estimate with its time mentions; return its node."""
    time_node = iri(f"{doc}#time")
    lines.add(time_node, V.rdf_type, V.time_Instant)
    lines.add(time_node, V.rdf_type, V.kgc_TimeEstimate)
    lines.add(time_node, V.time_inXSDDate, date_literal(record.incident_date))
    lines.add(time_node, V.kgc_granularity, term(GRANULARITY_UNITS[record.date_granularity]))
    lines.add(time_node, V.kgc_certainty, literal(record.date_certainty))
    for mention in record.time_mentions:
        lines.add(time_node, V.gaf_denotedBy, _mention(lines, doc, mention, V.kgc_TimeMention))
    return time_node


def _add_people(lines: _Lines, doc: str, record: DocumentRecord) -> list[str]:
    """Add the named participants with their mentions; return their nodes."""
    people = []
    for n, person in enumerate(record.participants):
        node = iri(f"{doc}#person{n}")
        people.append(node)
        lines.add(node, V.rdf_type, V.kgc_Person)
        lines.add(node, V.kgc_fullName, literal(person.full_name))
        lines.add(node, V.kgc_firstName, literal(person.first_name))
        lines.add(node, V.kgc_lastName, literal(person.last_name))
        if person.age is not None:
            lines.add(node, V.kgc_age, count_literal(person.age))
        lines.add(node, V.kgc_role, term(KGC[person.role]))
        lines.add(node, V.kgc_status, term(KGC[person.status]))
        for mention in person.mentions:
            lines.add(node, V.gaf_denotedBy, _mention(lines, doc, mention, V.kgc_EntityMention))
    return people


def _add_places(lines: _Lines, record: DocumentRecord) -> list[tuple[str, str]]:
    """Add the state and city as places; return (property, place) pairs for the reported events."""
    places = []
    if record.state_iri:
        state = iri(record.state_iri)
        places.append((V.kgc_state, state))
        lines.add(state, V.rdf_type, V.sem_Place)
        if record.city_iri:
            city = iri(record.city_iri)
            places.append((V.kgc_city, city))
            lines.add(city, V.rdf_type, V.sem_Place)
            lines.add(city, V.rdfs_label, literal(record.city))
            lines.add(city, V.kgc_inState, state)
    return places


def document_graph(record: DocumentRecord, content_hash: str | None = None, lead: str | None = None) -> Graph:
    """Return the named graph of one document (its identifier is the document IRI): ``document_statements`` read
    by rdflib."""
    graph = Graph(identifier=document_iri(record.doc_id))
    bind_prefixes(graph)
    graph.parse(data="\n".join(document_statements(record, content_hash, lead)), format="nt")
    return graph


def document_statements(record: DocumentRecord, content_hash: str | None = None, lead: str | None = None) -> list[str]:
    """The statements (N-Triples lines) of the named graph of one document, each once; ``content_hash`` (the hash of
    the document's content and the pipeline version) and ``lead`` (the body's opening words, which document
    coreference compares) are recorded when given. A build writes them straight to the store."""
    doc = str(document_iri(record.doc_id))
    subject = iri(doc)
    lines = _Lines()
    lines.add(subject, V.rdf_type, V.kgc_Document)
    lines.add(subject, V.rdf_type, V.nif_Context)
    lines.add(subject, V.kgc_docId, literal(record.doc_id))
    lines.add(subject, V.kgc_dct, date_literal(record.dct))
    lines.add(subject, V.kgc_title, literal(record.title))
    if lead:
        lines.add(subject, V.kgc_lead, literal(lead))
    for name in record.place_names:
        lines.add(subject, V.kgc_placeName, literal(name))
    lines.add(subject, V.kgc_followUpProbability, decimal_literal(record.follow_up))

    time_node = _add_time(lines, doc, record)
    people = _add_people(lines, doc, record)
    places = _add_places(lines, record)

    for event_type in record.event_types:
        event = iri(f"{doc}#event_{event_type}")
        lines.add(event, V.rdf_type, V.kgc_ReportedEvent)
        lines.add(event, V.rdf_type, V.sem_Event)
        lines.add(event, V.sem_eventType, term(KGC[event_type]))
        lines.add(event, V.kgc_reportedIn, subject)
        lines.add(event, V.sem_hasTime, time_node)
        for prop, place in places:
            lines.add(event, prop, place)
            lines.add(event, V.sem_hasPlace, place)
        for name, prop in COUNT_PROPERTIES:
            lines.add(event, prop, count_literal(getattr(record, name)))
        for person in people:
            lines.add(event, V.sem_hasActor, person)
        for mention in record.event_mentions:
            if mention.event_type != event_type:
                continue
            lines.add(event, V.gaf_denotedBy, _mention(lines, doc, mention, V.kgc_EventMention))
            if mention.synset:
                lines.add(event, V.kgc_synset, literal(mention.synset))
            if mention.frame:
                lines.add(event, V.kgc_frame, term(KGC[f"frame_{mention.frame}"]))
    if content_hash is not None:
        lines.add(subject, V.kgc_contentHash, literal(content_hash))
    lines.add(subject, V.kgc_pipelineVersion, literal(pipeline_version()))
    return list(lines)
