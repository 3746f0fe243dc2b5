"""Answer the task's questions with parameterised SPARQL over the store's incident graph.

The query is ``queries/answer/incidents.rq`` with one constraint fragment per asked property
(``time``, ``city`` or ``state``, ``first``, ``last`` or ``full_name``); question values are
bound to the fragments' variables in a VALUES row of RDF terms (serialised by rdflib, so no
question text is ever parsed as query syntax).
S1: the incident that fits best (most documents, then a date stated in the text) and its
documents; S1 always has an answer, so when nothing fits exactly the query is relaxed step by
step (dates a few days either side and cities nearby, then the city's state, then the
sibling gun-violence type). S2: the number of incidents and their documents. S3: the number of people killed
(killing), injured (injuring) or fired (job_firing) in them, and their documents.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Mapping

from rdflib import XSD, Literal, URIRef

from kg_count.graph.incident_graph import name_key
from kg_count.graph.namespaces import KGC
from kg_count.graph.queries import read_query
from kg_count.io.answers import SystemAnswer
from kg_count.io.questions import Question
from kg_count.nlp.places import iri_coordinates, parse_city_iri, state_iri
from kg_count.progress import progress

NEAR_DAYS = 3
NEAR_KM = 30.0
SIBLING_TYPE = {"killing": "injuring", "injuring": "killing"}
COUNT_OF_TYPE = {"killing": "killed", "injuring": "injured", "job_firing": "fired", "fire_burning": None}


@dataclass
class FoundIncident:
    """An incident a query returned: its counts, date certainty and documents."""

    iri: str
    killed: int
    injured: int
    fired: int
    certainty: str
    doc_ids: list[str] = field(default_factory=list)


def question_query(fragments: tuple[str, ...], bindings: dict) -> str:
    """The answer query with the named constraint fragments and a VALUES row binding their variables."""
    names = " ".join(f"?{name}" for name in bindings)
    values = " ".join(term.n3() for term in bindings.values())
    body = "\n  ".join([f"VALUES ({names}) {{ ({values}) }}", *(read_query(f"answer/{name}") for name in fragments)])
    return read_query("answer/incidents").replace("#CONSTRAINTS", body)


def query_plan(question: Question, relax: int = 0) -> tuple[tuple[str, ...], dict] | None:
    """The constraint fragments and variable bindings that express ``question``.

    ``relax`` 1 widens the asked time by NEAR_DAYS either side and takes cities within NEAR_KM;
    2 asks for the city's state instead; 3 also asks the sibling gun-violence type. Returns None
    when a relaxation does not apply.
    """
    event_type = question.event_type
    if relax >= 3:
        if event_type not in SIBLING_TYPE:
            return None
        event_type = SIBLING_TYPE[event_type]
    fragments, bindings = [], {"eventType": KGC[event_type]}
    if question.time is not None:
        margin = dt.timedelta(days=NEAR_DAYS if relax else 0)
        fragments.append("time")
        bindings["start"] = Literal(question.time.start - margin, datatype=XSD.date)
        bindings["end"] = Literal(question.time.end + margin, datatype=XSD.date)
    if question.location is not None and question.location[1]:
        granularity, value = question.location
        city = parse_city_iri(value) if relax and granularity == "city" else None
        where = iri_coordinates(value) if city else None
        if city is not None and relax >= 2:
            fragments.append("state")
            bindings["place"] = URIRef(state_iri(city[1]))
        elif where is not None:
            fragments.append("city_near")
            dlat = NEAR_KM / 111.0
            dlong = dlat / max(math.cos(math.radians(where[0])), 0.1)
            for name, number in (("lat", where[0]), ("long", where[1]), ("dlat", dlat), ("dlong", dlong)):
                bindings[name] = Literal(number, datatype=XSD.double)
        else:
            fragments.append(granularity)
            bindings["place"] = URIRef(value)
    if question.participant is not None:
        granularity, value = question.participant
        fragments.append(granularity)
        bindings["name"] = Literal(name_key(value))
    return tuple(fragments), bindings


def find_incidents(store, question: Question, relax: int = 0) -> list[FoundIncident]:
    """Run the question's query (relaxed as ``query_plan`` says); return the incidents found, with their documents."""
    return incidents_of_plan(store, query_plan(question, relax))


def incidents_of_plan(store, plan: tuple[tuple[str, ...], dict] | None) -> list[FoundIncident]:
    """Run the query of a ``query_plan`` result; the incidents found, with their documents (none for None)."""
    if plan is None:
        return []
    fragments, bindings = plan
    found: dict[str, FoundIncident] = {}
    for row in store.query(question_query(fragments, bindings)):
        key = str(row.incident)
        if key not in found:
            found[key] = FoundIncident(key, int(row.killed), int(row.injured), int(row.fired), str(row.certainty))
        found[key].doc_ids.append(str(row.docId))
    return list(found.values())


def answer_question(store, question: Question) -> SystemAnswer:
    """Answer one question from the store's incidents."""
    plans = [query_plan(question)]
    incidents = incidents_of_plan(store, plans[0])
    if question.subtask == 1:
        for relax in (1, 2, 3):
            if incidents:
                break
            plan = query_plan(question, relax)
            if plan not in plans:  # a relaxation that changes nothing would find nothing again
                plans.append(plan)
                incidents = incidents_of_plan(store, plan)
        if not incidents:
            return SystemAnswer(None, [])
        best = max(incidents, key=lambda i: (len(i.doc_ids), i.certainty == "text", i.iri))
        return SystemAnswer(None, sorted(best.doc_ids))
    documents = sorted({doc for incident in incidents for doc in incident.doc_ids})
    if question.subtask == 2:
        return SystemAnswer(len(incidents), documents)
    status = COUNT_OF_TYPE[question.event_type]
    people = sum(getattr(incident, status) for incident in incidents) if status else 0
    return SystemAnswer(people, documents)


def answer_from_store(store, questions: Mapping[str, Question]) -> dict[str, SystemAnswer]:
    """Answer every question; return the answers by question id."""
    return {qid: answer_question(store, question)
            for qid, question in progress(questions.items(), "answering", total=len(questions), unit="q")}
