"""What users read of incidents: a filtered list, one incident explained, one incident's Turtle."""

from __future__ import annotations

from rdflib import Literal

from kg_count.errors import InputError
from kg_count.graph.incident_graph import INCIDENT_GRAPH, incident_iri
from kg_count.graph.namespaces import KGC, PROV, SEM, TIME
from kg_count.incidents.build import ensure_incidents
from kg_count.graph.queries import read_query


def _local(iri) -> str:
    return str(iri).rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def _require(store, incident_id: str):
    ensure_incidents(store)
    node = incident_iri(incident_id)
    if (node, KGC.incidentId, Literal(incident_id)) not in store.dataset.graph(INCIDENT_GRAPH):
        raise InputError(f"incident {incident_id!r} is not in the store (list them with: kg-count incidents)",
                         store.path)
    return node


def incident_turtle(store, incident_id: str) -> str:
    """The Turtle of one incident: its node, time and people."""
    node = _require(store, incident_id)
    graph = store.dataset.graph(INCIDENT_GRAPH)
    subjects = {node, *graph.objects(node, SEM.hasTime), *graph.objects(node, SEM.hasActor)}
    return store.graph_turtle(INCIDENT_GRAPH, subjects)


def explain_incident(store, incident_id: str) -> str:
    """One incident as text: properties, documents with what each reported, and the merge reasons."""
    node = _require(store, incident_id)
    graph = store.dataset.graph(INCIDENT_GRAPH)
    time_node = graph.value(node, SEM.hasTime)
    lines = [f"incident {incident_id}",
             f"  types: {', '.join(sorted(_local(t) for t in graph.objects(node, SEM.eventType)))}",
             f"  date: {graph.value(time_node, TIME.inXSDDate)} ({_local(graph.value(time_node, KGC.granularity))}, "
             f"from the {graph.value(time_node, KGC.certainty)})",
             f"  city: {graph.value(node, KGC.city) or '-'}",
             f"  state: {graph.value(node, KGC.state) or '-'}",
             f"  killed {graph.value(node, KGC.killedCount)}, injured {graph.value(node, KGC.injuredCount)}, "
             f"fired {graph.value(node, KGC.firedCount)}",
             f"  confidence: {graph.value(node, KGC.confidence)} (a distinct real incident, when it matches a question)",
             f"  evidence: {', '.join(sorted(str(e) for e in graph.objects(node, KGC.evidence)))}"]
    for person in graph.objects(node, SEM.hasActor):
        lines.append(f"  person: {graph.value(person, KGC.fullName)} ({_local(graph.value(person, KGC.role))}, "
                     f"{_local(graph.value(person, KGC.status))})")
    doc_ids = {str(store.dataset.value(doc, KGC.docId)) for doc in graph.objects(node, PROV.wasDerivedFrom)}
    lines.append(f"  documents ({len(doc_ids)}):")
    for row in store.query(read_query("reports")):
        if str(row.docId) in doc_ids:
            city = _local(row.city) if row.city is not None else "-"
            lines.append(f"    {row.docId} {row.dct} {_local(row.type)}: {row.date} ({row.certainty}), {city}, "
                         f"killed {row.killed} injured {row.injured} | {row.title}")
    reasons = sorted(str(r) for r in graph.objects(node, KGC.mergeReason))
    lines.append("  merged because:" if reasons else "  a single report")
    lines.extend(f"    {reason}" for reason in reasons)
    return "\n".join(lines)


def list_incidents(store, event_type: str | None, place: str | None, date: str | None, limit: int) -> str:
    """A table of incidents filtered by type, place text and date prefix, most documents first."""
    ensure_incidents(store)
    rows = store.query(read_query("incident_list"))
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
        lines.append(f"{row.incidentId}\t{row.date}\t{','.join(types)}\t{_local(row.city) if row.city else '-'}\t"
                     f"{_local(row.state) if row.state else '-'}\tk{row.killed} i{row.injured} f{row.fired}\t"
                     f"{row.docs} docs\t{float(row.confidence):.2f}")
    shown = lines if limit == 0 else lines[:limit]
    header = "id\tdate\ttypes\tcity\tstate\tcounts\tdocuments\tconfidence"
    footer = f"{len(shown)} of {len(lines)} incidents shown" + ("" if len(shown) == len(lines) else " (--limit 0 for all)")
    return "\n".join([header, *shown, footer])
