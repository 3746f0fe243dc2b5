"""The store's incidents and documents as a reader sees them: titles, dates, places, counts, documents.

Read with SPARQL only (the incident graph is built first when stale); used by the evaluation report.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg_count.graph.queries import read_query
from kg_count.incidents.store.incident_versions import incident_sparql
from kg_count.graph.store import GraphStore
from kg_count.incidents.update.materialise import incidents_for_reading


@dataclass(frozen=True)
class DocumentView:
    """A document: id, publication date (ISO) and title."""

    doc_id: str
    dct: str
    title: str


@dataclass(frozen=True)
class IncidentView:
    """An incident: id, date, city and state (readable names), counts, confidence, event types and its
    documents, earliest first; its title is that of its earliest document."""

    incident_id: str
    date: str
    city: str
    state: str
    killed: int
    injured: int
    confidence: float
    types: tuple[str, ...]
    documents: tuple[DocumentView, ...]

    @property
    def title(self) -> str:
        """The title of the incident's earliest document ("" when it has none)."""
        return self.documents[0].title if self.documents else ""

    @property
    def place(self) -> str:
        """ "City, State", or whichever of the two is known, or "-"."""
        city = self.city.split(",")[0]
        return ", ".join(p for p in (city, self.state) if p) or "-"


def readable_place(iri) -> str:
    """The last part of a DBpedia IRI with spaces for underscores ("Memphis,_Tennessee" -> "Memphis, Tennessee");
    "" for None."""
    if iri is None:
        return ""
    return str(iri).rsplit("/", 1)[-1].replace("_", " ").replace("(U.S. state)", "").strip()


def document_views(store: GraphStore) -> dict[str, DocumentView]:
    """Every document of the store by id."""
    return {
        str(row.docId): DocumentView(str(row.docId), str(row.dct)[:10], str(row.title))
        for row in store.query(read_query("document_titles"))
    }


def incident_views(store: GraphStore, documents: dict[str, DocumentView]) -> tuple[dict[str, IncidentView], dict]:
    """Every incident of the store by id, and each document's incident id."""
    incidents_for_reading(store)
    members: dict[str, list[DocumentView]] = {}
    incident_of = {}
    for row in store.query(incident_sparql(store, read_query("document_incidents"))):
        doc_id = str(row.docId)
        incident_of[doc_id] = str(row.incidentId)
        members.setdefault(str(row.incidentId), []).append(documents.get(doc_id, DocumentView(doc_id, "", "")))
    incidents = {}
    for row in store.query(incident_sparql(store, read_query("incident_list"))):
        incident_id = str(row.incidentId)
        incidents[incident_id] = IncidentView(
            incident_id,
            str(row.date),
            readable_place(row.city),
            readable_place(row.state),
            int(row.killed),
            int(row.injured),
            float(row.confidence),
            tuple(str(row.types).split()),
            tuple(sorted(members.get(incident_id, []), key=lambda d: (d.dct, d.doc_id))),
        )
    return incidents, incident_of
