"""Answering TORQUE questions from passage event graphs, and the examples its scorers learn from."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Iterator

from kg_count.progress import progress
from kg_count.qa.passage_graph.analysis import (
    AnalysedPassage,
    analyse_passage,
    by_passage,
    parsed_ahead,
    status_features,
)
from kg_count.qa.passage_graph.anchors import find_anchor
from kg_count.qa.passage_graph.relation_features import crossed, relation_pair_features, pair_vector
from kg_count.qa.learned.model_set import QAModels
from kg_count.qa.passage_graph.passage import PassageEvent, parse
from kg_count.qa.passage_graph.question_parsing import TemporalQuestion, is_warm_up, parse_temporal_question
from kg_count.qa.inputs.readers import TorqueQuestion
from kg_count.qa.learned.answer_nothing import decided_spans
from kg_count.qa.learned.thresholds import predictions_with
from kg_count.qa.learned.torque_candidates import Candidates

QUESTION_RELATIONS = {"before": "before", "after": "after", "during": "overlaps"}
NOT_YET_REAL = {"uncertain", "hypothetical", "intended"}


def fits_modality(event: PassageEvent, asked: frozenset) -> bool:
    """Whether an event can answer a question asked with the modality marks ``asked``.

    "might/may/could" and "will" questions ask for events not (yet) real: future status or an
    uncertain, hypothetical or intended mark; "not" questions ask for negated events. Questions
    without such marks take every event.
    """
    if "negated" in asked:
        return "negated" in event.modality or event.status == "future"
    if asked & {"uncertain", "future"}:
        return event.status == "future" or bool(event.modality & NOT_YET_REAL)
    return True


def question_anchor(analysis: AnalysedPassage, parsed: TemporalQuestion) -> PassageEvent | None:
    """The passage event a temporal question's anchor clause names, if any."""
    if not parsed.anchor_text:
        return None
    return find_anchor(analysis.events, analysis.doc, parse(parsed.anchor_text))


def torque_candidates(analysis: AnalysedPassage, question: str) -> Candidates | None:
    """Every event the graph relates to the question's anchor (or estimates a status for), with its
    confidence; None when the question names no relation or no passage event as its anchor.
    "might/will/not" questions keep only the events that fit their modality."""
    parsed = parse_temporal_question(question)
    if parsed.default:
        rows = analysis.graph.with_status(parsed.default, 0.0)
        fitting = [r for r in rows if fits_modality(analysis.event_at[r.begin], parsed.modality)]
        rows = tuple((r.begin, r.end, r.confidence) for r in fitting)
        return Candidates(parsed.default, "status", rows, -1, len(analysis.events), parsed.kind)
    anchor = question_anchor(analysis, parsed)
    relation = QUESTION_RELATIONS.get(parsed.relation)
    if anchor is None or relation is None:
        return None
    rows = analysis.graph.related(anchor, relation, 0.0)
    fitting = [r for r in rows if fits_modality(analysis.event_at[r.begin], parsed.modality)]
    return Candidates(
        relation,
        "temporal",
        tuple((r.begin, r.end, r.confidence) for r in fitting),
        anchor.start,
        len(analysis.events),
        parsed.kind,
    )


def asked_threshold(candidates: Candidates, models: QAModels) -> float:
    """The threshold of the scorer that decides ``candidates``, for what their question asks."""
    return getattr(models, candidates.scorer).threshold_for(candidates.asked)


def chosen_spans(candidates: Candidates | None, models: QAModels) -> list[tuple[int, int]]:
    """The answer: the candidates at or above their scorer's threshold for what the question asks, unless
    the answer-nothing gate (kg_count.qa.learned.answer_nothing) decides otherwise."""
    if candidates is None:
        return []
    return decided_spans(candidates, asked_threshold(candidates, models), models.answer_nothing, candidates.kind)


def answer_torque_question(analysis: AnalysedPassage, question: str, models: QAModels) -> list[tuple[int, int]]:
    """The trigger spans answering one question: a status query or a relation query over the graph."""
    return chosen_spans(torque_candidates(analysis, question), models)


def torque_candidates_of(questions: Iterable[TorqueQuestion], models: QAModels) -> dict:
    """``{passageID: {question: Candidates | None}}`` for every question; each passage analysed once."""
    groups = by_passage(questions)
    found = {}
    for text, items in progress(
        parsed_ahead(groups, encode=models.uses_encoder), "passages", total=len(groups), unit="passage"
    ):
        analysis = analyse_passage(items[0].passage_id, text, models, "torque")
        found[items[0].passage_id] = {q.question: torque_candidates(analysis, q.question) for q in items}
    return found


def answer_torque(questions: Iterable[TorqueQuestion], models: QAModels) -> dict:
    """``{passageID: {question: [[start, end], ...]}}`` for every question; each passage analysed once."""
    return predictions_with(
        torque_candidates_of(questions, models), lambda c: asked_threshold(c, models), models.answer_nothing
    )


def majority_spans(question: TorqueQuestion) -> set[tuple[int, int]]:
    """Spans more than half of the annotators gave."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for spans in question.answers:
        for span in set(spans):
            counts[span] += 1
    return {span for span, n in counts.items() if n * 2 > len(question.answers)}


def training_examples(
    analysis: AnalysedPassage, questions: Iterable[TorqueQuestion], judged: dict | None = None
) -> Iterator[tuple]:
    """("temporal"|"status", features, label, vector, blocks) for each event of ``analysis`` (the
    passage with its annotated events) and each of its questions with gold answers: is the event a
    majority answer? ``vector`` is the encoder's view of the event (status) or pair (temporal). With
    ``judged`` (``{question: {(start, end)}}``, silver questions), only the events a question's answer was
    judged over give examples. Events at a question's ``unsure`` offsets (an answer word the file could not
    place) give no example for that question."""
    vectors = analysis.vectors
    for q in questions:
        gold = majority_spans(q)
        if judged is not None:
            over = judged.get(q.question, set())
            events = [e for e in analysis.events if (e.start, e.end) in over]
        else:
            events = analysis.events
        if q.unsure:
            events = [e for e in events if (e.start, e.end) not in set(q.unsure)]
        parsed = parse_temporal_question(q.question)
        if parsed.default:
            if not (q.is_default or is_warm_up(q.question)):  # a status read from other wording trains nothing
                continue
            for event in events:
                yield (
                    "status",
                    status_features(event, parsed.default),
                    int((event.start, event.end) in gold),
                    vectors[event.token],
                    (parsed.default,),
                )
            continue
        relation = QUESTION_RELATIONS.get(parsed.relation)
        anchor = question_anchor(analysis, parsed)
        if relation is None or anchor is None:
            continue
        for event in events:
            if event is not anchor:
                yield (
                    "temporal",
                    crossed(relation, relation_pair_features(analysis.doc, event, anchor)),
                    int((event.start, event.end) in gold),
                    pair_vector(vectors, event, anchor),
                    (relation,),
                )
