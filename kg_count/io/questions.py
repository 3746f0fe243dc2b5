"""The task's questions.json: validated into typed Question records.

Every question has an event type, a subtask (1, 2 or 3) and exactly two of location, time and
participant, each with one granularity and a value in the task's format.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass
from typing import Mapping

from kg_count.errors import InputError
from kg_count.io.atomic import read_json
from kg_count.io.question_place import PlaceReading, read_place
from kg_count.task import DBPEDIA_PREFIX, EVENT_TYPES

PROPERTIES = ("location", "time", "participant")
GRANULARITIES = {
    "location": ("city", "state"),
    "time": ("day", "month", "year"),
    "participant": ("first", "last", "full_name"),
}
TIME_FORMATS = {"day": "%d/%m/%Y", "month": "%m/%Y", "year": "%Y"}
SUBTASKS = (1, 2, 3)
IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')


@dataclass(frozen=True)
class TimeConstraint:
    """The asked time: a granularity (day, month, year) and the first and last day it covers."""

    granularity: str
    value: str
    start: dt.date
    end: dt.date

    def contains(self, date: dt.date) -> bool:
        """Whether ``date`` lies within the asked time, both ends included."""
        return self.start <= date <= self.end


@dataclass(frozen=True)
class Question:
    """One validated question. Absent properties are None; ``location``/``participant`` are (granularity, value).

    ``location`` is the place as read from the structured field and the verbose text together
    (``kg_count.io.question_place``; value "" when the text asks for no US state); ``place`` says how it was read
    and keeps the structured field as the task wrote it.
    """

    question_id: str
    subtask: int
    event_type: str
    location: tuple[str, str] | None
    time: TimeConstraint | None
    participant: tuple[str, str] | None
    verbose: str = ""
    place: PlaceReading | None = None

    @property
    def property_pair(self) -> str:
        """The two asked properties, e.g. ``location+time``."""
        return "+".join(p for p in PROPERTIES if getattr(self, p) is not None)

    @property
    def shape(self) -> str:
        """The granularities of the two asked properties, e.g. ``state+year`` or ``city+last``."""
        granularities = [
            self.location[0] if self.location is not None else None,
            self.time.granularity if self.time is not None else None,
            self.participant[0] if self.participant is not None else None,
        ]
        return "+".join(g for g in granularities if g is not None)


def parse_time(granularity: str, value: str) -> TimeConstraint:
    """Parse a day ``dd/mm/yyyy``, month ``mm/yyyy`` or year ``yyyy`` into the span of days it covers.

    Raises ValueError when the value does not have the granularity's format.
    """
    start = dt.datetime.strptime(value, TIME_FORMATS[granularity]).date()
    if granularity == "day":
        end = start
    elif granularity == "month":
        next_month = (start.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        end = next_month - dt.timedelta(days=1)
    else:
        end = start.replace(month=12, day=31)
    return TimeConstraint(granularity, value, start, end)


def _one_granularity(prop: str, raw: object, where: str, path: object) -> tuple[str, str]:
    if not isinstance(raw, Mapping) or len(raw) != 1:
        raise InputError(f"{prop} must be an object with exactly one of {GRANULARITIES[prop]}", path, item=where)
    ((granularity, value),) = raw.items()
    if granularity not in GRANULARITIES[prop]:
        raise InputError(
            f"unknown {prop} granularity {granularity!r} (expected one of {', '.join(GRANULARITIES[prop])})",
            path,
            item=where,
        )
    if not isinstance(value, str):
        raise InputError(f"{prop} {granularity} must be a string, got {value!r}", path, item=where)
    return granularity, value


def parse_question(question_id: str, raw: object, path: object = None) -> Question:
    """Validate one question's JSON object and return it as a Question; InputError names the id."""
    where = f"question {question_id}"
    if not isinstance(raw, Mapping):
        raise InputError("a question must be a JSON object", path, item=where)
    event_type = raw.get("event_type")
    if event_type not in EVENT_TYPES:
        raise InputError(
            f"unknown event type {event_type!r} (expected one of {', '.join(EVENT_TYPES)})", path, item=where
        )
    subtask = raw.get("subtask")
    if subtask not in SUBTASKS:
        raise InputError(f"subtask must be 1, 2 or 3, got {subtask!r}", path, item=where)
    present = [p for p in PROPERTIES if p in raw]
    if len(present) != 2:
        raise InputError(
            f"a question needs exactly two of location, time, participant; it has "
            f"{len(present)} ({', '.join(present) or 'none'})",
            path,
            item=where,
        )
    values = {p: _one_granularity(p, raw[p], where, path) for p in present}
    time = None
    if "time" in values:
        granularity, value = values["time"]
        try:
            time = parse_time(granularity, value)
        except ValueError:
            raise InputError(
                f"time {granularity} {value!r} is not in the form {TIME_FORMATS[granularity]}", path, item=where
            ) from None
    location = values.get("location")
    if location and location[1] and not location[1].startswith(DBPEDIA_PREFIX):
        raise InputError(f"location {location[1]!r} is not a DBpedia IRI ({DBPEDIA_PREFIX}...)", path, item=where)
    if location and IRI_FORBIDDEN.search(location[1]):
        raise InputError(
            f"location {location[1]!r} is not a valid IRI (it holds a space, quote, angle bracket, "
            "backslash or control character)",
            path,
            item=where,
        )
    participant = values.get("participant")
    if participant and not participant[1].strip():
        raise InputError("participant name is empty", path, item=where)
    verbose = str(raw.get("verbose_question", ""))
    place = read_place(*location, verbose) if location else None
    if place is not None:
        location = (place.granularity, place.iri)
    return Question(question_id, subtask, event_type, location, time, participant, verbose, place)


def read_questions(path: str | os.PathLike) -> dict[str, Question]:
    """Read and validate a questions.json file; returns questions keyed by id, in file order."""
    data = read_json(path)
    if not isinstance(data, Mapping):
        raise InputError("questions file must hold a JSON object keyed by question id", path)
    return {str(qid): parse_question(str(qid), raw, path) for qid, raw in data.items()}


def subtask_of_id(question_id: str) -> int | None:
    """Return the subtask a task question id names by its prefix (``2-6869`` → 2), or None."""
    match = re.match(r"^([123])-", question_id)
    return int(match[1]) if match else None
