"""Broadcast stations and where they report: the call letters a text names ("WSMV", "KMOV.com", "KCTV5") and, from
the shipped table (``kg_count/models/stations.json``, written by ``kg-count train stations``), the state each
station's stories are set in and the point they lie around.

A local station tells of its own region: a WKRN story about "Antioch" is about Antioch, Tennessee, not California,
though its text may never name Tennessee. The table is learned from stories that do write their place.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from kg_count.learning.model_files import load_shipped_model
from kg_count.nlp.candidate_features import vote_features
from kg_count.nlp.bylines import CALL_SIGN

LETTERS = re.compile(r"[KW][A-Z]{2,3}")


def call_letters(word: str) -> str | None:
    """The call letters of a station's call sign written in capitals ("WSMV", "WKRN-TV", "KCTV5", "KMOV.com" give
    "WSMV", "WKRN", "KCTV", "KMOV"); None for any other word."""
    if not (CALL_SIGN.match(word) and word[:4].isupper()):
        return None
    found = LETTERS.match(word.upper())
    return found.group(0) if found else None


def call_signs(words: Iterable[str]) -> set[str]:
    """The call letters of every station ``words`` name."""
    return {letters for word in words if (letters := call_letters(word))}


@dataclass(frozen=True)
class StationTable:
    """Call letters -> the postal code of the state a station's stories are set in (``states``), and -> the
    (latitude, longitude) its stories' places lie around (``points``), with the number of stories each was learned
    from (``documents``)."""

    states: dict[str, str]
    points: dict[str, tuple[float, float]] = field(default_factory=dict)
    documents: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict:
        """The table as a JSON object, stations in alphabetical order."""
        signs = sorted(set(self.states) | set(self.points))
        return {
            "stations": {
                sign: {
                    "state": self.states.get(sign),
                    "point": list(self.points[sign]) if sign in self.points else None,
                    "documents": self.documents.get(sign, 0),
                }
                for sign in signs
            }
        }

    @classmethod
    def from_json(cls, data: dict) -> "StationTable":
        """The table as ``to_json`` wrote it."""
        stations = data["stations"]
        return cls(
            {sign: entry["state"] for sign, entry in stations.items() if entry["state"]},
            {sign: tuple(entry["point"]) for sign, entry in stations.items() if entry["point"]},
            {sign: int(entry["documents"]) for sign, entry in stations.items()},
        )

    def votes(self, signs: Iterable[str]) -> Counter:
        """How many of the stations of call letters ``signs`` (``call_signs``) the table places in each state
        (postal code -> stations)."""
        return Counter(self.states[sign] for sign in signs if sign in self.states)

    def points_of(self, signs: Iterable[str]) -> list[tuple[float, float]]:
        """The points of the stations of call letters ``signs`` that the table has one for."""
        return [self.points[sign] for sign in sorted(signs) if sign in self.points]


def shipped_station_table() -> StationTable:
    """The station table shipped with the package, read by the one model loader (SetupError naming the file when
    it is missing)."""
    return load_shipped_model("stations", StationTable.from_json)


def station_state_features(table: StationTable, signs: Iterable[str]) -> dict[str, set[str]]:
    """The state candidates the stations of call letters ``signs`` imply by ``table``, with features: ``station``
    for every state one of them reports on, ``station:top`` for the state most of them do (when one state leads)."""
    return vote_features(table.votes(signs), "station")
