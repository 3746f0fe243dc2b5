"""Answer files: gold (answer docs grouped by incident) and system (a flat document list)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Mapping

from kg_count.errors import InputError
from kg_count.io.atomic import read_json, write_json_atomic


@dataclass
class GoldAnswer:
    """A gold answer: the count, the answer documents per incident and, for S3, casualties per incident."""

    numerical_answer: int
    incidents: dict[str, list[str]]
    part_info: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def documents(self) -> set[str]:
        return {doc for docs in self.incidents.values() for doc in docs}


@dataclass
class SystemAnswer:
    """A system's answer: the count (None where a subtask asks none) and the answer documents."""

    numerical_answer: int | None
    documents: list[str]

    def to_json(self) -> dict:
        """The answer in the task's system-answer form (no count for S1)."""
        data: dict = {"answer_docs": list(self.documents)}
        if self.numerical_answer is not None:
            data["numerical_answer"] = self.numerical_answer
        return data


MAX_COUNT = 1_000_000


def _count(raw: Mapping, path: object, where: str, required: bool) -> int | None:
    value = raw.get("numerical_answer")
    if value is None and not required:
        return None
    whole = (
        not isinstance(value, bool)
        and isinstance(value, (int, float))
        and math.isfinite(value)
        and value == int(value)
        and 0 <= value <= MAX_COUNT
    )
    if not whole:
        raise InputError(
            f"numerical_answer must be a whole number from 0 to {MAX_COUNT:,}, got {value!r}", path, item=where
        )
    return int(value)


def _document_list(value: object, path: object, where: str, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(d, str) for d in value):
        raise InputError(f"{what} must be a list of document ids", path, item=where)
    return value


def _part_info(value: object, path: object, where: str) -> dict[str, dict[str, int]]:
    shape = "part_info must be {incident: {num_killed, num_injured, num_fired: whole numbers (NaN: unknown)}}"
    if not isinstance(value, Mapping) or not all(isinstance(v, Mapping) for v in value.values()):
        raise InputError(shape, path, item=where)
    info = {}
    for incident, counts in value.items():
        try:
            info[str(incident)] = {
                str(k): _count({"numerical_answer": n}, path, where, True)
                for k, n in counts.items()
                if not (isinstance(n, float) and math.isnan(n))
            }
        except InputError:
            raise InputError(shape, path, item=f"{where}, incident {incident}") from None
    return info


def _load_object(path: str | os.PathLike) -> Mapping:
    data = read_json(path)
    if not isinstance(data, Mapping):
        raise InputError("answers file must hold a JSON object keyed by question id", path)
    if not data:
        raise InputError("answers file holds no answers", path)
    return data


def read_gold_answers(path: str | os.PathLike) -> dict[str, GoldAnswer]:
    """Read a gold answers.json (``answer_docs`` as ``{incident: [doc, ...]}``)."""
    answers = {}
    for qid, raw in _load_object(path).items():
        where = f"question {qid}"
        if not isinstance(raw, Mapping) or not isinstance(raw.get("answer_docs"), Mapping):
            raise InputError("gold answer needs answer_docs as {incident: [documents]}", path, item=where)
        incidents = {
            str(inc): _document_list(docs, path, where, f"answer_docs of incident {inc}")
            for inc, docs in raw["answer_docs"].items()
        }
        answers[str(qid)] = GoldAnswer(
            _count(raw, path, where, True), incidents, _part_info(raw.get("part_info", {}), path, where)
        )
    return answers


def read_system_answers(path: str | os.PathLike) -> dict[str, SystemAnswer]:
    """Read a system answers.json (``answer_docs`` as a list; ``numerical_answer`` optional, as in S1)."""
    answers = {}
    for qid, raw in _load_object(path).items():
        where = f"question {qid}"
        if not isinstance(raw, Mapping):
            raise InputError("an answer must be a JSON object", path, item=where)
        docs = _document_list(raw.get("answer_docs", []), path, where, "answer_docs")
        answers[str(qid)] = SystemAnswer(_count(raw, path, where, False), docs)
    return answers


def write_system_answers(path: str | os.PathLike, answers: Mapping[str, SystemAnswer]) -> None:
    """Write system answers in the task's format, atomically."""
    write_json_atomic(path, {qid: answer.to_json() for qid, answer in answers.items()})
