"""The station table (``kg_count.nlp.stations``) learned from stories' own text: each station's state is the one
the stories naming it write, and its point the middle of the places they write, when enough of them agree.

No record is read: a story's state is the one its "City , State" phrases and state names name most
(``stated_state``), its place the first "City , State" phrase in that state (``stated_point``), so the table can
be learned from any news archive, the task's own documents included. Where the title's publisher byline writes
the station's own market ("- WTVM.com - Columbus , GA News Weather & Sports", ``byline_home``), that market is
the story's state and place for the station instead: the byline names where the station stands, the story where
the incident happened.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Iterable

from kg_count.geography import flat_km, gazetteer
from kg_count.nlp.bylines import byline_start
from kg_count.nlp.candidate_features import sole_leader
from kg_count.nlp.places import city_before, city_state_mentions, state_mentions
from kg_count.nlp.stations import StationTable, call_signs


def stated_state(words: list[str]) -> str | None:
    """The postal code of the state a text names most, counting its "City , State" phrases and its state names
    (``places.city_state_mentions``, ``places.state_mentions``); None when it names none or two states lead."""
    named = Counter(state for _, state, _ in city_state_mentions(words))
    named.update(code for code, _ in state_mentions(words))
    return sole_leader(named)


def stated_point(words: list[str], state: str) -> tuple[float, float] | None:
    """The (latitude, longitude) of the first "City , State" phrase of ``words`` in ``state`` the gazetteer places;
    None when there is none."""
    coordinates = gazetteer().coordinates
    for city, code, _ in city_state_mentions(words):
        if code == state and (point := coordinates.get((city.lower(), code))):
            return point
    return None


def byline_home(publisher: list[str]) -> tuple[str, str] | None:
    """The (city, postal code) of the first "City , ST" the publisher byline of ``publisher`` (a title and the
    words after it) writes with a two-capital postal code, which may stand before the publisher's own words
    ("- WTVM.com - Columbus , GA News", "- NBC12 - WWBT - Richmond , VA"); None when there is none, or when the
    city ends a list of a market's cities that may lie in other states ("Savannah , Beaufort , SC")."""
    codes = gazetteer().state_names
    for comma in range(byline_start(publisher, len(publisher)) + 1, len(publisher) - 1):
        code = publisher[comma + 1]
        if publisher[comma] != "," or code not in codes:
            continue
        city = city_before(publisher, comma, code)
        if city and publisher[comma - len(city.split()) - 1] != ",":
            return city, code
    return None


def middle(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The point of the median latitude and the median longitude of ``points``."""
    return (statistics.median(p[0] for p in points), statistics.median(p[1] for p in points))


def station_table(
    texts: Iterable[tuple[list[str], list[str]]], min_documents: int, min_share: float, near_km: float = 0.0
) -> StationTable:
    """The table of the stations ``texts`` name: each a story's words, and those of them where its publisher stands
    (its title and dateline), which the station must be named in. A station is placed in the state most of
    its stories that write a state (``stated_state``) write, when it has ``min_documents`` such stories and that
    state holds ``min_share`` of them; and at the middle of its stories' places (``stated_point``), when it has
    ``min_documents`` of them and ``min_share`` lie within ``near_km`` of that middle (no points when 0)."""
    seen: dict[str, Counter] = defaultdict(Counter)
    placed: dict[str, list] = defaultdict(list)
    coordinates = gazetteer().coordinates
    for words, publisher in texts:
        signs = call_signs(publisher)
        home = byline_home(publisher) if signs else None
        if home:
            state, point = home[1], coordinates.get((home[0].lower(), home[1])) if near_km else None
        else:
            state = stated_state(words) if signs else None
            point = stated_point(words, state) if state and near_km else None
        for sign in signs if state else ():
            seen[sign][state] += 1
            if point:
                placed[sign].append(point)
    states, points, documents = {}, {}, {}
    for sign, counts in seen.items():
        total = sum(counts.values())
        state, number = max(sorted(counts.items()), key=lambda item: item[1])
        if total >= min_documents and number >= min_share * total:
            states[sign], documents[sign] = state, total
    for sign, found in placed.items():
        centre = middle(found)
        near = sum(flat_km(centre, point) <= near_km for point in found)
        if len(found) >= min_documents and near >= min_share * len(found):
            points[sign] = (round(centre[0], 4), round(centre[1], 4))
            documents[sign] = max(documents.get(sign, 0), len(found))
    return StationTable(states, points, documents)
