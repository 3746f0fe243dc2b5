import datetime as dt
import json

import pytest

from kg_count.errors import InputError
from kg_count.io.questions import parse_question, parse_time, read_questions, subtask_of_id
from tests.helpers import write

GOOD = {
    "event_type": "killing",
    "subtask": 2,
    "location": {"city": "http://dbpedia.org/resource/Memphis,_Tennessee"},
    "time": {"month": "02/2016"},
    "verbose_question": "How many ...",
}


def test_valid_question():
    question = parse_question("2-1", GOOD)
    assert question.event_type == "killing" and question.subtask == 2
    assert question.location == ("city", "http://dbpedia.org/resource/Memphis,_Tennessee")
    assert question.time.start == dt.date(2016, 2, 1) and question.time.end == dt.date(2016, 2, 29)
    assert question.participant is None
    assert question.property_pair == "location+time"


def test_time_spans():
    assert parse_time("day", "14/03/2017").start == parse_time("day", "14/03/2017").end == dt.date(2017, 3, 14)
    assert parse_time("month", "12/2015").end == dt.date(2015, 12, 31)
    year = parse_time("year", "2016")
    assert (year.start, year.end) == (dt.date(2016, 1, 1), dt.date(2016, 12, 31))
    assert year.contains(dt.date(2016, 7, 4)) and not year.contains(dt.date(2017, 1, 1))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"participant": {"first": "John"}}, "exactly two of location, time, participant; it has 3"),
        ({"event_type": "robbery"}, "unknown event type 'robbery'"),
        ({"subtask": 4}, "subtask must be 1, 2 or 3"),
        ({"time": {"month": "2016-02"}}, "time month '2016-02' is not in the form %m/%Y"),
        ({"time": {"week": "02/2016"}}, "unknown time granularity 'week'"),
        ({"time": {"month": "02/2016", "year": "2016"}}, "time must be an object with exactly one of"),
        ({"location": {"city": "Memphis"}}, "is not a DBpedia IRI"),
    ],
)
def test_invalid_questions_name_the_id(change, message):
    with pytest.raises(InputError) as error:
        parse_question("2-77", {**GOOD, **change}, "q.json")
    assert message in str(error.value)
    assert "q.json" in str(error.value) and "question 2-77" in str(error.value)


def test_missing_property_and_empty_name():
    raw = {k: v for k, v in GOOD.items() if k != "time"}
    with pytest.raises(InputError, match="it has 1 \\(location\\)"):
        parse_question("2-1", raw)
    with pytest.raises(InputError, match="participant name is empty"):
        parse_question("2-1", {**raw, "participant": {"last": " "}})


def test_read_questions_file_and_invalid_json(tmp_path):
    path = write(tmp_path / "questions.json", json.dumps({"2-1": GOOD}))
    assert list(read_questions(path)) == ["2-1"]
    broken = write(tmp_path / "broken.json", '{"2-1": {"event_type": "killing",\n "subtask": }')
    with pytest.raises(InputError, match="broken.json, line 2: invalid JSON"):
        read_questions(broken)
    with pytest.raises(InputError, match="JSON object keyed by question id"):
        read_questions(write(tmp_path / "list.json", "[]"))


def test_subtask_of_id():
    assert subtask_of_id("2-6869") == 2 and subtask_of_id("3-10") == 3 and subtask_of_id("q7") is None
