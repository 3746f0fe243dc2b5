"""Bad input and bad usage: exit 1 or 2 with a one-line message naming the file, line or id, and never
a traceback (an exception escaping ``main`` fails these tests) nor a half-written output."""

import json
from pathlib import Path

import pytest

from kg_count.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
DOCUMENT = (FIXTURES / "two_docs.conll").read_text(encoding="utf-8").split("#end document\n")[0] + "#end document\n"
GOLD = {"2-1": {"numerical_answer": 1, "answer_docs": {"i1": ["d1"]}}}
SYSTEM = {"2-1": {"numerical_answer": 1, "answer_docs": ["d1"]}}
QUESTION = {
    "event_type": "killing",
    "subtask": 2,
    "time": {"year": "2017"},
    "location": {"state": "http://dbpedia.org/resource/Ohio"},
}


def invoke(args: list[str], capsys) -> tuple[int, str]:
    """Run kg-count in this process; return (exit code, standard error)."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as stop:
        code = stop.code
    return code, capsys.readouterr().err


def conll(tmp_path: Path, text: str | bytes, name: str = "docs.conll") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def baseline_answer(docs: Path, questions: Path, out: Path) -> list:
    """The arguments of ``kg-count answer --system baseline``."""
    return ["answer", "--system", "baseline", "--docs", docs, "--questions", questions, "--out", out]


def json_file(tmp_path: Path, data, name: str) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def extract(tmp_path, docs):
    return ["extract", "--docs", docs, "--out", tmp_path / "out.jsonl"]


CONLL_CASES = {
    "non-UTF-8 bytes": (DOCUMENT.encode().replace(b"Man", b"M\xe4n"), "line 3: not UTF-8"),
    "empty token word": (DOCUMENT.replace("d1.b1.1\tHEATH", "d1.b1.1\t"), "line 5: token d1.b1.1 has an empty word"),
    "DCT 9999-12-31": (DOCUMENT.replace("2017-01-25", "9999-12-31"), "DCT 9999-12-31 is outside the years"),
    "DCT 0001-01-01": (DOCUMENT.replace("2017-01-25", "0001-01-01"), "DCT 0001-01-01 is outside the years"),
}


@pytest.mark.parametrize("case", sorted(CONLL_CASES))
def test_malformed_conll_is_bad_input_naming_the_line(case, tmp_path, capsys):
    text, message = CONLL_CASES[case]
    code, err = invoke(extract(tmp_path, conll(tmp_path, text)), capsys)
    assert code == 1 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out.jsonl").exists()


def test_a_byte_order_mark_is_read_as_utf8(tmp_path):
    from kg_count.io.conll import read_documents

    with_mark = read_documents(conll(tmp_path, "\ufeff" + DOCUMENT, "bom.conll"))
    assert with_mark == read_documents(conll(tmp_path, DOCUMENT))


def test_a_repeated_document_id_is_refused_before_anything_is_written(tmp_path, capsys):
    docs = conll(tmp_path, DOCUMENT + DOCUMENT)
    code, err = invoke(["build", "--docs", docs, "--store", tmp_path / "store"], capsys)
    assert code == 1 and "line 16, document d1: document id appears twice (first on line 1)" in err
    assert not (tmp_path / "store").exists()
    code, err = invoke(extract(tmp_path, docs), capsys)
    assert code == 1 and "line 16, document d1: document id appears twice (first on line 1)" in err
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("option", ["--docs", "--questions", "--system"])
def test_a_folder_given_for_a_file_is_bad_input(option, tmp_path, capsys):
    files = {
        "--docs": conll(tmp_path, DOCUMENT),
        "--questions": json_file(tmp_path, {"2-1": QUESTION}, "q.json"),
        "--system": json_file(tmp_path, SYSTEM, "s.json"),
    }
    files[option] = tmp_path
    if option == "--system":
        args = ["evaluate", "--gold", json_file(tmp_path, GOLD, "g.json"), "--system", files["--system"]]
    else:
        args = baseline_answer(files["--docs"], files["--questions"], tmp_path / "a.json")
    code, err = invoke(args, capsys)
    assert code == 1 and f"{tmp_path}: is a folder, not a file" in err


@pytest.mark.parametrize("bad", [" ", '"', "<", ">", "\\", "\n"])
def test_a_location_iri_with_a_forbidden_character_is_bad_input(bad, tmp_path, capsys):
    question = {**QUESTION, "location": {"city": f"http://dbpedia.org/resource/Columbus,{bad}Ohio"}}
    questions = json_file(tmp_path, {"2-7": question}, "q.json")
    code, err = invoke(baseline_answer(conll(tmp_path, DOCUMENT), questions, tmp_path / "a.json"), capsys)
    assert code == 1 and "question 2-7: location" in err and "is not a valid IRI" in err
    assert not (tmp_path / "a.json").exists()


ANSWER_CASES = {
    "count Infinity": (
        "system",
        '{"2-1": {"numerical_answer": Infinity, "answer_docs": []}}',
        "question 2-1: numerical_answer must be a whole number",
    ),
    "count NaN": (
        "system",
        '{"2-1": {"numerical_answer": NaN, "answer_docs": []}}',
        "question 2-1: numerical_answer must be a whole number",
    ),
    "count 1e308": (
        "system",
        '{"2-1": {"numerical_answer": 1e308, "answer_docs": []}}',
        "question 2-1: numerical_answer must be a whole number",
    ),
    "empty system file": ("system", "{}", "answers file holds no answers"),
    "gold answer_docs a list": (
        "gold",
        '{"2-1": {"numerical_answer": 1, "answer_docs": ["d1"]}}',
        "question 2-1: gold answer needs answer_docs as {incident: [documents]}",
    ),
    "gold incident documents a string": (
        "gold",
        '{"2-1": {"numerical_answer": 1, "answer_docs": {"i1": "d1"}}}',
        "question 2-1: answer_docs of incident i1 must be a list",
    ),
    "part_info a list": (
        "gold",
        '{"3-1": {"numerical_answer": 1, "answer_docs": {"i1": ["d1"]}, "part_info": [1]}}',
        "question 3-1: part_info must be",
    ),
    "part_info count negative": (
        "gold",
        '{"3-1": {"numerical_answer": 1, "answer_docs": {"i1": ["d1"]}, "part_info": {"i1": {"num_killed": -1}}}}',
        "question 3-1, incident i1: part_info must be",
    ),
}


@pytest.mark.parametrize("case", sorted(ANSWER_CASES))
def test_malformed_answers_are_bad_input_naming_the_question(case, tmp_path, capsys):
    which, text, message = ANSWER_CASES[case]
    files = {"gold": json_file(tmp_path, GOLD, "g.json"), "system": json_file(tmp_path, SYSTEM, "s.json")}
    files[which] = json_file(tmp_path, text, f"bad-{which}.json")
    code, err = invoke(["evaluate", "--gold", files["gold"], "--system", files["system"]], capsys)
    assert code == 1 and str(files[which]) in err and message in err


@pytest.mark.parametrize("where", ["a folder", "under a file"])
def test_an_output_that_cannot_be_a_file_is_bad_input(where, tmp_path, capsys):
    out = tmp_path if where == "a folder" else json_file(tmp_path, "{}", "plain.json") / "a.json"
    questions = json_file(tmp_path, {"2-1": QUESTION}, "q.json")
    code, err = invoke(baseline_answer(conll(tmp_path, DOCUMENT), questions, out), capsys)
    assert code == 1 and str(out) in err
    assert ("is a folder" if where == "a folder" else "a part of the path is a file") in err


def test_a_truncated_gold_conll_is_bad_input(tmp_path, capsys):
    full = (FIXTURES / "two_docs.conll").read_text()
    truncated = conll(tmp_path, full[: full.rindex("#end document")], "gold.conll")
    code, err = invoke(["evaluate", "--gold-conll", truncated, "--system-conll", FIXTURES / "two_docs.conll"], capsys)
    assert code == 1 and f"{truncated}: file ends inside document d2" in err


def test_a_gold_conll_missing_documents_is_bad_input(tmp_path, capsys):
    code, err = invoke(
        [
            "evaluate",
            "--gold-conll",
            conll(tmp_path, DOCUMENT, "gold.conll"),
            "--system-conll",
            FIXTURES / "two_docs.conll",
        ],
        capsys,
    )
    assert code == 1 and "lacks 1 document(s) the other file has (e.g. d2)" in err


USAGE_CASES = {
    "--scheduler not a url": (
        ["build", "--docs", "d.conll", "--store", "s", "--scheduler", "not a url"],
        "is not a Dask scheduler address",
    ),
    "--limit -1": (["incidents", "--store", "s", "--limit", "-1"], "must be at least 0, got -1"),
    "--batch-size 0": (["build", "--docs", "d.conll", "--store", "s", "--batch-size", "0"], "must be at least 1"),
    "--store ftp://": (["sparql", "--store", "ftp://x/y", "ASK {}"], "a store is a folder or an http(s)://"),
    "SERVICE": (
        ["sparql", "--store", "s", "SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }"],
        "give --allow-service",
    ),
}


@pytest.mark.parametrize("case", sorted(USAGE_CASES))
def test_bad_usage_exits_2_with_the_subcommands_usage(case, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    args, message = USAGE_CASES[case]
    code, err = invoke(args, capsys)
    assert code == 2 and message in err and f"usage: kg-count {args[0]}" in err
    assert not (tmp_path / "s").exists() and not (tmp_path / "ftp:").exists()


def test_a_report_folder_that_is_a_file_is_bad_usage(tmp_path, capsys):
    report = json_file(tmp_path, "{}", "report")
    code, err = invoke(
        [
            "evaluate",
            "--gold",
            json_file(tmp_path, GOLD, "g.json"),
            "--system",
            json_file(tmp_path, SYSTEM, "s.json"),
            "--report",
            report,
        ],
        capsys,
    )
    assert code == 2 and "is a file; give a folder" in err


@pytest.mark.parametrize("command", [["sparql", "ASK {}"], ["dump", "--doc", "d1"], ["incidents"]])
def test_read_commands_refuse_a_folder_that_is_no_store(command, tmp_path, capsys):
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "holiday.jpg").write_bytes(b"\xff\xd8")
    code, err = invoke([command[0], "--store", foreign, *command[1:]], capsys)
    assert code == 1 and f"{foreign}: not a kg_count store" in err
    assert sorted(p.name for p in foreign.iterdir()) == ["holiday.jpg"]
    missing = tmp_path / "nothing"
    code, err = invoke([command[0], "--store", missing, *command[1:]], capsys)
    assert code == 1 and "no store here; build one with" in err and not missing.exists()


BUILD_CASES = {
    "no documents": ("docs.conll", "just some text\n", "no documents found"),
    "article DCT 9999": (
        "docs.jsonl",
        '{"doc_id": "a", "title": "t", "dct": "9999-01-01", "content": "c"}\n',
        "line 1, document a: DCT 9999-01-01 is outside the years",
    ),
    "article without text": (
        "docs.jsonl",
        '{"doc_id": "a", "title": " ", "dct": "2017-01-01", "content": ""}\n',
        "line 1, document a: article has no text",
    ),
}


@pytest.mark.parametrize("case", sorted(BUILD_CASES))
def test_a_bad_documents_file_is_refused_before_a_store_is_made(case, tmp_path, capsys):
    name, text, message = BUILD_CASES[case]
    code, err = invoke(["build", "--docs", conll(tmp_path, text, name), "--store", tmp_path / "store"], capsys)
    assert code == 1 and message in err and not (tmp_path / "store").exists()
