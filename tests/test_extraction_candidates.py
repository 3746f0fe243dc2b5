"""Candidate values and their features on small hand-made documents (no model involved)."""

import datetime as dt

from kg_count.nlp.count_candidates import count_candidates, harm_words
from kg_count.nlp.date_candidates import date_candidates
from kg_count.nlp.events import find_event_mentions
from kg_count.learning.bins import interval_name
from kg_count.nlp.followup import follow_up_features
from kg_count.nlp.participants import count_statements
from kg_count.nlp.place_candidates import city_in_state_features, place_candidates
from kg_count.nlp.times import find_time_mentions, incident_date
from tests.helpers import annotated

DCT = dt.date(2017, 1, 25)  # a Wednesday


def body_start(doc) -> int:
    return sum(1 for p in doc.positions if doc.document.tokens[p].part == "TITLE")


def test_date_candidates_are_stated_days_and_the_days_before_the_dct():
    doc = annotated(
        "A man was shot Monday night on Main Street . | He will appear in court on Jan. 30 .", title="Man shot"
    )
    times = find_time_mentions(doc.doc, DCT)
    typed = [e for e in find_event_mentions(doc) if e.event_type]
    events = {e.sentence for e in typed}
    rule = incident_date(times, events, DCT)
    candidates = {
        c.value: c.features
        for c in date_candidates(
            doc.doc, times, events, DCT, body_start(doc), rule, {e.start: e.event_type for e in typed}
        )
    }
    # the DCT and three days before it; "Jan. 30" is the coming hearing, after the DCT: no candidate
    assert set(candidates) == {
        dt.date(2017, 1, 23),
        DCT,
        dt.date(2017, 1, 24),
        dt.date(2017, 1, 22),
    }
    monday = candidates[dt.date(2017, 1, 23)]
    assert {
        "stated",
        "event_sentence",
        "kind:weekday",
        "part:night",
        "earliest",
        "rule",
        "first_stated",
        "dct-2",
        "governor:injuring",
    } <= monday
    assert {"unstated", "dct-0", "before_dct:<=0"} <= candidates[DCT]
    assert not any("&breaking" in feature for features in candidates.values() for feature in features)


def test_breaking_news_marks_the_dct_candidates():
    doc = annotated("A man was shot at 9 p.m. on Main Street . | This is a developing story .", title="Man shot")
    times = find_time_mentions(doc.doc, DCT)
    assert times == []  # a clock time alone names no day
    rule = incident_date(times, set(), DCT)
    candidates = {c.value: c.features for c in date_candidates(doc.doc, times, set(), DCT, body_start(doc), rule)}
    assert "dct-0&breaking" in candidates[DCT] and "dct-1&breaking" in candidates[DCT - dt.timedelta(days=1)]


def test_place_candidates_keep_the_dateline_and_later_cities():
    doc = annotated(
        "SPRINGFIELD , Ill. — A man was shot dead Friday night . | "
        "His family drove from Peoria , Ill. , to the hospital .",
        title="Man shot dead",
    )
    places = place_candidates(doc.doc, body_start(doc), {1})
    cities = {c.value: c.features for c in places.cities}
    states = {c.value: c.features for c in places.states}
    assert {"Springfield", "Peoria"} <= set(cities)
    assert "dateline" in cities["Springfield"] and "dateline" not in cities["Peoria"]
    assert {"pair", "loose_after:from"} <= cities["Peoria"]
    assert {"dateline_state", "pair", "most_named", "cities_here:<=2", "rule"} <= states["IL"]
    assert "MO" not in states  # the most populous Springfield: the dateline writes this one with "Ill."
    assert "city_state:only" in states["IL"]
    assert (places.rule.city, places.rule.state, places.rule.found_by) == ("Springfield", "IL", "dateline")
    assert "in_state" in city_in_state_features("Peoria", "IL")
    assert "not_in_state" in city_in_state_features("Peoria", "ME")


def test_a_city_written_with_its_state_implies_no_namesake():
    doc = annotated(
        "Police said a man was shot Friday in Madison , Ala. , near a school . | Madison police are investigating .",
        title="Man shot in Madison",
    )
    states = {c.value: c.features for c in place_candidates(doc.doc, body_start(doc), {0}).states}
    assert "WI" not in states  # the most populous Madison
    assert {"pair", "city_state:only"} <= states["AL"]


def test_a_dash_glued_to_a_datelines_state_is_left_off():
    doc = annotated(
        "by Victoria Taylor JACKSON , Tenn.– Jackson police are investigating a shooting .",
        title="Jackson police investigate shooting",
    )
    places = place_candidates(doc.doc, body_start(doc), {0})
    assert (places.rule.city, places.rule.state) == ("Jackson", "TN")
    assert "MS" not in {c.value for c in places.states}  # the most populous Jackson


def test_a_datelines_state_stands_when_the_gazetteer_does_not_know_its_town_there():
    doc = annotated(
        "HOWLAND , Ohio ( WKBN ) – Police have named four victims of Saturday 's shooting at a Howland home .",
        title="4 victims named in Howland shooting",
    )
    states = {c.value: c.features for c in place_candidates(doc.doc, body_start(doc), {0}).states}
    assert "dateline_state" in states["OH"]
    assert not any(f.startswith("city_state:") for f in states.get("ME", set()))  # Howland, Maine: a namesake


def _features(body: str, title: str) -> tuple[dict, dict]:
    """The state and city candidates' features (value -> features) of a document, its first sentence an event's."""
    doc = annotated(body, title=title)
    places = place_candidates(doc.doc, body_start(doc), {0})
    return {c.value: c.features for c in places.states}, {c.value: c.features for c in places.cities}


def test_a_town_in_a_county_the_text_names_marks_that_state():
    states, cities = _features(
        "DEER LODGE ( WATE ) – A 15-year-old was killed in Deer Lodge after accidentally shooting himself . | "
        "Morgan County Sheriff Glen Freytag said the boy was killed Tuesday night .",
        "Morgan County teen shot , killed",
    )
    assert "county_holds_city" in states["TN"]  # Deer Lodge, Tennessee lies in Morgan County
    assert "county_holds_city" not in states.get("MT", set())  # Deer Lodge, Montana does not
    assert "in_named_county" in cities["Deer Lodge"]


def test_a_town_named_like_its_county_is_no_evidence_of_it():
    states, _ = _features("A man was shot in Perry on Sunday , the Perry County Sheriff 's Office said .", "Man shot")
    assert not any("county_holds_city" in features for features in states.values())


def test_two_named_towns_near_each_other_mark_their_state():
    states, cities = _features(
        "A man was shot and killed in Youngstown on Friday night . | He lived in Warren , police said .",
        "Man killed in shooting",
    )
    assert "near_named_place" in states["OH"]  # Warren and Youngstown, Ohio lie some 20 km apart
    assert "near_named_place" not in states.get("MI", set())  # Warren, Michigan has no Youngstown beside it
    assert {"Warren", "Youngstown"} <= {name for name, features in cities.items() if "near_named_place" in features}


def test_a_state_carries_how_strongly_the_text_names_a_city_in_it():
    doc = annotated(
        "Two people were killed in a shooting in Vallejo on Sunday . | Vallejo police said the men were shot . | "
        "A relative drove in from Bay City .",
        title="2 killed in Vallejo shooting",
    )
    states = {c.value: c.features for c in place_candidates(doc.doc, body_start(doc), {0}).states}
    vallejo = states["CA"]  # Vallejo is only in California, a city of over 100,000
    assert {"city_state:only&city:title", "city_state:only&city:lead", "implied_population:>100000"} <= vallejo
    assert "city_state:only&city:mentions<=4" in vallejo  # three mentions
    assert not any(f.endswith("&city:title") for f in states["MI"])  # Bay City, named once in the text


def test_count_candidates_include_stated_numbers_and_shot_less_killed():
    doc = annotated(
        "Four people were shot , and one of them died , police said . | "
        "Two men were killed and three others were wounded on Friday .",
        title="Shooting",
    )
    events = find_event_mentions(doc)
    statements = count_statements(doc.doc, events)
    killed = {c.value: c.features for c in count_candidates("killed", statements, 0, 2, 0)}
    injured = {c.value: c.features for c in count_candidates("injured", statements, 0, 3, 2)}
    assert {0, 1, 2} <= set(killed) and "stated:lead" in killed[2]
    assert {"rule", "max_stated"} <= injured[3]
    assert "zero" in injured[0] and "value:<=0" in injured[0]


def test_a_count_above_every_number_shot_is_marked():
    doc = annotated(
        "Seven people were shot overnight , police said . | "
        "One man was killed Saturday , after 45 people were killed in July .",
        title="7 shot in one incident",
    )
    statements = count_statements(doc.doc, find_event_mentions(doc))
    killed = {c.value: c.features for c in count_candidates("killed", statements, 0, 1, 0)}
    assert "above_shot" in killed[45]
    assert "above_shot" not in killed[1] and "above_shot" not in killed[7]


def test_harm_words_and_follow_up_features_read_title_and_lead():
    doc = annotated(
        "A man was sentenced Tuesday for the shooting death of his neighbor . | The trial lasted a week .",
        title="Man sentenced in fatal shooting",
    )
    start = body_start(doc)
    assert {"title:shooting", "title:fatal", "lead:death"} <= harm_words(doc.doc, start)
    features = follow_up_features(doc.doc, start, find_time_mentions(doc.doc, DCT), DCT)
    assert {"title:sentence", "lead:sentence", "lead:shooting"} <= features


def test_buckets():
    assert [interval_name(n, (0, 1, 3), closed="above") for n in (0, 1, 2, 3, 9)] == ["<=0", "<=1", "<=3", "<=3", ">3"]
