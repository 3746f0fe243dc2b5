"""ValueCandidate states and cities of a document: every state named or implied by a place, by a broadcast
station the text names or by the area code of a telephone number it gives, every place name of the dateline, of
"City , State" phrases and of the text, with features of where they stand."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from kg_count.learning.bins import interval_name
from kg_count.nlp.bylines import byline_start
from kg_count.geography import flat_km, gazetteer, is_county, resolve_state
from kg_count.nlp.candidate_features import ValueCandidate, mention_count_features, merge
from kg_count.nlp.places import (
    AGENCY_WORDS,
    INCIDENT_NOUNS,
    PLACE_PREPOSITIONS,
    Place,
    city_state_mentions,
    dateline,
    find_place,
    full_saint,
    in_common_use,
    is_common_word,
    is_street_word,
    shares_a_street_word,
    known_place,
    neighbourhood_names,
    place_names,
    place_words,
    state_mentions,
    unknown_town_dateline,
)
from kg_count.nlp.phone_areas import phone_state_features
from kg_count.nlp.stations import call_signs, shipped_station_table, station_state_features
from kg_count.settings import settings

SENTENCE_BOUNDS = (0, 1, 2, 4, 8)
ABBREVIATIONS = {"Twp": "Township", "Twp.": "Township", "Ft.": "Fort", "Mt.": "Mount"}
CITY_SOURCES = {"dateline", "pair", "place", "loose", "rule"}
POPULATION_BOUNDS = (0, 10000, 100000)
COLOCATED_SOURCES = {"dateline", "sentence_dateline", "pair", "place"}
NEAR_KM = 40.0  # two named places of one state this close lie in one metro area or county


@dataclass
class PlaceCandidates:
    """The state candidates (values: postal codes) and city candidates (values: names) of a document, and
    the place the hand-written rules choose."""

    states: list[ValueCandidate]
    cities: list[ValueCandidate]
    rule: Place | None


def _sentence_numbers(doc) -> list[int]:
    numbers = []
    for n, sentence in enumerate(doc.sents):
        numbers.extend([n] * len(sentence))
    return numbers


def _city_name(name: str) -> str:
    """A place name as candidates are kept: title case when written in capitals, abbreviations spelled out."""
    words = (name.title() if name.isupper() else name).split()
    return " ".join(ABBREVIATIONS.get(w, w) for w in words)


def _where(
    prefix: str, index: int, body_start: int, byline: int, sentence: list[int], event_sentences: set[int] = frozenset()
) -> set[str]:
    """Where a mention at token ``index`` stands: the title, the title's publisher byline (from token ``byline``:
    ``bylines.byline_start``) or a sentence bound_name, and whether its sentence mentions a typed event."""
    if index < body_start:
        where = "byline" if index >= byline else "title"
    else:
        where = f"sentence{interval_name(sentence[index], SENTENCE_BOUNDS, closed='above')}"
    found = {f"{prefix}:{where}"}
    if sentence[index] in event_sentences:
        found.add(f"{prefix}:event_sentence")
    return found


def _add_datelines(
    doc, words: list[str], body_start: int, votes: Counter, cities: dict, states: dict
) -> dict[str, set[str]]:
    """Merge the city and state of the dateline opening the body, and of those opening its first sentences;
    return the states those datelines write their cities with (city -> states)."""
    limits = settings().extraction
    stated: dict[str, set[str]] = {}
    found = dateline(words[body_start : body_start + limits.dateline_words])
    if found and found.city:
        merge(cities, _city_name(found.city), {"dateline", "dateline_state" if found.state else "dateline_bare"})
        if found.state:
            merge(states, found.state, {"dateline_state"})
            stated.setdefault(_city_name(found.city), set()).add(found.state)
        else:
            resolved = resolve_state(found.city, votes)
            if resolved:
                merge(states, resolved, {"dateline_city_state"})
    elif (unknown := unknown_town_dateline(words[body_start : body_start + limits.dateline_words])) is not None:
        town, state = unknown  # "HOWLAND , Ohio ( WKBN ) –": the state stands, the town's namesakes do not
        merge(states, state, {"dateline_state"})
        stated.setdefault(town, set()).add(state)
    for n, start in enumerate(s.start for s in doc[body_start:].sents if body_start < len(doc)):
        if n >= limits.dateline_sentences:
            break
        late = dateline(words[start : start + limits.dateline_sentence_words])
        if late and late.city:
            where = {"sentence_dateline", f"sentence_dateline:{interval_name(n, (0, 2, 5), closed='above')}"}
            merge(cities, _city_name(late.city), where)
            resolved = late.state or resolve_state(late.city, votes)
            if resolved:
                merge(states, resolved, where)
            if late.state:
                stated.setdefault(_city_name(late.city), set()).add(late.state)
    return stated


def _add_pairs(
    words: list[str], body_start: int, byline: int, sentence: list[int], cities: dict, states: dict, stated: dict
) -> None:
    """Merge the city and state of every "City , State" phrase, and add the states those outside the byline write
    their cities with to ``stated`` (city -> states)."""
    pairs = city_state_mentions(words)
    for city, state, index in pairs:
        where = _where("pair", index, body_start, byline, sentence)
        merge(cities, _city_name(city), {"pair"} | where)
        merge(states, state, {"pair"} | where)
        if not byline <= index < body_start:
            stated.setdefault(_city_name(city), set()).add(state)
    for (city, state), number in Counter((city, state) for city, state, _ in pairs).items():
        merge(cities, _city_name(city), mention_count_features("pair", number))


def _add_implied_states(cities: dict, states: dict, named: Counter, loose: Counter, stated: dict) -> None:
    """Merge the states each candidate city may be in (with its population there and how strongly the text
    names it), and give every state how many candidate cities the gazetteer has in it. A city the text writes
    with its state ("Madison , Ala.", a dateline's "JACKSON , Tenn."; ``stated``: city -> those states) implies
    only those states, not its namesakes'."""
    for city, candidate in cities.items():
        strength = city_strength(candidate.features, named[city] + loose[city])
        for code, features in city_state_candidates(city, stated.get(city)):
            population = interval_name(
                gazetteer().population.get((city.lower(), code), 0), POPULATION_BOUNDS, closed="above"
            )
            implied = features | {f"implied_population:{population}"}
            merge(
                states,
                code,
                implied
                | {f"{f}&{rank}" for f in candidate.features if f in CITY_SOURCES for rank in features}
                | {f"{rank}&{s}" for rank in implied for s in strength},
            )
    agreeing = Counter(code for city in cities for code in gazetteer().states_of(city))
    for code, candidate in states.items():
        candidate.features.add(f"cities_here:{interval_name(agreeing[code], (0, 1, 2, 3), closed='above')}")


def _named_towns(cities: dict, stated: dict) -> Iterator[tuple[str, ValueCandidate, str]]:
    """(town, its candidate, a state the gazetteer has it in) for each candidate town a dateline, a "City , State"
    phrase or the entity recogniser names (``COLOCATED_SOURCES``; no county), in each of its states; a town the
    text writes with its state (``stated``: city -> states) in those states only."""
    g = gazetteer()
    for town, candidate in cities.items():
        if is_county(town) or not candidate.features & COLOCATED_SOURCES:
            continue
        for code in sorted(stated.get(town, set()) & g.states_of(town) or g.states_of(town)):
            yield town, candidate, code


def _add_colocated_places(cities: dict, states: dict, stated: dict) -> None:
    """Mark the states where the text's places fit together, and the cities that fit: a candidate town lying in a
    county the text names ("Deer Lodge" and "Morgan County": Tennessee; not Perry in Perry County) gives its state
    ``county_holds_city`` and itself ``in_named_county``; two candidate towns of one state within ``NEAR_KM`` of
    each other ("Waverly" and "Allison": Iowa) give that state and both towns ``near_named_place``. Only towns a
    dateline, a "City , State" phrase or the entity recogniser names count (``COLOCATED_SOURCES``), not capitalised
    words the gazetteer happens to know; a town the text writes with its state (``stated``: city -> states) is
    looked for in those states only."""
    g = gazetteer()
    counties = {city.lower() for city in cities if is_county(city)}
    towns_in: dict[str, dict[str, str]] = {}
    for town, candidate, code in _named_towns(cities, stated):
        own_counties = {f"{town.lower()} {kind}" for kind in ("county", "parish")}
        towns_in.setdefault(code, {}).setdefault(full_saint(town).lower(), town)  # "St. Vincent" is "Saint Vincent"
        if (counties - own_counties) & g.counties.get((town.lower(), code), set()):
            merge(states, code, {"county_holds_city"})
            candidate.features.add("in_named_county")
    for code, towns in towns_in.items():
        located = [(town, point) for town in towns.values() if (point := g.coordinates.get((town.lower(), code)))]
        for i, (town, point) in enumerate(located):
            for other, there in located[i + 1 :]:
                if flat_km(point, there) <= NEAR_KM:
                    merge(states, code, {"near_named_place"})
                    cities[town].features.add("near_named_place")
                    cities[other].features.add("near_named_place")


def _add_station_places(points: list[tuple[float, float]], cities: dict, states: dict, stated: dict) -> None:
    """Mark the named candidate towns (``_named_towns``) that lie within ``[stations] near_km`` of one of the
    ``points`` of the stations publishing the story (``stations.StationTable.points``), and their states:
    ``near_station``."""
    coordinates = gazetteer().coordinates
    near_km = settings().stations.near_km
    for town, candidate, code in _named_towns(cities, stated) if points else ():
        where = coordinates.get((town.lower(), code))
        if where and any(flat_km(where, point) <= near_km for point in points):
            merge(states, code, {"near_station"})
            candidate.features.add("near_station")


def place_candidates(doc, body_start: int, event_sentences: set[int] = frozenset()) -> PlaceCandidates:
    """The candidates of a spaCy doc whose body starts at token ``body_start``, with the place the
    hand-written order of preference chooses (kg_count.nlp.places.find_place) as ``rule``, a feature of
    its values.
    Datelines are looked for at the start of the body and of each of its first ``[extraction] dateline_sentences``
    sentences. A state's features say how many of the candidate cities the gazetteer has in it; a city's whether
    it is named in a sentence of ``event_sentences`` (those that mention a typed event)."""
    words = place_words(doc)
    sentence = _sentence_numbers(doc)
    byline = byline_start(words, body_start)
    states: dict = {}
    cities: dict = {}
    mentioned = state_mentions(words)
    votes = Counter(code for code, _ in mentioned)
    neighbourhoods = neighbourhood_names(words)
    names = place_names(doc, neighbourhoods)
    rule = find_place(doc, body_start, votes, names, byline, words)
    for code, index in mentioned:
        merge(states, code, _where("named", index, body_start, byline, sentence))
    outside_byline = [code for code, index in mentioned if not byline <= index < body_start]
    if outside_byline:
        merge(states, outside_byline[0], {"first_named"})
        top = max(votes.values())
        for code, number in votes.items():
            merge(states, code, mention_count_features("named", number) | ({"most_named"} if number == top else set()))
    stations = shipped_station_table()
    publishers = call_signs(words[: body_start + settings().extraction.dateline_words])  # the title's, the dateline's
    for code, features in station_state_features(stations, publishers).items():
        merge(states, code, features)
    for code, features in phone_state_features(words).items():
        merge(states, code, features)
    stated = _add_datelines(doc, words, body_start, votes, cities, states)
    _add_pairs(words, body_start, byline, sentence, cities, states, stated)
    named = Counter()
    for name, start in names:
        city = _city_name(name)
        named[city] += 1
        merge(cities, city, {"place"} | _where("place", start, body_start, byline, sentence, event_sentences))
        resolved = resolve_state(city, votes)
        if resolved:
            merge(states, resolved, {"place_state"} | _where("place_state", start, body_start, byline, sentence))
    for city, number in named.items():
        merge(cities, city, mention_count_features("place", number))
    loose = _add_loose_places(doc, neighbourhoods, body_start, byline, sentence, event_sentences, votes, cities)
    _add_implied_states(cities, states, named, loose, stated)
    _add_colocated_places(cities, states, stated)
    _add_station_places(stations.points_of(publishers), cities, states, stated)
    if rule is not None:
        if rule.state:
            merge(states, rule.state, {"rule"})
        if rule.city:
            merge(cities, _city_name(rule.city), {"rule"})
    for city, candidate in cities.items():
        if is_county(city):
            candidate.features.add("county")
    return PlaceCandidates(list(states.values()), list(cities.values()), rule)


def _add_loose_places(
    doc, neighbourhoods: set[str], body_start, byline, sentence, event_sentences, votes, cities: dict
) -> Counter:
    """Add to ``cities`` the capitalised place names of ``doc`` (``loose_place_mentions``) that are none of its
    ``neighbourhoods`` (``neighbourhood_names``) and, in the title, that the text supports; return how often each was
    named."""
    loose = Counter()
    mentions = [m for m in loose_place_mentions(doc) if m[0] not in neighbourhoods]
    for name, start, features in title_words_the_text_supports(mentions, body_start, votes):
        city = _city_name(name)
        loose[city] += 1
        merge(cities, city, features | _where("loose", start, body_start, byline, sentence, event_sentences))
    for city, number in loose.items():
        merge(cities, city, mention_count_features("loose", number))
    return loose


def loose_place_mentions(doc) -> list[tuple[str, int, set[str]]]:
    """Capitalised runs of one to three words that the gazetteer knows as a place (not a state, not part of
    a person's name or of a street's, one-word ones not a common English word), with features of their context."""
    found = []
    tokens = list(doc)
    street = street_name_tokens(tokens)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not token.text[:1].isupper() or token.ent_type_ == "PERSON":
            i += 1
            continue
        for length in (3, 2, 1):
            span = tokens[i : i + length]
            if len(span) < length or not all(t.text[:1].isupper() and t.ent_type_ != "PERSON" for t in span):
                continue
            if any(t.i in street for t in span):
                continue
            name = " ".join(t.text for t in span)
            before = tokens[i - 1].lower_ if i else ""
            following = tokens[i + length].text if i + length < len(tokens) else ""
            if not known_place(name) or (
                length == 1 and is_common_word(name) and not _rare_word_placed(name, before, following)
            ):
                continue
            after = following.lower()
            features = {"loose", f"loose_ent:{span[0].ent_type_ or 'none'}", f"loose_words:{length}"}
            if before in PLACE_PREPOSITIONS:
                features.add(f"loose_after:{before}")
            if after in INCIDENT_NOUNS or after in AGENCY_WORDS:
                features.add("loose_before_noun")
            if after == ",":
                features.add("loose_comma")
            found.append((name, i, features))
            i += length - 1
            break
        i += 1
    return found


def _rare_word_placed(name: str, before: str, following: str) -> bool:
    """Whether a one-word place name that is also a word (``is_common_word``) reads as the place: a word seldom
    used (not ``in_common_use``) after "in" and not the first of a longer name ("shot in Hazelwood"; not "in
    Brush", not "in Polo Run Apartments")."""
    return before == "in" and not following[:1].isupper() and not in_common_use(name)


def street_name_tokens(tokens: list) -> set[int]:
    """The indices of the up to three capitalised tokens just before each capitalised street word, or before a plural
    one and before the "and" of two streets sharing it: a street's name ("Spring" of "Spring Street", "Martin
    Luther King" of "Martin Luther King Drive", "Baltimore" and "McHenry" of "Baltimore and McHenry avenues"), no
    town's."""
    found = set()
    words = [token.text for token in tokens]
    for k, token in enumerate(tokens):
        if is_street_word(token.text) or shares_a_street_word(words, k):
            for j in range(k - 1, max(k - 4, -1), -1):
                if not tokens[j].text[:1].isupper():
                    break
                found.add(tokens[j].i)
    return found


def title_words_the_text_supports(
    mentions: list[tuple[str, int, set[str]]], body_start: int, votes: Counter
) -> list[tuple[str, int, set[str]]]:
    """``mentions`` (``loose_place_mentions``) less the one-word names of words in common use (``in_common_use``) that
    only the title capitalises (title case capitalises every word) and whose state the text does not name: "Man" in
    "Man killed , another wounded" is no town of West Virginia."""
    in_body = {name for name, start, _ in mentions if start >= body_start}

    def supported(name: str) -> bool:
        if " " in name or name in in_body or not in_common_use(name):
            return True
        return any(votes.get(state) for state in gazetteer().states_of(name))

    return [mention for mention in mentions if supported(mention[0])]


def city_strength(features: set[str], mentions: int) -> set[str]:
    """How strongly a document names a candidate city, from its features and its number of place mentions:
    ``city:title`` when the title names it, ``city:lead`` when the first two body sentences do, a dateline,
    and ``city:mentions`` in buckets."""
    strength = {f"city:mentions{interval_name(mentions, (1, 2, 4), closed='above')}"}
    if any(f.endswith(":title") for f in features):
        strength.add("city:title")
    if any(f.endswith((":sentence<=0", ":sentence<=1")) for f in features):
        strength.add("city:lead")
    if features & {"dateline", "sentence_dateline"}:
        strength.add("city:dateline")
    return strength


SHARE_BOUNDS = (0.1, 0.3, 0.5, 0.7, 0.9)  # a namesake's share of the population of every place of its name


def city_state_candidates(city: str, stated: set[str] | None = None) -> list[tuple[str, set[str]]]:
    """The states a city name may be in, with features: the only one, or the most populous one, or one of
    few, the last two with the share of the name's population the state holds ("Kansas City": Missouri 0.76,
    Kansas 0.24); nothing for names of more than three states but the most populous. With ``stated`` (the states the
    text writes the city with), only those of them the gazetteer has it in, each the only one."""
    g = gazetteer()
    if stated:
        return [(code, {"city_state:only"}) for code in sorted(stated & g.states_of(city))]
    states = sorted(g.states_of(city))
    if not states:
        return []
    populations = {s: g.population.get((city.lower(), s), 0) for s in states}
    top = max(states, key=lambda s: populations[s])
    total = sum(populations.values())
    found = []
    for code in states:
        share = set()
        if total:
            share.add(f"city_state:share:{interval_name(populations[code] / total, SHARE_BOUNDS, closed='above')}")
        if len(states) == 1:
            found.append((code, {"city_state:only"}))
        elif code == top and populations[top] > 0:
            found.append((code, {"city_state:most_populous"} | share))
        elif len(states) <= 3:
            found.append((code, {"city_state:few"} | share))
    return found


def city_in_state_features(city: str, state: str | None) -> set[str]:
    """Features of a city candidate given the chosen state: whether the gazetteer has it there, in how
    many states it has it, and its population bound_name there."""
    g = gazetteer()
    states = g.states_of(city)
    features = {f"states:{interval_name(len(states), (0, 1, 3, 10), closed='above')}"}
    if state is None:
        return features | {"no_state"}
    if state in states:
        population = g.population.get((city.lower(), state), 0)
        features |= {"in_state", f"population:{interval_name(population, (0, 10000, 100000, 1000000), closed='above')}"}
    else:
        features.add("not_in_state")
    return features
