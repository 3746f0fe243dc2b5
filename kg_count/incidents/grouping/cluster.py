"""Cross-document coreference: group reports into incidents with the learned same-incident model.

Reports are compared only within their kind and when their date intervals overlap or they name
someone of the same last name (``candidate_pair_array``). Each candidate pair without a hard conflict
(``pair_features.hard_conflict``) gets a calibrated probability from the coreference model.
Pairs are taken best first: a pair at or above the model's threshold joins its two groups when no
pair across them conflicts (or was never a candidate) and the mean probability over every pair
across them reaches the model's group threshold, so clusters stay consistent as a whole.
"""

from __future__ import annotations

import gc
import os
from array import array
from dataclasses import dataclass, field
from functools import cached_property, partial
from multiprocessing import get_all_start_methods, get_context
from operator import getitem
from typing import Callable, Sequence

import numpy as np

from kg_count.geography import gazetteer
from kg_count.memory import release_freed_memory
from kg_count.process_guard import exit_with_parent
from kg_count.incidents.pairs.candidate_pairs import code_pairs, pair_endpoints, pair_rows
from kg_count.incidents.pairs.coreference_model import CoreferenceModel, shipped_coreference_model
from kg_count.incidents.pairs.pair_context import PairContext
from kg_count.incidents.pairs.pair_bound import may_link
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.pairs.pair_cache import EarlierScores, ScoredPairs
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.incidents.reports.reports import Report
from kg_count.settings import held_settings, settings

WITHIN_CHUNK = 1 << 20  # pair codes read at once when finding those inside one link component


@dataclass
class Merge:
    """Why two reports were put in one incident: the pair's probability, and the model's reasons for it, read from
    ``explain`` when first asked (an update explains only the merges of the incidents it writes)."""

    doc_a: str
    doc_b: str
    score: float
    explain: Callable[[], list[str]] = field(repr=False, compare=False)

    @cached_property
    def reasons(self) -> list[str]:
        """The model's reasons for the merge (``CoreferenceModel.reasons``)."""
        return self.explain()


@dataclass
class ReportCluster:
    """The reports grouped as one incident, the merges that joined them, and their component: the smallest
    document id of the reports linked to theirs by pairs at or above the merge threshold (only reports of
    one component can ever be grouped together)."""

    reports: list[Report]
    merges: list[Merge] = field(default_factory=list)
    component: str = ""

    @property
    def incident_id(self) -> str:
        """The id of the incident the cluster makes: its smallest document id."""
        return min(r.doc_id for r in self.reports)


@dataclass
class PairScores:
    """The candidate pairs of a list of reports: features of those that may merge, and their probabilities."""

    features: dict[tuple[int, int], list[str]]
    probability: dict[tuple[int, int], float] = field(default_factory=dict)


def candidate_pair_features(reports: Sequence[Report]) -> PairScores:
    """The features of every candidate pair without a hard conflict (titles compared by sentence vectors,
    titles and leads by the rarity of the words they share among ``reports``' titles and leads)."""
    return PairScores(dict(PairContext.of(reports).pairs()))


def score_pairs(scores: PairScores, model: CoreferenceModel) -> PairScores:
    """``scores`` with every pair's probability under ``model``."""
    return PairScores(scores.features, {pair: model.probability(f) for pair, f in scores.features.items()})


def _root(parent: list[int], i: int) -> int:
    """The root of ``i`` in the union-find forest ``parent`` (halving the path on the way)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def merge_groups(
    reports: Sequence[Report],
    probability: dict[tuple[int, int], float] | PairProbabilities,
    threshold: float,
    group_threshold: float,
) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """Best-first merging of scored pairs (``probability``: of every pair, or scored as read,
    ``PairProbabilities``); returns each group's report indices and the pairs that merged it."""
    parent = list(range(len(reports)))
    members = {i: [i] for i in range(len(reports))}
    links: dict[int, list[tuple[int, int]]] = {i: [] for i in range(len(reports))}

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
        x, y = _root(parent, i), _root(parent, j)
        if x == y or mean_link(x, y) < group_threshold:
            continue
        parent[y] = x
        members[x].extend(members.pop(y))
        links[x].extend(links.pop(y))
        links[x].append((i, j))
    return [(members[x], links[x]) for x in members]


def link_components(
    reports: Sequence[Report], probability: dict[tuple[int, int], float], threshold: float
) -> list[str]:
    """For each report, the smallest document id of the reports linked to it through pairs with a ``probability``
    of at least ``threshold``."""
    parent = list(range(len(reports)))
    for (i, j), p in probability.items():
        if p >= threshold:
            x, y = _root(parent, i), _root(parent, j)
            if x != y:
                parent[max(x, y)] = min(x, y)
    smallest: dict[int, str] = {}
    for i, report in enumerate(reports):
        r = _root(parent, i)
        smallest[r] = min(smallest.get(r, report.doc_id), report.doc_id)
    return [smallest[_root(parent, i)] for i in range(len(reports))]


def _scored_rows(
    context: PairContext, model: CoreferenceModel, pairs: np.ndarray, at_least: float
) -> tuple[np.ndarray, np.ndarray]:
    """Which rows of ``pairs`` have no hard conflict and a probability under ``model`` that reaches ``at_least``,
    and those probabilities: two arrays (8 bytes a pair, where a dictionary takes about 150)."""
    rows, values = array("q"), array("d")
    for row, (i, j) in enumerate(pair_rows(pairs)):
        features = context.features(i, j)
        if features is not None:
            probability = model.probability(features)
            if probability >= at_least:
                rows.append(row)
                values.append(probability)
    return np.frombuffer(rows, dtype=np.int64), np.frombuffer(values, dtype=np.float64)


_SHARED: tuple = ()  # what forked scoring processes read: (context, model, pairs, processes, at_least)


def _share_of_rows(share: int) -> tuple[np.ndarray, np.ndarray]:
    context, model, pairs, processes, at_least = _SHARED
    rows, values = _scored_rows(context, model, pairs[share::processes], at_least)
    return rows * processes + share, values


def pair_probabilities(
    context: PairContext, model: CoreferenceModel, pairs: np.ndarray, at_least: float = 0.0
) -> dict[tuple[int, int], float]:
    """The probability under ``model`` of each of ``pairs`` without a hard conflict that reaches ``at_least``.
    From [batch] ``grouping_parallel_pairs`` pairs on, they are scored in [batch] ``grouping_processes`` forked
    processes (0: one per CPU core), each scoring every n-th pair and sending back arrays. Forked processes share
    the reports and vectors without copying them; which process scores a pair changes nothing of its
    probability."""
    chosen = settings().batch
    processes = min(chosen.grouping_processes or os.cpu_count() or 1, len(pairs))
    if processes < 2 or len(pairs) < chosen.grouping_parallel_pairs or "fork" not in get_all_start_methods():
        rows, values = _scored_rows(context, model, pairs, at_least)
    else:
        global _SHARED
        _SHARED = (context, model, pairs, processes, at_least)
        gazetteer()  # the pair features' place coordinates: built here and shared, instead of built by each process
        release_freed_memory()  # what the parent freed since, so that no forked process starts holding it
        gc.freeze()  # the collector in a forked process would write to every object and so copy its pages
        try:
            with get_context("fork").Pool(processes, initializer=exit_with_parent, initargs=(os.getpid(),)) as pool:
                shares = pool.map(_share_of_rows, range(processes))
        finally:
            gc.unfreeze()
            _SHARED = ()
        rows = np.concatenate([share_rows for share_rows, _ in shares])
        values = np.concatenate([share_values for _, share_values in shares])
    return dict(zip(map(tuple, pairs[rows].tolist()), values.tolist()))


class PairProbabilities:
    """The pair probabilities merging reads (``merge_groups``), each pair scored when first read. ``known``: those
    scored already (every pair at or above the merge threshold among them); ``within``: the codes ``i * n + j``
    (sorted) of the candidate pairs of reports of one link component, the only pairs merging compares. A pair of
    ``within`` not known is scored with ``context`` and ``model`` when merging first asks for it; any other reads
    None (a conflict, or never a candidate). Of the pairs inside a large component (one city's busy weeks), merging
    compares only those between the groups it weighs joining: a few percent of them."""

    def __init__(self, context: PairContext, model: CoreferenceModel, known: dict, within: np.ndarray):
        self.context, self.model, self.known, self.within = context, model, known, within
        self.size = len(context.reports)
        self.read: set[tuple[int, int]] = set()
        self.conflicts: set[tuple[int, int]] = set()

    def get(self, pair: tuple[int, int], default: float | None = None) -> float | None:
        """The probability of ``pair`` (rows ``i < j``), scored now if it was not; None for no probability."""
        self.read.add(pair)
        if pair in self.known:
            return self.known[pair]
        if pair in self.conflicts:
            return default
        code = pair[0] * self.size + pair[1]
        at = int(np.searchsorted(self.within, code))
        features = self.context.features(*pair) if at < len(self.within) and self.within[at] == code else None
        if features is None:
            self.conflicts.add(pair)
            return default
        self.known[pair] = probability = self.model.probability(features)
        return probability

    def items(self):
        """The pairs known so far with their probabilities."""
        return self.known.items()

    def merging(self) -> dict[tuple[int, int], float]:
        """The probabilities a grouping keeps (``pair_cache``): those of the pairs at or above the merge threshold
        and of the pairs merging read, whatever was known besides (a grouping at once and an update read the same)."""
        threshold = self.model.threshold
        return {pair: p for pair, p in self.known.items() if p >= threshold or pair in self.read}


def _within_codes(codes: np.ndarray, components: list[str]) -> np.ndarray:
    """Of the sorted pair codes ``i * n + j`` (n: the number of reports, ``candidate_pair_codes``), those whose two
    reports lie in one of ``components``, read a chunk at a time."""
    labels = np.unique(np.array(components, dtype=str), return_inverse=True)[1].reshape(-1)
    inside = [np.zeros(0, dtype=np.int64)]
    for start in range(0, len(codes), WITHIN_CHUNK):
        a, b = pair_endpoints(codes, start, start + WITHIN_CHUNK, len(components))
        inside.append(codes[start : start + WITHIN_CHUNK][labels[a] == labels[b]])
    return np.concatenate(inside)


def component_pair_scores(
    context: PairContext, model: CoreferenceModel, earlier: EarlierScores | None = None
) -> tuple[PairProbabilities, list[str]]:
    """The probabilities ``merge_groups`` reads (``PairProbabilities``: every pair at or above ``model``'s merge
    threshold scored now, the other pairs of reports of one link component when merging reads them), and each
    report's component (``link_components``). Only the candidate pairs that may reach the threshold
    (``pair_bound.may_link``) are scored now. ``earlier``: what an update knows of the pairs from the grouping
    before it (``pair_cache``), so that only the pairs it does not know are scored."""
    if earlier is not None:
        known, reread = earlier.resolve(context.reports, context.candidates)
        known.update(pair_probabilities(context, model, reread))
    else:
        codes = context.candidate_codes
        linking = code_pairs(codes[may_link(context, model, codes, model.threshold)], len(context.reports))
        known = pair_probabilities(context, model, linking, model.threshold)
    components = link_components(context.reports, known, model.threshold)
    within = _within_codes(context.candidate_codes, components)
    context.forget_candidates()
    return PairProbabilities(context, model, known, within), components


def _reasons(model: CoreferenceModel, features: Callable[[], list[str]]) -> list[str]:
    """``model``'s reasons for a merge of a pair with the features ``features`` gives."""
    return model.reasons(features())


@dataclass
class Grouping:
    """Reports grouped: the clusters, the probability of each pair of reports of one link component, and the
    reports' columns when the grouping read them (``pair_bound``; an update's grouping does not)."""

    clusters: list[ReportCluster]
    pairs: ScoredPairs
    columns: ReportColumns | None = None


def cluster_reports(
    reports: Sequence[Report],
    model: CoreferenceModel | None = None,
    pair_features: PairScores | None = None,
    rarity: tuple[WordRarity, WordRarity] | None = None,
) -> list[ReportCluster]:
    """Group reports into incidents with ``model`` (default: the shipped coreference model); return the
    clusters, largest first, then by earliest document id. ``pair_features``: the pairs' features, when known
    (otherwise each pair is scored as it is compared and only the merging pairs' features are kept);
    ``rarity``: how rare title and lead words are in the whole store, when ``reports`` are part of it."""
    return group_reports(reports, model, pair_features, rarity).clusters


def group_reports(
    reports: Sequence[Report],
    model: CoreferenceModel | None = None,
    pair_features: PairScores | None = None,
    rarity: tuple[WordRarity, WordRarity] | None = None,
    earlier: EarlierScores | None = None,
    explain_later: bool = False,
    vectors: tuple[dict, dict] | None = None,
) -> Grouping:
    """``cluster_reports``, with the pair probabilities the grouping read (``earlier``: see
    ``component_pair_scores``). With ``explain_later``, each merge's reasons are read when first asked (the
    grouping's pair context is kept until then), not at once. ``vectors``: the reports' title vectors and their
    norms, where the caller holds them already (with ``rarity``); else they are read (``sentence_vectors``)."""
    model = model or shipped_coreference_model()
    context = None
    with held_settings():
        if pair_features is not None:
            probability = score_pairs(pair_features, model).probability
            components = link_components(reports, probability, model.threshold)
        else:
            held = vectors is not None and rarity is not None
            context = PairContext(reports, vectors[0], *rarity, vectors[1]) if held else PairContext.of(reports, rarity)
            probability, components = component_pair_scores(context, model, earlier)
        groups = merge_groups(reports, probability, model.threshold, model.group_threshold)  # scores pairs as it reads
    clusters = []
    for group, links in groups:
        merges = []
        for i, j in links:
            features = partial(context.features, i, j) if context else partial(getitem, pair_features.features, (i, j))
            explain = partial(_reasons, model, features)
            if not explain_later:
                explain = partial(list, explain())
            merges.append(Merge(reports[i].doc_id, reports[j].doc_id, round(probability.get((i, j)), 3), explain))
        members = [reports[i] for i in sorted(group, key=lambda k: reports[k].doc_id)]
        clusters.append(ReportCluster(members, merges, components[group[0]]))
    clusters.sort(key=lambda c: (-len(c.reports), c.reports[0].doc_id))
    kept = probability if context is None else probability.merging()
    return Grouping(clusters, ScoredPairs.of(reports, kept), None if context is None else context.built_columns())
