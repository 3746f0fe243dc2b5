"""The public Python API: build and open an archive, answer, list and explain incidents, SPARQL, and the docs
page's worked example run as written."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import kg_count
from kg_count.errors import InputError, KgCountError, SetupError, StoreError, UsageError
from kg_count.io.conll import iter_documents, write_documents
from tests.helpers import SAMPLE

ROOT = Path(__file__).resolve().parents[1]
QUESTION = {
    "subtask": 2,
    "event_type": "killing",
    "location": {"state": "http://dbpedia.org/resource/North_Carolina"},
    "time": {"month": "01/2017"},
}


@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> Path:
    """A store of the sample's first 12 documents, built through the API."""
    folder = tmp_path_factory.mktemp("api")
    documents = [d for _, d in zip(range(12), iter_documents(SAMPLE / "docs.conll"))]
    write_documents(folder / "docs.conll", documents)
    with kg_count.build_archive(folder / "docs.conll", folder / "store") as archive:
        assert archive.summary.added == 12 and archive.summary.in_store == 12
    return folder / "store"


def test_the_package_offers_the_api_by_name():
    assert set(kg_count.__all__) >= {"open_archive", "build_archive", "Archive", "Question", "__version__"}
    assert kg_count.open_archive is kg_count.api.open_archive and "open_archive" in dir(kg_count)
    with pytest.raises(AttributeError, match="no_such_name"):
        kg_count.no_such_name


def test_incidents_listing_explaining_and_turtle_agree(small_store):
    with kg_count.open_archive(small_store) as archive:
        incidents = archive.incidents()
        assert incidents and sum(len(i.documents) for i in incidents) == 12
        assert [len(i.documents) for i in incidents] == sorted((len(i.documents) for i in incidents), reverse=True)
        first = incidents[0]
        assert archive.explain(first.incident_id).startswith(f"incident {first.incident_id}")
        assert first.incident_id in archive.turtle(incident_id=first.incident_id)
        assert archive.incidents(date="1900") == []
        assert all(first.types[0] in i.types for i in archive.incidents(event_type=first.types[0]))
        with pytest.raises(InputError, match="no-such-incident"):
            archive.explain("no-such-incident")
        with pytest.raises(UsageError):
            archive.turtle()


def test_a_second_build_adds_nothing_and_keeps_the_incidents(small_store):
    with kg_count.build_archive(small_store.parent / "docs.conll", small_store) as archive:
        assert archive.summary.added == 0 and archive.summary.skipped == 12
        assert not archive.grouping.regrouped and archive.grouping.count == len(archive.incidents())
        assert archive.grouping.line() == f"incidents: {archive.grouping.count} (up to date)"


def test_archive_for_documents_the_store_holds_opens_it_without_building(small_store, caplog):
    with kg_count.archive_for(small_store.parent / "docs.conll", small_store) as archive:
        assert archive.summary is None and archive.grouping is None and archive.store.document_count() == 12
    fewer = small_store.parent / "fewer.conll"
    write_documents(fewer, list(iter_documents(small_store.parent / "docs.conll"))[:5])
    with kg_count.archive_for(fewer, small_store) as archive:
        assert archive.summary is None
    assert "the store holds 7 documents besides the 5" in caplog.text


def test_sparql_rows_are_python_values(small_store):
    with kg_count.open_archive(small_store) as archive:
        rows = archive.sparql(
            "SELECT ?id ?killed WHERE { GRAPH %INCIDENTS% { ?i kgc:incidentId ?id ; kgc:killedCount ?killed } }"
        )
        listed = {i.incident_id: i.killed for i in archive.incidents()}
        assert {row["id"]: row["killed"] for row in rows} == listed
        assert archive.sparql("ASK { ?s ?p ?o }") is True
        with pytest.raises(KgCountError, match="SPARQL query failed"):
            archive.sparql("SELECT nonsense")
        with pytest.raises(UsageError, match="SERVICE"):
            archive.sparql("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")


def test_answers_come_from_a_dict_a_question_or_a_file(small_store, tmp_path):
    with kg_count.open_archive(small_store) as archive:
        from_dict = archive.answer(QUESTION)
        from_question = archive.answer(kg_count.parse_question("2-1", QUESTION))
        assert from_dict == from_question and from_dict.numerical_answer is not None
        answers = archive.answer_questions(SAMPLE / "s2" / "questions.json")
        assert len(answers) == len(kg_count.read_questions(SAMPLE / "s2" / "questions.json"))
        with pytest.raises(InputError, match="bad-question"):
            archive.answer({"subtask": 2}, question_id="bad-question")


def test_incidents_frame_needs_pandas_or_says_so(small_store):
    with kg_count.open_archive(small_store) as archive:
        try:
            import pandas  # noqa: F401
        except ImportError:
            with pytest.raises(SetupError, match="pandas"):
                archive.incidents_frame()
            return
        frame = archive.incidents_frame()
        assert list(frame["incident_id"]) == [i.incident_id for i in archive.incidents()]


def test_opening_where_there_is_no_store_names_the_place(tmp_path):
    with pytest.raises(StoreError, match="no store here"):
        kg_count.open_archive(tmp_path / "nothing")
    with pytest.raises(InputError, match="no such document file"):
        kg_count.build_archive(tmp_path / "missing.conll", tmp_path / "store")
    assert not (tmp_path / "store").exists()


@pytest.mark.slow
def test_the_docs_pages_example_runs_as_written(tmp_path, capsys):
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    assert len(blocks) == 2
    (tmp_path / "data").symlink_to(ROOT / "data")
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        namespace: dict = {}
        for block in blocks:
            exec(compile(block, "docs/python-api.md", "exec"), namespace)
    finally:
        os.chdir(old)
    printed = capsys.readouterr().out
    assert "documents" in printed and "answers" in printed
