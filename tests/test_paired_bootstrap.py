"""The paired bootstrap that tells a counting difference from the noise of which questions were asked."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from kg_count.evaluate.paired_bootstrap import outcome, paired_differences
from kg_count.io.answers import GoldAnswer, SystemAnswer
from kg_count.io.questions import parse_question

STATES = ("Ohio", "Texas", "Iowa", "Utah", "Idaho", "Maine")


def _questions(n):
    return {
        f"2-{k}": parse_question(
            f"2-{k}",
            {
                "subtask": 2,
                "event_type": "killing",
                "location": {"state": f"http://dbpedia.org/resource/{STATES[k % len(STATES)]}"},
                "time": {"year": "2017"},
            },
        )
        for k in range(n)
    }


def _state(question):
    return question.location[1]


def test_outcome_scores_count_and_documents():
    scored = outcome(SystemAnswer(3, ["a", "b"]), GoldAnswer(1, {"i": ["a"]}))
    assert (scored.right, scored.squared_error) == (0.0, 4.0)
    assert scored.doc_f1 == pytest.approx(2 / 3)
    assert outcome(SystemAnswer(None, []), GoldAnswer(0, {})).right == 1.0


def test_a_system_right_everywhere_is_better_in_every_resample():
    questions = _questions(36)
    gold = {q: GoldAnswer(2, {"i": [f"{q}-d"], "j": [f"{q}-e"]}) for q in questions}
    right = {q: SystemAnswer(2, [f"{q}-d", f"{q}-e"]) for q in questions}
    wrong = {q: SystemAnswer(2 + int(q[-1]) % 3, [f"{q}-d"]) for q in questions}
    differences = paired_differences(questions, gold, wrong, right, _state, resamples=300)
    accuracy, rmse, f1 = differences["accuracy"], differences["rmse"], differences["doc_f1"]
    assert accuracy.b == 100.0 and accuracy.observed > 0 and accuracy.low > 0 and accuracy.better_share == 1.0
    assert rmse.b == 0.0 and rmse.high < 0 and rmse.better_share == 1.0
    assert f1.observed == pytest.approx(100 - 100 * 2 / 3) and f1.low > 0


def test_equal_systems_differ_by_nothing_and_the_seed_repeats_the_draw():
    questions = _questions(24)
    gold = {q: GoldAnswer(k % 4, {}) for k, q in enumerate(questions)}
    system = {q: SystemAnswer((k * 7) % 5, []) for k, q in enumerate(questions)}
    same = paired_differences(questions, gold, system, dict(system), _state, resamples=100)
    assert all(d.observed == d.low == d.high == 0.0 and d.better_share == 0.0 for d in same.values())
    other = {q: SystemAnswer(k % 4 if k % 2 else 0, []) for k, q in enumerate(questions)}
    first = paired_differences(questions, gold, system, other, _state, resamples=100, seed=3)
    again = paired_differences(questions, gold, system, other, _state, resamples=100, seed=3)
    assert first == again
    assert first["rmse"].a == pytest.approx(math.sqrt(sum(((k * 7) % 5 - k % 4) ** 2 for k in range(24)) / 24))


def test_a_difference_carried_by_a_few_states_has_an_interval_holding_zero():
    # 600 questions in 6 states, each state's questions alike: resampled one by one, B's 16.7 points would look sure
    questions = _questions(600)
    gold = {q: GoldAnswer(2, {}) for q in questions}
    a = {q: SystemAnswer(2 if k % 2 else 3, []) for k, q in enumerate(questions)}
    b = {q: SystemAnswer(2 if k % 3 else 3, []) for k, q in enumerate(questions)}
    accuracy = paired_differences(questions, gold, a, b, _state, resamples=300)["accuracy"]
    assert accuracy.observed == pytest.approx(100 / 6)
    assert accuracy.low < 0 < accuracy.high
    by_question = paired_differences(questions, gold, a, b, lambda question: id(question), resamples=300)["accuracy"]
    assert by_question.low > 0


def test_no_shared_question_is_an_error():
    questions = _questions(2)
    with pytest.raises(ValueError, match="no question"):
        paired_differences(questions, {"2-0": GoldAnswer(1, {})}, {}, {"2-0": SystemAnswer(1, [])}, _state)


def test_the_compare_script_prints_the_table_and_names_a_bad_file(tmp_path):
    questions = {
        f"2-{k}": {
            "subtask": 2,
            "event_type": "killing",
            "location": {"state": f"http://dbpedia.org/resource/{STATES[k % len(STATES)]}"},
            "time": {"year": "2017"},
            "verbose_question": "How many ['killing'] events happened in 2017 (year)?",
        }
        for k in range(12)
    }
    (tmp_path / "task" / "s2").mkdir(parents=True)
    (tmp_path / "task" / "s2" / "questions.json").write_text(json.dumps(questions))
    gold = {q: {"numerical_answer": 2, "answer_docs": {"i": [f"{q}-a"], "j": [f"{q}-b"]}} for q in questions}
    (tmp_path / "task" / "s2" / "answers.json").write_text(json.dumps(gold))
    a = {q: {"numerical_answer": 1, "answer_docs": [f"{q}-a"]} for q in questions}
    b = {q: {"numerical_answer": 2, "answer_docs": [f"{q}-a", f"{q}-b"]} for q in questions}
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(b))
    (tmp_path / "bad.json").write_text("{not json")
    script = Path(__file__).parents[1] / "benchmarks" / "compare_counting.py"
    common = [sys.executable, str(script), "--task-dir", str(tmp_path / "task"), "--resamples", "50"]
    done = subprocess.run(
        [*common, str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--out", str(tmp_path / "d.json")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "| S2 | 12 | accuracy | 0.00 | 100.00 | +100.00 |" in done.stdout
    assert json.loads((tmp_path / "d.json").read_text())["S2"]["rmse"]["observed"] == -1.0
    failed = subprocess.run(
        [*common, str(tmp_path / "a.json"), str(tmp_path / "bad.json")], capture_output=True, text=True
    )
    assert failed.returncode == 1 and "bad.json" in failed.stderr and "Traceback" not in failed.stderr
