"""The learned extraction models and how they choose a document's incident date, place and counts.

``kg_count/models/extraction.json`` holds one logistic model (kg_count.learning.linear_model) per
slot: ``follow_up`` scores whether the document reports a later event (arrest, trial, funeral, ...),
``date``, ``state``, ``city``, ``killed`` and ``injured`` score each candidate value of a document
(kg_count.nlp.*_candidates) as the incident's; the best-scored candidate is kept. The follow-up
probability is a feature of the date candidates, so a follow-up's own date is not taken for the
incident's. ``kg-count train extraction`` retrains the file from gva-train.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Sequence

from kg_count.geography import gazetteer, is_county, postal_city, sole_city
from kg_count.learning.linear_model import LinearModel
from kg_count.learning.model_files import load_shipped_model
from kg_count.nlp.candidate_features import ValueCandidate
from kg_count.nlp.count_candidates import HARM_EVIDENCE
from kg_count.nlp.place_candidates import PlaceCandidates, city_in_state_features
from kg_count.nlp.places import Place
from kg_count.nlp.times import IncidentDate
from kg_count.settings import settings

logger = logging.getLogger(__name__)

SLOTS = ("follow_up", "date", "state", "city", "killed", "injured")
COUNT_ANCHOR = "value:"
TRAINED_WITH = ("ranker_l2", "follow_up_days", "dct_candidate_days")  # the [extraction] settings a model depends on
CROSSED = (
    "before_dct",
    "dct-",
    "earliest",
    "latest",
    "rule",
    "kind:",
    "unstated",
    "first_stated",
    "in_title",
    "coarse",
)


@dataclass
class DocumentCandidates:
    """Everything the models choose from for one document: follow-up features, candidate dates, places
    and counts, and the rule's date (kept when the text states no day)."""

    follow_up: set[str]
    dates: list[ValueCandidate]
    places: PlaceCandidates
    killed: list[ValueCandidate]
    injured: list[ValueCandidate]
    rule_date: IncidentDate


@dataclass(frozen=True)
class Choice:
    """What the models chose for a document."""

    date: IncidentDate
    place: Place | None
    killed: int
    injured: int
    follow_up: float


@dataclass(frozen=True)
class ExtractionModels:
    """One LinearModel per slot of SLOTS, and the settings they were trained with."""

    models: dict[str, LinearModel]
    trained_with: dict

    def to_json(self) -> dict:
        """Every slot's model and the settings they were trained with, as a JSON object."""
        return {"models": {slot: self.models[slot].to_json() for slot in SLOTS}, "trained_with": self.trained_with}

    @classmethod
    def from_json(cls, data: dict) -> "ExtractionModels":
        """The models as ``to_json`` wrote them."""
        return cls({slot: LinearModel.from_json(data["models"][slot]) for slot in SLOTS}, dict(data["trained_with"]))


def shipped_extraction_models() -> ExtractionModels:
    """The extraction models shipped with the package (``kg_count/models/extraction.json``), read by the one
    model loader (``kg_count.learning.model_files``), which warns when they were trained with other settings."""
    return load_shipped_model("extraction", ExtractionModels.from_json)


def follow_up_band(probability: float) -> str:
    """The band of a follow-up probability that date candidates are crossed with."""
    bands = settings().extraction
    return (
        "fu:high"
        if probability >= bands.follow_up_high
        else "fu:mid"
        if probability >= bands.follow_up_mid
        else "fu:low"
    )


def count_candidate_features(candidate: ValueCandidate) -> set[str]:
    """A count candidate's features, each also paired with its value's bucket."""
    return with_pairs(candidate.features, COUNT_ANCHOR)


def date_features(candidate: ValueCandidate, follow_up: float) -> set[str]:
    """A date candidate's features with the follow-up band crossed with those about its position."""
    band = follow_up_band(follow_up)
    crossed = {f"{band}&{f}" for f in candidate.features if f.startswith(CROSSED)}
    return candidate.features | crossed | {band}


def with_pairs(features: set[str], anchor: str) -> set[str]:
    """``features`` and each feature starting with ``anchor`` paired with every other one, so that a linear
    model can weigh a feature differently by the anchor's value (a count stated in the title, say)."""
    anchors = [f for f in features if f.startswith(anchor)]
    return features | {f"{a}&{f}" for a in anchors for f in features if not f.startswith(anchor)}


def best(
    model: LinearModel,
    candidates: Sequence[ValueCandidate],
    features: Callable[[ValueCandidate], set[str]] = lambda c: c.features,
) -> ValueCandidate | None:
    """The candidate ``model`` scores highest (the first on ties); None when there are none."""
    scored = [(model.logit(features(c)), -n, c) for n, c in enumerate(candidates)]
    return max(scored, key=lambda item: item[:2])[2] if scored else None


def _found_by(city: ValueCandidate | None) -> str:
    """How the chosen place was found, in the words of the record's ``place_found_by``."""
    if city is None:
        return "named state"
    if city.features & {"dateline", "sentence_dateline"}:
        return "dateline"
    return "city, state" if "pair" in city.features else "named place"


def towns_in_county(cities: Sequence[ValueCandidate], county: str, state: str) -> list[ValueCandidate]:
    """The candidate towns (no county) that the gazetteer files in ``county`` of ``state``: where a story names its
    county ("PIKE COUNTY , Miss.") and a town of it ("near Magnolia"), the archive files the incident under the town
    (12 of the 1,786 trial and test-dev documents with a record are filed under a county)."""
    counties = gazetteer().counties
    return [
        c for c in cities if not is_county(c.value) and county.lower() in counties.get((c.value.lower(), state), set())
    ]


def choose_city(model: LinearModel, cities: Sequence[ValueCandidate], state: str | None) -> ValueCandidate | None:
    """The city candidate ``model`` scores highest in ``state``; when that is a county and the text names a town the
    gazetteer files in it (``towns_in_county``), the best of those towns."""

    def features(candidate: ValueCandidate) -> set[str]:
        return candidate.features | city_in_state_features(candidate.value, state)

    city = best(model, cities, features)
    if city is None or state is None or not is_county(city.value):
        return city
    return best(model, towns_in_county(cities, city.value, state), features) or city


def choose(models: ExtractionModels, candidates: DocumentCandidates) -> Choice:
    """Choose a document's incident date, place and counts from its candidates."""
    m = models.models
    follow_up = m["follow_up"].probability(candidates.follow_up)
    chosen = best(m["date"], candidates.dates, lambda c: date_features(c, follow_up))
    if "stated" in chosen.features:
        date = IncidentDate(chosen.value, "day", "text")
    elif "coarse" in chosen.features:
        date = candidates.rule_date
    else:
        date = IncidentDate(chosen.value, "day", "dct")
    state = best(m["state"], candidates.places.states)
    state_code = state.value if state else None
    city = choose_city(m["city"], candidates.places.cities, state_code)
    place = None
    if city is not None and state_code is not None and state_code not in gazetteer().states_of(city.value):
        city = None
    if state_code:
        city_name = postal_city(city.value, state_code) if city else sole_city(state_code)
        place = Place(city_name, state_code, _found_by(city))
    killed, injured = choose_counts(m["killed"], m["injured"], candidates.killed, candidates.injured)
    return Choice(date, place, killed, injured, follow_up)


def choose_counts(
    killed_model: LinearModel,
    injured_model: LinearModel,
    killed: Sequence[ValueCandidate],
    injured: Sequence[ValueCandidate],
) -> tuple[int, int]:
    """The killed and injured counts the models score highest, chosen together: when both would be zero but the
    text states someone harmed and [extraction] someone_harmed is on, the best injured candidate above zero that a
    statement, the rule or the people shot support is taken instead: someone shot whose death the text does not
    state is injured. (An incident with no one killed or injured is 2 of gva-train's 1,001 and none of the task's;
    a killed candidate that only the rule supports was right for 1 of the 3 task documents it would have changed.)"""
    best_killed = best(killed_model, killed, count_candidate_features)
    best_injured = best(injured_model, injured, count_candidate_features)
    counts = (best_killed.value if best_killed else 0, best_injured.value if best_injured else 0)
    if any(counts) or not settings().extraction.someone_harmed:
        return counts
    supported = [c for c in injured if c.value > 0 and c.features & HARM_EVIDENCE]
    if supported:
        return 0, best(injured_model, supported, count_candidate_features).value
    return counts
