"""Answering ESTER questions from passage event graphs, and the examples its scorer learns from."""

from __future__ import annotations

from typing import Iterable, Iterator

from kg_count.progress import progress
from kg_count.qa.passage_graph.analysis import AnalysedPassage, analyse_passage, by_passage, parsed_ahead
from kg_count.qa.learned.answer_ranking import AnswerRanker, AnswerCandidate, QuestionCandidates
from kg_count.qa.passage_graph.anchors import find_anchor, question_lemmas
from kg_count.qa.passage_graph.relation_features import crossed, relation_pair_features, pair_vector
from kg_count.qa.learned.model_set import QAModels
from kg_count.qa.passage_graph.passage import REPORTING, PassageEvent, parse
from kg_count.qa.passage_graph.question_parsing import SemanticQuestion, parse_semantic_question
from kg_count.qa.inputs.readers import EsterQuestion
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


def _candidates_around(
    analysis: AnalysedPassage, anchor: PassageEvent, relation: str, anchor_is_source: bool, asked: set
) -> list[AnswerCandidate]:
    """The events in ``relation`` to ``anchor`` as answer candidates, best confidence first, leaving out
    events whose lemma the question uses (``asked``), with what the answer ranker reads of each."""
    rows = analysis.graph.related(anchor, relation, 0.0, anchor_is_source)
    candidates = []
    for row in rows:
        event = analysis.event_at[row.begin]
        if event.lemma in asked:
            continue
        candidates.append(
            AnswerCandidate(
                row.begin,
                row.end,
                row.phrase,
                row.confidence,
                same_sentence=event.sentence == anchor.sentence,
                question_share=_question_share(analysis, event.phrase[0], event.phrase[1], asked),
                reporting=event.lemma in REPORTING,
            )
        )
    return candidates


def _question_share(analysis: AnalysedPassage, begin: int, end: int, asked: set) -> float:
    """The share of the content lemmas of the passage text ``begin:end`` that are in ``asked``."""
    span = analysis.doc.char_span(begin, end, alignment_mode="expand")
    lemmas = {t.lemma_.lower() for t in span or () if t.is_alpha and not t.is_stop}
    return len(lemmas & asked) / len(lemmas) if lemmas else 0.0


def ester_candidates(analysis: AnalysedPassage, question: str) -> QuestionCandidates | None:
    """The events the passage graph relates to the question's anchor in the relation asked, best
    confidence first, leaving out events the question itself names. When no passage event matches
    the question's words (or the anchor's only relations are events the question names), the anchor
    is the event whose strongest relation of that kind is the passage's strongest: HIT@1 scores the
    first answer, so a passage with events always gets one. None for a passage without events."""
    parsed = parse_semantic_question(question)
    question_doc = parse(question)
    relation, anchor_is_source = _oriented(parsed)
    asked, _ = question_lemmas(question_doc)
    anchor = question_anchor(analysis, question_doc)
    candidates = [] if anchor is None else _candidates_around(analysis, anchor, relation, anchor_is_source, asked)
    if not candidates:
        around = [
            (event, _candidates_around(analysis, event, relation, anchor_is_source, asked)) for event in analysis.events
        ]
        around = [(event, found) for event, found in around if found]
        if not around:
            return None
        anchor, candidates = max(around, key=lambda pair: pair[1][0].confidence)
    return QuestionCandidates(relation, anchor.start, candidates)


def answer_ester_question(analysis: AnalysedPassage, question: str, models: QAModels) -> list[str]:
    """Answer phrases for one question, likeliest first, as the models' answer ranker orders the
    graph's candidates (at most ``max_ester_answers``, [reading] settings)."""
    return ranked_answers({"": ester_candidates(analysis, question)}, models.answer_ranker)[""]


def ester_candidates_of(questions: Iterable[EsterQuestion], models: QAModels) -> dict:
    """``{"<index>": QuestionCandidates | None}`` for every question; each passage analysed once."""
    groups = by_passage(questions)
    candidates = {}
    for text, items in progress(
        parsed_ahead(groups, lambda q: (q.question,), models.uses_encoder),
        "passages",
        total=len(groups),
        unit="passage",
    ):
        analysis = analyse_passage(items[0].passage_id, text, models, "ester")
        for q in items:
            candidates[str(q.index)] = ester_candidates(analysis, q.question)
    return candidates


def ranked_answers(candidates: dict, ranker: AnswerRanker) -> dict:
    """``{"<index>": [phrase, ...]}``: each question's candidates as ``ranker`` answers them
    (nothing for a question without an anchor)."""
    limit = settings().reading.max_ester_answers
    return {index: [] if found is None else ranker.answers(found, limit) for index, found in candidates.items()}


def answer_ester(questions: Iterable[EsterQuestion], models: QAModels) -> dict:
    """``{"<index>": [phrase, ...]}`` for every question, ranked by the models' answer ranker."""
    return ranked_answers(ester_candidates_of(questions, models), models.answer_ranker)


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
                crossed(relation, relation_pair_features(analysis.doc, source, target)),
                label,
                pair_vector(analysis.vectors, source, target),
                (relation,),
            )
