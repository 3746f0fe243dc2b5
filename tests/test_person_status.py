"""The person-status model: who among the people an incident names took part, and was killed or injured."""

import json

import pytest

from kg_count.incidents.grouping.person_status import PersonStatusModel, person_features, shipped_person_status_model
from kg_count.incidents.reports.reports import ReportedPerson
from kg_count.training.person_status_fitting import (
    PersonExample,
    _archive_status,
    archive_participants,
    fit_person_status,
)


def person(name="Ray Moss", role="other", status="unharmed", age=None):
    first, last = name.split()
    return ReportedPerson(name, first, last, age, role, status)


def test_a_lone_named_person_of_a_fatal_shooting_was_probably_the_one_killed():
    model = shipped_person_status_model()
    ray = person()
    fatal = model.probabilities(ray, [ray], killed=1, injured=0)
    harmless = model.probabilities(ray, [ray], killed=0, injured=0)
    assert fatal["killed"] > harmless["killed"]
    assert all(0 < p < 1 for p in fatal.values())


def test_a_reporter_took_part_less_probably_than_a_victim():
    model = shipped_person_status_model()
    reporter, victim = person("Ann Lee", "bystander"), person("Ray Moss", "victim", "killed", 23)
    people = [reporter, victim]
    assert (
        model.probabilities(reporter, people, 1, 0)["participant"]
        < model.probabilities(victim, people, 1, 0)["participant"]
    )


def test_archive_names_match_by_last_name_and_first_where_both_are_given(tmp_path):
    path = tmp_path / "incidents.jsonl"
    record = {
        "incident_uri": "7",
        "participants": [
            {"Name": "Raymond Moss Jr", "Status": "Killed", "Type": "Victim"},
            {"Name": "Lee", "Status": "Injured, Arrested", "Type": "Subject-Suspect"},
        ],
    }
    path.write_text(json.dumps(record) + "\n")
    listed = archive_participants(path)["7"]
    assert _archive_status(person("Raymond Moss"), listed) == "Killed"
    assert _archive_status(person("Ray Moss"), listed) is None  # another first name
    assert _archive_status(person("Ann Lee"), listed) == "Injured, Arrested"
    assert _archive_status(person("Ann Smith"), listed) is None


def test_training_learns_statuses_from_participants_only_and_twice_gives_the_same_model():
    examples = []
    for n in range(60):
        status = ("killed", "injured", "unharmed")[n % 3]
        taking_part = n % 4 != 0
        role = "victim" if taking_part else "bystander"
        labels = {"participant": int(taking_part), "killed": int(taking_part and status == "killed")}
        labels["injured"] = int(taking_part and status == "injured")
        who = person(f"A{n} B{n}", role, status)
        examples.append(PersonExample(tuple(person_features(who, [who], 1, 1)), labels, str(n)))
    model, settings = fit_person_status(examples)
    again, _ = fit_person_status(examples)
    assert model.to_json() == again.to_json()
    killed, spared = person("X Y", "victim", "killed"), person("X Z", "victim", "unharmed")
    read_back = PersonStatusModel.from_json(model.to_json())
    assert read_back.probabilities(killed, [killed], 1, 1) == pytest.approx(
        model.probabilities(killed, [killed], 1, 1), abs=1e-4
    )
    assert model.probabilities(killed, [killed], 1, 1)["killed"] > model.probabilities(spared, [spared], 1, 1)["killed"]
    assert settings["people"] == 60 and settings["cross_validated_accuracy"]["participant"] > 90
