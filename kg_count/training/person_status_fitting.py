"""Training data for the person-status model (``incidents.person_status``) from gva-train's participant records.

The store's reports are grouped into incidents with the shipped coreference model; an incident stands
for the Gun Violence Archive incident most of its documents report. Each person it names is one
example: ``participant`` 1 when the record lists a participant of that name (same last name, and the
same first name where both are given), else 0 (reporters, officers, neighbours, relatives quoted);
for participants, each status 1 when the record gives it ("Killed", "Injured"). Cross-validation folds
by archive incident.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kg_count.learning.folds import hashed_fold
from kg_count.errors import InputError
from kg_count.incidents.store.incident_graph import name_key
from kg_count.incidents.grouping.person_status import OUTPUTS, STATUSES, PersonStatusModel, person_features
from kg_count.settings import settings

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore


@dataclass(frozen=True)
class PersonExample:
    """One named person of one incident: features, labels (``participant`` and each status) and the archive
    incident it folds by. The status models learn from participants only."""

    features: tuple[str, ...]
    labels: dict
    gva_incident: str


def archive_participants(incidents_path: Path) -> dict[str, list[tuple[str, str, str]]]:
    """(first name key, last name key, status text) of every participant, by archive incident id."""
    found = {}
    try:
        for line in Path(incidents_path).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            people = []
            for participant in record.get("participants", []):
                words = name_key(participant.get("Name", "")).split()
                if words:
                    words = [w for w in words if w not in ("jr", "sr", "ii", "iii", "iv")] or words
                    people.append((words[0] if len(words) > 1 else "", words[-1], participant.get("Status", "")))
            found[record["incident_uri"]] = people
    except (OSError, ValueError, KeyError) as error:
        raise InputError(f"not a gva-train incidents file ({error.__class__.__name__}: {error})", incidents_path)
    return found


def _archive_status(person, participants) -> str | None:
    """The status text of the archive participant this person is, or None when the record does not list them."""
    last, first = name_key(person.last_name), name_key(person.first_name)
    for first_key, last_key, status in participants:
        if last_key == last and (not first or not first_key or first_key == first):
            return status
    return None


def person_examples(store: GraphStore, articles_path: Path, incidents_path: Path) -> list[PersonExample]:
    """The labelled named people of every incident the store's gva-train reports form."""
    from kg_count.incidents.grouping.scored_incidents import reconciled_incidents
    from kg_count.incidents.reports.reports import reports_from_store

    archive_of = {}
    for line in Path(articles_path).read_text(encoding="utf-8").splitlines():
        article = json.loads(line)
        archive_of[article["doc_id"]] = article["incident_id"]
    participants = archive_participants(incidents_path)
    examples = []
    for incident in reconciled_incidents(reports_from_store(store))[0]:
        votes = Counter(archive_of[d] for d in incident.doc_ids if d in archive_of)
        if not votes:
            continue
        archive = votes.most_common(1)[0][0]
        for person in incident.people:
            status = _archive_status(person, participants.get(archive, []))
            labels = {name: int(name.capitalize() in (status or "")) for name in STATUSES}
            labels["participant"] = int(status is not None)
            features = person_features(person, incident.people, incident.killed, incident.injured)
            examples.append(PersonExample(tuple(features), labels, archive))
    return examples


def _folds(examples: list[PersonExample], folds: int) -> list[int]:
    """Each example's fold, by its GVA incident (``hashed_fold``)."""
    return [hashed_fold(e.gva_incident, folds) for e in examples]


def learns_from(example: PersonExample, output: str) -> bool:
    """Whether ``output``'s model learns from the example: the participant model from everyone, the status
    models from participants."""
    return output == "participant" or bool(example.labels["participant"])


def cross_validated(examples: list[PersonExample], l2: float, folds: int = 5) -> dict[str, list[float]]:
    """Out-of-fold probabilities of every example for each output (folds by archive incident)."""
    from kg_count.learning.linear_model import train

    fold_of = _folds(examples, folds)
    held = {output: [0.0] * len(examples) for output in OUTPUTS}
    for fold in range(folds):
        for output in OUTPUTS:
            model = train(
                [
                    (e.features, e.labels[output])
                    for e, f in zip(examples, fold_of)
                    if f != fold and learns_from(e, output)
                ],
                l2=l2,
            )
            for n, (e, f) in enumerate(zip(examples, fold_of)):
                if f == fold:
                    held[output][n] = model.probability(e.features)
    return held


def log_loss(examples: list[PersonExample], held: dict[str, list[float]]) -> float:
    """Mean log loss of out-of-fold probabilities over the outputs, each on the examples it learns from."""
    import math

    losses = [
        -math.log(max(1e-9, p if e.labels[output] else 1 - p))
        for output in OUTPUTS
        for e, p in zip(examples, held[output])
        if learns_from(e, output)
    ]
    return sum(losses) / max(1, len(losses))


def fit_person_status(examples: list[PersonExample]) -> tuple[PersonStatusModel, dict]:
    """The model with the L2 weight of lowest cross-validated log loss, fitted on every example; the settings
    and the cross-validated log loss and accuracy (probability 0.5 against the label) of each output, beside
    the accuracy of the extracted role (victim or suspect) and status alone."""
    from kg_count.learning.linear_model import train

    grid = settings().training.person_status_l2_grid
    trials = {l2: cross_validated(examples, l2) for l2 in grid}
    losses = {l2: log_loss(examples, held) for l2, held in trials.items()}
    l2 = min(grid, key=lambda value: (losses[value], value))

    def share(right: list[bool]) -> float:
        return round(100 * sum(right) / max(1, len(right)), 2)

    held = trials[l2]
    accuracy = {
        output: share(
            [(p >= 0.5) == bool(e.labels[output]) for e, p in zip(examples, held[output]) if learns_from(e, output)]
        )
        for output in OUTPUTS
    }
    takes_part = [any(f"role:{r}" in e.features for r in ("victim", "suspect")) for e in examples]
    extracted = {"participant": share([t == bool(e.labels["participant"]) for t, e in zip(takes_part, examples)])}
    for status in STATUSES:
        extracted[status] = share(
            [(f"status:{status}" in e.features) == bool(e.labels[status]) for e in examples if e.labels["participant"]]
        )
    models = {
        output: train([(e.features, e.labels[output]) for e in examples if learns_from(e, output)], l2=l2)
        for output in OUTPUTS
    }
    return PersonStatusModel(models), {
        "l2": l2,
        "people": len(examples),
        "log_loss": {str(k): round(v, 4) for k, v in losses.items()},
        "cross_validated_accuracy": accuracy,
        "extracted_role_and_status_accuracy": extracted,
    }
