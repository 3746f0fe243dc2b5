"""What regrouping reads of the incidents already in an incident graph (``StoredIncident``): from the graph, or from
the file the grouping that wrote the graph saved (``report_cache``), which spares reading every incident back."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rdflib import URIRef

from kg_count.graph.document_graph import document_id

from kg_count.incidents.grouping.reconcile import Incident

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore

FAMILY, TWIN = "family:", "twin:"  # the prefixes of the evidence features regrouping reads


@dataclass
class StoredIncident:
    """What regrouping needs of an incident already in the incident graph."""

    incident_id: str
    component: str
    doc_ids: list[str]
    date: dt.date
    city_iri: str | None
    family: str
    twins: list[str]


def stored_view(incident: Incident) -> StoredIncident:
    """What ``stored_incidents`` reads back of ``incident`` (reconciled and scored) once it is written."""
    family = next(f for f in incident.evidence if f.startswith(FAMILY)).removeprefix(FAMILY)
    twins = sorted(f for f in incident.evidence if f.startswith(TWIN))
    place, doc_ids = incident.city_iri, sorted(incident.doc_ids)
    return StoredIncident(incident.incident_id, incident.component, doc_ids, incident.date, place, family, twins)


def stored_incidents(store: GraphStore, version: URIRef) -> dict[str, StoredIncident]:
    """The incidents of the incident graph ``version``, by id."""
    graph = version.n3()
    found: dict[str, StoredIncident] = {}
    facts = (
        f"SELECT ?id ?component ?date ?city ?family WHERE {{ GRAPH {graph} {{ ?i kgc:incidentId ?id ; "
        "kgc:component ?component ; sem:hasTime/time:inXSDDate ?date ; kgc:evidence ?family "
        f'FILTER(STRSTARTS(?family, "{FAMILY}")) OPTIONAL {{ ?i kgc:city ?city }} }} }}'
    )
    for incident_id, component, date, city, family in store.values(facts):
        found[incident_id] = StoredIncident(incident_id, component, [], date, city, family.removeprefix(FAMILY), [])
    documents = f"SELECT ?id ?doc WHERE {{ GRAPH {graph} {{ ?i kgc:incidentId ?id ; prov:wasDerivedFrom ?doc }} }}"
    for incident_id, doc in store.values(documents):
        found[incident_id].doc_ids.append(document_id(doc))
    twins = (
        f"SELECT ?id ?twin WHERE {{ GRAPH {graph} {{ ?i kgc:incidentId ?id ; kgc:evidence ?twin "
        f'FILTER(STRSTARTS(?twin, "{TWIN}")) }} }}'
    )
    for incident_id, twin in store.values(twins):
        found[incident_id].twins.append(twin)
    for incident in found.values():
        incident.doc_ids.sort()
        incident.twins.sort()
    return found
