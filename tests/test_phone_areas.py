"""Telephone numbers a story gives and the states their area codes name, as state candidates."""

import pytest

from kg_count.geography import gazetteer
from kg_count.nlp.phone_areas import area_code_states, phone_state_features, phone_states
from kg_count.nlp.place_candidates import place_candidates
from tests.helpers import annotated


@pytest.mark.parametrize(
    "text",
    [
        "call Crime Stoppers at ( 601 ) 355 - 8477 .",
        "call (601) 355-8477 .",
        "call 601-355-8477 .",
        "call 601.355.8477 .",
        "call 1-601-355-8477 .",
    ],
)
def test_a_number_as_the_task_and_articles_write_it_names_its_state(text):
    assert phone_states(text.split()) == {"MS": 1}


@pytest.mark.parametrize(
    "text",
    [
        "call 1-800-222-8477 or 888-580-8477 .",  # toll-free: no state
        "from 2015 - 2016 , ages 3 - 4 , call 911 .",
        "Case 2016-355-84770 was filed .",  # digits run on: a case number, not a telephone number
        "the 601 - 355 score",
    ],
)
def test_other_numbers_name_no_state(text):
    assert phone_states(text.split()) == {}


def test_the_state_of_most_numbers_leads_and_a_tie_has_no_lead():
    words = "call ( 614 ) 555 - 1234 , 614-555-1111 or 312.555.2222 .".split()
    assert phone_state_features(words) == {"OH": {"phone", "phone:top"}, "IL": {"phone"}}
    assert phone_state_features("call 614-555-1111 or 312-555-2222".split()) == {"OH": {"phone"}, "IL": {"phone"}}


def test_the_shipped_table_maps_area_codes_to_states_the_gazetteer_knows():
    table = area_code_states()
    assert len(table) > 300
    assert all(len(code) == 3 and code.isdigit() for code in table)
    assert set(table.values()) <= set(gazetteer().state_names)
    assert table["212"] == "NY" and table["206"] == "WA" and table["202"] == "DC"
    assert "800" not in table and "416" not in table  # toll-free; Toronto


def test_a_tip_lines_state_is_a_state_candidate_of_a_story_that_names_none():
    text = "A man was shot in Antioch on Friday . Anyone with information should call ( 615 ) 742 - 7463 ."
    doc = annotated(text, title="Man shot")
    features = {c.value: c.features for c in place_candidates(doc.doc, 2).states}
    assert {"phone", "phone:top"} <= features["TN"]
    assert not any("phone" in f for code, f in features.items() if code != "TN")
