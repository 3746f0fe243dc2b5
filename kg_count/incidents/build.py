"""Build the incident graph over a whole store: read reports, cluster, reconcile, write.

The incident graph records a fingerprint of the documents it was built from; it is rebuilt
whenever the store's documents change, so answers never depend on which questions are asked.
"""

from __future__ import annotations

import hashlib

from rdflib import Literal

from kg_count.graph.incident_graph import INCIDENT_GRAPH, incident_graph
from kg_count.graph.namespaces import KGC
from kg_count.incidents.cluster import cluster_reports
from kg_count.incidents.confidence import MODEL_PATH, incident_features, shipped_model, twin_features
from kg_count.incidents.reconcile import Incident, reconcile
from kg_count.incidents.reports import reports_from_store

INCIDENTS_VERSION = "5"


def fingerprint(store) -> str:
    """A hash of the store's complete documents with their pipeline versions, the clustering version
    and the incident-match model."""
    documents = sorted(f"{doc_id} {version}" for doc_id, version in store.document_versions().items())
    model = hashlib.sha256(MODEL_PATH.read_bytes()).hexdigest() if MODEL_PATH.exists() else "none"
    return hashlib.sha256("\n".join([INCIDENTS_VERSION, model, *documents]).encode()).hexdigest()


def incidents_of(reports, model=None) -> list[Incident]:
    """Cluster reports and reconcile each cluster; incident ids are the smallest document id of each.

    Each incident carries its evidence features and, scored by ``model`` (default: the shipped
    incident-match model), its confidence of being a distinct real incident.
    """
    model = model or shipped_model()
    clusters = cluster_reports(reports)
    incidents = [reconcile(cluster, min(r.doc_id for r in cluster.reports)) for cluster in clusters]
    twins = twin_features(incidents, [cluster.reports[0].family for cluster in clusters])
    for incident, cluster, twin in zip(incidents, clusters, twins):
        incident.evidence = incident_features(incident, cluster.reports) + twin
        incident.confidence = model.probability(incident.evidence)
    return incidents


def stored_fingerprint(store) -> str | None:
    graph = store.dataset.graph(INCIDENT_GRAPH)
    value = graph.value(INCIDENT_GRAPH, KGC.builtFrom)
    return str(value) if value is not None else None


def ensure_incidents(store, force: bool = False) -> tuple[int, bool]:
    """Build the store's incident graph unless it is up to date; return (incident count, rebuilt)."""
    stamp = fingerprint(store)
    if not force and stored_fingerprint(store) == stamp:
        count = sum(1 for _ in store.dataset.graph(INCIDENT_GRAPH).subjects(KGC.incidentId, None))
        return count, False
    incidents = incidents_of(reports_from_store(store))
    graph = incident_graph(incidents)
    graph.add((INCIDENT_GRAPH, KGC.builtFrom, Literal(stamp)))
    store.replace_graph(graph)
    return len(incidents), True
