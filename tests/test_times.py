"""Temporal expressions against the DCT (Wednesday 25 January 2017) and the incident date."""

import datetime as dt

import pytest

from kg_count.nlp.times import find_time_mentions, incident_date, resolve
from tests.helpers import annotated

DCT = dt.date(2017, 1, 25)


@pytest.mark.parametrize(
    "text, date, granularity",
    [
        ("Saturday night", dt.date(2017, 1, 21), "day"),
        ("last Tuesday", dt.date(2017, 1, 24), "day"),
        ("Wednesday", dt.date(2017, 1, 25), "day"),
        ("yesterday", dt.date(2017, 1, 24), "day"),
        ("last night", dt.date(2017, 1, 24), "day"),
        ("Jan. 3", dt.date(2017, 1, 3), "day"),
        ("on Jan. 3", dt.date(2017, 1, 3), "day"),
        ("Dec. 28", dt.date(2016, 12, 28), "day"),
        ("Feb. 2 , 2016", dt.date(2016, 2, 2), "day"),
        ("two weeks ago", dt.date(2017, 1, 11), "week"),
        ("three days ago", dt.date(2017, 1, 22), "day"),
        ("last November", dt.date(2016, 11, 25), "month"),
        ("this past June", dt.date(2016, 6, 25), "month"),
        ("last Wednesday", dt.date(2017, 1, 18), "day"),
        ("the early morning hours Sunday", dt.date(2017, 1, 22), "day"),  # the hours are a part of the day
        ("15-year - old Thursday evening", dt.date(2017, 1, 19), "day"),  # an age the recogniser joined
        ("Wednesday , January 18 , 2017 at approximately 11:30 AM", dt.date(2017, 1, 18), "day"),
        ("Friday , Jan. 20 around 7:30 p.m.", dt.date(2017, 1, 20), "day"),
        ("overnight Tuesday", dt.date(2017, 1, 24), "day"),  # the weekday, not the night before the DCT
    ],
)
def test_resolve(text, date, granularity):
    assert resolve(text, DCT) == (date, granularity)


@pytest.mark.parametrize("text", ["29-year", "three years", "the 1990s", "9 p.m.", "about 1:30 p.m.", "12:45", "24/7"])
def test_not_dates(text):
    """Ages, durations, a clock time alone (it names no day) and a day/month that no American date is."""
    assert resolve(text, DCT) is None


@pytest.mark.parametrize(
    "text, date",
    [
        ("Jan. 27", dt.date(2017, 1, 27)),  # a hearing two days ahead, not 27 January 2016
        ("Wednesday , January 25 , at 5:12 pm", DCT),  # an afternoon hour on the DCT kept the year
        ("March 20", dt.date(2017, 3, 20)),
        ("Feb. 2 , 2016", dt.date(2016, 2, 2)),  # a stated year is kept
        ("May 3", dt.date(2016, 5, 3)),  # far ahead: last year's
        ("Tuesday at 9 p.m.", dt.date(2017, 1, 24)),
    ],
)
def test_month_and_day_near_the_dct_keep_its_year(text, date):
    assert resolve(text, DCT) == (date, "day")


def test_joined_spans_and_incident_date_from_event_sentence():
    doc = annotated(
        "Police said Monday that a man was shot Saturday night on Main Street . | He will appear in court on Friday ."
    )
    times = find_time_mentions(doc.doc, DCT)
    texts = [t.text for t in times]
    assert "Saturday night" in texts
    chosen = incident_date(times, {0}, DCT)
    assert (chosen.date, chosen.granularity, chosen.certainty) == (dt.date(2017, 1, 21), "day", "text")


def test_a_weekday_the_entity_recogniser_left_out_is_read_with_its_part_of_the_day():
    doc = annotated(
        "North Idaho child killed | NEZ PERCE COUNTY , Idhao - Thursday evening Nez Perce County Sheriff 's Office "
        "responded to a call of a boy with a gunshot wound ."
    )
    assert [(t.text, t.date) for t in find_time_mentions(doc.doc, DCT)] == [("Thursday evening", dt.date(2017, 1, 19))]


def test_publication_stamps_are_not_incident_dates():
    doc = annotated("Posted : Wednesday , January 25 , 2017 10:21 AM EST | A man was shot Monday .")
    dates = {t.date for t in find_time_mentions(doc.doc, DCT)}
    assert dt.date(2017, 1, 23) in dates and DCT not in dates


def test_a_date_with_its_year_and_the_hour_it_happened_at_is_no_stamp():
    doc = annotated("On Monday , January 23 , 2017 at 8:04 a.m. , firefighters responded to a fire on Main Street .")
    assert [t.date for t in find_time_mentions(doc.doc, DCT)] == [dt.date(2017, 1, 23)]


def test_no_date_falls_back_to_weak_dct():
    chosen = incident_date([], set(), DCT)
    assert (chosen.date, chosen.certainty) == (DCT, "dct")
