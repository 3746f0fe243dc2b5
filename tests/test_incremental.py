"""Incidents grouped in parts are the incidents grouped at once: adding documents to a store regroups only
the incidents they can touch, whatever order the documents came in, and gives the incident graph that
grouping everything again gives."""

import json
import math
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kg_count.graph.loader import build_store
from kg_count.graph.namespaces import KGC
from kg_count.graph.store import GraphStore
from kg_count.incidents.grouping import cluster
from kg_count.incidents.pairs import pair_cache
from kg_count.incidents.store import report_cache
from kg_count.incidents.update import materialise, regroup
from kg_count.incidents.pairs.pair_context import PairContext
from kg_count.incidents.reports import reports as reports_module
from kg_count.incidents.pairs.coreference_model import shipped_coreference_model
from kg_count.incidents.store.incident_versions import current_triples, current_version
from kg_count.incidents.update.materialise import ensure_incidents
from kg_count.incidents.pairs.pair_bound import upper_logits
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.reports import reports_from_store
from kg_count.incidents.store.stored_incidents import stored_incidents
from kg_count.io.conll import Document, iter_documents, write_documents
from kg_count.nlp.record_cache import default_record_cache_path
from tests.helpers import SAMPLE

pytestmark = pytest.mark.slow


def incident_graph_quads(location: Path) -> set[tuple]:
    """The triples of the store's incident graph, after bringing it up to date."""
    with GraphStore(location) as store:
        ensure_incidents(store)
        return current_triples(store)


def built(documents: list[Document], folder: Path, name: str) -> Path:
    """``folder``/``name``.conll holding ``documents``."""
    path = folder / f"{name}.conll"
    write_documents(path, documents)
    return path


@pytest.fixture(scope="module")
def documents() -> list[Document]:
    return list(iter_documents(SAMPLE / "docs.conll"))


@pytest.fixture(scope="module")
def at_once(documents, tmp_path_factory) -> set[tuple]:
    folder = tmp_path_factory.mktemp("at_once")
    build_store(built(documents, folder, "all"), folder / "store", cache=default_record_cache_path())
    quads = incident_graph_quads(folder / "store")
    assert len(quads) > 1000
    return quads


def no_full_grouping(*args, **kwargs):
    raise AssertionError("adding documents grouped the whole store again")


class CountedScoring:
    """``cluster.pair_probabilities`` that counts the pairs it is asked to score."""

    def __init__(self):
        self.pairs = 0
        self.score = cluster.pair_probabilities

    def __call__(self, context, model, pairs, at_least=0.0):
        self.pairs += len(pairs)
        return self.score(context, model, pairs, at_least)


@pytest.mark.parametrize("saved_pairs", [True, False], ids=["saved-pairs", "no-saved-pairs"])
@pytest.mark.parametrize(
    "first, then",
    [
        (lambda d: d[:-30], lambda d: d[-30:]),  # the last 30 documents arrive later
        (lambda d: d[1::2], lambda d: d[::2]),  # every other document, the later half first
        (lambda d: d[::-1][:-5], lambda d: d[::-1][-5:]),  # five documents of the beginning, last
    ],
    ids=["last-30", "interleaved", "first-5"],
)
def test_a_store_built_in_two_parts_has_the_incident_graph_of_one_built_at_once(
    documents, at_once, first, then, saved_pairs, tmp_path, monkeypatch
):
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "pairs"))
    store = tmp_path / "store"
    build_store(built(first(documents), tmp_path, "first"), store, cache=default_record_cache_path())
    before = incident_graph_quads(store)
    assert len(list((tmp_path / "pairs").glob("*.npz"))) == 1
    if not saved_pairs:
        shutil.rmtree(tmp_path / "pairs")
    build_store(built(then(documents), tmp_path, "then"), store, cache=default_record_cache_path())
    monkeypatch.setattr(materialise, "grouped_incidents", no_full_grouping)
    assert incident_graph_quads(store) == at_once
    assert before != at_once


def test_an_update_with_the_saved_pairs_scores_fewer_pairs_and_saves_those_a_grouping_at_once_saves(
    documents, tmp_path, monkeypatch
):
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "pairs"))
    counter, scored, store = CountedScoring(), {}, tmp_path / "store"
    monkeypatch.setattr(cluster, "pair_probabilities", counter)
    for saved_pairs in (False, True):
        shutil.rmtree(store, ignore_errors=True)
        build_store(built(documents[:-30], tmp_path, "first"), store, cache=default_record_cache_path())
        incident_graph_quads(store)
        if not saved_pairs:
            shutil.rmtree(tmp_path / "pairs")
        build_store(built(documents[-30:], tmp_path, "then"), store, cache=default_record_cache_path())
        before = counter.pairs
        incident_graph_quads(store)
        scored[saved_pairs] = counter.pairs - before
    assert 0 < scored[True] < scored[False]
    with GraphStore(store) as opened:
        stamp = materialise.stored_fingerprint(opened)
    updated = pair_cache.ScoredPairs.load(stamp)
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "fresh-pairs"))
    build_store(built(documents, tmp_path, "all"), tmp_path / "fresh", cache=default_record_cache_path())
    incident_graph_quads(tmp_path / "fresh")
    whole = pair_cache.ScoredPairs.load(stamp)
    assert updated is not None and whole is not None
    assert (updated.doc_ids.tolist(), updated.codes.tolist()) == (whole.doc_ids.tolist(), whole.codes.tolist())
    assert updated.probability.tolist() == whole.probability.tolist()


def saved_incidents_are_the_stored_ones(store) -> bool:
    """Whether the incidents file of the store's incident graph holds what reading its incidents back gives."""
    with GraphStore(store) as opened:
        saved = report_cache.load_incidents(materialise.stored_fingerprint(opened))
        return saved == stored_incidents(opened, current_version(opened))


def test_an_update_reads_from_the_store_only_the_new_reports_and_saves_every_report(documents, tmp_path, monkeypatch):
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "pairs"))
    store = tmp_path / "store"
    build_store(built(documents[:-30], tmp_path, "first"), store, cache=default_record_cache_path())
    incident_graph_quads(store)
    assert saved_incidents_are_the_stored_ones(store)
    build_store(built(documents[-30:], tmp_path, "then"), store, cache=default_record_cache_path())
    read: list = []

    def counted(opened, doc_ids=None):
        read.append(doc_ids)
        return reports_from_store(opened, doc_ids)

    columns_of = ReportColumns.of.__func__
    columns_read: list[int] = []

    def counted_columns(kind, context):
        columns_read.append(len(context.reports))
        return columns_of(kind, context)

    monkeypatch.setattr(regroup, "reports_from_store", counted)
    monkeypatch.setattr(regroup, "stored_incidents", lambda *_: pytest.fail("the saved incidents were not read"))
    monkeypatch.setattr(ReportColumns, "of", classmethod(counted_columns))
    incident_graph_quads(store)
    assert read == [{document.doc_id for document in documents[-30:]}]
    assert columns_read and all(n <= 30 for n in columns_read)  # columns built for the new reports only
    monkeypatch.undo()
    with GraphStore(store) as opened:
        stamp = materialise.stored_fingerprint(opened)
        reports = reports_from_store(opened)
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "pairs"))
    assert report_cache.load_reports(stamp) == {report.doc_id: report for report in reports}
    assert saved_incidents_are_the_stored_ones(store)
    assert saved_columns_are_those_of(reports, stamp)


def saved_columns_are_those_of(reports: list, stamp: str) -> bool:
    """Whether the columns and word frequencies saved for ``stamp`` bound every candidate pair of ``reports`` as
    columns read from them at once, and count their words."""
    saved, rarity = report_cache.load_columns(stamp)
    context = PairContext.of(reports)
    row = {doc: k for k, doc in enumerate(saved.doc_ids)}
    given = PairContext(reports, context.vectors, context.rarity, context.lead_rarity, context.norms)
    given.use_columns(saved.take([row[r.doc_id] for r in reports]))
    model, pairs = shipped_coreference_model(), context.candidates
    bounds = [upper_logits(c, model, pairs, math.inf) for c in (given, context)]
    return rarity == (context.rarity, context.lead_rarity) and len(pairs) > 100 and np.array_equal(*bounds)


def test_a_document_that_comes_again_with_other_text_is_grouped_as_its_new_version(documents, tmp_path, monkeypatch):
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "pairs"))
    store = tmp_path / "store"
    build_store(built(documents, tmp_path, "all"), store, cache=default_record_cache_path())
    incident_graph_quads(store)
    edited = documents[0]
    tokens = [t if t.part != "TITLE" else replace(t, text=t.text[::-1]) for t in edited.tokens]
    changed = [Document(edited.doc_id, edited.dct, tokens), *documents[1:]]
    build_store(built(changed[:1], tmp_path, "edited"), store, cache=default_record_cache_path())
    updated = incident_graph_quads(store)
    with GraphStore(store) as opened:
        assert saved_columns_are_those_of(reports_from_store(opened), materialise.stored_fingerprint(opened))
    fresh = tmp_path / "fresh"
    build_store(built(changed, tmp_path, "changed"), fresh, cache=default_record_cache_path())
    assert updated == incident_graph_quads(fresh)


def test_an_update_reads_the_grouped_versions_from_the_saved_file_only_when_it_matches_the_graph(
    documents, tmp_path, monkeypatch
):
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "pairs"))
    store = tmp_path / "store"
    build_store(built(documents[:-30], tmp_path, "first"), store, cache=default_record_cache_path())
    incident_graph_quads(store)
    with GraphStore(store) as opened:
        stamp, built_with = materialise.stored_fingerprint(opened), materialise.models_fingerprint()
        versions = opened.document_versions()
        assert report_cache.load_versions(stamp) == (built_with, versions)
        assert materialise.grouped_versions(opened, built_with) == versions  # read from the graph
        report_cache.save_versions(built_with, {**versions, "not-grouped": "0"}, stamp)  # not the graph's stamp
        assert materialise.grouped_versions(opened, built_with, stamp, report_cache.load_versions(stamp)) == versions
        report_cache.save_versions(built_with, versions, stamp)
        monkeypatch.setattr(opened, "values", lambda *_: pytest.fail("the saved versions were not read"))
        assert materialise.grouped_versions(opened, built_with, stamp, report_cache.load_versions(stamp)) == versions
    with GraphStore(store) as opened:
        assert materialise.grouped_versions(opened, "other models", stamp, report_cache.load_versions(stamp)) is None


def test_saved_pairs_are_looked_up_by_report_position():
    doc_ids = np.array(["a", "b", "c", "d"])
    scored = pair_cache.ScoredPairs.from_indexes(doc_ids, np.array([0, 3]), np.array([2, 1]), np.array([0.9, 0.4]))
    where = scored.positions(np.array(["d", "a", "x", "c", "b"]))
    assert where.tolist() == [3, 0, -1, 2, 1]
    held, probability = scored.lookup(where[[1, 0, 2, 1]], where[[3, 4, 3, 4]])
    assert held.tolist() == [True, True, False, False] and probability.tolist() == [0.9, 0.4, 0.0, 0.0]


def test_the_cycle_collector_is_as_it_was_after_a_pause_even_when_the_block_fails():
    import gc

    from kg_count.memory import collector_paused

    with pytest.raises(KeyError), collector_paused():
        assert not gc.isenabled()
        raise KeyError("x")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()

    @collector_paused()
    def paused() -> bool:
        return gc.isenabled()

    assert paused() is False and gc.isenabled()


def test_an_update_whose_documents_report_no_incident_leaves_the_incidents_as_they_were(
    documents, tmp_path, monkeypatch
):
    monkeypatch.setenv(pair_cache.CACHE_ENV, str(tmp_path / "pairs"))
    store = tmp_path / "store"
    build_store(built(documents[:-30], tmp_path, "first"), store, cache=default_record_cache_path())
    before = incident_graph_quads(store)
    weather = tmp_path / "weather.jsonl"
    article = {"doc_id": "weather-1", "title": "Sunny weekend ahead", "dct": "2016-09-01", "content": "Clear skies."}
    weather.write_text(json.dumps(article) + "\n", encoding="utf-8")
    build_store(weather, store, cache=default_record_cache_path())
    monkeypatch.setattr(materialise, "grouped_incidents", no_full_grouping)
    changed = incident_graph_quads(store) ^ before
    assert any("weather-1" in str(triple[0]) for triple in changed)  # its grouped version
    assert all("weather-1" in str(triple[0]) or triple[1] == KGC.builtFrom for triple in changed)


def test_the_reports_of_some_documents_are_those_every_report_read_holds(documents, tmp_path, monkeypatch):
    """Reports read for given documents (their graphs named a few to a query) are those read for all, in order."""
    store = tmp_path / "store"
    build_store(built(documents[:12], tmp_path, "some"), store, cache=default_record_cache_path())
    monkeypatch.setattr(reports_module, "GRAPHS_A_QUERY", 3)
    with GraphStore(store) as opened:
        everything = reports_from_store(opened)
        chosen = [r.doc_id for r in everything][::2] + ["not-in-the-store"]
        assert len(chosen) > 2 * reports_module.GRAPHS_A_QUERY
        assert reports_from_store(opened, chosen) == [r for r in everything if r.doc_id in chosen]
        assert any(r.people for r in everything)
