"""Readers for the TORQUE and ESTER JSON files.

Offsets are character offsets into the passage (``"(start,end)"`` in the files, end exclusive).
A file that does not have the documented shape raises InputError naming the file and the item.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kg_count.errors import InputError
from kg_count.io.atomic import read_json

Span = tuple[int, int]
_OFFSETS = re.compile(r"^\(\s*(\d+)\s*,\s*(\d+)\s*\)$")


@dataclass(frozen=True)
class TorqueQuestion:
    """One TORQUE question: its passage, the text, and each annotator's answer (a tuple of spans).

    ``unsure`` holds the offsets of answer words the file could not place (TORQUESTRA's train passages
    give answer words without offsets: a word found more than once in the passage is at one of its
    offsets, unknown which); training leaves every one of them out of the question's loss.
    """

    passage_id: str
    passage: str
    question: str
    is_default: bool
    cluster_id: str
    answers: tuple[tuple[Span, ...], ...] = ()
    unsure: tuple[Span, ...] = ()


@dataclass(frozen=True)
class EsterQuestion:
    """One ESTER question: its index in the input list, passage, text, gold type, answers and triggers.

    ``gold_triggers`` are the answers' trigger words (offsets in ``gold_trigger_spans`` where the
    passage annotation gives them); ``passage_triggers`` all annotated trigger offsets of the passage.
    """

    index: int
    passage_id: str
    passage: str
    question: str
    type: str
    answer_texts: tuple[str, ...] = ()
    answer_spans: tuple[Span, ...] = ()
    gold_triggers: tuple[str, ...] = field(default=())
    gold_trigger_spans: tuple[Span, ...] = ()
    passage_triggers: tuple[Span, ...] = ()


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
    return torque_questions(read_json(path), path)


def torque_questions(data: object, path: Path) -> list[TorqueQuestion]:
    """The questions of TORQUE passages already read (``data``, as a TORQUE file holds them); InputError
    naming ``path`` and the passage or question when they do not have that shape."""
    if not isinstance(data, dict):
        raise InputError("expected a JSON object of passages", path)
    questions = []
    for passage_id, entry in data.items():
        passage = _require(entry, "passage", path, passage_id)
        if not isinstance(passage, str):
            raise InputError("passage is not a string", path, item=passage_id)
        pairs = _require(entry, "question_answer_pairs", path, passage_id)
        if not isinstance(pairs, dict):
            raise InputError("question_answer_pairs is not an object", path, item=passage_id)
        for question, qa in pairs.items():
            item = f"{passage_id}: {question!r}"
            qa = qa or {}
            if not isinstance(qa, dict):
                raise InputError("question entry is not an object", path, item=item)
            annotator_sets = _annotator_answers(qa, path, item)
            answers = tuple(
                tuple(parse_offsets(i, path, item) for i in one.get("indices", [])) for one in annotator_sets
            )
            for spans in answers:
                for start, end in spans:
                    if not 0 <= start < end <= len(passage):
                        raise InputError(f"answer offsets ({start},{end}) outside the passage", path, item=item)
            unsure = tuple(
                parse_offsets(i, path, item)
                for one in annotator_sets
                for group in _unsure_groups(one, path, item)
                for i in group
            )
            questions.append(
                TorqueQuestion(
                    passage_id,
                    passage,
                    question,
                    bool(qa.get("is_default_question")),
                    str(qa.get("cluster_id", "")),
                    answers,
                    unsure,
                )
            )
    return questions


def _annotator_answers(qa: dict, path: Path, item: str) -> list[dict]:
    """The gold answers of one question entry: ``individual_answers`` (one per annotator), else ``answer``, each an
    object whose ``indices`` list offsets (an empty entry is no answer); InputError naming ``path`` and ``item`` when
    they are not that."""
    answers = qa.get("individual_answers") or ([qa["answer"]] if qa.get("answer") else [])
    if not isinstance(answers, list):
        raise InputError("individual_answers is not a list of answers", path, item=item)
    answers = [one or {} for one in answers]
    if not all(isinstance(one, dict) and isinstance(one.get("indices", []), list) for one in answers):
        raise InputError("an answer is not an object with a list of indices", path, item=item)
    return answers


def _unsure_groups(answer: object, path: Path, item: str) -> list:
    """The ``ambiguous_indices`` of one answer (a list of offset lists, one per ambiguous word); InputError
    when the field is there but not that."""
    if not isinstance(answer, dict):
        return []
    groups = answer.get("ambiguous_indices") or []
    if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
        raise InputError("ambiguous_indices is not a list of offset lists", path, item=item)
    return groups


def read_torque_clusters(path: str | Path) -> dict[str, list[list[str]]]:
    """Read TORQUE contrast groups: ``{passageID: [[question, ...], ...]}``."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object of passages", path)
    return {
        pid: [list(q) for q in (groups.values() if isinstance(groups, dict) else groups)]
        for pid, groups in data.items()
    }


def read_torque_files(paths: Iterable[str | Path]) -> list[TorqueQuestion]:
    """The questions of several TORQUE files, in file order."""
    return [question for path in paths for question in read_torque(path)]


def torque_clusters_beside(paths: Iterable[str | Path]) -> dict[str, list[list[str]]]:
    """The contrast groups of several TORQUE files, each read from ``<stem>_question_clustering.json`` beside
    it (a file without one contributes none)."""
    clusters: dict[str, list[list[str]]] = {}
    for path in map(Path, paths):
        beside = path.with_name(f"{path.stem}_question_clustering.json")
        if beside.exists():
            clusters.update(read_torque_clusters(beside))
    return clusters


def _string_list(entry: dict, key: str, path: Path, item: str) -> list[str]:
    """``entry[key]`` as a list of strings ([] when absent or null); InputError when it is something else."""
    value = entry.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{key} is not a list of strings", path, item=item)
    return value


def _trigger_group(group: object, path: Path, item: str) -> list[Span]:
    """One ``{"spans": [...], "indices": [...]}`` trigger annotation as (start, end) offsets."""
    if not isinstance(group, dict):
        raise InputError("original_events entry is not an object", path, item=item)
    return [parse_offsets(i, path, item) for i in _string_list(group, "indices", path, item)]


def ester_passage_triggers(entry: dict, context: str, path: Path, item: str) -> tuple[Span, ...]:
    """All annotated trigger offsets of the passage, from either shape of ``original_events``.

    Train files: a list of ``{"answer": {"spans", "indices"}}``; released dev/test files: one
    ``{"spans", "indices"}`` object. InputError naming ``path`` and ``item`` for anything else.
    """
    groups = entry.get("original_events")
    if groups is None:
        return ()
    if isinstance(groups, dict):
        spans = _trigger_group(groups, path, item)
    elif isinstance(groups, list):
        spans = []
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("answer", {}), dict):
                raise InputError('original_events entry is not {"answer": {...}}', path, item=item)
            spans += _trigger_group(group.get("answer") or {}, path, item)
    else:
        raise InputError("original_events is neither a list nor an object", path, item=item)
    for start, end in spans:
        if not 0 <= start < end <= len(context):
            raise InputError(f"trigger offsets ({start},{end}) outside the context", path, item=item)
    return tuple(sorted(set(spans)))


def _ester_gold_triggers(
    events: list[str], triggers: tuple[Span, ...], spans: tuple[Span, ...], context: str
) -> tuple[tuple[str, ...], tuple[Span, ...]]:
    """The answers' triggers (words, offsets): the ``events`` words (offsets: the passage triggers
    with those words), else the passage triggers inside an answer span."""
    if events:
        words = {e.lower() for e in events}
        return tuple(e.lower() for e in events), tuple(s for s in triggers if context[s[0] : s[1]].lower() in words)
    inside = tuple(s for s in triggers if any(a <= s[0] and s[1] <= b for a, b in spans))
    return tuple(context[s:e].lower() for s, e in inside), inside


def _passage_key(entry: dict, context: str, path: Path, item: str) -> str:
    """The item's ``passageID`` (a string or a number), else a stable name from the context (released files carry
    no id); InputError naming ``path`` and ``item`` for an id of another kind."""
    passage_id = entry.get("passageID")
    if passage_id in (None, ""):
        return "ctx-" + hashlib.sha1(context.encode("utf-8")).hexdigest()[:12]
    if isinstance(passage_id, bool) or not isinstance(passage_id, (str, int)):
        raise InputError("passageID is not a string or a number", path, item=item)
    return str(passage_id)


def read_ester(path: str | Path) -> list[EsterQuestion]:
    """Read an ESTER file (a JSON list of questions, either shape) into questions; index = position.

    Any malformed item raises InputError naming the file and ``question <index>``.
    """
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, list):
        raise InputError("expected a JSON list of questions", path)
    questions = []
    for index, entry in enumerate(data):
        item = f"question {index}"
        if not isinstance(entry, dict):
            raise InputError("item is not an object", path, item=item)
        context = _require(entry, "context", path, item)
        question = _require(entry, "question", path, item)
        if not isinstance(context, str) or not context.strip():
            raise InputError("empty context", path, item=item)
        if not isinstance(question, str) or not question.strip():
            raise InputError("empty question", path, item=item)
        spans = tuple(parse_offsets(i, path, item) for i in _string_list(entry, "answer_indices", path, item))
        for start, end in spans:
            if not 0 <= start < end <= len(context):
                raise InputError(f"answer offsets ({start},{end}) outside the context", path, item=item)
        texts = tuple(_string_list(entry, "answer_texts", path, item))
        triggers = ester_passage_triggers(entry, context, path, item)
        words, trigger_spans = _ester_gold_triggers(_string_list(entry, "events", path, item), triggers, spans, context)
        questions.append(
            EsterQuestion(
                index,
                _passage_key(entry, context, path, item),
                context,
                question,
                str(entry.get("type") or ""),
                texts,
                spans,
                words,
                trigger_spans,
                triggers,
            )
        )
    return questions
