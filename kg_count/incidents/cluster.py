"""Cross-document coreference: group reports into incidents.

Reports are compared only within their kind (gun violence, fire, job dismissal) and when their
date intervals overlap. Pairs are merged best first (single link on pairs whose evidence passes
the threshold), and two groups are never joined when any pair across them has a hard conflict
(other state, distant city, dates apart): the clusters stay consistent as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

from kg_count.incidents.evidence import Comparison, compare, date_interval
from kg_count.incidents.reports import Report


@dataclass
class Merge:
    """Why two reports were put in one incident."""

    doc_a: str
    doc_b: str
    score: float
    reasons: list[str]


@dataclass
class ReportCluster:
    reports: list[Report]
    merges: list[Merge] = field(default_factory=list)


def candidate_pairs(reports: Sequence[Report]) -> list[tuple[int, int]]:
    """Index pairs of reports of one kind whose date intervals overlap (a sweep over sorted intervals),
    or that name someone with the same last name, whatever their dates."""
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
            for (other_first, _), j in intervals[n + 1:]:
                if other_first > last:
                    break
                pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)


def cluster_reports(reports: Sequence[Report]) -> list[ReportCluster]:
    """Group reports into incidents; return the clusters, largest first, then by earliest document id."""
    comparisons: dict[tuple[int, int], Comparison] = {pair: compare(reports[pair[0]], reports[pair[1]])
                                                      for pair in candidate_pairs(reports)}
    parent = list(range(len(reports)))
    members = {i: [i] for i in range(len(reports))}
    merges: dict[int, list[Merge]] = {i: [] for i in range(len(reports))}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def conflicting(x: int, y: int) -> bool:
        for i in members[x]:
            for j in members[y]:
                found = comparisons.get((min(i, j), max(i, j)))
                if found is None or found.conflicts:
                    return True
        return False

    ranked = sorted((c.score, pair) for pair, c in comparisons.items() if c.should_merge)
    for score, (i, j) in reversed(ranked):
        x, y = root(i), root(j)
        if x == y or conflicting(x, y):
            continue
        parent[y] = x
        members[x].extend(members.pop(y))
        merges[x].extend(merges.pop(y))
        merges[x].append(Merge(reports[i].doc_id, reports[j].doc_id, score, comparisons[(i, j)].reasons))
    clusters = [ReportCluster([reports[i] for i in sorted(group, key=lambda k: reports[k].doc_id)], merges[x])
                for x, group in members.items()]
    clusters.sort(key=lambda c: (-len(c.reports), c.reports[0].doc_id))
    return clusters
