"""Whether two reports tell of the same incident: their comparison, with reasons for and against.

Reads two Reports and returns a Comparison: a score (the points of what agrees, summed), hard conflicts that
forbid a merge whatever else agrees, and the reasons, so that a merge can be explained.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache

from geopy.distance import geodesic
from rapidfuzz import fuzz

from kg_count.incidents.reports.reports import Report, ReportedPerson
from kg_count.geography import place_coordinates
from kg_count.settings import settings

TITLE_STOPWORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "in",
        "on",
        "at",
        "of",
        "to",
        "for",
        "and",
        "after",
        "is",
        "was",
        "by",
        "with",
        "police",
        "man",
        "woman",
        "say",
        "says",
        "said",
        "shot",
        "shooting",
        "killed",
        "dead",
        "fire",
        "injured",
        "wounded",
    }
)


@dataclass
class Comparison:
    """How alike two reports are: a score, hard conflicts and the reasons behind both."""

    score: float = 0.0
    conflicts: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def add(self, points: float, reason: str) -> None:
        """Add ``points`` to the score and remember why."""
        self.score += points
        self.reasons.append(f"{reason} ({points:+g})")


def date_interval(report: Report) -> tuple[dt.date, dt.date]:
    """The first and last day the report's incident may have happened on (kept on the report for the
    settings in force: a report is compared with many)."""
    chosen = settings().clustering
    known = report.interval_cache
    if known is not None and known[0] is chosen:
        return known[1]
    interval = _date_interval(report, chosen)
    report.interval_cache = (chosen, interval)
    return interval


def _date_interval(report: Report, chosen) -> tuple[dt.date, dt.date]:
    day = report.date
    if report.certainty == "dct":
        return day - dt.timedelta(days=chosen.days_before_dct), day
    if report.granularity == "day":
        slack = dt.timedelta(days=chosen.stated_day_slack_days)
        return day - slack, day + slack
    if report.granularity == "week":
        slack = dt.timedelta(days=chosen.stated_week_slack_days)
        return day - slack, day + slack
    if report.granularity == "month":
        return day.replace(day=1), day.replace(day=calendar.monthrange(day.year, day.month)[1])
    return day.replace(month=1, day=1), day.replace(month=12, day=31)


def same_person(a: ReportedPerson, b: ReportedPerson) -> bool:
    """True when two named people are probably one: last names alike, first names or initials agreeing."""
    limits = settings().clustering
    if fuzz.ratio(a.last_name.lower(), b.last_name.lower()) < limits.last_name_similarity:
        return False
    first_a, first_b = a.first_name.lower().rstrip("."), b.first_name.lower().rstrip(".")
    if not first_a or not first_b:
        return True
    if len(first_a) == 1 or len(first_b) == 1:
        return first_a[0] == first_b[0]
    return (
        fuzz.ratio(first_a, first_b) >= limits.first_name_similarity
        or first_a.startswith(first_b)
        or first_b.startswith(first_a)
    )


def shared_names(a: Report, b: Report) -> list[str]:
    """The full names of ``a``'s named victims and suspects that ``b`` names too (``same_person``)."""
    b_names = b.named_participants
    return [p.full_name for p in a.named_participants if any(same_person(p, q) for q in b_names)]


def days_between(a: Report, b: Report) -> int:
    """Days between the two reports' date intervals (``date_interval``): 0 when they overlap."""
    a_first, a_last = date_interval(a)
    b_first, b_last = date_interval(b)
    return max((b_first - a_last).days, (a_first - b_last).days, 0)


def dates_apart(a: Report, b: Report) -> bool:
    """True when the two reports' date intervals (``date_interval``) cannot overlap."""
    return days_between(a, b) > 0


@lru_cache(maxsize=1 << 19)
def title_words(title: str) -> str:
    """A title's lower-cased alphanumeric words without stopwords, joined by spaces."""
    return " ".join(w for w in title.lower().split() if w.isalnum() and w not in TITLE_STOPWORDS)


def distance_km(a: Report, b: Report) -> float | None:
    """Kilometres between two reports' cities; None when either has no located city."""
    if not (a.city and a.state_iri and b.city and b.state_iri):
        return None
    return city_distance_km(a.city, a.state_iri, b.city, b.state_iri)


@lru_cache(maxsize=1 << 18)
def city_distance_km(city_a: str, state_a: str, city_b: str, state_b: str) -> float | None:
    """Kilometres between two cities given by name and state IRI; None when either is not in the gazetteer."""
    here, there = place_coordinates(city_a, state_a), place_coordinates(city_b, state_b)
    if here is None or there is None:
        return None
    return geodesic(here, there).km


def compare(a: Report, b: Report) -> Comparison:
    """Score how likely reports ``a`` and ``b`` are to tell of one incident.

    Dates that cannot agree forbid a merge unless both reports name the same person (follow-up
    stories about an arrest or a trial carry later dates); other states and distant cities always do.
    """
    weights = settings().clustering
    result = Comparison()
    if a.family != b.family:
        result.conflicts.append(f"kinds differ ({a.family} / {b.family})")
        return result
    a_names, b_names = a.named_participants, b.named_participants
    shared = shared_names(a, b)
    if dates_apart(a, b):
        if not shared:
            result.conflicts.append(f"dates apart ({a.date} / {b.date})")
            return result
        result.add(-weights.dates_apart_penalty, f"dates apart ({a.date} / {b.date})")
    elif a.certainty == b.certainty == "text" and a.granularity == b.granularity == "day":
        gap = abs((a.date - b.date).days)
        if gap == 0:
            result.add(weights.same_day, "same day")
        else:
            result.add(weights.days_apart, f"dates {gap} day apart")
    else:
        result.add(weights.dates_overlap, "dates overlap")

    if a.state_iri and b.state_iri and a.state_iri != b.state_iri:
        result.conflicts.append("states differ")
        return result
    if a.city_iri and b.city_iri:
        if a.city_iri == b.city_iri:
            result.add(weights.same_city, "same city")
        else:
            distance = distance_km(a, b)
            if distance is None or distance > weights.nearby_km:
                result.conflicts.append("cities differ")
                return result
            result.add(weights.nearby_cities, f"cities {distance:.0f} km apart")
    elif a.state_iri and b.state_iri:
        result.add(weights.same_state, "same state")

    if shared:
        result.add(weights.shared_names, f"shared names: {', '.join(shared)}")
    else:
        a_harmed = [p for p in a_names if p.status in ("killed", "injured")]
        b_harmed = [p for p in b_names if p.status in ("killed", "injured")]
        if a_harmed and b_harmed:
            result.add(weights.different_victims, "different victims named")

    for name in ("killed", "injured", "fired"):
        here, there = getattr(a, name), getattr(b, name)
        if here and there and here == there:
            # differing counts score nothing: later reports update them
            result.add(weights.same_count, f"both {name} {here}")

    similarity = fuzz.token_set_ratio(title_words(a.title), title_words(b.title))
    if similarity >= weights.title_similarity:
        result.add(weights.titles_alike, f"titles alike ({similarity:.0f})")
    return result
