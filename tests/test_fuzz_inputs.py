"""Fuzzing every reader through the command line (Hypothesis): malformed and adversarial CoNLL, JSON-lines
articles, questions, answers, settings overrides, TORQUE and ESTER files.

Every input must give exit 0 with a whole, valid output, or exit 1 with a message naming the file (and its
line or id where there is one), never a traceback and never a partial output. Inputs are valid seed files
mutated (truncated, bytes inserted, lines repeated, swapped or dropped, fields replaced by values of the
wrong type, injection attempts, huge tokens, bytes that are not UTF-8) and JSON generated whole.

The normal suite runs ``EXAMPLES`` examples per reader, derandomised; ``benchmarks/fuzz_inputs.py`` runs as
many as asked (``KG_COUNT_FUZZ_EXAMPLES``), at random, and reports how many ran
(``KG_COUNT_FUZZ_LOG``).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kg_count.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
LONG_RUN = int(os.environ.get("KG_COUNT_FUZZ_EXAMPLES", "0"))
EXAMPLES = LONG_RUN or 40
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not LONG_RUN,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
RAN: Counter = Counter()


def _log_count() -> None:
    log = os.environ.get("KG_COUNT_FUZZ_LOG")
    if log and RAN:
        Path(log).write_text(json.dumps(dict(RAN), indent=1), encoding="utf-8")


atexit.register(_log_count)

INJECTIONS = (
    '"} ; DROP ALL ; INSERT DATA { <a> <b> <c> } #',
    "> } UNION { ?s ?p ?o",
    "http://x/<script>alert(1)</script>",
    "\\u0000\x00",
    "'; rm -rf / #",
    "../../../../etc/passwd",
    "\ufeff\u202e",
    "x" * 100_000,
    "NaN",
    "-1e309",
    "1" * 400,
)
SEED_CONLL = (FIXTURES / "two_docs.conll").read_bytes()
SEED_ARTICLES = (
    json.dumps({"doc_id": "a1", "title": "Man shot in Dayton", "dct": "2017-03-02", "content": "A man was shot."})
    + "\n"
    + json.dumps({"doc_id": "a2", "title": "Fire", "dct": "2016-01-05", "content": "A fire in Wilmington."})
    + "\n"
).encode()
SEED_QUESTIONS = {
    "1-89170": {
        "event_type": "killing",
        "subtask": 1,
        "time": {"year": "2017"},
        "location": {"state": "http://dbpedia.org/resource/Ohio"},
        "verbose_question": "Which killing event happened in 2017 in ('Ohio',) (state) ?",
    },
    "2-7": {
        "event_type": "injuring",
        "subtask": 2,
        "time": {"month": "03/2016"},
        "location": {"city": "http://dbpedia.org/resource/Wilmington,_Delaware"},
    },
}
SEED_GOLD = {
    "2-1": {"numerical_answer": 1, "answer_docs": {"i1": ["d1"]}},
    "1-2": {"numerical_answer": 1, "answer_docs": {"i2": ["d2"]}},
}
SEED_SYSTEM = {"2-1": {"numerical_answer": 1, "answer_docs": ["d1"]}, "1-2": {"answer_docs": ["d2"]}}
SEED_SETTINGS = b"[batch]\ndocuments = 8\n\n[answering]\nsame_area_km = 40\n"
PASSAGE = "Police arrested the man after he fled the bank. He will appear in court."
SEED_TORQUE = {
    "p1": {
        "passage": PASSAGE,
        "events": [],
        "question_answer_pairs": {
            "What happened before police arrested the man?": {
                "answer": {"indices": ["(36,40)"], "spans": ["fled"]},
                "individual_answers": [{"indices": ["(36,40)"]}],
                "cluster_id": "1",
                "is_default_question": False,
            }
        },
    }
}
SEED_ESTER = [
    {
        "context": PASSAGE,
        "question": "Why did police arrest the man?",
        "type": "Causal",
        "answer_texts": ["he fled the bank"],
        "answer_indices": ["(30,46)"],
        "events": [],
        "original_events": [{"answer": {"indices": ["(36,40)"], "spans": ["fled"]}}],
        "passageID": "7",
    }
]


# Strategies


def json_values() -> st.SearchStrategy:
    """Any JSON value, strings drawn with the injection attempts among them."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=30),
        st.sampled_from(INJECTIONS),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)),
        max_leaves=12,
    )


@st.composite
def json_mutation(draw, seed: object) -> object:
    """``seed`` with one value somewhere in it replaced by any JSON value (or a key dropped)."""
    data = json.loads(json.dumps(seed))
    path, node = [], data
    while isinstance(node, (dict, list)) and node and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append((node, key))
        node = node[key]
    if not path:
        return draw(st.one_of(json_values(), st.just(data)))
    parent, key = path[-1]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = draw(json_values())
    return data


@st.composite
def byte_mutation(draw, seed: bytes) -> bytes:
    """``seed`` with a few byte- and line-level mutations applied."""
    data = seed
    for _ in range(draw(st.integers(1, 3))):
        lines = data.split(b"\n")
        kind = draw(
            st.sampled_from(("truncate", "insert", "repeat", "drop", "swap", "huge", "replace_field", "not_utf8"))
        )
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif kind == "insert":
            where = draw(st.integers(0, len(data)))
            data = data[:where] + draw(st.binary(min_size=1, max_size=12)) + data[where:]
        elif kind == "repeat":
            data = b"\n".join(lines[: at + 1] + lines[at:])
        elif kind == "drop":
            data = b"\n".join(lines[:at] + lines[at + 1 :])
        elif kind == "swap" and len(lines) > 1:
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
            data = b"\n".join(lines)
        elif kind == "huge":
            data = b"\n".join(lines[:at] + [lines[at] + b"x" * 200_000] + lines[at + 1 :])
        elif kind == "replace_field":
            fields = lines[at].split(b"\t")
            fields[draw(st.integers(0, len(fields) - 1))] = draw(st.sampled_from(INJECTIONS)).encode()
            data = b"\n".join(lines[:at] + [b"\t".join(fields)] + lines[at + 1 :])
        elif kind == "not_utf8":
            where = draw(st.integers(0, len(data)))
            data = data[:where] + b"\xff\xfe\xc3" + data[where:]
    return data


# Running one input


class Folder:
    """A fresh folder per example (Hypothesis runs many examples in one test call)."""

    def __enter__(self) -> Path:
        self.path = Path(tempfile.mkdtemp(prefix="kg-count-fuzz-"))
        return self.path

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def write(folder: Path, name: str, content: object) -> Path:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def outcome(reader: str, args: list, capsys, named: Path, out: Path | None = None) -> None:
    """Run kg-count; assert exit 0 with a valid output, or exit 1 naming ``named`` and no output."""
    RAN[reader] += 1
    try:
        code = main([str(a) for a in args])
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code in (0, 1), f"exit {code}: {err[-2000:]}"
    assert "Traceback" not in err
    if code == 1:
        assert named.name in err, err[-2000:]
        assert out is None or not out.exists(), "a partial output was left"
    elif out is not None:
        json.loads(out.read_text(encoding="utf-8"))


def baseline(docs: Path, questions: Path, out: Path) -> list:
    return ["answer", "--system", "baseline", "--docs", docs, "--questions", questions, "--out", out]


# One property per reader


def test_every_seed_is_valid_input(capsys):
    """The seeds the mutations start from are answered (exit 0), so the fuzzing starts next to valid input."""
    with Folder() as folder:
        docs, questions = write(folder, "docs.conll", SEED_CONLL), write(folder, "q.json", SEED_QUESTIONS)
        articles = write(folder, "docs.jsonl", SEED_ARTICLES)
        gold, system = write(folder, "gold.json", SEED_GOLD), write(folder, "system.json", SEED_SYSTEM)
        torque_file, ester_file = write(folder, "t.json", SEED_TORQUE), write(folder, "e.json", SEED_ESTER)
        for args in (
            baseline(docs, questions, folder / "a1.json"),
            baseline(articles, questions, folder / "a2.json"),
            ["evaluate", "--gold", gold, "--system", system],
            ["qa", "torque", "--input", torque_file, "--out", folder / "t-out.json"],
            ["qa", "ester", "--input", ester_file, "--out", folder / "e-out.json"],
        ):
            assert main([str(a) for a in args]) == 0, capsys.readouterr().err


@FUZZ
@given(content=byte_mutation(SEED_CONLL))
def test_fuzzed_conll_documents(content, capsys):
    with Folder() as folder:
        docs, out = write(folder, "docs.conll", content), folder / "answers.json"
        outcome("conll", baseline(docs, write(folder, "q.json", SEED_QUESTIONS), out), capsys, docs, out)


@FUZZ
@given(content=st.one_of(byte_mutation(SEED_ARTICLES), json_mutation(json.loads(SEED_ARTICLES.split(b"\n")[0]))))
def test_fuzzed_json_lines_articles(content, capsys):
    with Folder() as folder:
        text = content if isinstance(content, bytes) else (json.dumps(content) + "\n").encode()
        docs, out = write(folder, "docs.jsonl", text), folder / "answers.json"
        outcome("articles", baseline(docs, write(folder, "q.json", SEED_QUESTIONS), out), capsys, docs, out)


@FUZZ
@given(content=st.one_of(json_mutation(SEED_QUESTIONS), byte_mutation(json.dumps(SEED_QUESTIONS).encode())))
def test_fuzzed_questions(content, capsys):
    with Folder() as folder:
        questions, out = write(folder, "questions.json", content), folder / "answers.json"
        docs = write(folder, "docs.conll", SEED_CONLL)
        outcome("questions", baseline(docs, questions, out), capsys, questions, out)


@FUZZ
@given(gold=json_mutation(SEED_GOLD), system=json_mutation(SEED_SYSTEM))
def test_fuzzed_answers(gold, system, capsys):
    with Folder() as folder:
        gold_path, system_path = write(folder, "gold.json", gold), write(folder, "system.json", system)
        RAN["answers"] += 1
        try:
            code = main(["evaluate", "--gold", str(gold_path), "--system", str(system_path)])
        except SystemExit as stop:
            code = stop.code
        err = capsys.readouterr().err
        assert code in (0, 1), err[-2000:]
        assert "Traceback" not in err
        assert code == 0 or "gold.json" in err or "system.json" in err, err[-2000:]


@FUZZ
@given(content=byte_mutation(SEED_SETTINGS))
def test_fuzzed_settings_overrides(content, capsys, monkeypatch):
    from kg_count.settings import SETTINGS_ENV

    with Folder() as folder:
        override = write(folder, "settings.toml", content)
        monkeypatch.setenv(SETTINGS_ENV, str(override))
        try:
            gold, system = write(folder, "gold.json", SEED_GOLD), write(folder, "system.json", SEED_SYSTEM)
            outcome("settings", ["evaluate", "--gold", gold, "--system", system], capsys, override)
        finally:
            monkeypatch.delenv(SETTINGS_ENV)


@FUZZ
@given(content=st.one_of(json_mutation(SEED_TORQUE), byte_mutation(json.dumps(SEED_TORQUE).encode())))
@example(content={"p1": {**SEED_TORQUE[next(iter(SEED_TORQUE))], "passage": None}})  # found by the long run
@example(content={"p1": {**SEED_TORQUE["p1"], "question_answer_pairs": {"q?": {"individual_answers": "0"}}}})
@example(content={"p1": {**SEED_TORQUE["p1"], "question_answer_pairs": {"q?": {"individual_answers": 1}}}})
@example(content={"p1": {**SEED_TORQUE["p1"], "question_answer_pairs": {"q?": {"answer": {"indices": "(36,40)"}}}}})
def test_fuzzed_torque_files(content, capsys):
    with Folder() as folder:
        source, out = write(folder, "torque.json", content), folder / "predictions.json"
        outcome("torque", ["qa", "torque", "--input", source, "--out", out], capsys, source, out)


@FUZZ
@given(content=st.one_of(json_mutation(SEED_ESTER), byte_mutation(json.dumps(SEED_ESTER).encode())))
@example(content=[{**SEED_ESTER[0], "passageID": []}])  # found by the long run
@example(content=[{**SEED_ESTER[0], "passageID": "a <passage> with {odd} characters"}])
def test_fuzzed_ester_files(content, capsys):
    with Folder() as folder:
        source, out = write(folder, "ester.json", content), folder / "predictions.json"
        outcome("ester", ["qa", "ester", "--input", source, "--out", out], capsys, source, out)
