"""Training data and cross-validation for the QA scorers, from the shared TORQUE, ESTER and TimeBank data.

Every passage is read once: parsed, encoded (the encoder's token vectors, kept on disk under
``$KG_COUNT_ENCODER_CACHE`` when set), and turned into examples, each tagged with its passage's
fold key. Relation and status examples are built over the passage's *annotated* events (gold
triggers are training data; at answering time events come from the trigger scorer):

- triggers: every token of the TORQUE and ESTER passages, labelled by the trigger annotation;
- temporal: TORQUE questions (is the event a majority answer of "what happened before/after/
  during X") and MATRES pairs of TimeBank documents (BEFORE/AFTER/EQUAL, both directions);
- status: the TORQUE warm-up questions;
- TORQUE's train passages (TORQUESTRA: answer words without offsets, events only those that answer
  some question) give temporal and status examples, never trigger examples (an event no question
  answers is unlabeled there, not a non-event), and are trained on in every fold: they are never
  scored, and none of their source documents gives a dev passage;
- semantic: ESTER train answers and the released test file's answer triggers.

Folds split by source document (a TORQUE passage's ``docid``, shared by the passages cut from one news
document), ESTER passage or TimeBank document, so no passage, nor another passage of its document, is both
trained on and scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from kg_count.learning.folds import hashed_fold
from kg_count.io.atomic import read_json
from kg_count.progress import progress
from kg_count.learning.linear_model import Example, LinearModel
from kg_count.qa.learned.thresholds import threshold_from
from kg_count.qa.inputs.readers import parse_offsets, read_ester, torque_questions

if TYPE_CHECKING:
    from kg_count.qa.learned.answer_ranking import AnswerRanker

_TORQUE_PASSAGE = re.compile(r"^docid_(.+)_sentid_\d+$")
MATRES_LABELS = {"BEFORE": "before", "AFTER": "after", "EQUAL": "overlaps"}
TRAIN_ONLY = "train:"  # the fold key's prefix of examples trained on in every fold and never scored
INVERSE = {"before": "after", "after": "before", "overlaps": "overlaps"}


def source_document(passage_id: str) -> str:
    """The source document of a passage: a TORQUE ``docid_X_sentid_N`` id gives ``X``; any other id is
    its own document (ESTER passages, TimeBank documents)."""
    match = _TORQUE_PASSAGE.match(passage_id)
    return match.group(1) if match else passage_id


def fold_of(passage_id: str, folds: int) -> int:
    """A stable fold number for a passage or document: a hash of its source document's id, so that passages
    of one news document never fall in different folds."""
    return hashed_fold(source_document(passage_id), folds)


def torque_triggers(passages: dict, path: Path) -> dict[str, set]:
    """``{passageID: {(start, end) of annotated triggers}}`` from TORQUE passages' ``events`` (``passages`` as
    the TORQUE file ``path`` holds them)."""
    triggers = {}
    for pid, entry in passages.items():
        spans = set()
        groups = entry.get("events") or []
        for group in [groups] if isinstance(groups, dict) else groups:
            spans |= {parse_offsets(i, path, pid) for i in group.get("answer", {}).get("indices", [])}
        triggers[pid] = spans
    return triggers


@dataclass
class ExampleSet:
    """Examples of one scorer, each with its fold key, and the vectors they point to."""

    examples: list[tuple[str, Example]] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)
    _last: object = None

    def add(self, key: str, features, label: int, vector=None, blocks=(), weight: float = 1.0) -> None:
        """Add one example (its log loss weighing ``weight``); consecutive examples passing the same vector
        object share its row."""
        row = -1
        if vector is not None:
            if vector is not self._last:
                self.vectors.append(np.asarray(vector, dtype=np.float16))
                self._last = vector
            row = len(self.vectors) - 1
        self.examples.append((key, Example(features, int(label), row, tuple(blocks), weight)))

    def matrix(self) -> np.ndarray | None:
        """The vectors as one float16 matrix (None when no example has one)."""
        return np.stack(self.vectors) if self.vectors else None


def _tokens_at(doc, spans: Iterable[tuple[int, int]]) -> list[int]:
    """The tokens whose text starts each span (or contains its start)."""
    by_start = {t.idx: t.i for t in doc}
    found = []
    for start, _ in spans:
        if start in by_start:
            found.append(by_start[start])
        else:
            inside = [t.i for t in doc if t.idx <= start < t.idx + len(t)]
            found += inside[:1]
    return found


def gold_analysis(passage_id: str, text: str, spans: Iterable[tuple[int, int]]):
    """The passage with its annotated events (no graph): parse, events and encoder vectors."""
    from kg_count.qa.passage_graph.analysis import AnalysedPassage
    from kg_count.qa.passage_graph.vectors import cached_token_vectors
    from kg_count.qa.passage_graph.passage import events_at, parse

    doc = parse(text)
    return AnalysedPassage(doc, events_at(doc, _tokens_at(doc, spans)), None, cached_token_vectors(doc))


def _add_triggers(data: ExampleSet, key: str, analysis, gold_tokens: set[int], style: str, weight: float = 1.0) -> None:
    from kg_count.qa.passage_graph.passage import candidate_tokens, trigger_blocks, trigger_features

    for token in candidate_tokens(analysis.doc):
        data.add(
            key,
            trigger_features(token, style),
            token.i in gold_tokens,
            analysis.vectors[token.i],
            trigger_blocks(style),
            weight,
        )


@dataclass
class TrainingData:
    """All examples of the four scorers, and the MATRES pairs for measuring pairwise order."""

    triggers: ExampleSet = field(default_factory=ExampleSet)
    temporal: ExampleSet = field(default_factory=ExampleSet)
    status: ExampleSet = field(default_factory=ExampleSet)
    semantic: ExampleSet = field(default_factory=ExampleSet)
    matres: list[tuple[str, list[str], np.ndarray, str]] = field(default_factory=list)


def _add_matres(data: TrainingData, timebank: Path, weight: float) -> None:
    """Add temporal examples from the MATRES pairs of the TimeML documents under ``timebank`` (both orders of
    each pair, every example weighing ``weight``; a VAGUE pair only to ``data.matres``, for measuring)."""
    from kg_count.qa.inputs.timeml import read_timebank
    from kg_count.qa.passage_graph.relation_features import crossed, pair_vector, relation_pair_features

    documents, pairs = read_timebank(timebank)
    by_document: dict[str, list] = {}
    for doc_id, first, second, relation in pairs:
        by_document.setdefault(doc_id, []).append((first, second, relation))
    for doc_id, doc_pairs in progress(
        by_document.items(), "TimeBank documents", total=len(by_document), unit="document"
    ):
        document = documents.get(doc_id)
        if document is None:
            continue
        instances = {e.eiid: e for e in document.events}
        analysis = gold_analysis(doc_id, document.text, [(e.start, e.end) for e in document.events])
        event_at = {e.start: e for e in analysis.events}
        for first, second, relation in doc_pairs:
            if first not in instances or second not in instances:
                continue
            e1, e2 = event_at.get(instances[first].start), event_at.get(instances[second].start)
            if e1 is None or e2 is None or e1 is e2:
                continue
            for event, anchor, label in (
                (e1, e2, MATRES_LABELS.get(relation)),
                (e2, e1, INVERSE.get(MATRES_LABELS.get(relation))),
            ):
                features = relation_pair_features(analysis.doc, event, anchor) + ["source=matres"]
                vector = pair_vector(analysis.vectors, event, anchor)
                if event is e1:
                    data.matres.append((doc_id, features, vector, relation))
                if label is None:
                    continue
                for name in MATRES_LABELS.values():
                    data.temporal.add(
                        f"timebank:{doc_id}", crossed(name, features), name == label, vector, (name,), weight
                    )


def _add_torque_passages(
    data: TrainingData, passages: dict, path: Path, style: str | None, weight: float, prefix: str = ""
) -> None:
    """Add the trigger, temporal and status examples of TORQUE-format ``passages`` (as read from ``path``):
    triggers in annotation ``style`` (none when ``style`` is None), every example weighing ``weight``, fold
    keys ``prefix`` + passage id. Silver passages' questions were judged over some events only
    (``judged``); the others give no example."""
    from kg_count.qa.datasets import torque
    from kg_count.qa.passage_graph.analysis import by_passage
    from kg_count.qa.learned.silver_questions import judged_spans

    triggers = torque_triggers(passages, path)
    groups = by_passage(torque_questions(passages, path))
    for text, items in progress(groups.items(), f"{path.name} passages", total=len(groups), unit="passage"):
        passage_id = items[0].passage_id
        key = prefix + passage_id
        analysis = gold_analysis(key, text, triggers.get(passage_id, ()))
        if style is not None:
            _add_triggers(data.triggers, key, analysis, {e.token for e in analysis.events}, style, weight)
        judged = judged_spans(passages[passage_id])
        for kind, features, label, vector, blocks in torque.training_examples(analysis, items, judged):
            getattr(data, kind).add(key, features, label, vector, blocks, weight)


def collect(
    torque_paths: Iterable[Path],
    ester_paths: Iterable[Path],
    timebank: Path | None,
    silver: dict | None = None,
    silver_weight: float = 1.0,
    matres_weight: float = 1.0,
    torque_train: Iterable[Path] = (),
    torque_train_weight: float = 1.0,
) -> TrainingData:
    """Read every passage once and build all training examples (fold key = passage or document id): the
    TORQUE files', the ESTER files', the MATRES pairs of the TimeML documents under ``timebank``, and the
    ``silver`` TORQUE passages (kg_count.qa.learned.silver_questions, triggers in TimeML's annotation style),
    whose examples weigh ``silver_weight``; a MATRES pair's examples weigh ``matres_weight`` against a real
    TORQUE question's 1; the ``torque_train`` files' (TORQUE's train split, trained on in every fold, no
    trigger examples) weigh ``torque_train_weight``."""
    from kg_count.qa.datasets import ester
    from kg_count.qa.passage_graph.analysis import by_passage

    data = TrainingData()
    for torque_path in torque_paths:
        _add_torque_passages(data, read_json(torque_path), torque_path, "torque", 1.0)
    for train_path in torque_train:
        _add_torque_passages(data, read_json(train_path), train_path, None, torque_train_weight, TRAIN_ONLY)
    if silver:
        _add_torque_passages(data, silver, Path("silver TORQUE questions"), "timeml", silver_weight)
    ester_questions = [q for path in ester_paths for q in read_ester(path)]
    seen_triggers: set[str] = set()
    groups = by_passage(ester_questions)
    for text, items in progress(groups.items(), "ESTER passages", total=len(groups), unit="passage"):
        key = items[0].passage_id
        spans = sorted({s for q in items for s in q.passage_triggers})
        analysis = gold_analysis(key, text, spans)
        if key not in seen_triggers:
            seen_triggers.add(key)
            _add_triggers(data.triggers, key, analysis, {e.token for e in analysis.events}, "ester")
        for features, label, vector, blocks in ester.training_examples(analysis, items):
            data.semantic.add(key, features, label, vector, blocks)
    if timebank:
        _add_matres(data, timebank, matres_weight)
    return data


def _fold_id(key: str) -> str:
    return key.removeprefix("timebank:")


def train_models(
    data: TrainingData, keep: Callable[[str], bool] = lambda key: True, torque_thresholds: dict | None = None
):
    """The four scorers trained on the examples whose passage/document id passes ``keep`` and on every
    train-only example (TORQUE's train passages).

    Returns a QAModels fitted with the penalties of the [qa_training] settings, each carrying that
    section and its decision thresholds: the trigger model's by annotation style (from the settings), the
    temporal model's by relation asked and the status model's by status from ``torque_thresholds``
    (``{asked: threshold}``, as ``thresholds.choose_torque_thresholds`` chooses them; 0.5 where absent).
    """
    from dataclasses import asdict

    from kg_count.learning.linear_model import train
    from kg_count.qa.passage_graph.analysis import STATUSES, TEMPORAL_RELATIONS
    from kg_count.qa.learned.model_set import SCORERS, QAModels
    from kg_count.settings import settings

    chosen_settings = settings().qa_training
    values = asdict(chosen_settings)
    models = {}
    for name in SCORERS:
        examples: ExampleSet = getattr(data, name)
        chosen = [e for key, e in examples.examples if key.startswith(TRAIN_ONLY) or keep(_fold_id(key))]
        models[name] = train(
            chosen, l2=values[f"{name}_l2"], vectors=examples.matrix(), dense_l2=values[f"{name}_vector_l2"]
        )
        models[name].threshold = values.get(f"{name}_threshold", 0.5)
        models[name].trained_with = {"qa_training": values}
    models["triggers"].thresholds = {
        "torque": chosen_settings.torque_trigger_threshold,
        "ester": chosen_settings.ester_trigger_threshold,
    }
    for name, asked in (("temporal", TEMPORAL_RELATIONS), ("status", STATUSES)):
        models[name].thresholds = {kind: (torque_thresholds or {}).get(kind, 0.5) for kind in asked}
    return QAModels(**models)


def matres_predictions(data: TrainingData, models, keep: Callable[[str], bool]) -> list[tuple[str, str]]:
    """(gold, predicted) MATRES relation of every pair of the documents passing ``keep`` (VAGUE gold
    pairs included; the prediction is the likeliest of before, after and overlaps)."""
    from kg_count.qa.passage_graph.relation_features import crossed

    results = []
    labels = {v: k for k, v in MATRES_LABELS.items()}
    for doc_id, features, vector, gold in data.matres:
        if not keep(doc_id):
            continue
        scores = {name: models.temporal.logit(crossed(name, features), vector, (name,)) for name in labels}
        results.append((gold, labels[max(scores, key=scores.get)]))
    return results


def matres_f1(pairs: list[tuple[str, str]]) -> dict:
    """Micro F1 over BEFORE/AFTER/EQUAL pairs (VAGUE gold pairs excluded), and per relation."""
    scored = [(g, p) for g, p in pairs if g != "VAGUE"]
    result = {"pairs": len(scored), "f1": 100.0 * sum(g == p for g, p in scored) / max(1, len(scored))}
    for relation in ("BEFORE", "AFTER", "EQUAL"):
        tp = sum(g == p == relation for g, p in scored)
        predicted, gold = sum(p == relation for _, p in scored), sum(g == relation for g, _ in scored)
        precision, recall = tp / max(1, predicted), tp / max(1, gold)
        result[relation] = 100.0 * (2 * precision * recall / (precision + recall) if tp else 0.0)
    return result


def cross_validate(data: TrainingData, torque_questions: list, ester_questions: dict, folds: int = 5) -> dict:
    """Predictions for every TORQUE question (``torque_questions``), ESTER question (``{path:
    [EsterQuestion]}``) and MATRES pair by models trained on the other folds' passages / documents:
    ``{"torque": {...}, "torque_candidates": {...}, "ester": {path: {...}}, "ester_candidates":
    {path: {...}}, "matres": [(gold, pred)]}``; the candidates carry every
    confidence, for choosing TORQUE's thresholds and fitting ESTER's answer ranker. ESTER answers
    here trust the confidence alone (the folds' models have no fitted ranker)."""
    from kg_count.qa.datasets import ester, torque
    from kg_count.qa.learned.thresholds import predictions_with

    result = {
        "torque": {},
        "torque_candidates": {},
        "ester": {path: {} for path in ester_questions},
        "ester_candidates": {path: {} for path in ester_questions},
        "matres": [],
    }
    for fold in range(folds):
        models = train_models(data, lambda pid: fold_of(pid, folds) != fold)
        held_out = lambda pid: fold_of(pid, folds) == fold  # noqa: E731
        candidates = torque.torque_candidates_of([q for q in torque_questions if held_out(q.passage_id)], models)
        result["torque_candidates"].update(candidates)
        result["torque"].update(predictions_with(candidates, lambda c: torque.asked_threshold(c, models)))
        for path, questions in ester_questions.items():
            candidates = ester.ester_candidates_of([q for q in questions if held_out(q.passage_id)], models)
            result["ester_candidates"][path].update(candidates)
            result["ester"][path].update(ester.ranked_answers(candidates, models.answer_ranker))
        result["matres"] += matres_predictions(data, models, held_out)
    return result


def nested_threshold_predictions(questions: list, candidates: dict, folds: int) -> tuple[dict, dict]:
    """TORQUE predictions whose thresholds were chosen without the scored passage's fold, and the
    thresholds chosen on all folds: ``(predictions, {asked: threshold})``."""
    from kg_count.qa.learned.thresholds import choose_torque_thresholds, predictions_with, threshold_from

    predictions = {}
    for fold in range(folds):
        chosen = choose_torque_thresholds([q for q in questions if fold_of(q.passage_id, folds) != fold], candidates)
        scored = {pid: found for pid, found in candidates.items() if fold_of(pid, folds) == fold}
        predictions.update(predictions_with(scored, threshold_from(chosen)))
    return predictions, choose_torque_thresholds(questions, candidates)


def gate_items(questions: Iterable, candidates: dict, thresholds: dict[str, float]) -> list:
    """``(question, candidates, threshold, kind)`` of each TORQUE question, for the answer-nothing gate, with
    its kind's threshold of ``thresholds`` (0.5 where absent)."""
    from kg_count.qa.passage_graph.question_parsing import parse_temporal_question

    items = []
    for q in questions:
        found = (candidates.get(q.passage_id) or {}).get(q.question)
        threshold = threshold_from(thresholds)(found) if found is not None else 0.5
        items.append((q, found, threshold, parse_temporal_question(q.question).kind))
    return items


def nested_gate_predictions(questions: list, candidates: dict, folds: int) -> tuple[dict, LinearModel]:
    """TORQUE predictions decided by thresholds and an answer-nothing gate (kg_count.qa.learned.answer_nothing)
    all chosen without the scored passage's fold, and the gate fitted on all folds (its thresholds chosen on
    cross-fitted probabilities, the per-event thresholds on all folds): ``(predictions, gate)``."""
    from kg_count.qa.learned.answer_nothing import decided_spans, fit_gate
    from kg_count.qa.learned.thresholds import choose_torque_thresholds
    from kg_count.settings import settings

    l2 = settings().qa_training.answer_nothing_l2
    by_fold = lambda q: fold_of(q.passage_id, folds)  # noqa: E731
    predictions: dict = {}
    for fold in range(folds):
        kept = [q for q in questions if by_fold(q) != fold]
        thresholds = choose_torque_thresholds(kept, candidates)
        gate = fit_gate(gate_items(kept, candidates, thresholds), by_fold, folds, l2)
        for q, found, threshold, kind in gate_items(
            [q for q in questions if by_fold(q) == fold], candidates, thresholds
        ):
            spans = decided_spans(found, threshold, gate, kind)
            predictions.setdefault(q.passage_id, {})[q.question] = [list(s) for s in spans]
    thresholds = choose_torque_thresholds(questions, candidates)
    return predictions, fit_gate(gate_items(questions, candidates, thresholds), by_fold, folds, l2)


def nested_ranker_predictions(questions: dict, candidates: dict, folds: int) -> tuple[dict, AnswerRanker]:
    """ESTER predictions ranked by answer rankers fitted without the scored passage's fold, and the
    ranker fitted on all folds: ``({path: {index: [phrase, ...]}}, ranker)``. ``questions`` and
    ``candidates`` are ``{path: [EsterQuestion]}`` and ``{path: {index: QuestionCandidates | None}}``."""
    from kg_count.qa.learned.answer_ranking import train_answer_ranker
    from kg_count.qa.datasets.ester import ranked_answers
    from kg_count.settings import settings

    limit = settings().reading.max_ester_answers
    pairs = [
        (fold_of(q.passage_id, folds), q, candidates[path].get(str(q.index)))
        for path in questions
        for q in questions[path]
    ]
    predictions = {path: {} for path in questions}
    for fold in range(folds):
        ranker = train_answer_ranker([(q, c) for f, q, c in pairs if f != fold], limit)
        for path, items in questions.items():
            held_out = {str(q.index) for q in items if fold_of(q.passage_id, folds) == fold}
            scored = {index: c for index, c in candidates[path].items() if index in held_out}
            predictions[path].update(ranked_answers(scored, ranker))
    return predictions, train_answer_ranker([(q, c) for _, q, c in pairs], limit)
