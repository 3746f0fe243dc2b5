"""Readers beside a writer: while a real `kg-count build` process adds documents to an embedded store,
`incidents`, `sparql` and `answer` read it in a loop, and each finds the store as it was before the update or
as it is after, never an error; a second writer is refused with a message naming the holder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg_count.cli import main
from kg_count.graph.loader import build_store
from kg_count.graph.store import GraphStore
from kg_count.incidents.update.materialise import ensure_incidents
from kg_count.io.conll import iter_documents, write_documents
from kg_count.nlp.record_cache import default_record_cache_path
from tests.helpers import SAMPLE
from tests.helpers import descendants, still_running_after

pytestmark = pytest.mark.slow
KG_COUNT = Path(sys.executable).parent / "kg-count"
LATER = 30  # documents the update adds
INCIDENT_COUNT = "SELECT (COUNT(DISTINCT ?i) AS ?n) WHERE { GRAPH %INCIDENTS% { ?i a sem:Event } }"


def read_all(store: Path, first: Path, questions: Path, out: Path, capsys) -> tuple[str, str, str]:
    """(incidents listing, incident count by SPARQL, answers) as the read commands give them now."""
    results = []
    for args in (
        ["incidents", "--store", store, "--limit", "0"],
        ["sparql", "--store", store, "--format", "csv", INCIDENT_COUNT],
        ["answer", "--docs", first, "--questions", questions, "--store", store, "--out", out],
    ):
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        results.append(out.read_text(encoding="utf-8") if args[0] == "answer" else captured.out)
    return tuple(results)


@pytest.fixture(scope="module")
def update(tmp_path_factory) -> dict:
    """A store of the sample but its last ``LATER`` documents, with its incidents; the file of those."""
    folder = tmp_path_factory.mktemp("beside")
    documents = list(iter_documents(SAMPLE / "docs.conll"))
    write_documents(folder / "first.conll", documents[:-LATER])
    write_documents(folder / "later.conll", documents[-LATER:])
    build_store(folder / "first.conll", folder / "store", cache=default_record_cache_path())
    with GraphStore(folder / "store") as store:
        ensure_incidents(store)
    return {"folder": folder, "first": folder / "first.conll", "later": folder / "later.conll"}


def test_reads_during_a_build_find_the_store_before_or_after_it(update, tmp_path, capsys):
    store = tmp_path / "store"
    shutil.copytree(update["folder"] / "store", store)
    questions, out = SAMPLE / "s2" / "questions.json", tmp_path / "answers.json"
    before = read_all(store, update["first"], questions, out, capsys)
    build = subprocess.Popen(
        [str(KG_COUNT), "build", "--docs", str(update["later"]), "--store", str(store), "--no-cache"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    during = []
    while build.poll() is None:
        during.append(read_all(store, update["first"], questions, out, capsys))
    _, err = build.communicate(timeout=600)
    assert build.returncode == 0, err
    after = read_all(store, update["first"], questions, out, capsys)
    assert before != after
    assert during, "no read happened while the build ran"
    for reading in during:
        for kind, now, old, new in zip(("incidents", "sparql", "answer"), reading, before, after):
            assert now in (old, new), f"{kind} read a state between the update's two"
    print(f"{len(during)} reads during the build:", [("before" if r == before else "after") for r in during])


def test_a_second_writer_is_refused_naming_the_holder(update, tmp_path, capsys):
    store = tmp_path / "store"
    shutil.copytree(update["folder"] / "store", store)
    build = subprocess.Popen(
        [str(KG_COUNT), "build", "--docs", str(update["later"]), "--store", str(store), "--no-cache"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while build.poll() is None and not (store / "kg_count.writer").exists():
            time.sleep(0.05)
        holder = json.loads((store / "kg_count.writer").read_text())
        assert holder["pid"] == build.pid
        code = main(["build", "--docs", str(update["first"]), "--store", str(store)])
        err = capsys.readouterr().err
        assert build.poll() is None, "the first build ended before the second tried: nothing was tested"
        assert code == 1 and f"being written by process {build.pid}" in err and "kg-count build" in err
    finally:
        helpers = descendants(build.pid)
        build.kill()
        build.wait(timeout=60)
        assert not still_running_after(helpers)
    assert os.path.exists(store)
