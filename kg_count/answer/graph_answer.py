"""Answer the task's questions with parameterised SPARQL over the store's incident graph.

The query is ``queries/answer/incidents.rq`` with one constraint fragment per asked property
(``time``, ``city`` or ``state``, ``first``, ``last`` or ``full_name``); question values are
bound to the fragments' variables in a VALUES row of RDF terms (serialised by rdflib, so no
question text is ever parsed as query syntax).
Every incident found gets a probability that it is a distinct real incident answering the
question: its learned confidence in the graph, with how it matches the question
(``kg_count.incidents.grouping.incident_match``).
S1: the incident most probably right (then most documents) and its documents; S1 always has an
answer, so when nothing fits exactly the query is relaxed step by step (dates a few days either
side, up to a week more for an incident dated only by its reports' publication, cities nearby and names
carried by bystanders too; then a city of the same name in another state and the last name of an asked
full name; then the city's state; then the
sibling gun-violence type; then without the asked place, then without the asked time) and the incident
nearest to what was asked is taken. S2: the number of incidents that the likelihood (the
Poisson-binomial of their probabilities) and the learned prior over answers make likeliest
(``answer.answer_prior``; ``answer_prior=False``: the likelihood's mode). S3: the same for the number of
people killed (killing), injured (injuring) or fired (job_firing) in them; a question that names someone
counts the people who carry the name with that status.
S2 and S3 answer with the documents of the incidents whose probability reaches the model's
document threshold.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field, replace
from typing import Mapping, TYPE_CHECKING

from geopy.distance import geodesic
from rdflib import XSD, Literal, URIRef

from kg_count.incidents.store.answer_facts import IncidentFacts, PersonFacts
from kg_count.incidents.store.incident_graph import name_key
from kg_count.incidents.store.incident_versions import incident_sparql
from kg_count.answer.answer_prior import AnswerPrior, shipped_answer_prior
from kg_count.answer.count_distribution import count_distribution, most_probable
from kg_count.incidents.grouping.incident_match import (
    IncidentMatchModel,
    context_features,
    match_features,
    match_probability,
    shipped_model,
)
from kg_count.graph.namespaces import KGC
from kg_count.graph.queries import read_query
from kg_count.io.answers import SystemAnswer
from kg_count.io.questions import Question
from kg_count.nlp.participants import PARTICIPATING_ROLES
from kg_count.geography import asked_city, city_standing_for, gazetteer, iri_coordinates, state_iri
from kg_count.task import DBPEDIA_PREFIX
from kg_count.progress import progress
from kg_count.settings import settings

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore

SIBLING_TYPE = {"killing": "injuring", "injuring": "killing"}
COUNT_OF_TYPE = {"killing": "killed", "injuring": "injured", "job_firing": "fired", "fire_burning": None}


def counts_named_people(question: Question) -> bool:
    """Whether the question counts the people who carry its name ("how many people named X were killed":
    an S3 participant question), not everyone of the incident."""
    return question.subtask == 3 and question.participant is not None


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
    # each person who carries an asked name: P(took part), P(killed), P(injured) (the person-status model)
    named: dict[str, dict[str, float]] = field(default_factory=dict)
    rows: int = 0  # documents times the people who carry an asked name
    city: str | None = None
    state: str | None = None
    relax: int = 0  # the relaxation of the question's query that found it (query_plan)

    def people(self, question: Question) -> int:
        """How many people of the status the question's event type counts (0 for fires): the incident's
        count, or for a question that counts the named people (``counts_named_people``) the expected
        number of them with that status, rounded."""
        status = COUNT_OF_TYPE[question.event_type]
        if not status:
            return 0
        if counts_named_people(question):
            return round(sum(p.get(status, 0.0) for p in self.named.values()))
        return getattr(self, status)

    def count_units(self, question: Question, probability: float) -> list[tuple[float, int]]:
        """What the incident adds to an S2 or S3 count, as (probability, size) pairs, given ``probability``
        that it answers the question: itself with its size (1 for S2, its people for S3), or for a question
        that counts the named people each of them, with the probability that they have the asked status if they
        took part (the question asks about someone who took part; whether this incident is theirs is in
        ``probability``)."""
        if question.subtask == 2:
            return [(probability, 1)]
        status = COUNT_OF_TYPE[question.event_type]
        if status and counts_named_people(question):
            return [(probability * p.get(status, 0.0), 1) for p in self.named.values()]
        return [(probability, self.people(question))]


def values_rows(bindings: dict) -> str:
    """A VALUES block binding each variable of ``bindings`` to its RDF term, in one row; a variable bound to a
    tuple of terms (at most one) gives a row for each of them."""
    names = " ".join(f"?{name}" for name in bindings)
    alternatives = next((terms for terms in bindings.values() if isinstance(terms, tuple)), (None,))
    rows = [
        " ".join((choice if isinstance(term, tuple) else term).n3() for term in bindings.values())
        for choice in alternatives
    ]
    return f"VALUES ({names}) {{ {' '.join(f'({row})' for row in rows)} }}"


def question_query(fragments: tuple[str, ...], bindings: dict) -> str:
    """The answer query with the named constraint fragments and a VALUES block binding their variables
    (``values_rows``); the ``places`` fragment, which S1 asks for, goes at the end and reads each incident's city
    and state."""
    constraints = [read_query(f"answer/{name}") for name in fragments if name != "places"]
    body = "\n  ".join([values_rows(bindings), *constraints])
    places = read_query("answer/places") if "places" in fragments else ""
    return read_query("answer/incidents").replace("#CONSTRAINTS", body).replace("#PLACES", places)


RELAXATIONS = 6  # S1's relaxation steps after the exact query (see query_plan)
LOOSENING_RELAXATIONS = 4  # the steps up to this one still ask every asked property, loosened; later ones drop one


def _place_constraint(location: tuple[str, str], relax: int, fragments: list, bindings: dict) -> bool:
    """Add the asked place's fragment and bindings at relaxation ``relax`` (see ``query_plan``); return whether
    relaxation 2 loosened it (a city of the asked name in any state)."""
    granularity, value = location
    near = settings().answering
    loosened = False
    city = asked_city(value) if relax and granularity == "city" else None
    if relax == 2 and granularity == "city":
        loosened = True
        fragments.append("city_named")
        title = value.removeprefix(DBPEDIA_PREFIX).split(",_", 1)[0]
        bindings["cityPrefix"] = Literal(f"{DBPEDIA_PREFIX}{title},_")
    elif city is not None and relax >= 3:
        fragments.append("state")
        bindings["place"] = URIRef(state_iri(city[1]))
    elif city is not None:
        where = gazetteer().coordinates[city]
        fragments.append("city_near")
        dlat = near.near_km / 111.0
        dlong = dlat / max(math.cos(math.radians(where[0])), 0.1)
        for name, number in (("lat", where[0]), ("long", where[1]), ("dlat", dlat), ("dlong", dlong)):
            bindings[name] = Literal(number, datatype=XSD.double)
    else:
        fragments.append(granularity)
        bindings["place"] = URIRef(city_standing_for(value) if granularity == "city" else value)
    return loosened


def _time_constraint(asked, relax: int, fragments: list, bindings: dict) -> None:
    """Add the asked time's fragment and bindings at relaxation ``relax`` (see ``query_plan``): a range of dates
    (widened when relaxed)."""
    near = settings().answering
    margin = dt.timedelta(days=near.near_days if relax else 0)
    fragments.append("time_near" if relax else "time")
    bindings["start"] = Literal((asked.start - margin).isoformat())  # compared as text: time.rq
    bindings["end"] = Literal((asked.end + margin).isoformat())
    if relax:
        bindings["dctEnd"] = Literal((asked.end + dt.timedelta(days=near.dct_days_before)).isoformat())


def query_plan(question: Question, relax: int = 0) -> tuple[tuple[str, ...], dict] | None:
    """The constraint fragments and variable bindings that express ``question``.

    ``relax`` 1 widens the asked time by ``near_days`` either side (and, for an incident dated only by its
    reports' publication, up to ``dct_days_before`` after its end), takes cities within ``near_km`` of the asked
    one (a part of a city stands for the city: ``geography.asked_city``) and lets an asked name be carried by
    anyone named, bystanders too ([answering] settings); 2 also takes a city of the asked name in any state (a
    city name may have been put in the wrong state) and a full name's last word alone; 3 asks for the asked
    city's state instead; 4 also asks the sibling gun-violence type; 5 drops the asked place and 6 the asked time
    (each otherwise as 1; S1 then prefers the incident nearest to what was asked: ``best_incident``). Returns
    None when a relaxation does not apply. The place is the question's as read with its text
    (``Question.place``): a question about no US state asks for incidents without one, and the exact query of a
    part of a city ("Chicago (Englewood)") asks for incidents in the part or in the city with a report naming it.
    """
    if relax == 5:
        return query_plan(replace(question, location=None), 1) if question.location is not None else None
    if relax == 6:
        return query_plan(replace(question, time=None), 1) if question.time is not None else None
    event_type = question.event_type
    if relax >= 4:
        if event_type not in SIBLING_TYPE:
            return None
        event_type = SIBLING_TYPE[event_type]
    fragments, bindings, loosened = [], {"eventType": KGC[event_type]}, False
    if question.time is not None:
        _time_constraint(question.time, relax, fragments, bindings)
    if question.location is not None and question.place is not None and question.place.no_state:
        fragments.append("no_state")
    elif question.location is not None and question.location[1]:
        loosened = _place_constraint(question.location, relax, fragments, bindings)
        if not relax and question.place is not None and question.place.part:
            fragments[-1] = "city_part"
            bindings["part"] = Literal(question.place.part)
            part_place = (URIRef(question.place.part_iri),) if question.place.part_iri else ()
            bindings["partCity"] = (bindings["place"], *part_place)
    if question.participant is not None:
        granularity, value = question.participant
        if relax == 2 and granularity == "full_name" and len(value.split()) > 1:
            loosened = True
            granularity, value = "last", value.split()[-1]
        fragments.append(granularity)
        if not relax:
            fragments.append("not_bystander")
        bindings["name"] = Literal(name_key(value))
    if relax == 2 and not loosened:
        return None
    if question.subtask == 1:
        fragments.append("places")
    return tuple(fragments), bindings


def incidents_of_plan(store: GraphStore, plan: tuple[tuple[str, ...], dict] | None) -> list[FoundIncident]:
    """Run the query of a ``query_plan`` result; the incidents found, with their documents (none for None), in
    the order of their IRIs (not the engine's order of rows, which S1's last tie-break would otherwise read)."""
    if plan is None:
        return []
    fragments, bindings = plan
    found: dict[str, FoundIncident] = {}
    for row in store.records(incident_sparql(store, question_query(fragments, bindings))):
        key = row["incident"]
        if key not in found:
            facts = IncidentFacts.read(row["facts"])
            found[key] = FoundIncident(
                key,
                facts.killed,
                facts.injured,
                facts.fired,
                facts.date,
                facts.granularity,
                facts.certainty,
                facts.confidence,
                city=row.get("city"),
                state=row.get("state"),
                doc_ids=list(facts.doc_ids),
            )
        incident = found[key]
        incident.rows += len(incident.doc_ids)
        if row.get("personFacts") is not None:
            person = PersonFacts.read(row["personFacts"])
            incident.roles.add(person.role)
            incident.named[row["person"]] = person.probabilities()
    if "city_part" in fragments:
        found = _in_the_part(store, found, bindings)
    return [found[key] for key in sorted(found)]


def _in_the_part(store: GraphStore, found: dict[str, FoundIncident], bindings: dict) -> dict[str, FoundIncident]:
    """The incidents of ``found`` (by IRI) that lie in the asked part of a city: those not in the city itself
    (``city_part`` took them for lying in the part as a place of its own) and those in the city with a report
    that names the part (``part_named``)."""
    if not found:
        return found
    rows = " ".join(f"({URIRef(key).n3()} {bindings['place'].n3()} {bindings['part'].n3()})" for key in found)
    query = read_query("answer/part_named").replace("#VALUES", f"VALUES (?incident ?place ?part) {{ {rows} }}")
    naming = {row["incident"]: int(row["naming"]) for row in store.records(incident_sparql(store, query))}
    return {key: incident for key, incident in found.items() if naming.get(key, 1) > 0}


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
            max((p["participant"] for p in incident.named.values()), default=None),
        )
        + context
        for incident, context in zip(incidents, context_features(incidents))
    ]


def count_likelihood(
    question: Question, incidents: list[FoundIncident], probabilities: list[float], missed_rate: float
) -> list[float]:
    """The distribution of an S2 or S3 question's count: what each incident adds (``FoundIncident.count_units``)
    and a Poisson of ``missed_rate`` times the incidents (S2) or people (S3) found."""
    units = [unit for incident, p in zip(incidents, probabilities) for unit in incident.count_units(question, p)]
    found = len(incidents) if question.subtask == 2 else sum(incident.people(question) for incident in incidents)
    return count_distribution([p for p, _ in units], [size for _, size in units], missed_rate * found)


def answer_from_candidates(
    question: Question,
    incidents: list[FoundIncident],
    probabilities: list[float],
    model: IncidentMatchModel,
    prior: AnswerPrior | None,
) -> SystemAnswer:
    """The answer to an S2 or S3 question from its candidate incidents, their probabilities and the model's
    document threshold and rate of incidents (people) the queries miss: the count the likelihood and ``prior``, the
    prior over answers, make likeliest (``prior`` None: the likelihood alone)."""
    chosen = [i for i, p in zip(incidents, probabilities) if p >= model.threshold]
    documents = sorted({doc for incident in chosen for doc in incident.doc_ids})
    likelihood = count_likelihood(question, incidents, probabilities, model.missed_rate.get(str(question.subtask), 0.0))
    count = prior.decide(question, likelihood) if prior is not None else most_probable(likelihood)
    return SystemAnswer(count, documents)


def days_off(question: Question, incident: FoundIncident) -> int:
    """How many days the incident's date lies outside the asked time (0 inside it, or when no time is asked)."""
    if question.time is None:
        return 0
    return max((question.time.start - incident.date).days, (incident.date - question.time.end).days, 0)


def place_step(question: Question, incident: FoundIncident) -> int:
    """How far the incident lies from the asked place, in steps of [answering] ``same_area_km``, ``region_km``
    and ``far_km`` (0 within the first; 3 beyond the last, or unplaced). For an asked state: 0 inside it, else 3.
    0 when no place is asked."""
    if question.place is not None and question.place.no_state and question.location is not None:
        return 3 if incident.state else 0
    if question.location is None or not question.location[1]:
        return 0
    granularity, value = question.location
    if granularity == "state":
        return 0 if incident.state == value else 3
    asked = asked_city(value)
    found = iri_coordinates(incident.city) if incident.city else None
    if asked is None or found is None:
        return 0 if incident.city == value else 3
    km = geodesic(gazetteer().coordinates[asked], found).km
    steps = settings().answering
    return sum(km > limit for limit in (steps.same_area_km, steps.region_km, steps.far_km))


def best_incident(question: Question, incidents: list[FoundIncident]) -> FoundIncident:
    """S1's incident: the one nearest the asked time (``days_off``), then nearest the asked place
    (``place_step``), then one where a victim or suspect carries the asked name, then the one with most
    documents (times the people who carry an asked name), then the most confident. The order was chosen on
    two of the five held-out state folds (README, "The graph system, cross-validated by state")."""
    return max(
        incidents,
        key=lambda i: (
            -days_off(question, i),
            -place_step(question, i),
            not i.roles.isdisjoint(PARTICIPATING_ROLES),
            i.rows,
            i.confidence,
        ),
    )


def candidate_incidents(store: GraphStore, question: Question) -> list[FoundIncident]:
    """The incidents that fit ``question``; for S1, which always has an answer, the first relaxation that finds any."""
    plans = [query_plan(question)]
    incidents = incidents_of_plan(store, plans[0])
    if question.subtask == 1:
        for relax in range(1, RELAXATIONS + 1):
            if incidents:
                break
            plan = query_plan(question, relax)
            if plan not in plans:  # a relaxation that changes nothing would find nothing again
                plans.append(plan)
                incidents = incidents_of_plan(store, plan)
                for incident in incidents:
                    incident.relax = relax
    return incidents


def answer_task_question(store: GraphStore, question: Question, answer_prior: bool = True) -> SystemAnswer:
    """Answer one question from the store's incidents, the shipped incident-match model and the shipped answer
    prior (unless ``answer_prior`` is False)."""
    model = shipped_model()
    incidents = candidate_incidents(store, question)
    probabilities = [
        match_probability(model, incident.confidence, features)
        for incident, features in zip(incidents, candidate_match_features(question, incidents))
    ]
    if question.subtask == 1:
        return SystemAnswer(None, sorted(best_incident(question, incidents).doc_ids) if incidents else [])
    prior = shipped_answer_prior() if answer_prior else None
    return answer_from_candidates(question, incidents, probabilities, model, prior)


def answer_from_store(
    store: GraphStore, questions: Mapping[str, Question], answer_prior: bool = True
) -> dict[str, SystemAnswer]:
    """Answer every question (with the learned answer prior unless ``answer_prior`` is False); return the
    answers by question id."""
    return {
        qid: answer_task_question(store, question, answer_prior)
        for qid, question in progress(questions.items(), "answering", total=len(questions), unit="q")
    }
