"""Reports: what one document says about one incident, read back from the store with SPARQL.

A report joins a document's reported events (one per event type) into one record: the event
types, the incident date with its granularity and certainty, the place, the counts and the
people. Clustering groups reports into incidents.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Iterator

from kg_count.graph.document_graph import document_iri
from kg_count.graph.queries import read_query
from kg_count.task import GUN_TYPES
from kg_count.nlp.participants import PARTICIPATING_ROLES

GRAPHS_A_QUERY = 100  # document graphs named in one query's dataset

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore


def _local(iri) -> str:
    return str(iri).rsplit("#", 1)[-1].rsplit("/", 1)[-1]


@dataclass(frozen=True)
class ReportedPerson:
    """A person one report names, with the role and status the extraction gave them."""

    full_name: str
    first_name: str
    last_name: str
    age: int | None
    role: str
    status: str


@dataclass
class Report:
    """One document's account of an incident (``lead``: the body's opening words, "" when the store has none)."""

    doc_id: str
    dct: dt.date
    title: str
    types: set[str]
    date: dt.date
    granularity: str
    certainty: str
    city_iri: str | None
    city: str | None
    state_iri: str | None
    killed: int
    injured: int
    fired: int
    people: list[ReportedPerson] = field(default_factory=list)
    lead: str = ""
    # (settings, interval) of comparison.date_interval, kept because a report is compared with many
    interval_cache: tuple | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def family(self) -> str:
        """The kind of incident: gun violence (killing, injuring), fire_burning or job_firing."""
        if self.types & GUN_TYPES:
            return "gun"
        return sorted(self.types)[0]

    @cached_property
    def named_participants(self) -> list[ReportedPerson]:
        """Victims and suspects named with a first and a last name, victims first (officials and
        witnesses named in many stories of one city tell nothing of which incident it is). Read once,
        when first asked: a report's people are set before it is compared."""
        return sorted(
            (p for p in self.people if p.first_name and p.last_name and p.role in PARTICIPATING_ROLES),
            key=lambda p: p.role != "victim",
        )


def _rows(store: GraphStore, query: str, doc_ids: Iterable[str] | None) -> Iterator[tuple]:
    """The rows of ``query`` (whose pattern is one ``GRAPH ?doc``) over every document graph, or over those of
    ``doc_ids`` only: ``GRAPHS_A_QUERY`` of them at a time named as the query's dataset (``FROM NAMED``; a VALUES list
    of graphs is not pushed into the pattern and costs a scan of every graph, and one query a graph took twice as
    long as these)."""
    if doc_ids is None:
        yield from store.values(query)
        return
    if "GRAPH ?doc {" not in query or not re.search(r"^WHERE\b", query, flags=re.M):
        raise ValueError("a query read per document needs a WHERE line and the pattern GRAPH ?doc { ... }")
    chosen = sorted(doc_ids)
    for start in range(0, len(chosen), GRAPHS_A_QUERY):
        named = "\n".join(f"FROM NAMED {document_iri(doc).n3()}" for doc in chosen[start : start + GRAPHS_A_QUERY])
        yield from store.values(re.sub(r"^WHERE\b", lambda _: f"{named}\nWHERE", query, count=1, flags=re.M))


def reports_from_store(store: GraphStore, doc_ids: Iterable[str] | None = None) -> list[Report]:
    """Read every document's reported events from a GraphStore (only those of ``doc_ids`` when given); return one
    Report per document with reported events, by doc id."""
    reports: dict[str, Report] = {}
    for row in _rows(store, read_query("reports"), doc_ids):
        doc_id, dct, title, lead, event_type, date, granularity, certainty, city, label, state, *counts = row
        report = reports.get(doc_id)
        if report is None:
            reports[doc_id] = Report(
                doc_id=doc_id,
                dct=dct,
                title=title,
                types={_local(event_type)},
                date=date,
                granularity=_local(granularity).removeprefix("unit").lower(),
                certainty=certainty,
                city_iri=city,
                city=label,
                state_iri=state,
                killed=counts[0],
                injured=counts[1],
                fired=counts[2],
                lead=lead if lead is not None else "",
            )
        else:
            report.types.add(_local(event_type))
    people: dict[str, dict[str, ReportedPerson]] = defaultdict(dict)
    for doc_id, person, full, first, last, age, role, status in _rows(store, read_query("report_people"), doc_ids):
        people[doc_id][person] = ReportedPerson(full, first, last, age, _local(role), _local(status))
    for doc_id, found in people.items():
        if doc_id in reports:
            reports[doc_id].people = [found[key] for key in sorted(found)]
    return [reports[doc_id] for doc_id in sorted(reports)]
