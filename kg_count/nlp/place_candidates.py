"""Candidate states and cities of a document: every state named or implied by a place, every place name
of the dateline, of "City , State" phrases and of the text, with features of where they stand."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kg_count.geography import gazetteer, is_county, resolve_state
from kg_count.nlp.features import Candidate, bucket, count_features, merge
from kg_count.nlp.places import Place, city_state_mentions, dateline, place_names, state_mentions

SENTENCE_BOUNDS = (0, 1, 2, 4, 8)
DATELINE_WORDS = 40


@dataclass
class PlaceCandidates:
    """The state candidates (values: postal codes) and city candidates (values: names) of a document."""

    states: list[Candidate]
    cities: list[Candidate]


def _sentence_numbers(doc) -> list[int]:
    numbers = []
    for n, sentence in enumerate(doc.sents):
        numbers.extend([n] * len(sentence))
    return numbers


def _city_name(name: str) -> str:
    return name.title() if name.isupper() else name


def _where(prefix: str, index: int, body_start: int, sentence: list[int]) -> set[str]:
    if index < body_start:
        return {f"{prefix}:title"}
    return {f"{prefix}:sentence{bucket(sentence[index], SENTENCE_BOUNDS)}"}


def place_candidates(doc, body_start: int, rule: Place | None) -> PlaceCandidates:
    """The candidates of a spaCy doc whose body starts at token ``body_start``; ``rule`` is the place the
    hand-written order of evidence chose (kg_count.nlp.places.find_place), a feature of its values."""
    words = [t.text for t in doc]
    sentence = _sentence_numbers(doc)
    states: dict = {}
    cities: dict = {}
    mentioned = state_mentions(words)
    votes = Counter(code for code, _ in mentioned)
    for code, index in mentioned:
        merge(states, code, _where("named", index, body_start, sentence))
    if mentioned:
        merge(states, mentioned[0][0], {"first_named"})
        top = max(votes.values())
        for code, number in votes.items():
            merge(states, code, count_features("named", number) | ({"most_named"} if number == top else set()))
    found = dateline(words[body_start:body_start + DATELINE_WORDS])
    if found and found.city:
        merge(cities, _city_name(found.city), {"dateline", "dateline_state" if found.state else "dateline_bare"})
        if found.state:
            merge(states, found.state, {"dateline_state"})
        else:
            resolved = resolve_state(found.city, votes)
            if resolved:
                merge(states, resolved, {"dateline_city_state"})
    pairs = city_state_mentions(words)
    pair_counts = Counter((city, state) for city, state, _ in pairs)
    for city, state, index in pairs:
        merge(cities, _city_name(city), {"pair"} | _where("pair", index, body_start, sentence))
        merge(states, state, {"pair"} | _where("pair", index, body_start, sentence))
    for (city, state), number in pair_counts.items():
        merge(cities, _city_name(city), count_features("pair", number))
    named = Counter()
    for name, start in place_names(doc):
        city = _city_name(name)
        named[city] += 1
        merge(cities, city, {"place"} | _where("place", start, body_start, sentence))
        resolved = resolve_state(city, votes)
        if resolved:
            merge(states, resolved, {"place_state"} | _where("place_state", start, body_start, sentence))
    for city, number in named.items():
        merge(cities, city, count_features("place", number))
    if rule is not None:
        if rule.state:
            merge(states, rule.state, {"rule"})
        if rule.city:
            merge(cities, _city_name(rule.city), {"rule"})
    for city, candidate in cities.items():
        if is_county(city):
            candidate.features.add("county")
    return PlaceCandidates(list(states.values()), list(cities.values()))


def city_in_state_features(city: str, state: str | None) -> set[str]:
    """Features of a city candidate given the chosen state: whether the gazetteer has it there, in how
    many states it has it, and its population bucket there."""
    g = gazetteer()
    states = g.states_of(city)
    features = {f"states:{bucket(len(states), (0, 1, 3, 10))}"}
    if state is None:
        return features | {"no_state"}
    if state in states:
        population = g.population.get((city.lower(), state), 0)
        features |= {"in_state", f"population:{bucket(population, (0, 10000, 100000, 1000000))}"}
    else:
        features.add("not_in_state")
    return features
