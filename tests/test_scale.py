"""Scale-out: a local process pool, a real Dask LocalCluster and a real `oxigraph serve` SPARQL server
give the same store, triple for triple, as a single-process build into an embedded store; the
record cache serves unchanged documents and misses changed ones."""

from pathlib import Path

import pytest

from kg_count.graph.loader import build_store
from kg_count.graph.store import GraphStore, is_endpoint, store_location
from kg_count.incidents.update.materialise import ensure_incidents
from kg_count.io.conll import Document, Token, iter_documents, write_documents
from kg_count.nlp.record_cache import RecordCache, cached_records, document_key
from tests.helpers import SAMPLE

SAMPLE_DOCUMENTS = 10


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("scale") / "docs.conll"
    write_documents(path, [d for _, d in zip(range(SAMPLE_DOCUMENTS), iter_documents(SAMPLE / "docs.conll"))])
    return path


@pytest.fixture(scope="module")
def single_process_quads(docs, tmp_path_factory):
    location = tmp_path_factory.mktemp("single") / "store"
    summary = build_store(docs, location)
    assert summary.added == SAMPLE_DOCUMENTS
    with GraphStore(location) as store:
        quads = store.quads()
    assert len(quads) > 100 * SAMPLE_DOCUMENTS
    return quads


@pytest.mark.slow
def test_two_local_workers_build_the_same_store(docs, single_process_quads, tmp_path):
    summary = build_store(docs, tmp_path / "store", batch_size=4, workers=2)
    assert summary.added == SAMPLE_DOCUMENTS
    with GraphStore(tmp_path / "store") as store:
        assert store.quads() == single_process_quads


@pytest.mark.slow
def test_a_dask_local_cluster_builds_the_same_store(docs, single_process_quads, tmp_path):
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        summary = build_store(docs, tmp_path / "store", batch_size=3, scheduler=cluster.scheduler_address)
    assert summary.added == SAMPLE_DOCUMENTS
    with GraphStore(tmp_path / "store") as store:
        assert store.quads() == single_process_quads


def test_a_sparql_server_holds_the_same_store_and_answers_the_same(
    docs, single_process_quads, oxigraph_server, tmp_path
):
    from kg_count.answer.graph_answer import answer_from_store
    from kg_count.io.questions import read_questions

    location = store_location(oxigraph_server + "/")
    assert is_endpoint(location) and location == oxigraph_server
    build_store(docs, location, batch_size=4)
    again = build_store(docs, location)
    assert again.skipped == SAMPLE_DOCUMENTS and again.added == 0
    questions = read_questions(SAMPLE / "s2" / "questions.json")
    with GraphStore(location) as server, GraphStore(tmp_path / "embedded") as embedded:
        assert server.quads() == single_process_quads
        embedded.dataset.addN(single_process_quads)
        assert ensure_incidents(server) == ensure_incidents(embedded)
        assert server.quads() == embedded.quads()
        assert answer_from_store(server, questions) == answer_from_store(embedded, questions)


def test_the_record_cache_serves_unchanged_documents_only(docs, tmp_path):
    documents = list(iter_documents(docs))[:3]
    extracted = []

    def extract(batch):
        from kg_count.nlp.pipeline import process

        batch = list(batch)
        extracted.extend(d.doc_id for d in batch)
        return process(batch)

    with RecordCache(tmp_path / "records.sqlite") as cache:
        first = list(cached_records(documents, cache, extract))
    assert extracted == [d.doc_id for d in documents]
    changed = Document(
        documents[1].doc_id,
        documents[1].dct,
        [
            Token(t.token_id, "Memphis" if i == 5 else t.text, t.part, t.sentence, t.index)
            for i, t in enumerate(documents[1].tokens)
        ],
    )
    assert document_key(changed) != document_key(documents[1])
    extracted.clear()
    with RecordCache(tmp_path / "records.sqlite") as cache:
        second = list(cached_records([documents[0], changed, documents[2]], cache, extract))
    assert extracted == [changed.doc_id]
    first, second = {r.doc_id: r for r in first}, {r.doc_id: r for r in second}
    assert first.keys() == second.keys()
    assert second[documents[0].doc_id] == first[documents[0].doc_id]
    assert second[documents[2].doc_id] == first[documents[2].doc_id]


def test_build_options_are_checked(docs, tmp_path):
    from kg_count.cli import main

    for bad in (["--workers", "0"], ["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], ["--batch-size", "0"]):
        with pytest.raises(SystemExit) as stop:
            main(["build", "--docs", str(docs), "--store", str(tmp_path / "store"), *bad])
        assert stop.value.code == 2


def test_a_built_store_keeps_each_document_s_lead_for_coreference(docs, single_process_quads, tmp_path):
    from kg_count.incidents.reports.reports import reports_from_store

    location = tmp_path / "store"
    build_store(docs, location)
    documents = {d.doc_id: d for d in iter_documents(docs)}
    with GraphStore(location) as store:
        reports = reports_from_store(store)
    assert reports and all(r.lead == documents[r.doc_id].lead() and r.lead for r in reports)
