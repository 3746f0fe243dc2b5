"""Reconcile a cluster of reports into one incident's properties.

Date: the date most reports state in their text (day level first), else the earliest document
date. Place: the city and state most reports name (a tie in states goes to the one their titles and
leads name most). Counts: the number most reports give, the
largest on ties, never a sum across reports (on gva-train's incidents of two or more articles, with
counts extracted by held-out models, this gets killed right for 80.1 % and injured for 70.1 %,
against 75.7 and 64.5 for the latest report's), except that a later report of more deaths, which the
voted injured can hold, wins: the wounded who died (``_deaths_reported_later``). People: one entry per person,
however many reports name them. Types: killing when someone was killed; injuring when someone
was injured or a shooting left nobody dead; fire and job dismissal as reported.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from kg_count.incidents.grouping.cluster import Merge, ReportCluster
from kg_count.incidents.reports.comparison import same_person
from kg_count.incidents.reports.reports import Report, ReportedPerson

STATUS_SEVERITY = {"killed": 3, "injured": 2, "fired": 2, "unharmed": 0}
# a person's role across reports: taking part beats telling, which beats not known
ROLE_RANK = {"victim": 2, "suspect": 2, "bystander": 1, "other": 0}
GRANULARITY_RANK = {"day": 0, "week": 1, "month": 2, "year": 3}


@dataclass
class Incident:
    """A real-world incident: its reconciled properties and the reports it rests on."""

    incident_id: str
    types: list[str]
    date: dt.date
    granularity: str
    certainty: str
    city_iri: str | None
    city: str | None
    state_iri: str | None
    killed: int
    injured: int
    fired: int
    people: list[ReportedPerson]
    doc_ids: list[str]
    merges: list[Merge] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    confidence: float = 1.0
    status_probabilities: list[dict[str, float]] = field(default_factory=list)  # per person, by status
    component: str = ""  # see cluster.ReportCluster


def _date(reports: list[Report]) -> tuple[dt.date, str, str]:
    stated = [r for r in reports if r.certainty == "text"]
    if stated:
        best_rank = min(GRANULARITY_RANK[r.granularity] for r in stated)
        finest = [r for r in stated if GRANULARITY_RANK[r.granularity] == best_rank]
        votes = Counter(r.date for r in finest)
        date = max(votes, key=lambda d: (votes[d], -d.toordinal()))
        return date, finest[0].granularity if best_rank else "day", "text"
    return min(r.date for r in reports), "day", "dct"


def _named_states(reports: list[Report]) -> Counter:
    """How often the reports' titles and leads name each state ("SMYRNA , Tenn. --"), by state IRI."""
    from kg_count.geography import state_iri
    from kg_count.nlp.places import state_votes

    votes = state_votes(" ".join(f"{r.title} {r.lead}" for r in reports).split())
    return Counter({state_iri(code): count for code, count in votes.items()})


def _place(reports: list[Report]) -> tuple[str | None, str | None, str | None]:
    states = Counter(r.state_iri for r in reports if r.state_iri)
    if not states:
        return None, None, None
    top = max(states.values())
    tied = sorted(s for s, n in states.items() if n == top)
    named = _named_states(reports) if len(tied) > 1 else Counter()
    state = max(tied, key=lambda s: named[s])  # a tie goes to the state the texts name most, then the first
    cities = Counter((r.city_iri, r.city) for r in reports if r.city_iri and r.state_iri == state)
    if not cities:
        return None, None, state
    city_iri, city = max(sorted(cities, key=str), key=lambda c: cities[c])
    return city_iri, city, state


def _count(reports: list[Report], name: str) -> int:
    votes = Counter(getattr(r, name) for r in reports)
    top = max(votes.values())
    return max(value for value, number in votes.items() if number == top)


def _people(reports: list[Report]) -> list[ReportedPerson]:
    people: list[ReportedPerson] = []
    for report in sorted(reports, key=lambda r: r.dct):
        for person in report.people:
            for n, known in enumerate(people):
                if same_person(known, person):
                    longer = person if len(person.full_name) > len(known.full_name) else known
                    severe = person if STATUS_SEVERITY[person.status] > STATUS_SEVERITY[known.status] else known
                    people[n] = ReportedPerson(
                        longer.full_name,
                        longer.first_name,
                        longer.last_name,
                        known.age or person.age,
                        known.role if ROLE_RANK[known.role] >= ROLE_RANK[person.role] else person.role,
                        severe.status,
                    )
                    break
            else:
                people.append(person)
    return people


def _deaths_reported_later(reports: list[Report], killed: int, injured: int) -> tuple[int, int]:
    """The killed and injured counts once a later report's deaths are read: when the latest report (by
    publication date, after the first) gives more killed than the vote and the vote's injured can hold the
    difference (the wounded who died), its killed count wins and the injured lose as many."""
    first, latest = min(r.dct for r in reports), max(reports, key=lambda r: (r.dct, r.killed))
    more = latest.killed - killed
    if latest.dct > first and 0 < more <= injured:
        return latest.killed, injured - more
    return killed, injured


def _types(reports: list[Report], killed: int, injured: int) -> list[str]:
    """The incident's types: a gun incident is a killing when its reconciled killed count is above 0, and an
    injuring when its injured count is, when nobody was killed, or when one of its reports states both a death and
    an injury (an injury said beside a death is explicit: "killed one and wounded two"), however the counts
    reconcile."""
    reported = Counter(t for r in reports for t in r.types)
    types = []
    if "killing" in reported or "injuring" in reported:
        if killed > 0:
            types.append("killing")
        if injured > 0 or killed == 0 or any(r.killed > 0 and r.injured > 0 for r in reports):
            types.append("injuring")
    types.extend(t for t in ("fire_burning", "job_firing") if t in reported)
    return types


def reconcile(cluster: ReportCluster, incident_id: str) -> Incident:
    """Return the Incident that a cluster of reports describes."""
    reports = cluster.reports
    date, granularity, certainty = _date(reports)
    city_iri, city, state_iri = _place(reports)
    killed, injured, fired = (_count(reports, name) for name in ("killed", "injured", "fired"))
    killed, injured = _deaths_reported_later(reports, killed, injured)
    return Incident(
        incident_id=incident_id,
        types=_types(reports, killed, injured),
        date=date,
        granularity=granularity,
        certainty=certainty,
        city_iri=city_iri,
        city=city,
        state_iri=state_iri,
        killed=killed,
        injured=injured,
        fired=fired,
        people=_people(reports),
        doc_ids=[r.doc_id for r in reports],
        merges=cluster.merges,
        component=cluster.component,
    )
