"""How likely a person named in an incident was killed, or injured, in it: the person-status model.

The extraction gives each named person a role (victim, suspect, other, bystander) and a status
(killed, injured, unharmed) from the events they are the patient of; a name the parse never ties to
an event stays ``other`` and ``unharmed`` even when the story is about their death. A participant
question of S3 ("how many people named X were killed") counts the people named X with the asked
status, so each named person gets the probability of each status from a logistic regression
(``kg_count/learning/linear_model.py``) over their extracted role and status and the incident's
counts and named people (``person_features``), trained on gva-train: every person named in a gva-train
incident of the store, labelled from the Gun Violence Archive's participant records. One model gives
the probability that the person took part at all (the record lists them: a victim or suspect, not a
reporter, officer or neighbour quoted), two more the probability of each status given that they took
part (a participant question asks about someone the archive lists). The probabilities are written to
the incident graph (``kgc:participantProbability``, ``kgc:killedProbability``,
``kgc:injuredProbability``) and read by SPARQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from kg_count.learning.linear_model import LinearModel
from kg_count.learning.model_files import load_shipped_model, model_path
from kg_count.nlp.participants import PARTICIPATING_ROLES

PERSON_STATUS_PATH = model_path("person_status")
STATUSES = ("killed", "injured")
OUTPUTS = ("participant", *STATUSES)


def _bucket(value: int) -> str:
    return str(value) if value < 3 else "3+"


def person_features(person, people: Sequence, killed: int, injured: int) -> list[str]:
    """Named features of one person (``reports.ReportedPerson``) among an incident's ``people``, with the
    incident's reconciled ``killed`` and ``injured`` counts."""
    taking_part = [p for p in people if p.role in PARTICIPATING_ROLES or p.role == "other"]
    with_status = {status: sum(p.status == status for p in people) for status in STATUSES}
    features = [
        f"role:{person.role}",
        f"status:{person.status}",
        f"role:{person.role}:status:{person.status}",
        f"named:{_bucket(len(taking_part))}",
        f"age:{person.age is not None}",
        f"full_name:{bool(person.first_name and person.last_name)}",
    ]
    for status, count in (("killed", killed), ("injured", injured)):
        features.append(f"{status}:{_bucket(count)}:status:{person.status}")
        features.append(f"{status}:{_bucket(count)}:role:{person.role}")
        unexplained = count - with_status[status]
        features.append(f"{status}_unnamed:{'none' if unexplained <= 0 else _bucket(unexplained)}:{person.role}")
    return features


@dataclass
class PersonStatusModel:
    """Three LinearModels: the probability that a named person took part (a victim or suspect the archive
    lists), and, given that, that they were killed, or injured."""

    models: dict[str, LinearModel]

    def probabilities(self, person, people: Sequence, killed: int, injured: int) -> dict[str, float]:
        """``participant``: P(the person took part); ``killed``, ``injured``: P(that status | took part)."""
        features = person_features(person, people, killed, injured)
        return {output: self.models[output].probability(features) for output in OUTPUTS}

    def to_json(self) -> dict:
        """The model's weights and the settings it was trained with, as a JSON object."""
        return {status: model.to_json() for status, model in sorted(self.models.items())}

    @classmethod
    def from_json(cls, data: dict) -> "PersonStatusModel":
        """The model as ``to_json`` wrote it."""
        return cls({output: LinearModel.from_json(data[output]) for output in OUTPUTS})

    def save(self, path: Path) -> None:
        """Write the model to ``path`` atomically."""
        from kg_count.io.atomic import write_json_atomic

        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: Path) -> "PersonStatusModel":
        """Read the model from ``path``; SetupError naming the file when it is missing or broken."""
        from kg_count.errors import SetupError
        from kg_count.io.atomic import read_json

        try:
            return cls.from_json(read_json(path))
        except (KeyError, TypeError, ValueError) as error:
            raise SetupError(
                f"{path}: not a person-status model ({error}); retrain it with `kg-count train person-status`"
            ) from None


def shipped_person_status_model() -> PersonStatusModel:
    """The person-status model shipped with the package (``kg_count/models/person_status.json``), read by the
    one model loader."""
    return load_shipped_model("person_status", PersonStatusModel.from_json)
