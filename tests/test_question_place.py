"""A question's place is read with its verbose text: hand-made questions for each way the text can say more
than, or other than, the structured location field."""

import pytest

from kg_count.io.question_place import read_place, verbose_place
from kg_count.io.questions import parse_question

DBR = "http://dbpedia.org/resource/"


def ask(location: dict, verbose_place_text: str) -> object:
    """A killing question in May 2017 with this location field and verbose place."""
    raw = {
        "event_type": "killing",
        "subtask": 2,
        "location": location,
        "time": {"month": "05/2017"},
        "verbose_question": f"How many ['killing'] events happened in 05/2017 (month) in {verbose_place_text} ?",
    }
    return parse_question("2-1", raw)


def test_verbose_place_tuples():
    assert verbose_place("... in ('Oregon', 'Salem') (city) ?") == ("city", ("Oregon", "Salem"))
    assert verbose_place("... in ('Florida',) (state) ?") == ("state", ("Florida",))
    assert verbose_place("... in (None,) (state) ?") == ("state", (None,))
    assert verbose_place("""... in ('Idaho', "Coeur d'Alene") (city) ?""") == ("city", ("Idaho", "Coeur d'Alene"))
    assert verbose_place("How many people were killed in 2016 (year) ?") is None


def test_agreeing_text_keeps_the_structured_field():
    question = ask({"city": DBR + "Memphis,_Tennessee"}, "('Tennessee', 'Memphis') (city)")
    assert question.location == ("city", DBR + "Memphis,_Tennessee") and question.place.rule == "structured"
    district = ask({"city": DBR + "Uptown_Oakland"}, "('California', 'Oakland') (city)")
    assert district.location[1] == DBR + "Uptown_Oakland" and district.place.rule == "structured"
    saint = ask({"city": DBR + "St._Louis"}, "('Missouri', 'St Louis') (city)")
    assert saint.place.rule == "structured"


def test_empty_structured_field_is_filled_from_the_text():
    city = ask({"city": ""}, "('Oregon', 'Salem') (city)")
    assert city.location == ("city", DBR + "Salem,_Oregon") and city.place.rule == "text fills empty"
    state = ask({"state": ""}, "('Ohio',) (state)")
    assert state.location == ("state", DBR + "Ohio")
    assert state.place.structured == ""


def test_text_state_wins_over_a_contradicting_structured_state():
    state = ask({"state": DBR + "Illinois"}, "('Missouri',) (state)")
    assert state.location == ("state", DBR + "Missouri") and state.place.rule == "text state"
    assert state.place.structured == DBR + "Illinois"
    namesake = ask({"city": DBR + "Lebanon,_Pennsylvania"}, "('Oregon', 'Lebanon') (city)")
    assert namesake.location == ("city", DBR + "Lebanon,_Oregon") and namesake.place.rule == "text state"


def test_a_borough_or_other_town_in_the_text_is_answered():
    town = ask({"city": DBR + "Portland,_Oregon"}, "('Oregon', 'Salem') (city)")
    assert town.location == ("city", DBR + "Salem,_Oregon") and town.place.rule == "text city"
    in_maryland = {"city": DBR + "Park_Hall,_Washington_County,_Maryland"}
    capital = ask(in_maryland, "('District of Columbia', 'Washington') (city)")
    assert capital.location == ("city", DBR + "Washington,_D.C.")


def test_a_town_next_to_the_structured_city_is_read_as_a_part_of_it():
    wilmington = ask({"city": DBR + "Los_Angeles"}, "('California', 'Wilmington') (city)")
    assert wilmington.location == ("city", DBR + "Los_Angeles") and wilmington.place.rule == "text city nearby"
    assert wilmington.place.part == "wilmington"
    assert wilmington.place.part_iri == DBR + "Wilmington,_California"


def test_a_name_the_gazetteer_does_not_know_is_a_part_of_the_structured_city():
    queens = ask({"city": DBR + "New_York_City"}, "('New York', 'Queens') (city)")
    assert queens.location == ("city", DBR + "New_York_City") and queens.place.rule == "text city nearby"
    assert queens.place.part == "queens" and queens.place.part_iri == ""


def test_a_part_of_a_city_must_be_named():
    englewood = ask({"city": DBR + "Chicago"}, "('Illinois', 'Chicago (Englewood)') (city)")
    assert englewood.location == ("city", DBR + "Chicago")
    assert englewood.place.rule == "text part" and englewood.place.part == "englewood"
    assert englewood.place.part_iri == ""  # the post office files Englewood under Chicago: no place of its own
    reseda = ask({"city": DBR + "Los_Angeles"}, "('California', 'Los Angeles (Reseda)') (city)")
    assert reseda.place.part == "reseda" and reseda.place.part_iri == DBR + "Reseda,_California"


def test_a_place_the_post_office_files_under_a_city_is_asked_as_a_part_of_it():
    englewood = ask({"city": DBR + "Englewood,_Illinois"}, "('Illinois', 'Englewood') (city)")
    assert englewood.location == ("city", DBR + "Chicago") and englewood.place.rule == "part of a city"
    assert englewood.place.part == "englewood" and englewood.place.part_iri == ""
    own = ask({"city": DBR + "Englewood,_New_Jersey"}, "('New Jersey', 'Englewood') (city)")
    assert own.location == ("city", DBR + "Englewood,_New_Jersey") and own.place.rule == "structured"


def test_a_part_the_structured_field_already_names_keeps_it():
    kirby = ask({"city": DBR + "Kirby,_Texas"}, "('Texas', 'San Antonio (Kirby)') (city)")
    assert kirby.location == ("city", DBR + "Kirby,_Texas") and kirby.place.rule == "structured"
    county = ask({"city": DBR + "College_Station,_Texas"}, "('Texas', 'Brazos (county)') (city)")
    assert county.location == ("city", DBR + "College_Station,_Texas") and county.place.rule == "structured"


def test_another_spelling_of_the_city_is_not_a_part():
    spelling = ask({"city": DBR + "Marlborough,_Massachusetts"}, "('Massachusetts', 'Marlboro (Marlborough)') (city)")
    assert spelling.place.part == ""


def test_no_state_in_the_text_asks_for_incidents_outside_the_states():
    question = ask({"state": DBR + "Japan"}, "(None,) (state)")
    assert question.place.no_state and question.location == ("state", "")
    abroad = ask({"city": DBR + "Ushiku,_Ibaraki"}, "(None, 'Ushiku') (city)")
    assert abroad.location == ("city", DBR + "Ushiku,_Ibaraki") and abroad.place.rule == "structured"


@pytest.mark.parametrize("verbose", ["How many killings?", "in ('Ohio' (city)", "in (1, 2) (city)"])
def test_unreadable_text_keeps_the_structured_field(verbose):
    reading = read_place("city", DBR + "Memphis,_Tennessee", verbose)
    assert reading.iri == DBR + "Memphis,_Tennessee" and reading.rule == "structured" and reading.text == ""


def test_the_question_in_words_says_how_its_place_was_read():
    from kg_count.evaluate.question_text import place_reading, question_text

    englewood = ask({"city": DBR + "Chicago"}, "('Illinois', 'Chicago (Englewood)') (city)")
    assert question_text(englewood) == "How many killing incidents happened in Englewood (Chicago) in May 2017?"
    assert place_reading(englewood).startswith("'Chicago (Englewood), Illinois' read as place Chicago, part")
    abroad = ask({"state": ""}, "(None,) (state)")
    assert question_text(abroad) == "How many killing incidents happened outside the US states in May 2017?"
    memphis = ask({"city": DBR + "Memphis,_Tennessee"}, "('Tennessee', 'Memphis') (city)")
    assert place_reading(memphis) == ""
