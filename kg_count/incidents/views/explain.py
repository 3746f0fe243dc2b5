"""What users read of incidents: a filtered list, one incident explained, one incident's Turtle."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from kg_count.errors import InputError
from kg_count.graph.document_graph import document_iri
from kg_count.graph.namespaces import KGC, PROV, SEM, TIME
from kg_count.graph.queries import read_query
from kg_count.graph.results import readable_graph
from kg_count.incidents.store.incident_graph import incident_iri
from kg_count.incidents.store.incident_versions import INCIDENTS_SLOT, incident_sparql
from kg_count.incidents.update.materialise import incidents_for_reading

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore


def _local(iri) -> str:
    return str(iri).rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def _incident(store: GraphStore, incident_id: str) -> tuple:
    """The incident's node and its triples (its own, its time's and its people's) as an in-memory Graph, read
    from the incident graph as the store holds it; InputError when the store has no such incident."""
    node = incident_iri(incident_id).n3()
    graph = readable_graph(
        store.query(
            incident_sparql(
                store,
                f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH {INCIDENTS_SLOT} {{ {node} <{KGC.incidentId}> ?id . "
                f"{{ BIND({node} AS ?s) }} UNION {{ {node} <{SEM.hasTime}> ?s }} "
                f"UNION {{ {node} <{SEM.hasActor}> ?s }} ?s ?p ?o }} }}",
            )
        ).graph
    )
    if not len(graph):
        raise InputError(
            f"incident {incident_id!r} is not in the store (list them with: kg-count incidents)", store.location
        )
    return incident_iri(incident_id), graph


def incident_turtle(store: GraphStore, incident_id: str) -> str:
    """The Turtle of one incident: its node, time and people (the incident graph built first when stale)."""
    return incident_turtles(store, [incident_id])[incident_id]


def incident_turtles(store: GraphStore, incident_ids: Iterable[str]) -> dict[str, str]:
    """The Turtle of each incident of ``incident_ids`` by id (incidents as ``incidents_for_reading`` leaves them)."""
    incidents_for_reading(store)
    return {incident_id: _incident(store, incident_id)[1].serialize(format="turtle") for incident_id in incident_ids}


def _document_lines(store: GraphStore, doc_iris) -> list[str]:
    """One line per document (earliest DCT first): what it reported, its event types joined."""
    reported: dict[str, dict] = {}
    wanted = {str(iri) for iri in doc_iris}
    for row in store.query(read_query("reports")):
        if str(document_iri(str(row.docId))) not in wanted:
            continue
        entry = reported.setdefault(str(row.docId), {"row": row, "types": set()})
        entry["types"].add(_local(row.type))
    lines = []
    for doc_id, entry in sorted(reported.items(), key=lambda item: (str(item[1]["row"].dct), item[0])):
        row = entry["row"]
        city = _local(row.city) if row.city is not None else "-"
        lines.append(
            f"    {doc_id} {row.dct} {','.join(sorted(entry['types']))}: {row.date} ({row.certainty}), "
            f"{city}, killed {row.killed} injured {row.injured} | {row.title}"
        )
    return lines


def explain_incident(store: GraphStore, incident_id: str) -> str:
    """One incident as text: properties, documents (earliest first) with what each reported, and the merge reasons."""
    incidents_for_reading(store)
    node, graph = _incident(store, incident_id)
    time_node = graph.value(node, SEM.hasTime)
    lines = [
        f"incident {incident_id}",
        f"  types: {', '.join(sorted(_local(t) for t in graph.objects(node, SEM.eventType)))}",
        f"  date: {graph.value(time_node, TIME.inXSDDate)} ({_local(graph.value(time_node, KGC.granularity))}, "
        f"from the {graph.value(time_node, KGC.certainty)})",
        f"  city: {graph.value(node, KGC.city) or '-'}",
        f"  state: {graph.value(node, KGC.state) or '-'}",
        f"  killed {graph.value(node, KGC.killedCount)}, injured {graph.value(node, KGC.injuredCount)}, "
        f"fired {graph.value(node, KGC.firedCount)}",
        f"  confidence: {graph.value(node, KGC.confidence)} "
        "(that it is a distinct real incident, when it matches a question)",
        f"  evidence: {', '.join(sorted(str(e) for e in graph.objects(node, KGC.evidence)))}",
    ]
    people = sorted(
        (
            str(graph.value(p, KGC.fullName)),
            _local(graph.value(p, KGC.role)),
            _local(graph.value(p, KGC.status)),
            "".join(
                f", {label} {graph.value(p, KGC[f'{status}Probability'])}"
                for status, label in (
                    ("participant", "took part"),
                    ("killed", "killed if so"),
                    ("injured", "injured if so"),
                )
                if graph.value(p, KGC[f"{status}Probability"]) is not None
            ),
        )
        for p in graph.objects(node, SEM.hasActor)
    )
    lines.extend(f"  person: {name} ({role}, {status}{chances})" for name, role, status, chances in people)
    documents = _document_lines(store, set(graph.objects(node, PROV.wasDerivedFrom)))
    lines.append(f"  documents ({len(documents)}):")
    lines.extend(documents)
    reasons = sorted(str(r) for r in graph.objects(node, KGC.mergeReason))
    lines.append("  merged because:" if reasons else "  a single report")
    lines.extend(f"    {reason}" for reason in reasons)
    return "\n".join(lines)


def list_incidents(store: GraphStore, event_type: str | None, place: str | None, date: str | None, limit: int) -> str:
    """A table of incidents filtered by type, place text and date prefix, most documents first."""
    incidents_for_reading(store)
    rows = store.query(incident_sparql(store, read_query("incident_list")))
    lines = []
    for row in rows:
        types = str(row.types).split()
        places = " ".join(str(p) for p in (row.city, row.state) if p is not None)
        if event_type and event_type not in types:
            continue
        if place and place.lower().replace(" ", "_") not in places.lower():
            continue
        if date and not str(row.date).startswith(date):
            continue
        lines.append(
            f"{row.incidentId}\t{row.date}\t{','.join(types)}\t{_local(row.city) if row.city else '-'}\t"
            f"{_local(row.state) if row.state else '-'}\tk{row.killed} i{row.injured} f{row.fired}\t"
            f"{float(row.confidence):.2f}\t{row.docs} docs"
        )
    shown = lines if limit == 0 else lines[:limit]
    header = "id\tdate\ttypes\tcity\tstate\tcounts\tconfidence\tdocuments"
    footer = f"{len(shown)} of {len(lines)} incidents shown"
    footer += "" if len(shown) == len(lines) else " (--limit 0 for all)"
    return "\n".join([header, *shown, footer])
