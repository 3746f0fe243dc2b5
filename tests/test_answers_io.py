import json

import pytest

from kg_count.errors import InputError
from kg_count.io.answers import SystemAnswer, read_gold_answers, read_system_answers, write_system_answers
from kg_count.io.atomic import atomic_writer
from tests.helpers import write


def test_system_answers_round_trip(tmp_path):
    path = tmp_path / "a" / "answers.json"
    write_system_answers(path, {"2-1": SystemAnswer(2, ["d1", "d2"]), "1-1": SystemAnswer(None, ["d3"])})
    data = json.loads(path.read_text())
    assert data == {"1-1": {"answer_docs": ["d3"]}, "2-1": {"answer_docs": ["d1", "d2"], "numerical_answer": 2}}
    assert read_system_answers(path)["2-1"].numerical_answer == 2


def test_atomic_writer_leaves_nothing_on_error(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_writer(target) as handle:
            handle.write("half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize(
    "content, message",
    [
        (
            '{"2-1": {"numerical_answer": -1, "answer_docs": []}}',
            "question 2-1: numerical_answer must be a whole number",
        ),
        ('{"2-1": {"numerical_answer": 1, "answer_docs": "d1"}}', "question 2-1: answer_docs must be a list"),
        ('{"2-1": 3}', "question 2-1: an answer must be a JSON object"),
    ],
)
def test_bad_system_answers(tmp_path, content, message):
    with pytest.raises(InputError, match=message):
        read_system_answers(write(tmp_path / "s.json", content))


def test_gold_answers(tmp_path):
    path = write(
        tmp_path / "g.json",
        json.dumps(
            {
                "3-1": {
                    "numerical_answer": 2,
                    "answer_docs": {"i1": ["a"], "i2": ["b", "a"]},
                    "part_info": {"i1": {"num_killed": 1, "num_injured": 0, "num_fired": 0}},
                }
            }
        ),
    )
    answer = read_gold_answers(path)["3-1"]
    assert answer.documents == {"a", "b"} and answer.part_info["i1"]["num_killed"] == 1
    with pytest.raises(InputError, match="question 3-1: gold answer needs answer_docs"):
        read_gold_answers(write(tmp_path / "bad.json", '{"3-1": {"numerical_answer": 1, "answer_docs": []}}'))
