"""A passage analysed once for all its questions: parse, events, and the scored event graph."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from kg_count.qa.passage_graph.relation_features import crossed, event_features, relation_pair_features, pair_vector
from kg_count.qa.learned.model_set import QAModels
from kg_count.qa.passage_graph.passage import PassageEvent, find_events, parse, parse_ahead
from kg_count.qa.passage_graph.event_store import PassageGraph
from kg_count.settings import settings

TEMPORAL_RELATIONS = ("before", "after", "overlaps")
SEMANTIC_RELATIONS = ("causes", "conditions", "counterfactual", "subEventOf", "coreferent")
STATUSES = ("finished", "ongoing", "future")

if TYPE_CHECKING:
    import numpy as np
    from spacy.tokens import Doc


@dataclass
class AnalysedPassage:
    """A passage's parse, its events and its event graph."""

    doc: Doc
    events: list[PassageEvent]
    graph: PassageGraph
    vectors: np.ndarray | None = None

    @cached_property
    def event_at(self) -> dict[int, PassageEvent]:
        """The events by their trigger's start offset (how answer rows name them)."""
        return {event.start: event for event in self.events}


def by_passage(questions: Iterable) -> dict[str, list]:
    """Questions grouped by their passage text (TORQUE or ESTER questions), in input order."""
    groups: dict[str, list] = defaultdict(list)
    for question in questions:
        groups[question.passage].append(question)
    return groups


PARSE_AHEAD = 64  # passages parsed in one go (spaCy batches) before they are analysed


def parsed_ahead(
    groups: dict[str, list],
    question_texts: Callable[[object], Iterable[str]] = lambda question: (),
    encode: bool = False,
) -> Iterator[tuple[str, list]]:
    """The (passage text, its questions) items of ``groups`` in order, every ``PARSE_AHEAD`` passages (with the
    texts ``question_texts`` gives of their questions) parsed together first (``passage.parse_ahead``), the next
    ``PARSE_AHEAD`` before the items of these are given. With ``encode``, each parsed passage is also handed to
    the encoding process (``vectors.encode_ahead``), which encodes while the caller analyses."""
    from kg_count.qa.passage_graph.vectors import encode_ahead, stop_encoding_ahead

    items = list(groups.items())
    chunks = [items[start : start + PARSE_AHEAD] for start in range(0, len(items), PARSE_AHEAD)]

    def prepare(chunk: list[tuple[str, list]]) -> None:
        parse_ahead(
            [text for text, _ in chunk] + [t for _, questions in chunk for q in questions for t in question_texts(q)]
        )
        if encode:
            encode_ahead(parse(text) for text, _ in chunk)

    try:
        if chunks:
            prepare(chunks[0])
        for number, chunk in enumerate(chunks):
            if number + 1 < len(chunks):
                prepare(chunks[number + 1])
            yield from chunk
    finally:
        if encode:
            stop_encoding_ahead()


def status_features(event: PassageEvent, status: str) -> list[str]:
    """Features for "does ``event`` have ``status``": the event's description crossed with the status."""
    return crossed(status, event_features(event))


def passage_vectors(doc, models: QAModels):
    """The encoder's token vectors of ``doc`` when the models read them, else None."""
    if not models.uses_encoder:
        return None
    from kg_count.qa.passage_graph.vectors import cached_token_vectors

    return cached_token_vectors(doc)


def analyse_passage(passage_id: str, text: str, models: QAModels, style: str) -> AnalysedPassage:
    """Parse ``text``, find its events (``style``: torque or ester), and build its scored event graph.

    Temporal relations and statuses are scored when ``models`` has those scorers (TORQUE); the
    semantic relations when it has the semantic scorer (ESTER). Scorers with dense blocks also
    read the encoder's token vectors (the relation or status names the block). Relations below
    ``min_stored_confidence`` ([reading] settings) are not written.
    """
    doc = parse(text)
    vectors = passage_vectors(doc, models)
    events = find_events(doc, models.triggers, style, models.triggers.threshold_for(style), vectors)
    graph = PassageGraph(passage_id)
    graph.add_events(events)
    scorer, relations = (
        (models.temporal, TEMPORAL_RELATIONS) if style == "torque" else (models.semantic, SEMANTIC_RELATIONS)
    )
    if scorer is not None:
        scored, lowest = [], settings().reading.min_stored_confidence
        for anchor in events:
            for event in events:
                if event is anchor:
                    continue
                features = relation_pair_features(doc, event, anchor)
                vector = None if vectors is None else pair_vector(vectors, event, anchor)
                for relation in relations:
                    confidence = scorer.probability(crossed(relation, features), vector, (relation,))
                    if confidence >= lowest:
                        scored.append((event, relation, anchor, confidence))
        graph.add_relations(scored)
    if style == "torque" and models.status is not None:
        for event in events:
            vector = None if vectors is None else vectors[event.token]
            for status in STATUSES:
                graph.add_status(
                    event, status, models.status.probability(status_features(event, status), vector, (status,))
                )
    return AnalysedPassage(doc, events, graph, vectors)
