"""The plain record the pipeline makes of one document: what the graph states about it."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field


@dataclass
class MentionRecord:
    """A grounded mention: CoNLL token ids, text, and for events the type, frame and synset."""

    token_ids: list[str]
    text: str
    begin: int
    end: int
    event_type: str | None = None
    frame: str | None = None
    synset: str | None = None


@dataclass
class PersonRecord:
    """A person a document names: name parts, age, role (victim, suspect, bystander, other) and status."""

    full_name: str
    first_name: str
    last_name: str
    age: int | None
    role: str
    status: str
    mentions: list[MentionRecord] = field(default_factory=list)


@dataclass
class DocumentRecord:
    """Everything extracted from one document."""

    doc_id: str
    dct: dt.date
    title: str
    event_types: list[str]
    event_mentions: list[MentionRecord]
    incident_date: dt.date
    date_granularity: str
    date_certainty: str
    time_mentions: list[MentionRecord]
    city: str | None
    state: str | None
    city_iri: str | None
    state_iri: str | None
    place_found_by: str | None
    killed: int
    injured: int
    fired: int
    participants: list[PersonRecord]
    follow_up: float = 0.0  # the probability that the document reports a later event about the incident
    place_names: list[str] = field(default_factory=list)  # every place the text names, lower case (mentioned_places)

    def summary(self) -> dict:
        """The readable face of the record (one line of ``kg-count extract``)."""
        return {
            "doc_id": self.doc_id,
            "dct": self.dct.isoformat(),
            "title": self.title,
            "event_types": self.event_types,
            "incident_date": self.incident_date.isoformat(),
            "date_granularity": self.date_granularity,
            "date_certainty": self.date_certainty,
            "city": self.city,
            "state": self.state,
            "city_iri": self.city_iri,
            "state_iri": self.state_iri,
            "place_found_by": self.place_found_by,
            "killed": self.killed,
            "injured": self.injured,
            "fired": self.fired,
            "follow_up": self.follow_up,
            "participants": [
                {"name": p.full_name, "age": p.age, "role": p.role, "status": p.status} for p in self.participants
            ],
        }

    def to_json(self) -> dict:
        """The record as a JSON object (dates as ISO strings), the form ``from_json`` reads."""
        data = asdict(self)
        data["dct"] = self.dct.isoformat()
        data["incident_date"] = self.incident_date.isoformat()
        return data

    @classmethod
    def from_json(cls, data: dict) -> "DocumentRecord":
        """The record as ``to_json`` wrote it."""
        data = dict(data)
        data["dct"] = dt.date.fromisoformat(data["dct"])
        data["incident_date"] = dt.date.fromisoformat(data["incident_date"])
        data["event_mentions"] = [MentionRecord(**m) for m in data["event_mentions"]]
        data["time_mentions"] = [MentionRecord(**m) for m in data["time_mentions"]]
        data["participants"] = [
            PersonRecord(**{**p, "mentions": [MentionRecord(**m) for m in p["mentions"]]}) for p in data["participants"]
        ]
        return cls(**data)
