"""The locked fold: a seeded draw of fold units, read back from its file, that never splits a state."""

import json

import pytest

from kg_count.errors import InputError
from kg_count.io.questions import parse_question
from kg_count.training.locked_fold import draw_locked_units, read_locked_units, split_locked, write_locked_fold

DBR = "http://dbpedia.org/resource/"
STATES = ["Ohio", "Iowa", "Texas", "Utah", "Maine", "Idaho", "Nevada", "Oregon", "Kansas", "Alaska"]


def _questions():
    questions = {}
    for n, state in enumerate(STATES):
        for k in range(n + 1):  # states of unequal size
            raw = {"subtask": 2, "event_type": "killing", "time": {"year": "2016"}, "location": {"state": DBR + state}}
            questions[f"{state}-{k}"] = parse_question(f"{state}-{k}", raw)
    questions["big"] = parse_question(
        "big",
        {"subtask": 2, "event_type": "killing", "time": {"year": "2016"}, "location": {"city": DBR + "Salem,_Oregon"}},
    )
    return questions


def test_the_draw_is_seeded_and_takes_about_a_fifth_of_the_state_questions():
    questions = _questions()
    units = draw_locked_units(questions.values())
    assert units == draw_locked_units(reversed(list(questions.values())))
    assert units != draw_locked_units(questions.values(), seed=1) or units != draw_locked_units(
        questions.values(), seed=2
    )
    tuning, locked = split_locked(questions, frozenset(units))
    assert 0.2 * len(questions) <= len(locked) <= 0.25 * len(questions)
    assert not tuning & locked and tuning | locked == set(questions)
    # a city question goes with its state
    assert ("big" in locked) == ("Oregon-0" in locked)


def test_the_file_round_trips_and_a_broken_one_is_named(tmp_path):
    path = tmp_path / "locked.json"
    write_locked_fold(path, ["state:Ohio", "name:smith"])
    assert read_locked_units(path) == {"state:Ohio", "name:smith"}
    path.write_text(json.dumps({"seed": 1}))
    with pytest.raises(InputError, match="locked.json"):
        read_locked_units(path)


def test_the_committed_locked_fold_is_the_seeded_draw_of_test_dev(task_data):
    from pathlib import Path

    from kg_count.training.incident_match_fitting import task_data as read_task

    questions, _ = read_task(task_data / "test-dev")
    committed = read_locked_units(Path(__file__).parents[1] / "benchmarks" / "locked_fold.json")
    assert committed == set(draw_locked_units(questions.values()))
