"""Incidents from reports: grouped by the coreference model, reconciled, each with its evidence, its confidence
(the incident-match model) and its people's status probabilities (the person-status model)."""

from __future__ import annotations

from kg_count.incidents.grouping.cluster import Grouping, group_reports
from kg_count.incidents.grouping.incident_match import incident_features, shipped_model, twin_features
from kg_count.incidents.pairs.coreference_model import CoreferenceModel
from kg_count.incidents.grouping.person_status import shipped_person_status_model
from kg_count.incidents.grouping.reconcile import Incident, reconcile


def reconciled_incidents(
    reports, coreference: CoreferenceModel | None = None, rarity=None
) -> tuple[list[Incident], list]:
    """Cluster reports (with ``coreference``, default the shipped coreference model; ``rarity`` as
    ``cluster_reports`` reads it) and reconcile each cluster; incident ids are the smallest document id of
    each. Returns the incidents and their clusters."""
    incidents, grouping = reconciled_grouping(reports, coreference, rarity)
    return incidents, grouping.clusters


def reconciled_grouping(
    reports, coreference: CoreferenceModel | None = None, rarity=None
) -> tuple[list[Incident], Grouping]:
    """``reconciled_incidents``, with the whole ``Grouping``."""
    grouping = group_reports(reports, coreference, rarity=rarity)
    return [reconcile(group, group.incident_id) for group in grouping.clusters], grouping


def incidents_of(reports, model=None, coreference: CoreferenceModel | None = None) -> list[Incident]:
    """The reconciled incidents of ``reports`` (``reconciled_incidents``), each with its evidence features and,
    scored by ``model`` (default: the shipped incident-match model), its confidence of being a distinct real
    incident; each person it names, the probability of each status (the shipped person-status model).
    """
    return grouped_incidents(reports, model, coreference)[0]


def grouped_incidents(
    reports, model=None, coreference: CoreferenceModel | None = None, rarity=None
) -> tuple[list[Incident], Grouping]:
    """``incidents_of``, with the grouping (the probabilities of the pairs it read, ``pair_cache``, and the reports'
    columns); ``rarity`` as ``cluster_reports`` reads it."""
    incidents, grouping = reconciled_grouping(reports, coreference, rarity)
    twins = twin_features(incidents, [group.reports[0].family for group in grouping.clusters])
    scored(incidents, grouping.clusters, twins, model)
    return incidents, grouping


def scored(incidents: list[Incident], clusters: list, twins: list[list[str]], model=None) -> None:
    """Give each incident its evidence (its own features and ``twins``), its confidence under ``model`` (default:
    the shipped incident-match model) and its people's status probabilities (the shipped person-status model)."""
    model = model or shipped_model()
    statuses = shipped_person_status_model()
    for incident, group, twin in zip(incidents, clusters, twins):
        incident.evidence = incident_features(incident, group.reports) + twin
        incident.confidence = model.probability(incident.evidence)
        incident.status_probabilities = [
            statuses.probabilities(person, incident.people, incident.killed, incident.injured)
            for person in incident.people
        ]
