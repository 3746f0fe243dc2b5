"""Readers for the TORQUE and ESTER JSON files.

Offsets are character offsets into the passage (``"(start,end)"`` in the files, end exclusive).
A file that does not have the documented shape raises InputError naming the file and the item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kg_count.errors import InputError
from kg_count.io.atomic import read_json

Span = tuple[int, int]
_OFFSETS = re.compile(r"^\(\s*(\d+)\s*,\s*(\d+)\s*\)$")


@dataclass(frozen=True)
class TorqueQuestion:
    """One TORQUE question: its passage, the text, and each annotator's answer (a tuple of spans)."""

    passage_id: str
    passage: str
    question: str
    is_default: bool
    cluster_id: str
    answers: tuple[tuple[Span, ...], ...] = ()


@dataclass(frozen=True)
class EsterQuestion:
    """One ESTER question: its index in the input list, passage, text, gold type, answers and triggers."""

    index: int
    passage_id: str
    passage: str
    question: str
    type: str
    answer_texts: tuple[str, ...] = ()
    answer_spans: tuple[Span, ...] = ()
    gold_triggers: tuple[str, ...] = field(default=())


def parse_offsets(text: str, path: Path, item: str) -> Span:
    """Read ``"(start,end)"``; InputError naming ``path`` and ``item`` when it is not that."""
    match = _OFFSETS.match(str(text).strip())
    if not match:
        raise InputError(f"offsets {text!r} are not '(start,end)'", path, item=item)
    return int(match.group(1)), int(match.group(2))


def _require(mapping: object, key: str, path: Path, item: str):
    if not isinstance(mapping, dict) or key not in mapping:
        raise InputError(f"missing field {key!r}", path, item=item)
    return mapping[key]


def read_torque(path: str | Path) -> list[TorqueQuestion]:
    """Read a TORQUE file (``{passageID: {passage, question_answer_pairs: {...}}}``) into questions.

    Gold answers are read when present (``individual_answers``, else ``answer``); a test file
    without them gives questions with no answers.
    """
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object of passages", path)
    questions = []
    for passage_id, entry in data.items():
        passage = _require(entry, "passage", path, passage_id)
        pairs = _require(entry, "question_answer_pairs", path, passage_id)
        if not isinstance(pairs, dict):
            raise InputError("question_answer_pairs is not an object", path, item=passage_id)
        for question, qa in pairs.items():
            item = f"{passage_id}: {question!r}"
            qa = qa or {}
            if not isinstance(qa, dict):
                raise InputError("question entry is not an object", path, item=item)
            annotator_sets = qa.get("individual_answers") or ([qa["answer"]] if qa.get("answer") else [])
            answers = tuple(
                tuple(parse_offsets(i, path, item) for i in (one or {}).get("indices", []))
                for one in annotator_sets)
            for spans in answers:
                for start, end in spans:
                    if not 0 <= start < end <= len(passage):
                        raise InputError(f"answer offsets ({start},{end}) outside the passage", path, item=item)
            questions.append(TorqueQuestion(passage_id, passage, question, bool(qa.get("is_default_question")),
                                            str(qa.get("cluster_id", "")), answers))
    return questions


def read_torque_clusters(path: str | Path) -> dict[str, list[list[str]]]:
    """Read TORQUE contrast groups: ``{passageID: [[question, ...], ...]}``."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object of passages", path)
    return {pid: [list(q) for q in (groups.values() if isinstance(groups, dict) else groups)]
            for pid, groups in data.items()}


def _ester_gold_triggers(entry: dict, spans: tuple[Span, ...], context: str, path: Path, item: str) -> tuple[str, ...]:
    """The answers' event triggers: the ``events`` field, else the passage triggers inside an answer span."""
    if entry.get("events"):
        return tuple(str(e).lower() for e in entry["events"])
    triggers = []
    for group in entry.get("original_events") or []:
        answer = (group or {}).get("answer") or {}
        for offsets in answer.get("indices", []):
            start, end = parse_offsets(offsets, path, item)
            if any(a <= start and end <= b for a, b in spans):
                triggers.append(context[start:end].lower())
    return tuple(triggers)


def read_ester(path: str | Path) -> list[EsterQuestion]:
    """Read an ESTER file (a JSON list of questions) into questions; index = position in the list."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, list):
        raise InputError("expected a JSON list of questions", path)
    questions = []
    for index, entry in enumerate(data):
        item = f"question {index}"
        context = _require(entry, "context", path, item)
        question = _require(entry, "question", path, item)
        if not isinstance(context, str) or not context.strip():
            raise InputError("empty context", path, item=item)
        spans = tuple(parse_offsets(i, path, item) for i in entry.get("answer_indices") or [])
        questions.append(EsterQuestion(
            index, str(entry.get("passageID", index)), context, question, str(entry.get("type", "")),
            tuple(entry.get("answer_texts") or []), spans,
            _ester_gold_triggers(entry, spans, context, path, item)))
    return questions
