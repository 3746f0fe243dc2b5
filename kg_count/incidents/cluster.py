"""Cross-document coreference: group reports into incidents with the learned same-incident model.

Reports are compared only within their kind and when their date intervals overlap or they name
someone of the same last name (``candidate_pairs``). Each candidate pair without a hard conflict
(``pair_features.hard_conflict``) gets a calibrated probability from the coreference model.
Pairs are taken best first: a pair at or above the model's threshold joins its two groups when no
pair across them conflicts (or was never a candidate) and the mean probability over every pair
across them reaches the model's group threshold, so clusters stay consistent as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

from kg_count.incidents.coreference_model import CoreferenceModel, shipped_coreference_model
from kg_count.incidents.evidence import date_interval
from kg_count.incidents.pair_features import Similarity, hard_conflict, pair_features, text_rarity
from kg_count.incidents.reports import Report
from kg_count.incidents.title_vectors import cosine, sentence_vectors
from kg_count.settings import settings


@dataclass
class Merge:
    """Why two reports were put in one incident."""

    doc_a: str
    doc_b: str
    score: float
    reasons: list[str]


@dataclass
class ReportCluster:
    """The reports grouped as one incident so far, and the merges that joined them."""

    reports: list[Report]
    merges: list[Merge] = field(default_factory=list)


@dataclass
class PairScores:
    """The candidate pairs of a list of reports: features of those that may merge, and their probabilities."""

    features: dict[tuple[int, int], list[str]]
    probability: dict[tuple[int, int], float] = field(default_factory=dict)


def candidate_pairs(reports: Sequence[Report]) -> list[tuple[int, int]]:
    """Index pairs of reports of one kind whose date intervals lie within the [clustering] ``date_slack_days``
    (a sweep over sorted intervals), or that name someone with the same last name, whatever their dates."""
    slack = settings().clustering.date_slack_days
    by_family: dict[str, list[int]] = {}
    by_name: dict[tuple[str, str], list[int]] = {}
    for i, report in enumerate(reports):
        by_family.setdefault(report.family, []).append(i)
        for last in {p.last_name.lower() for p in report.named_participants}:
            by_name.setdefault((report.family, last), []).append(i)
    pairs = {(i, j) for members in by_name.values() for i, j in combinations(sorted(members), 2)}
    for members in by_family.values():
        intervals = sorted((date_interval(reports[i]), i) for i in members)
        for n, ((first, last), i) in enumerate(intervals):
            for (other_first, _), j in intervals[n + 1 :]:
                if (other_first - last).days > slack:
                    break
                pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)


def pair_evidence(reports: Sequence[Report]) -> PairScores:
    """The features of every candidate pair without a hard conflict (titles compared by sentence vectors,
    titles and leads by the rarity of the words they share among ``reports``' titles and leads)."""
    vectors = sentence_vectors(r.title for r in reports)
    rarity, lead_rarity = text_rarity([r.title for r in reports]), text_rarity([r.lead for r in reports])
    features = {}
    for i, j in candidate_pairs(reports):
        a, b = reports[i], reports[j]
        similarity = Similarity(cosine(vectors.get(a.title), vectors.get(b.title)), rarity, lead_rarity)
        if hard_conflict(a, b, similarity) is None:
            features[(i, j)] = pair_features(a, b, similarity)
    return PairScores(features)


def score_pairs(scores: PairScores, model: CoreferenceModel) -> PairScores:
    """``scores`` with every pair's probability under ``model``."""
    return PairScores(scores.features, {pair: model.probability(f) for pair, f in scores.features.items()})


def merge_groups(
    reports: Sequence[Report], scores: PairScores, threshold: float, group_threshold: float
) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """Best-first merging of scored pairs; returns each group's report indices and the pairs that merged it."""
    probability = scores.probability
    parent = list(range(len(reports)))
    members = {i: [i] for i in range(len(reports))}
    links: dict[int, list[tuple[int, int]]] = {i: [] for i in range(len(reports))}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def mean_link(x: int, y: int) -> float:
        total = 0.0
        for i in members[x]:
            for j in members[y]:
                p = probability.get((min(i, j), max(i, j)))
                if p is None:  # a conflict, or never a candidate
                    return -1.0
                total += p
        return total / (len(members[x]) * len(members[y]))

    ranked = sorted(((p, pair) for pair, p in probability.items() if p >= threshold), reverse=True)
    for _, (i, j) in ranked:
        x, y = root(i), root(j)
        if x == y or mean_link(x, y) < group_threshold:
            continue
        parent[y] = x
        members[x].extend(members.pop(y))
        links[x].extend(links.pop(y))
        links[x].append((i, j))
    return [(members[x], links[x]) for x in members]


def cluster_reports(
    reports: Sequence[Report], model: CoreferenceModel | None = None, evidence: PairScores | None = None
) -> list[ReportCluster]:
    """Group reports into incidents with ``model`` (default: the shipped coreference model); return the
    clusters, largest first, then by earliest document id. ``evidence``: the pairs' features, when known."""
    model = model or shipped_coreference_model()
    scores = score_pairs(evidence or pair_evidence(reports), model)
    clusters = []
    for group, links in merge_groups(reports, scores, model.threshold, model.group_threshold):
        merges = [
            Merge(
                reports[i].doc_id,
                reports[j].doc_id,
                round(scores.probability[(i, j)], 3),
                model.reasons(scores.features[(i, j)]),
            )
            for i, j in links
        ]
        clusters.append(ReportCluster([reports[i] for i in sorted(group, key=lambda k: reports[k].doc_id)], merges))
    clusters.sort(key=lambda c: (-len(c.reports), c.reports[0].doc_id))
    return clusters
