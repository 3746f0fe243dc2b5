"""Temporal expressions resolved against the document creation time, and the incident date.

spaCy's adjacent DATE and TIME spans are joined ("Saturday" + "night"); weekdays and relative
days ("yesterday", "last night") are resolved here, other expressions by dateparser with the
DCT as base. The incident date is the first resolved date in a sentence that mentions a typed
event, else the first in the text, else the DCT, marked as a weak estimate.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from kg_count.nlp.bare_numbers import BARE_NUMBER, bare_number_date
from kg_count.settings import settings

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
MONTH_ABBREVIATIONS = {m[:3] for m in MONTHS} | {"sept"}
RELATIVE_DAYS = {
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this afternoon": 0,
    "this evening": 0,
    "yesterday": 1,
    "last night": 1,
    "overnight": 0,
}
NOT_A_DATE = re.compile(
    r"\b(year|years|month|months|week|weeks|day|days|hours?|minutes?|decades?)\b(?! ago)|"
    r"\bold\b|\bage\b|\d+s\b|\bseason|\bnow\b|\bcentury\b",
    re.I,
)
CLOCK_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:a m|p m|am|pm|o'clock)(?![a-z])|\b\d{1,2}:\d{2}\b")
MONTH_DAY_SLASH = re.compile(r"\b(\d{1,2})/\d{1,2}\b")
AGE_PHRASE = re.compile(r"\b\d+[- ]*(?:years?|months?)[- ]*old\b")  # "15-year - old Thursday evening"
DAY_PART_HOURS = re.compile(r"\b(morning|afternoon|evening|night|overnight) hours\b")  # "early morning hours Sunday"
CLOCK_WORDS = re.compile(r"\b(?:at|around|about|approximately|shortly|just|before|after)\b")
DAY_PART_WORDS = ("morning", "afternoon", "evening", "night")
# a page's stamp ("Posted : Wednesday , January 25 , 2017 10:21 AM"), not a date told with the hour it happened at
# ("On Friday , July 7 , 2006 at 8:04 a.m. , firefighters responded")
PUBLICATION_STAMP = re.compile(
    r"\b\d{4}\b(?!\s*at\b).*\d{1,2}:\d{2}|\b(posted|updated|published|last modified)\b", re.I
)


@dataclass(frozen=True)
class TimeMention:
    """A resolved temporal expression: spaCy span [start, end), its text, date, granularity and sentence."""

    start: int
    end: int
    text: str
    date: dt.date
    granularity: str
    sentence: int


@dataclass(frozen=True)
class IncidentDate:
    """The estimated incident date with its granularity and how it was found ('text' or 'dct')."""

    date: dt.date
    granularity: str
    certainty: str


def _bare_weekdays(doc, covered: set[int]) -> list[tuple[int, int]]:
    """Token ranges of capitalised weekdays the entity recogniser left out of every DATE and TIME span ("-
    Thursday evening Nez Perce County Sheriff 's Office responded"), each with a part of the day after it."""
    spans = []
    for token in doc:
        if token.i in covered or not token.is_title or token.lower_ not in WEEKDAYS:
            continue
        end = token.i + 1
        if end < len(doc) and doc[end].lower_ in DAY_PART_WORDS:
            end += 1
        spans.append((token.i, end))
    return spans


def joined_spans(doc) -> list[tuple[int, int]]:
    """Token ranges of DATE and TIME entities and of weekdays outside them (``_bare_weekdays``), adjacent ones
    joined."""
    entities = [(ent.start, ent.end) for ent in doc.ents if ent.label_ in ("DATE", "TIME")]
    covered = {i for start, end in entities for i in range(start, end)}
    spans: list[list[int]] = []
    for start, end in sorted(entities + _bare_weekdays(doc, covered)):
        if spans and start - spans[-1][1] <= 1 and doc[spans[-1][1] : start].text.lower() in ("", "on", "at"):
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [(s, e) for s, e in spans]


def _weekday_before(dct: dt.date, weekday: int) -> dt.date:
    return dct - dt.timedelta(days=(dct.weekday() - weekday) % 7)


def _granularity(text: str) -> str:
    lowered = text.lower()
    has_month = any(m in lowered for m in MONTHS) or any(re.search(rf"\b{m}\b", lowered) for m in MONTH_ABBREVIATIONS)
    if re.search(r"\b\d{1,2}(st|nd|rd|th)?\b", lowered) and has_month or re.search(r"\d{1,2}/\d{1,2}", lowered):
        return "day"
    if has_month:
        return "month"
    return "year"


@lru_cache(maxsize=4096)
def resolve(text: str, dct: dt.date) -> tuple[dt.date, str] | None:
    """Resolve one temporal expression against the DCT; returns (date, granularity) or None. "last November"
    is the latest November before the DCT, and "last Friday" said on a Friday the Friday before. An age the
    entity recogniser joined to the expression ("15-year - old Thursday evening") is no part of it, and the
    "morning hours" are a part of the day."""
    lowered = " ".join(DAY_PART_HOURS.sub(r"\1", AGE_PHRASE.sub(" ", text.lower())).replace(".", " ").split())
    month_after_last = re.match(r"(?:last|this past|past) (?=(?:" + "|".join(MONTHS) + r")\b)", lowered)
    if month_after_last:
        lowered = lowered[month_after_last.end() :]
        text = lowered
    if NOT_A_DATE.search(lowered) and not re.search(r"\bago\b|\blast (week|month|year)\b", lowered):
        return None
    for index, weekday in enumerate(WEEKDAYS):  # before the relative days: "overnight Tuesday" is Tuesday
        if re.search(rf"\b{weekday}\b", lowered) and not any(m in lowered for m in MONTHS):
            day = _weekday_before(dct, index)
            if day == dct and re.search(rf"\blast {weekday}\b", lowered):  # "last Friday", said on a Friday
                day -= dt.timedelta(days=7)
            return day, "day"
    for phrase, days in RELATIVE_DAYS.items():
        if phrase in lowered:
            return dct - dt.timedelta(days=days), "day"
    without_clock = CLOCK_TIME.sub(" ", lowered)  # "9 p.m." alone names no day
    if not re.search(r"\d|" + "|".join(MONTHS) + "|" + "|".join(MONTH_ABBREVIATIONS) + r"|ago|last", without_clock):
        return None
    slash = MONTH_DAY_SLASH.search(lowered)
    if slash and int(slash.group(1)) > 12:  # American dates are month/day: "24/7" is no date
        return None
    bare = BARE_NUMBER.fullmatch(text)  # "18", "2017": half the calls, read without dateparser's cost
    date = bare_number_date(bare.group(1), dct) if bare else _dateparser_date(text, lowered, dct)
    if date is None:
        return None
    granularity = "week" if "week" in lowered else "day" if "ago" in lowered else _granularity(lowered)
    return _coming_date(date, dct, lowered, granularity), granularity


def _dateparser_date(text: str, lowered: str, dct: dt.date) -> dt.date | None:
    """dateparser's date for ``text`` against the DCT at noon, preferring the past, else, when ``lowered`` has a
    clock time, for ``lowered`` without it and without words like "at" and "approximately"; returns the date or None."""
    import dateparser

    base = dt.datetime.combine(dct, dt.time(12))
    dateparser_settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}
    parsed = dateparser.parse(text, languages=["en"], settings=dateparser_settings)
    if parsed is None and CLOCK_TIME.search(lowered):  # "January 25 , 2017 at approximately 11:30 AM"
        without_clock = CLOCK_WORDS.sub(" ", CLOCK_TIME.sub(" ", lowered))
        parsed = dateparser.parse(without_clock, languages=["en"], settings=dateparser_settings)
    return None if parsed is None else parsed.date()


def _coming_date(date: dt.date, dct: dt.date, lowered: str, granularity: str) -> dt.date:
    """A month and day without a year that dateparser put in the year before the DCT is the coming date in the
    DCT's year when that lies on the DCT or at most [extraction] future_date_days after it ("a hearing on March 12",
    said on March 10); otherwise ``date`` unchanged."""
    if granularity != "day" or re.search(r"\b\d{4}\b|\bago\b|\blast\b", lowered) or date >= dct:
        return date
    try:
        coming = date.replace(year=date.year + 1)
    except ValueError:  # 29 February
        return date
    if 0 <= (coming - dct).days <= settings().extraction.future_date_days:
        return coming
    return date


def find_time_mentions(doc, dct: dt.date) -> list[TimeMention]:
    """Return the resolved temporal expressions of a spaCy doc that lie in the year before the DCT (or on it)."""
    sentence_of = {}
    for n, sent in enumerate(doc.sents):
        sentence_of[sent.start] = n
    mentions = []
    for start, end in joined_spans(doc):
        text = doc[start:end].text
        context = doc[max(0, start - 3) : end].text
        if PUBLICATION_STAMP.search(context):
            continue
        resolved = resolve(text, dct)
        if resolved is None:
            continue
        date, granularity = resolved
        earliest = dct - dt.timedelta(days=settings().extraction.earliest_days_before_dct)
        if not earliest <= date <= dct + dt.timedelta(days=1):
            continue
        mentions.append(TimeMention(start, end, text, date, granularity, sentence_of[doc[start].sent.start]))
    return mentions


def incident_date(times: Sequence[TimeMention], event_sentences: set[int], dct: dt.date) -> IncidentDate:
    """Choose the incident date: the earliest day-level date, those of sentences that mention a typed event
    first (later dates are mostly arrests, hearings, funerals); then coarser dates; then the DCT."""
    ranked = sorted(times, key=lambda t: (t.granularity != "day", t.sentence not in event_sentences, t.date, t.start))
    if ranked:
        best = ranked[0]
        return IncidentDate(best.date, best.granularity, "text")
    return IncidentDate(dct, "day", "dct")
