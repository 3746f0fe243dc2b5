"""Answering ESTER questions from passage event graphs, and the examples its scorer learns from."""

from __future__ import annotations

from typing import Iterable, Iterator

from kg_count.progress import progress
from kg_count.qa.analysis import AnalysedPassage, analyse_passage, by_passage
from kg_count.qa.anchors import find_anchor, question_lemmas
from kg_count.qa.features import crossed, pair_features, pair_vector
from kg_count.qa.models import QAModels
from kg_count.qa.passage import PassageEvent, parse
from kg_count.qa.questions import SemanticQuestion, parse_semantic_question
from kg_count.qa.readers import EsterQuestion
from kg_count.settings import settings

RELATION_OF_TYPE = {
    "Causal": "causes",
    "Conditional": "conditions",
    "Counterfactual": "counterfactual",
    "Sub-event": "subEventOf",
    "Coreference": "coreferent",
}


def question_anchor(analysis: AnalysedPassage, question_doc) -> PassageEvent | None:
    """The passage event the question names: lemma match first, else the best word overlap."""
    return find_anchor(analysis.events, analysis.doc, question_doc, relaxed=True)


def _oriented(parsed: SemanticQuestion) -> tuple[str, bool]:
    """(relation, anchor_is_source): effect questions ask what the anchor leads to."""
    return RELATION_OF_TYPE[parsed.relation], parsed.direction == "effect"


def answer_ester_question(analysis: AnalysedPassage, question: str, models: QAModels) -> list[str]:
    """Answer phrases for one question, best first: the top related event, then others above threshold."""
    parsed = parse_semantic_question(question)
    question_doc = parse(question)
    anchor = question_anchor(analysis, question_doc)
    if anchor is None:
        return []
    relation, anchor_is_source = _oriented(parsed)
    asked, _ = question_lemmas(question_doc)
    answers, seen = [], set()
    for row in analysis.graph.related(anchor, relation, 0.0, anchor_is_source):
        if analysis.event_at[row.begin].lemma in asked or row.phrase.lower() in seen:
            continue
        if answers and row.confidence < models.semantic.threshold:
            break
        answers.append(row.phrase)
        seen.add(row.phrase.lower())
        if len(answers) == settings().reading.max_ester_answers:
            break
    return answers


def answer_ester(questions: Iterable[EsterQuestion], models: QAModels) -> dict:
    """``{"<index>": [phrase, ...]}`` for every question; each passage analysed once."""
    groups = by_passage(questions)
    predictions = {}
    for text, items in progress(groups.items(), "passages", total=len(groups), unit="passage"):
        analysis = analyse_passage(items[0].passage_id, text, models, "ester")
        for q in items:
            predictions[str(q.index)] = answer_ester_question(analysis, q.question, models)
    return predictions


def training_examples(analysis: AnalysedPassage, questions: Iterable[EsterQuestion]) -> Iterator[tuple]:
    """(features, label, vector, blocks) for each event of ``analysis`` (the passage with its
    annotated events) and each question: is the event an answer (its trigger inside a gold answer
    span, or one of the answers' annotated triggers)? ``vector``: the encoder's view of the pair."""
    for q in questions:
        parsed = parse_semantic_question(q.question)
        anchor = question_anchor(analysis, parse(q.question))
        if anchor is None:
            continue
        relation, anchor_is_source = _oriented(parsed)
        for event in analysis.events:
            if event is anchor:
                continue
            label = int(
                any(a <= event.start and event.end <= b for a, b in q.answer_spans)
                or (event.start, event.end) in q.gold_trigger_spans
            )
            source, target = (anchor, event) if anchor_is_source else (event, anchor)
            yield (
                crossed(relation, pair_features(analysis.doc, source, target)),
                label,
                pair_vector(analysis.vectors, source, target),
                (relation,),
            )
