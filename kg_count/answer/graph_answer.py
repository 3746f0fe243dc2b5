"""Answer the task's questions with parameterised SPARQL over the store's incident graph.

The query is ``queries/answer/incidents.rq`` with one constraint fragment per asked property
(``time``, ``city`` or ``state``, ``first``, ``last`` or ``full_name``); question values are
bound to the fragments' variables in a VALUES row of RDF terms (serialised by rdflib, so no
question text is ever parsed as query syntax).
Every incident found gets a probability that it is a distinct real incident answering the
question: its learned confidence in the graph, with how it matches the question
(``kg_count.incidents.confidence``).
S1: the incident most probably right (then most documents) and its documents; S1 always has an
answer, so when nothing fits exactly the query is relaxed step by step (dates a few days either
side, up to a week more for an incident dated only by its reports' publication, and cities nearby;
then the city's state; then the sibling gun-violence type). S2: the most probable number of
incidents (the mode of the Poisson-binomial of their probabilities). S3: the most probable number
of people killed (killing), injured (injuring) or fired (job_firing) in them.
S2 and S3 answer with the documents of the incidents whose probability reaches the model's
document threshold.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Mapping, TYPE_CHECKING

from rdflib import XSD, Literal, URIRef

from kg_count.incidents.incident_graph import name_key
from kg_count.incidents.confidence import (
    IncidentModel,
    context_features,
    count_distribution,
    match_features,
    match_probability,
    most_probable,
    shipped_model,
)
from kg_count.graph.namespaces import KGC
from kg_count.graph.queries import read_query
from kg_count.io.answers import SystemAnswer
from kg_count.io.questions import Question
from kg_count.geography import iri_coordinates, parse_city_iri, state_iri
from kg_count.progress import progress
from kg_count.settings import settings

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore

SIBLING_TYPE = {"killing": "injuring", "injuring": "killing"}
COUNT_OF_TYPE = {"killing": "killed", "injuring": "injured", "job_firing": "fired", "fire_burning": None}


@dataclass
class FoundIncident:
    """An incident a query returned: its counts, date certainty and documents."""

    iri: str
    killed: int
    injured: int
    fired: int
    date: dt.date
    granularity: str
    certainty: str
    confidence: float
    doc_ids: list[str] = field(default_factory=list)
    roles: set[str] = field(default_factory=set)
    rows: int = 0  # documents times the people who carry an asked name

    def people(self, event_type: str) -> int:
        """How many people of the status the event type counts (0 for fires)."""
        status = COUNT_OF_TYPE[event_type]
        return getattr(self, status) if status else 0


def question_query(fragments: tuple[str, ...], bindings: dict) -> str:
    """The answer query with the named constraint fragments and a VALUES row binding their variables."""
    names = " ".join(f"?{name}" for name in bindings)
    values = " ".join(term.n3() for term in bindings.values())
    body = "\n  ".join([f"VALUES ({names}) {{ ({values}) }}", *(read_query(f"answer/{name}") for name in fragments)])
    return read_query("answer/incidents").replace("#CONSTRAINTS", body)


def query_plan(question: Question, relax: int = 0) -> tuple[tuple[str, ...], dict] | None:
    """The constraint fragments and variable bindings that express ``question``.

    ``relax`` 1 widens the asked time by ``near_days`` either side (and, for an incident dated only by its
    reports' publication, up to ``dct_days_before`` after its end) and takes cities within ``near_km``
    ([answering] settings); 2 asks for the city's state instead; 3 also asks the sibling gun-violence type. Returns None
    when a relaxation does not apply.
    """
    near = settings().answering
    event_type = question.event_type
    if relax >= 3:
        if event_type not in SIBLING_TYPE:
            return None
        event_type = SIBLING_TYPE[event_type]
    fragments, bindings = [], {"eventType": KGC[event_type]}
    if question.time is not None:
        margin = dt.timedelta(days=near.near_days if relax else 0)
        fragments.append("time_near" if relax else "time")
        bindings["start"] = Literal(question.time.start - margin, datatype=XSD.date)
        bindings["end"] = Literal(question.time.end + margin, datatype=XSD.date)
        if relax:
            dct_end = question.time.end + dt.timedelta(days=near.dct_days_before)
            bindings["dctEnd"] = Literal(dct_end, datatype=XSD.date)
    if question.location is not None and question.location[1]:
        granularity, value = question.location
        city = parse_city_iri(value) if relax and granularity == "city" else None
        where = iri_coordinates(value) if city else None
        if city is not None and relax >= 2:
            fragments.append("state")
            bindings["place"] = URIRef(state_iri(city[1]))
        elif where is not None:
            fragments.append("city_near")
            dlat = near.near_km / 111.0
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


def incidents_of_plan(store: GraphStore, plan: tuple[tuple[str, ...], dict] | None) -> list[FoundIncident]:
    """Run the query of a ``query_plan`` result; the incidents found, with their documents (none for None)."""
    if plan is None:
        return []
    fragments, bindings = plan
    found: dict[str, FoundIncident] = {}
    for row in store.query(question_query(fragments, bindings)):
        key = str(row.incident)
        if key not in found:
            found[key] = FoundIncident(
                key,
                int(row.killed),
                int(row.injured),
                int(row.fired),
                row.date.toPython(),
                str(row.granularity).rsplit("unit", 1)[-1].lower(),
                str(row.certainty),
                float(row.confidence),
            )
        incident = found[key]
        incident.rows += 1
        doc_id = str(row.docId)
        if doc_id not in incident.doc_ids:
            incident.doc_ids.append(doc_id)
        if row.role is not None:
            incident.roles.add(str(row.role).rsplit("#", 1)[-1])
    return list(found.values())


def candidate_match_features(question: Question, incidents: list[FoundIncident]) -> list[list[str]]:
    """The match features of each incident found for ``question``: how it fits, and how it sits among the others."""
    return [
        match_features(
            question,
            incident.date,
            incident.granularity,
            incident.certainty,
            incident.killed,
            incident.injured,
            incident.roles,
        )
        + context
        for incident, context in zip(incidents, context_features(incidents))
    ]


def answer_from_candidates(
    question: Question, incidents: list[FoundIncident], probabilities: list[float], model: IncidentModel
) -> SystemAnswer:
    """The answer to an S2 or S3 question from its candidate incidents, their probabilities and the model's
    document threshold and rate of incidents (people) the queries miss."""
    chosen = [i for i, p in zip(incidents, probabilities) if p >= model.threshold]
    documents = sorted({doc for incident in chosen for doc in incident.doc_ids})
    sizes = None if question.subtask == 2 else [incident.people(question.event_type) for incident in incidents]
    missed = model.missed(question.subtask, len(incidents) if sizes is None else sum(sizes))
    return SystemAnswer(most_probable(count_distribution(probabilities, sizes, missed)), documents)


def best_incident(incidents: list[FoundIncident]) -> FoundIncident:
    """S1's incident: the one with most documents (times the people who carry an asked name), then a date
    stated in the text. The probabilities are not used: ranking by them, first or to break ties, scored
    lower on held-out states (59.13 and 59.38 document F1 against 59.89)."""
    return max(incidents, key=lambda i: (i.rows, i.certainty == "text", i.iri))


def candidate_incidents(store: GraphStore, question: Question) -> list[FoundIncident]:
    """The incidents that fit ``question``; for S1, which always has an answer, the first relaxation that finds any."""
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
    return incidents


def answer_task_question(store: GraphStore, question: Question) -> SystemAnswer:
    """Answer one question from the store's incidents and the shipped incident-match model."""
    model = shipped_model()
    incidents = candidate_incidents(store, question)
    probabilities = [
        match_probability(model, incident.confidence, features)
        for incident, features in zip(incidents, candidate_match_features(question, incidents))
    ]
    if question.subtask == 1:
        return SystemAnswer(None, sorted(best_incident(incidents).doc_ids) if incidents else [])
    return answer_from_candidates(question, incidents, probabilities, model)


def answer_from_store(store: GraphStore, questions: Mapping[str, Question]) -> dict[str, SystemAnswer]:
    """Answer every question; return the answers by question id."""
    return {
        qid: answer_task_question(store, question)
        for qid, question in progress(questions.items(), "answering", total=len(questions), unit="q")
    }
