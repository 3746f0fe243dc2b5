"""Regroup a store's incidents after documents were added: only the incidents the new documents can touch.

Reports are grouped within their link components (``cluster.link_components``: reports joined by pairs
likely enough to start a merge); grouping never joins two components and reads only the pairs inside
one, so a component grouped alone gives what grouping the whole store gives. A pair's features depend
on its two reports and on how rare the words they share are, which changes only for words whose
document frequency moved across one of the features' edges (``word_rarity``). So new documents touch:

1. the components their reports link to (their pairs at or above the merge threshold);
2. the components holding a pair of reports that share a word whose rarity the new documents moved, where
   that changed the pair's features (or now links two components);
3. the twin features (``confidence.twin_features``) of incidents of the same kind in the same city.

The incidents of 1 and 2 are grouped again with the new reports; those of 3 get their evidence and
confidence again; the rest of the incident graph stays as it is, ids included. Of the regrouped incidents, one
that comes out with the same documents and pairs as before keeps its triples (``unchanged_incidents``; only its
component label is rewritten when new links joined its component to another). The earlier reports come from the
file the last grouping saved (``report_cache``) where there is one, so only the new ones are read from the store;
so do their columns and word frequencies (``current_columns``), so that only the new reports' are built, and the
twin features are read again only for the kinds and cities new or removed incidents are in (``changed_twins``).
The change is written in one SPARQL update, so a reader sees the graph before it or after it. The result is
the incident graph grouping every document at once gives (``tests/test_incremental.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Iterable

import numpy as np
from rdflib import Literal, URIRef

from kg_count.arrays import sorted_unique
from kg_count.geography import gazetteer
from kg_count.background import running_beside
from kg_count.graph.namespaces import GEO, KGC
from kg_count.incidents.pairs.added_candidates import added_candidate_pairs
from kg_count.incidents.grouping.cluster import Grouping, ReportCluster, group_reports, pair_probabilities
from kg_count.incidents.pairs.candidate_pairs import candidate_pair_array, pair_rows
from kg_count.incidents.pairs.pair_context import PairContext
from kg_count.incidents.grouping.incident_match import twin_features
from kg_count.incidents.pairs.coreference_model import CoreferenceModel
from kg_count.incidents.store.incident_graph import SCORE_PREDICATES, add_scores, incident_iri, incidents_as_triples
from kg_count.incidents.store.incident_versions import current_version
from kg_count.incidents.pairs.pair_bound import may_link
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.title_vectors import EncoderBeside, encoded_beside, sentence_vectors
from kg_count.incidents.pairs.pair_cache import EarlierScores, ScoredPairs
from kg_count.incidents.pairs.pair_features import rarity_edges
from kg_count.incidents.grouping.reconcile import reconcile
from kg_count.incidents.pairs.current_columns import current_columns, current_rarity
from kg_count.incidents.store.report_cache import (
    load_columns,
    load_incidents,
    load_reports,
    save_columns,
    save_incidents,
    save_report_changes,
    save_versions,
)
from kg_count.incidents.grouping.scored_incidents import scored
from kg_count.incidents.reports.reports import Report, reports_from_store
from kg_count.incidents.store.stored_incidents import StoredIncident, stored_incidents, stored_view
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.memory import release_freed_memory
from kg_count.progress import status

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore


@dataclass
class Changes:
    """The pairs new documents changed: the probability of every candidate pair of a new report without a hard
    conflict that may reach the merge threshold (``added``), and the candidate pairs of earlier reports that share
    a word whose rarity the new documents moved (``reread``, by document ids), whose features may have changed."""

    added: ScoredPairs
    reread: set[tuple[str, str]]


@dataclass
class CurrentState:
    """What an update reads of the store as it is: every report, how rare their title and lead words are, their
    columns (``current_columns``), the incidents before it (by id), and the changes that moved word rarities make
    (``moved_word_changes``: the reports touched, the pairs to read again)."""

    reports: list[Report]
    rarity: tuple[WordRarity, WordRarity]
    columns: ReportColumns
    old: dict[str, StoredIncident]
    component_of: dict[str, str]  # of each document's report, in the incidents before the update
    moved: tuple[set[str], set[tuple[str, str]]]


def touched_components(state: CurrentState, added: set[str], coreference: CoreferenceModel) -> tuple[set[str], Changes]:
    """The components (by id) that the ``added`` reports link to (``seed_partners``), or that hold a pair of reports
    whose features the new documents changed (``state.moved``: ``moved_word_changes``); and the pairs the new
    documents changed (``Changes``). ``state``: the store's reports, word rarities, columns and incidents now."""
    touched, added_pairs = seed_partners(state.reports, added, state.rarity, coreference, state.columns)
    moved, reread = state.moved
    component_of = state.component_of
    return {component_of[doc] for doc in touched | moved if doc in component_of}, Changes(added_pairs, reread)


def moved_word_changes(
    reports: list[Report],
    added: set[str],
    rarity: tuple[WordRarity, WordRarity],
    component_of: dict[str, str],
    coreference: CoreferenceModel,
    columns: ReportColumns,
) -> tuple[set[str], set[tuple[str, str]]]:
    """The earlier reports of a pair whose features the ``added`` documents changed through a shared word whose
    rarity (``rarity`` now) they moved, where that changed the pair's features (or now links two of the components
    of ``component_of``); and every candidate pair of earlier reports that share such a word (by document ids),
    whose features may have changed. ``columns``: those of the earlier reports (at least), whose words they read."""
    fresh = [r for r in reports if r.doc_id in added]
    before = rarity[0].without(r.title for r in fresh), rarity[1].without(r.lead for r in fresh)
    title_edges, lead_edges = rarity_edges()
    moved_titles, moved_leads = rarity[0].moved(before[0], title_edges), rarity[1].moved(before[1], lead_edges)
    titles_holding, leads_holding = columns.holding("title", moved_titles), columns.holding("lead", moved_leads)
    holders, title_moved, lead_moved = [], [], []
    for r in reports:
        title_words, lead_words = titles_holding.get(r.doc_id, set()), leads_holding.get(r.doc_id, set())
        if r.doc_id not in added and (title_words or lead_words):
            holders.append(r)
            title_moved.append(title_words)
            lead_moved.append(lead_words)
    now = PairContext.of(holders, rarity)
    earlier = replace(now, rarity=before[0], lead_rarity=before[1])
    either = np.concatenate([candidate_pair_array(holders, rarity[0]), candidate_pair_array(holders, before[0])])
    touched, reread = set(), set()
    for i, j in pair_rows(np.unique(either, axis=0)):
        if not (title_moved[i] & title_moved[j] or lead_moved[i] & lead_moved[j]):
            continue  # a pair's features and conflicts read word rarities only through the words it shares
        a, b = holders[i].doc_id, holders[j].doc_id
        reread.add((a, b))
        features = now.features(i, j)
        if component_of[a] == component_of[b]:
            changed = features != earlier.features(i, j)
        else:  # a pair across components weighs in no merge unless it now links them
            changed = features is not None and coreference.probability(features) >= coreference.threshold
        if changed:
            touched.update((a, b))
    return touched, reread


def seed_partners(
    reports: list[Report], added: set[str], rarity, coreference: CoreferenceModel, columns: ReportColumns
) -> tuple[set[str], ScoredPairs]:
    """The earlier reports that an ``added`` one forms a pair with at or above the merge threshold, and the
    probability of every candidate pair of an ``added`` report without a hard conflict that may reach it
    (``pair_bound.may_link`` over ``columns``, those of every report; the others are under it). The candidate
    pairs are found over the columns (``added_candidates``)."""
    row = {doc: k for k, doc in enumerate(columns.doc_ids)}
    index = np.empty(len(reports), dtype=np.int64)  # of each row's report in ``reports``
    index[[row[r.doc_id] for r in reports]] = np.arange(len(reports))
    fresh = np.array(sorted(row[doc] for doc in added if doc in row), dtype=np.int64)
    pairs = index[added_candidate_pairs(columns, fresh, rarity[0])]
    codes = np.sort(pairs.min(axis=1) * len(reports) + pairs.max(axis=1))  # each pair once already
    pairs = np.stack([codes // len(reports), codes % len(reports)], axis=1)
    involved = sorted_unique(pairs)
    position = np.full(len(reports), -1, dtype=np.int64)
    position[involved] = np.arange(len(involved))
    compared = [reports[k] for k in involved.tolist()]
    pairs = position[pairs]
    pairs = pairs[_may_link(reports, compared, rarity, coreference, pairs, columns, row)]
    scored = pair_probabilities(_scoring_context(compared, rarity, pairs), coreference, pairs)
    partners = {
        compared[k].doc_id
        for pair, p in scored.items()
        if p >= coreference.threshold
        for k in pair
        if compared[k].doc_id not in added
    }
    return partners, ScoredPairs.of(compared, scored)


def _may_link(
    reports: list[Report],
    compared: list[Report],
    rarity,
    coreference: CoreferenceModel,
    pairs: np.ndarray,
    columns: ReportColumns,
    row: dict[str, int],
) -> np.ndarray:
    """``pair_bound.may_link`` for ``pairs`` of ``compared`` reports, over ``columns`` (those of every one of
    ``reports``, at the ``row`` of each document) as they are: no row is copied and no title vector read."""
    by_id = {r.doc_id: r for r in reports}
    context = PairContext([by_id[doc] for doc in columns.doc_ids], {}, *rarity)
    context.use_columns(columns)
    rows = np.fromiter((row[r.doc_id] for r in compared), dtype=np.int64, count=len(compared))
    return may_link(context, coreference, rows[pairs], coreference.threshold)


def _scoring_context(compared: list[Report], rarity, pairs: np.ndarray) -> PairContext:
    """A context for scoring ``pairs`` of ``compared`` reports exactly: the title vectors of their reports only."""
    titles = {compared[k].title for k in sorted_unique(pairs).tolist()}
    vectors = sentence_vectors(titles)
    return PairContext(compared, vectors, *rarity, {t: np.linalg.norm(v) for t, v in vectors.items()})


def regroup_added(
    store: GraphStore,
    coreference: CoreferenceModel,
    versions: dict[str, str],
    added: set[str],
    stamp: str,
    earlier_stamp: str | None,
    built_with: str,
    beside: EncoderBeside | None = None,
) -> None:
    """Group the ``added`` documents' reports into the store's incident graph with ``coreference``, regrouping
    only what they touch (see the module docstring); record their content hashes (``versions``) and ``stamp``
    as the graph's fingerprint. The pair probabilities the grouping of ``earlier_stamp`` saved (``pair_cache``),
    where there are some, spare scoring the pairs the new documents did not change. The files the next update reads
    (``report_cache``: the reports, incidents, pair probabilities and versions, with the models' fingerprint
    ``built_with``) are saved while the store writes the change. The new titles are encoded in the process
    ``beside``, where one was started (else in one forked here)."""
    version = current_version(store)
    status(f"reading the reports of {len(added)} new documents")
    state = current_state(store, added, version, earlier_stamp, coreference, beside)
    reports, rarity, columns, old = state.reports, state.rarity, state.columns, state.old
    by_id = {r.doc_id: r for r in reports}
    status(f"finding the incidents {len(added)} new documents touch among {len(old)}")
    components, changes = touched_components(state, added, coreference)
    grouping, regrouped, saved = regrouped_reports(state, added, (components, changes), coreference, earlier_stamp)
    del state
    release_freed_memory()  # the grouping's pair probabilities, before the update's text is built
    same = unchanged_incidents(old, grouping.clusters, added, changes.reread)
    clusters, removed, kept = _replaced(old, components, grouping.clusters, same)
    fresh = [reconcile(cluster, cluster.incident_id) for cluster in clusters]
    relabelled = [i for i in kept if i.component != old[i.incident_id].component]
    status(f"writing {len(fresh)} new or changed incidents in place of {len(removed)}")
    twins = changed_twins(fresh, [g.reports[0].family for g in clusters], kept, [old[i] for i in removed])
    scored(fresh, clusters, twins[: len(fresh)])
    rescored = [
        rescore(incident, [by_id[doc] for doc in incident.doc_ids], twin)
        for incident, twin in zip(kept, twins[len(fresh) :])
        if sorted(twin) != incident.twins
    ]
    grouped = {doc: versions[doc] for doc in added}
    deleted, inserted = _change(store, version, (fresh, kept, removed, rescored, relabelled), grouped, stamp)
    with running_beside(store.update_graph, version, deleted, inserted):  # the files are saved meanwhile
        save_report_changes(reports, added, earlier_stamp, stamp)
        save_columns(columns, rarity, stamp)
        retwinned = [replace(incident, twins=sorted(twin)) for incident, twin in zip(kept, twins[len(fresh) :])]
        save_incidents([*map(stored_view, fresh), *retwinned], stamp)
        if saved is not None:
            saved.without(set(regrouped)).joined(grouping.pairs).save(stamp)
        save_versions(built_with, versions, stamp)


def regrouped_reports(
    state: CurrentState,
    added: set[str],
    touched: tuple[set[str], Changes],
    coreference: CoreferenceModel,
    earlier_stamp: str | None,
) -> tuple[Grouping, list[str], ScoredPairs | None]:
    """The grouping of the ``added`` reports with those of the components they touched (``touched``: those
    components and the pairs the new documents changed, ``touched_components``), reading the probabilities the
    grouping of ``earlier_stamp`` saved (``pair_cache``) for the pairs that did not change; the regrouped document
    ids; and those saved probabilities (None where there are none)."""
    components, changes = touched
    regrouped = sorted(
        {r.doc_id for r in state.reports if r.doc_id in added}
        | {doc for doc, component in state.component_of.items() if component in components}
    )
    saved = ScoredPairs.load(earlier_stamp) if earlier_stamp else None
    earlier = EarlierScores(saved, state.component_of, changes.added, changes.reread) if saved is not None else None
    status(f"regrouping {len(regrouped)} reports of {len(components)} link components")
    by_id = {r.doc_id: r for r in state.reports}
    regrouping = [by_id[doc] for doc in regrouped]
    grouping = group_reports(
        regrouping,
        coreference,
        rarity=state.rarity,
        earlier=earlier,
        explain_later=saved is not None,
        vectors=state.columns.title_vectors(regrouping),
    )
    return grouping, regrouped, saved


def _change(
    store: GraphStore, version: URIRef, incidents: tuple, grouped: dict[str, str], stamp: str
) -> tuple[list[str], set[tuple]]:
    """The statements to delete from the incident graph ``version`` (as N-Triples) and the triples to insert, for
    ``incidents``: the fresh ones to write, the kept ones, the ids of the removed ones, the kept ones rescored and
    those relabelled; ``grouped``: the content hash of each added document; ``stamp``: the graph's fingerprint now."""
    fresh, kept, removed, rescored, relabelled = incidents
    deleted = incident_triples(store, version, removed)
    scores = [(incident_iri(i.incident_id), p) for i in rescored for p in SCORE_PREDICATES]
    labels = [(incident_iri(i.incident_id), KGC.component) for i in relabelled]
    deleted += stored_triples(store, version, [*scores, *labels, (version, KGC.builtFrom)])
    deleted += orphaned_coordinates(store, version, removed, [*fresh, *kept])
    inserted = set(incidents_as_triples(fresh, grouped))
    for incident in rescored:
        add_scores(inserted, incident_iri(incident.incident_id), incident)
    inserted.update((incident_iri(i.incident_id), KGC.component, Literal(i.component)) for i in relabelled)
    inserted.add((version, KGC.builtFrom, Literal(stamp)))
    return deleted, inserted


def changed_twins(
    fresh: list, families: list[str], kept: list[StoredIncident], removed: list[StoredIncident]
) -> list[list[str]]:
    """The twin features (``confidence.twin_features``) of the ``fresh`` incidents (of kinds ``families``) and of the
    ``kept`` ones: read again for the incidents of a kind and city that holds a fresh or a ``removed`` incident,
    the only ones whose twins can change; the others keep those they have."""
    changed = {(family, i.city_iri) for i, family in zip(fresh, families)} | {(i.family, i.city_iri) for i in removed}
    near = [k for k, incident in enumerate(kept) if (incident.family, incident.city_iri) in changed]
    read = twin_features([*fresh, *(kept[k] for k in near)], [*families, *(kept[k].family for k in near)])
    twins = [*read[: len(fresh)], *(list(incident.twins) for incident in kept)]
    for position, k in enumerate(near):
        twins[len(fresh) + k] = read[len(fresh) + position]
    return twins


def current_reports(
    store: GraphStore, fresh: list[Report], added: set[str], earlier_stamp: str | None
) -> tuple[list[Report], list[Report] | None]:
    """Every report of the store, by document id: the ``fresh`` ones (those of the ``added`` documents, read from the
    store), the others from the reports saved with the grouping of ``earlier_stamp`` (``report_cache``), or all from
    the store when none were saved; and the saved reports the ``added`` documents replace (None when none were
    saved)."""
    saved = load_reports(earlier_stamp) if earlier_stamp else None
    if saved is None:
        return reports_from_store(store), None
    earlier = [report for doc, report in saved.items() if doc not in added]
    replaced = [report for doc, report in saved.items() if doc in added]
    return sorted([*earlier, *fresh], key=lambda r: r.doc_id), replaced


def current_state(
    store: GraphStore,
    added: set[str],
    version: URIRef,
    earlier_stamp: str | None,
    coreference: CoreferenceModel,
    beside: EncoderBeside | None = None,
) -> CurrentState:
    """The store as an update finds it (``CurrentState``): ``added``, the ids of the new documents; ``version``, the
    incident graph before them. Reports come from ``current_reports``, word rarities and columns from
    ``current_rarity`` and ``current_columns`` (built for the new reports only where the grouping of ``earlier_stamp``
    saved its own), the incidents from the file that grouping saved (``report_cache``) or else the graph. The new
    titles are encoded in another process (``title_vectors.encoded_beside``: ``beside``, where one was started)
    while the rest is read and the changes of moved word rarities found (over the saved columns, where they are
    those of the earlier reports)."""
    fresh = reports_from_store(store, added) if earlier_stamp else []
    with encoded_beside((r.title for r in fresh), beside=beside):
        reports, replaced = current_reports(store, fresh, added, earlier_stamp)
        gazetteer()  # the new reports' columns place them
        saved = load_columns(earlier_stamp) if earlier_stamp and replaced is not None else None
        fresh = [r for r in reports if r.doc_id in added]
        rarity = current_rarity(None if saved is None else saved[1], replaced or [], fresh, reports)
        old = (load_incidents(earlier_stamp) if earlier_stamp else None) or stored_incidents(store, version)
        component_of = {doc: incident.component for incident in old.values() for doc in incident.doc_ids}
        moving = partial(moved_word_changes, reports, added, rarity, component_of, coreference)
        earlier = saved[0] if saved is not None and _of_earlier(saved[0], reports, added) else None
        moved = None if earlier is None else moving(earlier)
    columns = current_columns(None if saved is None else saved[0], fresh, reports, rarity)
    if moved is None:
        moved = moving(columns)
    return CurrentState(reports, rarity, columns, old, component_of, moved)


def _of_earlier(columns: ReportColumns, reports: list[Report], added: set[str]) -> bool:
    """Whether ``columns`` hold a row for every report of ``reports`` not ``added``."""
    return {r.doc_id for r in reports if r.doc_id not in added} <= set(columns.doc_ids)


def _replaced(
    old: dict[str, StoredIncident], components: set[str], clusters: list[ReportCluster], same: dict[str, str]
) -> tuple[list[ReportCluster], set[str], list[StoredIncident]]:
    """The ``clusters`` of a regrouping whose incidents are to be written, the ``old`` incident ids they replace
    (those of the regrouped ``components`` that are not ``same``, ``unchanged_incidents``), and the old incidents
    that stay, each with its component now."""
    changed = [cluster for cluster in clusters if cluster.incident_id not in same]
    removed = {i.incident_id for i in old.values() if i.component in components and i.incident_id not in same}
    kept = [
        replace(incident, component=same.get(incident.incident_id, incident.component))
        for incident in old.values()
        if incident.incident_id not in removed
    ]
    return changed, removed, kept


def unchanged_incidents(
    old: dict[str, StoredIncident], clusters: list[ReportCluster], added: set[str], reread
) -> dict[str, str]:
    """Of the incidents a regrouping's ``clusters`` make, those whose graph is an ``old`` incident's but for its
    component (the id of the link component, which a new document can join to another): the same documents, none
    of them ``added``, and no pair of them whose features a moved word rarity may have changed (in ``reread``), so
    that their grouping read the same pairs and reconciled the same reports. Returns their ids with their
    components now; their triples need not be written again (nor their clusters reconciled)."""
    candidates = {}
    for cluster in clusters:
        doc_ids = [r.doc_id for r in cluster.reports]  # sorted, as the old incidents' are
        key = cluster.incident_id
        if key in old and doc_ids == old[key].doc_ids and not added.intersection(doc_ids):
            candidates[key] = cluster.component
    holder = {doc: key for key in candidates for doc in old[key].doc_ids}
    for a, b in reread:
        if holder.get(a) is not None and holder.get(a) == holder.get(b):
            candidates.pop(holder[a], None)
    return candidates


def rescore(incident: StoredIncident, reports: list[Report], twin: list[str]):
    """The reconciled incident of ``incident``'s reports (unchanged) with its evidence and confidence for ``twin``."""
    cluster = ReportCluster(reports, [], incident.component)
    again = reconcile(cluster, incident.incident_id)
    scored([again], [cluster], [twin])
    return again


def incident_triples(store: GraphStore, version: URIRef, incident_ids: Iterable[str]) -> list[str]:
    """Every triple of the incident graph ``version`` about the incidents ``incident_ids``, their times and their
    people (as N-Triples statements)."""
    nodes = " ".join(incident_iri(i).n3() for i in sorted(set(incident_ids)))
    if not nodes:
        return []
    query = (
        f"SELECT ?s ?p ?o WHERE {{ GRAPH {version.n3()} {{ VALUES ?i {{ {nodes} }} "
        "{ ?i ?p ?o BIND(?i AS ?s) } UNION { ?i sem:hasTime ?s . ?s ?p ?o } UNION { ?i sem:hasActor ?s . ?s ?p ?o } "
        "} }"
    )
    return store.statements(query)


def stored_triples(store: GraphStore, version: URIRef, pairs: list[tuple[URIRef, URIRef]]) -> list[str]:
    """The triples of the incident graph ``version`` with each of the (subject, predicate) pairs given, as N-Triples
    statements."""
    if not pairs:
        return []
    rows = " ".join(f"({s.n3()} {p.n3()})" for s, p in pairs)
    query = f"SELECT ?s ?p ?o WHERE {{ VALUES (?s ?p) {{ {rows} }} GRAPH {version.n3()} {{ ?s ?p ?o }} }}"
    return store.statements(query)


def orphaned_coordinates(store: GraphStore, version: URIRef, removed: set[str], remaining: list) -> list[str]:
    """The coordinate triples of the cities only ``removed`` incidents were in (none of ``remaining``)."""
    if not removed:
        return []
    nodes = " ".join(incident_iri(i).n3() for i in sorted(removed))
    graph = version.n3()
    query = f"SELECT DISTINCT ?city WHERE {{ GRAPH {graph} {{ VALUES ?i {{ {nodes} }} ?i kgc:city ?city }} }}"
    still = {incident.city_iri for incident in remaining}
    cities = [URIRef(city) for (city,) in store.values(query) if city not in still]
    return stored_triples(store, version, [(city, predicate) for city in cities for predicate in (GEO.lat, GEO.long)])
