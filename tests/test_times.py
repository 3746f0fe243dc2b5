"""Temporal expressions against the DCT (Wednesday 25 January 2017) and the incident date; bare numbers read as
dateparser reads them."""

import calendar
import datetime as dt
import re

import dateparser
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kg_count.nlp import times
from kg_count.nlp.bare_numbers import BARE_NUMBER, bare_number_date
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


def dateparser_date(text: str, dct: dt.date) -> dt.date | None:
    """The date dateparser reads from ``text`` with the settings ``resolve`` gives it, or None."""
    base = dt.datetime.combine(dct, dt.time(12))
    dateparser_settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}
    parsed = dateparser.parse(text, languages=["en"], settings=dateparser_settings)
    return None if parsed is None else parsed.date()


def _month_end(year: int, month: int, days_before: int) -> dt.date:
    """The date ``days_before`` days before the month's last day."""
    return dt.date(year, month, calendar.monthrange(year, month)[1] - days_before)


BARE_NUMBERS = st.builds(
    lambda number, zeros, left, right: " " * left + "0" * zeros + str(number) + " " * right,
    st.one_of(st.integers(0, 99), st.integers(0, 9999), st.integers(0, 99999)),  # as many days and months as years
    st.sampled_from([0, 0, 0, 1, 2, 3]),
    st.integers(0, 2),
    st.integers(0, 2),
)
YEARS = st.integers(2000, 2030)
DCTS = st.one_of(
    st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 31)),
    st.builds(_month_end, YEARS, st.integers(1, 12), st.integers(0, 3)),  # 28 and 29 February among them
    st.builds(dt.date, YEARS, st.just(1), st.integers(28, 31)),  # "2" then is 29 February of a leap year before
)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(BARE_NUMBERS, DCTS)
@example("29", dt.date(2017, 2, 10))
@example("2", dt.date(2016, 1, 30))
@example(" 2017", dt.date(2016, 2, 29))
@example("31", dt.date(2017, 6, 15))
def test_a_bare_number_is_read_as_dateparser_reads_it(text, dct):
    bare = BARE_NUMBER.fullmatch(text)
    assert bare is not None
    assert bare_number_date(bare.group(1), dct) == dateparser_date(text, dct)


@pytest.mark.parametrize(
    "text, dct, date",
    [
        ("18", DCT, dt.date(2017, 1, 18)),
        ("30", DCT, dt.date(2017, 1, 30)),  # a day after the DCT stays in its month
        ("30", dt.date(2017, 2, 10), None),
        ("29", dt.date(2017, 2, 10), dt.date(2016, 2, 29)),
        ("3", DCT, dt.date(2016, 3, 25)),
        ("2", dt.date(2016, 1, 30), dt.date(2012, 2, 29)),
        ("4", dt.date(2017, 3, 31), dt.date(2016, 4, 30)),
        ("2017", dt.date(2016, 2, 29), dt.date(2017, 2, 28)),
        ("99", DCT, dt.date(1999, 1, 25)),
        ("32", DCT, dt.date(1932, 1, 25)),
        ("00", DCT, dt.date(2000, 1, 25)),
        ("0", DCT, None),
        ("123", DCT, None),
        ("0000", DCT, None),
        ("20170125", DCT, None),
    ],
)
def test_bare_numbers(text, dct, date):
    assert bare_number_date(text, dct) == date == dateparser_date(text, dct)


@pytest.mark.parametrize("dct", [DCT, dt.date(2016, 2, 29), dt.date(2017, 3, 31), dt.date(2017, 1, 30)])
def test_resolve_reads_bare_numbers_as_with_dateparser_alone(dct, monkeypatch):
    texts = ["18", "3", "05", " 2017 ", "2016", "29", "30", "31", "00", "68", "99", "0", "123", "1485345600"]
    texts += ["Jan. 3", "Dec. 28", "March 20", "Feb. 2 , 2016", "last November", "two weeks ago", "Tuesday at 9 p.m."]
    texts += ["Wednesday , January 18 , 2017 at approximately 11:30 AM", "24/7", "the 1990s", "12:45", "May 2017"]
    fast = [resolve.__wrapped__(text, dct) for text in texts]
    monkeypatch.setattr(times, "BARE_NUMBER", re.compile(r"(?!)"))  # matches nothing
    assert fast == [resolve.__wrapped__(text, dct) for text in texts]
