"""Training data and cross-validation for the QA models, from the shared TORQUE and ESTER files.

Trigger examples: every token of a passage, labelled by the passage's trigger annotation
(TORQUE ``events``, ESTER ``original_events``) — used for training only, never at run time.
Folds split by passage, so no passage is both trained on and scored.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable

from kg_count.io.atomic import read_json
from kg_count.qa.readers import parse_offsets, read_ester


def fold_of(passage_id: str, folds: int) -> int:
    """A stable fold number for a passage (hash of its id)."""
    return int(hashlib.sha1(passage_id.encode()).hexdigest(), 16) % folds


def annotated_passages(torque: Path | None, ester: Iterable[Path] = ()) -> dict[str, tuple[str, set]]:
    """``{passage key: (text, {(start, end) of gold triggers})}`` from TORQUE and ESTER files."""
    passages: dict[str, tuple[str, set]] = {}
    if torque:
        for pid, entry in read_json(torque).items():
            spans = set()
            groups = entry.get("events") or []
            for group in [groups] if isinstance(groups, dict) else groups:
                spans |= {parse_offsets(i, torque, pid) for i in group.get("answer", {}).get("indices", [])}
            passages[f"torque:{pid}"] = (entry["passage"], spans)
    for path in ester:
        for question in read_ester(path):
            passages.setdefault(f"ester:{question.passage_id}", (question.passage, set(question.passage_triggers)))
    return passages


def trigger_examples(passages: dict[str, tuple[str, set]], keys: Iterable[str]) -> list[tuple[list[str], int]]:
    """(features, label) for every non-punctuation token of the given passages."""
    from kg_count.qa.passage import parse, trigger_features

    examples = []
    for key in keys:
        text, gold = passages[key]
        style = key.split(":", 1)[0]
        starts = {s for s, _ in gold}
        for token in parse(text):
            if token.is_punct or token.is_space:
                continue
            examples.append((trigger_features(token, style), int(token.idx in starts)))
    return examples


def _fold_key(passage_key: str) -> str:
    return passage_key.split(":", 1)[1]


def train_models(torque_path: Path, ester_paths: list[Path], passage_filter=lambda key: True):
    """Train the four QA scorers on the given files (passages failing ``passage_filter`` left out).

    Returns a QAModels with the default thresholds of kg_count.qa.models.
    """
    from kg_count.qa import ester, torque
    from kg_count.qa.linear_model import train
    from kg_count.qa.models import DECISION_THRESHOLDS, QAModels
    from kg_count.qa.readers import read_ester, read_torque

    passages = annotated_passages(torque_path, ester_paths)
    triggers = train(trigger_examples(passages, [k for k in passages if passage_filter(_fold_key(k))]))
    base = QAModels(triggers)
    torque_questions = [q for q in read_torque(torque_path) if passage_filter(q.passage_id)]
    examples = list(torque.training_examples(torque_questions, base))
    temporal = train([(x, y) for kind, x, y in examples if kind == "temporal"])
    status = train([(x, y) for kind, x, y in examples if kind == "status"])
    ester_questions = [q for path in ester_paths[:1] for q in read_ester(path) if passage_filter(q.passage_id)]
    semantic = train(list(ester.training_examples(ester_questions, base)))
    for name, model in (("temporal", temporal), ("status", status), ("semantic", semantic)):
        model.threshold = DECISION_THRESHOLDS[name]
    return QAModels(triggers, temporal, status, semantic)


def cross_validate(torque_path: Path, ester_paths: list[Path], folds: int = 5) -> tuple[dict, dict]:
    """Predictions for every TORQUE and ESTER question by models trained on the other folds' passages.

    Returns (TORQUE predictions, ESTER predictions for the questions of ``ester_paths[0]``, by index).
    """
    from kg_count.qa import ester, torque
    from kg_count.qa.readers import read_ester, read_torque

    torque_questions = read_torque(torque_path)
    ester_questions = read_ester(ester_paths[0])
    torque_predictions, ester_predictions = {}, {}
    for fold in range(folds):
        models = train_models(torque_path, ester_paths, lambda pid: fold_of(pid, folds) != fold)
        torque_predictions.update(torque.answer_torque(
            [q for q in torque_questions if fold_of(q.passage_id, folds) == fold], models))
        ester_predictions.update(ester.answer_ester(
            [q for q in ester_questions if fold_of(q.passage_id, folds) == fold], models))
    return torque_predictions, ester_predictions
