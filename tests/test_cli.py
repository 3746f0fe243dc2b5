"""The kg-count command line: exit codes, messages and outputs, run as a user runs it."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kg_count.cli import main
from tests.helpers import FIXTURES, SAMPLE, write


def run(*args):
    return subprocess.run([sys.executable, "-m", "kg_count.cli", *args], capture_output=True, text=True)


def test_help_for_every_subcommand():
    for command in ("answer", "evaluate", "run-sample"):
        result = run(command, "--help")
        assert result.returncode == 0 and "usage: kg-count" in result.stdout


def _subcommands(parser, prefix=()):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*prefix, name), sub
                yield from _subcommands(sub, (*prefix, name))


def test_every_subcommand_and_option_is_described():
    from kg_count.cli import build_parser

    parser = build_parser()
    assert "``" not in parser.description
    undescribed = []
    for path, sub in _subcommands(parser):
        if not sub.description:
            undescribed.append(" ".join(path))
        undescribed += [
            f"{' '.join(path)} {a.option_strings[-1]}"
            for a in sub._actions
            if a.option_strings and a.help in (None, "") and a.dest != "help"
        ]
    assert undescribed == []


def test_bad_usage_exits_2():
    assert run().returncode == 2
    result = run("evaluate", "--gold", "g.json")
    assert result.returncode == 2 and "give either --gold and --system" in result.stderr


def test_bad_input_exits_1_naming_the_file(tmp_path):
    broken = write(tmp_path / "q.json", "{not json")
    result = run("answer", "--docs", "missing.conll", "--questions", str(broken), "--out", str(tmp_path / "a.json"))
    assert result.returncode == 1
    assert f"{broken}, line 1: invalid JSON" in result.stderr
    assert not (tmp_path / "a.json").exists()


def test_evaluate_json_keys(tmp_path, capsys):
    gold = write(tmp_path / "gold.json", json.dumps({"2-1": {"numerical_answer": 1, "answer_docs": {"i": ["d"]}}}))
    system = write(tmp_path / "sys.json", json.dumps({"2-1": {"numerical_answer": 1, "answer_docs": ["d"]}}))
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    for key in (
        "answered",
        "accuracy",
        "accuracy_norm",
        "rmse",
        "doc_precision",
        "doc_recall",
        "doc_f1",
        "doc_f1_norm",
    ):
        assert key in scores
    assert scores["accuracy"] == 100.0 and scores["rmse"] == 0.0


def test_evaluate_coreference_from_conll(tmp_path, fixtures, capsys):
    from kg_count.io.conll import read_documents, write_documents

    docs = list(read_documents(fixtures / "two_docs.conll").values())
    write_documents(tmp_path / "g.conll", docs, {"d1": {1: [(1, 1), (11, 11)]}, "d2": {2: [(2, 2)]}})
    write_documents(tmp_path / "s.conll", docs, {"d1": {5: [(1, 1)], 6: [(11, 11)]}, "d2": {2: [(2, 2)]}})
    assert (
        main(
            [
                "evaluate",
                "--gold-conll",
                str(tmp_path / "g.conll"),
                "--system-conll",
                str(tmp_path / "s.conll"),
                "--json",
            ]
        )
        == 0
    )
    scores = json.loads(capsys.readouterr().out)
    assert scores["muc"]["recall"] == 0.0 and scores["bcub"]["precision"] == 100.0
    assert 0 < scores["average"] < 100


def _pinned_view(out: Path) -> dict:
    """What the sample score test pins: S2's scores against gold, S1's document counts, S3's counts and documents."""
    from kg_count.evaluate.answer_files import score_answer_files

    scores = score_answer_files(
        SAMPLE / "s2" / "answers.json", out / "s2" / "answers.json", SAMPLE / "s2" / "questions.json"
    )
    s1 = json.loads((out / "s1" / "answers.json").read_text())
    s3 = json.loads((out / "s3" / "answers.json").read_text())
    return {
        "s2_scores": {
            k: round(scores[k], 4) for k in ("answered", "accuracy", "rmse", "doc_precision", "doc_recall", "doc_f1")
        },
        "s1_documents": {q: len(a["answer_docs"]) for q, a in s1.items()},
        "s3_count_and_documents": {q: [a["numerical_answer"], len(a["answer_docs"])] for q, a in s3.items()},
    }


@pytest.mark.slow
def test_run_sample_scores_are_the_pinned_ones_and_the_report_shows_incidents(tmp_path, capsys):
    """Any change in accuracy on the embedded sample shows here (and in tests/fixtures/sample_scores.json's diff)."""
    assert main(["run-sample", "--sample", str(SAMPLE), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "s2 scores" in out and "doc_f1" in out
    answers = json.loads((tmp_path / "s2" / "answers.json").read_text())
    assert set(answers) == set(json.loads((SAMPLE / "s2" / "questions.json").read_text()))
    measured = _pinned_view(tmp_path)
    pinned = json.loads((FIXTURES / "sample_scores.json").read_text())
    assert measured == pinned, (
        "the sample's scores changed; if meant, write this into tests/fixtures/sample_scores.json:\n"
        + (json.dumps(measured, indent=1, sort_keys=True))
    )
    assert (
        main(
            [
                "evaluate",
                "--gold",
                str(SAMPLE / "s2" / "answers.json"),
                "--system",
                str(tmp_path / "s2" / "answers.json"),
                "--report",
                str(tmp_path / "report"),
                "--store",
                str(tmp_path / "store"),
            ]
        )
        == 0
    )
    page = (tmp_path / "report" / "index.html").read_text()
    assert re.search(r"\(confidence [01]\.\d\d\) <a href='incidents/(\w+)\.ttl'>Turtle</a>", page)
    linked = re.search(r"href='incidents/(\w+)\.ttl'", page)[1]
    assert "kgc:Incident" in (tmp_path / "report" / "incidents" / f"{linked}.ttl").read_text()


@pytest.mark.parametrize("missing", ["docs.conll", "s2"])
def test_run_sample_on_an_incomplete_folder_is_usage_error(tmp_path, missing):
    if missing != "docs.conll":
        write(tmp_path / "docs.conll", "")
    if missing != "s2":
        (tmp_path / "s2").mkdir()
        write(tmp_path / "s2" / "questions.json", "{}")
    assert run("run-sample", "--sample", str(tmp_path), "--out", str(tmp_path / "o")).returncode == 2
