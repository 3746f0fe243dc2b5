"""Real processes: Ctrl-C stops a build (which then resumes), a closed pipe ends output quietly."""

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kg_count.io.conll import iter_documents, write_documents

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
DOCUMENTS = 20


def kg_count(*args) -> list[str]:
    return [sys.executable, "-m", "kg_count.cli", *map(str, args)]


@pytest.mark.slow
def test_ctrl_c_stops_a_build_which_then_resumes(tmp_path):
    write_documents(
        tmp_path / "docs.conll", [d for _, d in zip(range(DOCUMENTS), iter_documents(SAMPLE / "docs.conll"))]
    )
    build = kg_count(
        "build", "--docs", tmp_path / "docs.conll", "--store", tmp_path / "store", "--batch-size", "1", "--no-cache"
    )
    env = {**os.environ, "KG_COUNT_PROGRESS": "1"}
    process = subprocess.Popen(build, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    seen = bytearray()
    started = threading.Event()

    def read_errors():
        while chunk := process.stderr.read1(256):
            seen.extend(chunk)
            if any(f" {n}/{DOCUMENTS} ".encode() in seen for n in range(1, DOCUMENTS)):
                started.set()

    reader = threading.Thread(target=read_errors, daemon=True)
    reader.start()
    assert started.wait(120), seen.decode(errors="replace")
    process.send_signal(signal.SIGINT)
    code = process.wait(60)
    reader.join(10)
    errors = seen.decode(errors="replace")
    assert code == 130, errors  # what the build said, when it ended otherwise
    assert "loading the spaCy model" in errors
    assert "interrupted" in errors and "Traceback" not in errors and "Exception ignored" not in errors

    resumed = subprocess.run(build, capture_output=True, text=True, env={**env, "KG_COUNT_PROGRESS": "0"})
    assert resumed.returncode == 0, resumed.stderr
    first_line = resumed.stdout.splitlines()[1]
    skipped = int(first_line.split(" read, ")[1].split()[0])
    added = int(first_line.split(" added")[0].rsplit(" ", 1)[1])
    assert skipped >= 1 and skipped + added == DOCUMENTS


def test_a_closed_pipe_ends_the_output_without_a_traceback(tmp_path):
    from rdflib import Dataset

    from kg_count.graph.store import GraphStore

    data = Dataset()
    data.parse(Path(__file__).parent / "fixtures" / "incidents.trig", format="trig")
    with GraphStore(tmp_path / "store") as store:
        store.dataset.addN(quad for quad in data.quads() if quad[3] is not None)
    command = " ".join(kg_count("sparql", "--store", tmp_path / "store", "'SELECT * WHERE { ?s ?p ?o . ?a ?b ?c }'"))
    result = subprocess.run(f"{command} | head -2", shell=True, capture_output=True, text=True)
    assert len(result.stdout.splitlines()) == 2
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr
