"""The fast suite's accuracy guard: the first 40 documents of the embedded sample read by the real pipeline and
checked against the Gun Violence Archive records of their incidents (data/sample/incidents.jsonl). Every
field's count of right documents is pinned, so one document read worse (or better) shows here, in seconds."""

from __future__ import annotations

import json

from kg_count.io.conll import iter_documents
from kg_count.nlp.pipeline import process
from kg_count.training.record_accuracy import record_hits, task_articles
from tests.helpers import FIXTURES, SAMPLE

DOCUMENTS = 40


def test_the_samples_reading_is_the_pinned_one():
    articles, incidents = task_articles(SAMPLE)
    documents = [d for _, d in zip(range(DOCUMENTS), iter_documents(SAMPLE / "docs.conll"))]
    measured = record_hits(list(process(documents)), articles, incidents)
    pinned = json.loads((FIXTURES / "sample_reading.json").read_text(encoding="utf-8"))
    assert measured == pinned, (
        "the sample's reading changed; if meant, write this into tests/fixtures/sample_reading.json:\n"
        + json.dumps(measured, indent=1, sort_keys=True)
    )


def test_the_guard_counts_a_document_read_wrong():
    articles, incidents = task_articles(SAMPLE)
    [document] = [d for _, d in zip(range(1), iter_documents(SAMPLE / "docs.conll"))]
    [record] = process([document])
    gold = int(incidents[articles[record.doc_id]["incident_id"]]["num_killed"])
    record.killed = gold
    assert record_hits([record], articles, incidents)["killed"] == 1
    record.killed = gold + 1
    wrong = record_hits([record], articles, incidents)
    assert wrong["killed"] == 0 and wrong["counts"] == 0
