"""A question's place read in full: the structured location field together with its verbose text.

The task writes each place twice: a DBpedia IRI in ``location`` and, in ``verbose_question``, the Gun
Violence Archive's own (state, city) tuple: ``in ('Illinois', 'Chicago (Englewood)') (city)``,
``in ('Florida',) (state)``, ``in (None, 'Ushiku') (city)``. Gold counts the incidents whose record
holds exactly that state and city, so where the two disagree the text is what the question asks; the
IRI is a link made afterwards and sometimes names a namesake ("Lebanon,_Pennsylvania" for Lebanon,
Oregon), a district ("Uptown_Oakland"), or nothing at all. ``read_place`` decides which place to
answer and says which rule it used (``PlaceReading.rule``, one of ``RULES``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

from geopy.distance import geodesic

from kg_count.geography import (
    asked_city,
    city_iri,
    city_standing_for,
    gazetteer,
    parse_city_iri,
    state_iri,
)
from kg_count.settings import settings
from kg_count.task import DBPEDIA_PREFIX

RULES = {
    "structured": "the structured field (the text agrees or adds nothing)",
    "text fills empty": "the text (the structured field is empty)",
    "text state": "the text (its state differs from the structured field's)",
    "text city": "the text (its city differs from the structured field's)",
    "text part": "the text's city, with the part of it that the incident's reports must name",
    "text city nearby": "the text's city, or the structured field's city nearby where a report names the text's",
    "part of a city": "the city the post office files the asked place under, where a report names the place",
    "no US state": "no US state (the text's state is None: a place outside the United States)",
}
VERBOSE_PLACE = re.compile(r""" in (\((?:'[^']*'|"[^"]*"|None)(?:, (?:'[^']*'|"[^"]*"|None))*,?\)) \((city|state)\)""")
CITY_PART = re.compile(r"^(.*?) \(([^()]*)\)$")
SAINT = re.compile(r"^(?:saint|st\.?) ")


@dataclass(frozen=True)
class PlaceReading:
    """The place a question is answered with: ``granularity`` (city or state), the DBpedia ``iri`` answered (""
    for "no US state"), the ``rule`` that chose it (a key of ``RULES``), the place as the text wrote it
    (``text``, "" when unreadable) and the ``structured`` field's IRI as the task wrote it. For a part of a city
    ("Chicago (Englewood)"): the ``part``'s name in lower case and ``part_iri``, the IRI the extraction writes
    for the part as a place of its own ("" when that is the city's own IRI: ``geography.city_iri``)."""

    granularity: str
    iri: str
    rule: str
    text: str = ""
    part: str = ""
    part_iri: str = ""
    structured: str = ""

    @property
    def no_state(self) -> bool:
        """Whether the question asks for a place outside every US state."""
        return self.rule == "no US state"

    def describe(self) -> str:
        """The reading in words, for reports: the rule and the place answered."""
        place = self.iri.removeprefix(DBPEDIA_PREFIX) or "none"
        part = f", part {self.part!r}" if self.part else ""
        return f"place {place}{part}: {RULES[self.rule]}"


def verbose_place(verbose: str) -> tuple[str, tuple[str | None, ...]] | None:
    """The (granularity, tuple of state and city) a verbose question writes, e.g. ("city", ("Oregon", "Salem"));
    None when it holds no place tuple."""
    match = VERBOSE_PLACE.search(verbose)
    if match is None:
        return None
    try:
        values = ast.literal_eval(match.group(1))
    except (ValueError, SyntaxError):
        return None
    if not all(value is None or isinstance(value, str) for value in values):
        return None
    return match.group(2), tuple(value.strip() if isinstance(value, str) else None for value in values)


def _same_name(a: str, b: str) -> bool:
    def key(name: str) -> str:
        return SAINT.sub("saint ", name.lower().replace("-", " ")).strip()

    return key(a) == key(b)


def _text_city(name: str, state: str) -> tuple[str, bool]:
    """The IRI the extraction would write for a city named ``name`` in ``state`` and whether the gazetteer knows
    it (under "St."/"Saint" spellings too); unknown names still get the IRI's usual form."""
    g = gazetteer()
    bare = SAINT.sub("", name.lower())
    spellings = [name.lower()] + ([f"st. {bare}", f"saint {bare}"] if bare != name.lower() else [])
    for spelling in spellings:
        if (spelling, state) in g.coordinates:
            return city_iri(spelling, state), True
    return city_iri(name, state), False


def _iri_state(iri: str) -> str | None:
    place = asked_city(iri) or parse_city_iri(iri)
    return place[1] if place else None


def _agrees(structured: str, name: str, state: str, text_iri: str) -> bool:
    place = asked_city(structured)
    if place is not None and place[1] == state and _same_name(place[0], name):
        return True
    return city_standing_for(structured) == city_standing_for(text_iri)


def _names_part(structured: str, part: str) -> bool:
    title = structured.removeprefix(DBPEDIA_PREFIX).replace("_", " ").lower()
    place = asked_city(structured)
    return title.startswith(part) or (place is not None and _same_name(place[0], part))


def _nearby(structured: str, text_iri: str) -> bool:
    """Whether the structured field's city lies within [answering] ``same_area_km`` of the text's city, in its state:
    the linker's own reading of the text's town ("Wilmington" in "Los_Angeles")."""
    here, there = asked_city(structured), asked_city(text_iri)
    if here is None or there is None or here[1] != there[1]:
        return False
    coordinates = gazetteer().coordinates
    return geodesic(coordinates[here], coordinates[there]).km <= settings().answering.same_area_km


def _spelling_of(part: str, city: str) -> bool:
    """Whether a bracketed "part" is only another spelling of its city ("Marlboro (Marlborough)")."""
    a, b = (re.sub(r"[^a-z]", "", text.lower()) for text in (part, city))
    return a.startswith(b) or b.startswith(a)


def _read_state(structured: str, state_text: str | None, text: str) -> PlaceReading:
    if state_text is None:
        return PlaceReading("state", "", "no US state", text)
    code = gazetteer().state_code(state_text)
    if code is None:
        return PlaceReading("state", structured, "structured", text)
    iri = state_iri(code)
    if structured == iri:
        return PlaceReading("state", structured, "structured", text)
    return PlaceReading("state", iri, "text state" if structured else "text fills empty", text)


def _read_city(structured: str, state_text: str | None, city_text: str, text: str) -> PlaceReading:
    code = gazetteer().state_code(state_text) if state_text else None
    if code is None:  # outside the US states (or an unknown state): only the structured IRI places it
        if structured:
            return PlaceReading("city", structured, "structured", text)
        return PlaceReading("city", DBPEDIA_PREFIX + city_text.replace(" ", "_"), "text fills empty", text)
    city, part = city_text, ""
    bracket = CITY_PART.match(city_text)
    if bracket is not None:
        city, part = bracket.group(1), bracket.group(2)
    if part.lower() == "county":  # the structured IRI names the incident's town inside the county
        if structured:
            return PlaceReading("city", structured, "structured", text)
        return PlaceReading("city", city_iri(f"{city} County", code), "text fills empty", text)
    text_iri, known = _text_city(city, code)
    if part and structured and _names_part(structured, part.lower()):
        return PlaceReading("city", structured, "structured", text)
    if part and not _spelling_of(part, city):
        base = text_iri if known or not structured else city_standing_for(structured)
        part_iri = _text_city(part, code)[0]
        own_place = city_standing_for(part_iri) != city_standing_for(base)
        return PlaceReading("city", base, "text part", text, part.lower(), part_iri if own_place else "")
    if not structured:
        return PlaceReading("city", text_iri, "text fills empty", text)
    if _agrees(structured, city, code, text_iri):
        if (city.lower(), code) in gazetteer().part_of:  # "Englewood" in Illinois: filed under Chicago
            return PlaceReading("city", city_standing_for(structured), "part of a city", text, city.lower(), "")
        return PlaceReading("city", structured, "structured", text)
    structured_state = _iri_state(structured)
    if known and _nearby(structured, text_iri):
        base = city_standing_for(structured)
        return PlaceReading("city", base, "text city nearby", text, city.lower(), text_iri)
    if known or structured_state != code:
        other_state = structured_state not in (None, code)
        return PlaceReading("city", text_iri, "text state" if other_state else "text city", text)
    base = city_standing_for(structured)  # a name the gazetteer does not know, in the structured city's state
    return PlaceReading("city", base, "text city nearby", text, city.lower(), "")


def read_place(granularity: str, structured: str, verbose: str) -> PlaceReading:
    """The place to answer for a question whose ``location`` field is (``granularity``, ``structured``) and whose
    ``verbose_question`` is ``verbose``: the structured IRI where the text agrees with it or cannot be read, else
    what the text says, resolved with the gazetteer as the extraction resolves places in articles."""
    return replace(_read(granularity, structured, verbose), structured=structured)


def _read(granularity: str, structured: str, verbose: str) -> PlaceReading:
    written = verbose_place(verbose)
    if written is None:
        return PlaceReading(granularity, structured, "structured")
    text_granularity, values = written
    text = ", ".join(value or "None" for value in reversed(values))
    if text_granularity == "state" or len(values) < 2:
        return _read_state(structured if granularity == "state" else "", values[0], text)
    if values[1] is None:
        return PlaceReading(granularity, structured, "structured", text)
    return _read_city(structured if granularity == "city" else "", values[0], values[1], text)
