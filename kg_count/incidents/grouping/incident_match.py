"""How sure we are that a candidate incident is a distinct real incident that answers a question.

One logistic regression (``kg_count/models/incident_match.json``, a ``LinearModel`` over
named binary features) scores a candidate. Its features come in two parts:

- incident evidence (``incident_features``), read from the reports an incident rests on when the
  incident graph is built: how many documents, how sure the date is, whether the place is known,
  whether the titles read like follow-up stories (arrest, trial, funeral), how the counts look.
  The model's score on these alone is the incident's ``kgc:confidence`` in the incident graph: the
  probability that it is a distinct real incident when it matches a question cleanly.
- question match (``match_features``), read at answering time from what the query returned: how the
  incident's date sits in the asked time, how fine the asked place and time are, which role the
  person with the asked name plays, whether its counts fit the asked type.

The answer's probability for a candidate is the logistic of the confidence's log-odds plus the
weights of its match features, so the graph holds the incident part and SPARQL returns it.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
import logging
import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from kg_count.geography import city_standing_for
from kg_count.incidents.reports.follow_up import has_follow_up_title
from kg_count.learning.bins import interval_name
from kg_count.nlp.participants import PARTICIPATING_ROLES
from kg_count.learning.linear_model import LinearModel, logit
from kg_count.learning.model_files import load_shipped_model, model_path
from kg_count.settings import section_record, settings

logger = logging.getLogger(__name__)
TRAINED_SECTIONS = ("clustering", "confidence")

MODEL_PATH = model_path("incident_match")


@dataclass
class IncidentMatchModel(LinearModel):
    """The incident-match model: a LinearModel (its threshold: the document threshold), per subtask the
    mean number of gold incidents (S2) or people (S3) the queries miss per candidate found. (The prior over
    answers the S2 and S3 decisions weigh is its own model: ``kg_count.answer.answer_prior``.)"""

    missed_rate: dict[str, float] = field(default_factory=dict)

    retrain = "kg-count train incident-match"

    def to_json(self) -> dict:
        """The LinearModel's JSON with the missed rates and the settings the model was trained with
        (those in force when it is written, unless it records others)."""
        return {
            **super().to_json(),
            "missed_rate": {k: round(v, 4) for k, v in sorted(self.missed_rate.items())},
            "settings": self.trained_with or training_settings(),
        }

    @classmethod
    def from_json(cls, data: dict) -> "IncidentMatchModel":
        """The model as ``to_json`` wrote it, with its missed rates."""
        return super().from_json(data, missed_rate={k: float(v) for k, v in data.get("missed_rate", {}).items()})


def training_settings() -> dict[str, dict]:
    """The settings sections the model's training depends on (the incidents it saw), as plain dicts."""
    current = settings()
    return {name: section_record(getattr(current, name)) for name in TRAINED_SECTIONS}


def _share(part: int, whole: int) -> str:
    if part == 0:
        return "none"
    return "all" if part == whole else "some"


def incident_features(incident, reports: Sequence) -> list[str]:
    """Evidence features of one reconciled incident (``reconcile.Incident``) and its reports."""
    edges = settings().confidence
    docs = len(reports)
    features = [
        f"docs:{interval_name(docs, edges.document_edges)}",
        f"date:{incident.certainty}:{incident.granularity}",
    ]
    features.append(f"dated_docs:{_share(sum(r.certainty == 'text' for r in reports), docs)}")
    if incident.certainty == "text":
        agree = sum(r.certainty == "text" and r.date == incident.date for r in reports)
        features.append(f"date_agree:{_share(agree, docs)}")
        gap = min((r.dct - incident.date).days for r in reports)
        features.append(f"dct_gap:{interval_name(gap, edges.dct_gap_edges)}")
    follow = sum(has_follow_up_title(r.title) for r in reports)
    features.append(f"follow_up_titles:{_share(follow, docs)}")
    features.append("place:city" if incident.city_iri else "place:state" if incident.state_iri else "place:none")
    states = {r.state_iri for r in reports if r.state_iri}
    features.append(f"place_docs:{_share(sum(bool(r.state_iri) for r in reports), docs)}")
    if len(states) > 1:
        features.append("place:states_disagree")
    for name in ("killed", "injured"):
        features.append(f"{name}:{interval_name(getattr(incident, name), edges.count_edges)}")
    family = reports[0].family if reports else "none"
    features.append(f"family:{family}")
    named = [p for p in incident.people if p.role in PARTICIPATING_ROLES]
    features.append(f"named:{interval_name(len(named), edges.named_edges)}")
    if len(incident.types) > 1:
        features.append("types:several")
    return features


def match_features(
    question,
    date: dt.date,
    granularity: str,
    certainty: str,
    killed: int,
    injured: int,
    roles: Iterable[str] = (),
    took_part: float | None = None,
) -> list[str]:
    """Features of how a candidate incident fits a question (``io.questions.Question``).

    ``date``, ``granularity`` and ``certainty`` are the incident's time estimate, ``killed`` and
    ``injured`` its counts, ``roles`` the roles of its people who carry the asked name and ``took_part``
    the largest probability that one of them took part (the person-status model).
    """
    edges = settings().confidence
    features = [f"q:{question.event_type}", f"q:s{question.subtask}", f"q:{question.property_pair}"]
    if question.time is not None:
        asked = question.time
        features.append(f"q:time={asked.granularity}")
        if certainty == "dct":
            features.append(f"time:dct:{asked.granularity}")
            if (date - asked.start).days < settings().confidence.first_days:
                features.append(f"time:dct_early:{asked.granularity}")
        if granularity != "day":
            features.append(f"time:coarse:{asked.granularity}")
        elif asked.granularity != "year" and (min(date - asked.start, asked.end - date).days <= 1):
            features.append(f"time:edge:{asked.granularity}")
    if question.location is not None:
        features.append(f"q:place={question.location[0]}")
        if question.location[0] == "city" and city_standing_for(question.location[1]) != question.location[1]:
            features.append("q:place=part_of_city")
    if question.participant is not None:
        kinds = set(roles) or {"none"}
        features.append(f"q:name={question.participant[0]}")
        features.extend(f"name_role:{role}" for role in sorted(kinds))
        if kinds == {"other"}:
            features.append("name_role:only_other")
        if took_part is not None:
            features.append(f"name_took_part:{interval_name(took_part, edges.took_part_edges)}")
    if question.event_type == "killing":
        features.append(f"fit:killed:{interval_name(killed, edges.fit_count_edges)}")
    elif question.event_type == "injuring":
        injured_bin, killed_bin = (
            interval_name(injured, edges.fit_count_edges),
            interval_name(killed, edges.fit_killed_edges),
        )
        features.append(f"fit:injured:{injured_bin}:killed:{killed_bin}")
    return features


def context_features(candidates: Sequence) -> list[list[str]]:
    """Features of each candidate among all candidates of one question: how many there are
    (broad questions gather more false incidents)."""
    edges = settings().confidence
    size = f"context:candidates:{interval_name(len(candidates), edges.candidate_edges)}"
    return [[size] for _ in candidates]


def twin_features(incidents: Sequence, families: Sequence[str]) -> list[list[str]]:
    """For each incident (``reconcile.Incident``, of kind ``families[i]``): whether a larger incident of its
    kind in the same city lies within a day or a week of it (a piece of one incident split off, or a
    follow-up story dated later). Each incident is compared with those of its city dated within a week of it."""
    by_city: dict[tuple, list[int]] = {}
    for n, incident in enumerate(incidents):
        if incident.city_iri:
            by_city.setdefault((families[n], incident.city_iri), []).append(n)
    found: list[list[str]] = [[] for _ in incidents]
    for members in by_city.values():
        members.sort(key=lambda m: incidents[m].date)
        days = [incidents[m].date.toordinal() for m in members]
        ranks = [(len(incidents[m].doc_ids), incidents[m].incident_id) for m in members]
        for k, n in enumerate(members):
            week = range(bisect_left(days, days[k] - 7), bisect_right(days, days[k] + 7))
            gaps = [abs(days[j] - days[k]) for j in week if j != k and ranks[j] > ranks[k]]
            if any(gap <= 1 for gap in gaps):
                found[n].append("twin:larger_within_day")
            elif gaps:
                found[n].append("twin:larger_within_week")
    return found


def match_probability(model: LinearModel, confidence: float, features: Iterable[str]) -> float:
    """The probability that a candidate answers the question: its incident confidence and its match features."""
    score = logit(confidence) + sum(model.weights.get(f, 0.0) for f in features)
    return 1.0 / (1.0 + math.exp(-max(-35.0, min(35.0, score))))


def shipped_model() -> IncidentMatchModel:
    """The incident-match model shipped with the package (``kg_count/models/incident_match.json``), read by the
    one model loader, which warns when it was trained with other settings than those in force."""
    return load_shipped_model("incident_match", IncidentMatchModel.from_json)
