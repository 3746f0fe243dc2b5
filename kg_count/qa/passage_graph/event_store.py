"""A passage's event graph in an in-memory Oxigraph store, and the SPARQL that reads answers from it.

Events are ``kgc:PassageEvent`` nodes (trigger offsets, lemma, tense, aspect, modality, status,
arguments, phrase); arguments are ``kgc:EventArgument`` spans typed by role (``sem:Actor``, ``sem:Place``,
``sem:Time``); statuses are ``kgc:TemporalStatus`` resources (``kgc:finished``, ``kgc:ongoing``,
``kgc:future``); relations are ``kgc:EventRelation`` nodes (source, target, relation type,
confidence); status estimates hang from their event. Queries live in ``queries/qa/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote
from functools import lru_cache

import pyoxigraph as ox

from kg_count.graph.namespaces import KGC, NIF, SEM
from kg_count.graph.queries import read_query
from kg_count.qa.passage_graph.passage import PassageEvent

BASE = "http://kg-count.org/passage/"
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
ARGUMENT_PROPERTIES = {"subject": SEM.hasActor, "object": KGC.object, "place": SEM.hasPlace, "time": SEM.hasTime}
ARGUMENT_CLASSES = {"subject": SEM.Actor, "place": SEM.Place, "time": SEM.Time}


def _node(uri) -> ox.NamedNode:
    return ox.NamedNode(str(uri))


@lru_cache(maxsize=None)
def _kgc(name: str) -> ox.NamedNode:
    """The project term ``name`` as a node, made once (a passage writes thousands of relations)."""
    return ox.NamedNode(str(KGC[name]))


def _int(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer"))


def _span(node: ox.NamedNode, begin: int, end: int, text: str) -> list[ox.Quad]:
    """The NIF offsets and text of a span node."""
    return [
        ox.Quad(node, _node(NIF.beginIndex), _int(begin)),
        ox.Quad(node, _node(NIF.endIndex), _int(end)),
        ox.Quad(node, _node(NIF.anchorOf), ox.Literal(text)),
    ]


XSD_DECIMAL = ox.NamedNode("http://www.w3.org/2001/XMLSchema#decimal")


def _decimal(value: float) -> ox.Literal:
    return ox.Literal(f"{value:.4f}", datatype=XSD_DECIMAL)


@dataclass(frozen=True)
class Related:
    """An answer row: the event's trigger offsets, its phrase and the relation's confidence."""

    begin: int
    end: int
    phrase: str
    confidence: float


class PassageGraph:
    """The event graph of one passage; add events, relations and status estimates, then query."""

    def __init__(self, passage_id: str):
        self.store = ox.Store()
        self.prefix = f"{BASE}{quote(passage_id.replace(' ', '_'), safe='')}/"
        self._relations = 0

    def event_node(self, event: PassageEvent) -> ox.NamedNode:
        """The IRI of an event of this passage."""
        return ox.NamedNode(f"{self.prefix}event/{event.index}")

    def add_events(self, events: list[PassageEvent]) -> None:
        """Write each event with its description, arguments and phrase."""
        quads = []
        for event in events:
            node = self.event_node(event)
            phrase = ox.NamedNode(f"{self.prefix}phrase/{event.index}")
            quads += [
                ox.Quad(node, RDF_TYPE, _node(KGC.PassageEvent)),
                *_span(node, event.start, event.end, event.text),
                ox.Quad(node, _node(KGC.lemma), ox.Literal(event.lemma)),
                ox.Quad(node, _node(KGC.tense), ox.Literal(event.tense)),
                ox.Quad(node, _node(KGC.aspect), ox.Literal(event.aspect)),
                ox.Quad(node, _node(KGC.eventStatus), _node(KGC[event.status])),
                ox.Quad(node, _node(KGC.phrase), phrase),
                ox.Quad(phrase, RDF_TYPE, _node(KGC.EventPhrase)),
                *_span(phrase, *event.phrase),
            ]
            quads += [ox.Quad(node, _node(KGC.modality), ox.Literal(m)) for m in sorted(event.modality)]
            for role, span in event.arguments.items():
                argument = ox.NamedNode(f"{node.value}/{role}")
                quads += [
                    ox.Quad(node, _node(ARGUMENT_PROPERTIES[role]), argument),
                    ox.Quad(argument, RDF_TYPE, _node(KGC.EventArgument)),
                    *_span(argument, *span),
                ]
                if role in ARGUMENT_CLASSES:
                    quads.append(ox.Quad(argument, RDF_TYPE, _node(ARGUMENT_CLASSES[role])))
        self.store.extend(quads)

    def add_relations(self, relations) -> None:
        """Write each ``(source, relation, target, confidence)`` of ``relations`` (one store write)."""
        quads = []
        for source, relation, target, confidence in relations:
            self._relations += 1
            link = ox.NamedNode(f"{self.prefix}relation/{self._relations}")
            quads += [
                ox.Quad(link, RDF_TYPE, _kgc("EventRelation")),
                ox.Quad(link, _kgc("source"), self.event_node(source)),
                ox.Quad(link, _kgc("target"), self.event_node(target)),
                ox.Quad(link, _kgc("relation"), _kgc(relation)),
                ox.Quad(link, _kgc("confidence"), _decimal(confidence)),
            ]
        self.store.extend(quads)

    def add_status(self, event: PassageEvent, status: str, confidence: float) -> None:
        """Write how likely ``event`` has ``status`` (finished, ongoing, future)."""
        estimate = ox.NamedNode(f"{self.event_node(event).value}/status/{status}")
        self.store.extend(
            [
                ox.Quad(self.event_node(event), _node(KGC.statusEstimate), estimate),
                ox.Quad(estimate, RDF_TYPE, _node(KGC.StatusEstimate)),
                ox.Quad(estimate, _node(KGC.eventStatus), _node(KGC[status])),
                ox.Quad(estimate, _node(KGC.confidence), _decimal(confidence)),
            ]
        )

    def related(
        self, anchor: PassageEvent, relation: str, threshold: float, anchor_is_source: bool = False
    ) -> list[Related]:
        """Events in ``relation`` to ``anchor`` (or, with ``anchor_is_source``, that ``anchor`` is in
        ``relation`` to) with confidence >= ``threshold``, best first."""
        query = read_query("qa/relating_events" if anchor_is_source else "qa/related_events")
        rows = self.store.query(
            query,
            substitutions={
                ox.Variable("anchor"): self.event_node(anchor),
                ox.Variable("relation"): _node(KGC[relation]),
                ox.Variable("threshold"): _decimal(threshold),
            },
        )
        return [
            Related(int(r["begin"].value), int(r["end"].value), r["phraseText"].value, float(r["confidence"].value))
            for r in rows
        ]

    def with_status(self, status: str, threshold: float) -> list[Related]:
        """Events whose ``status`` estimate reaches ``threshold``, best first."""
        rows = self.store.query(
            read_query("qa/events_with_status"),
            substitutions={ox.Variable("status"): _node(KGC[status]), ox.Variable("threshold"): _decimal(threshold)},
        )
        return [Related(int(r["begin"].value), int(r["end"].value), "", float(r["confidence"].value)) for r in rows]

    def turtle(self) -> str:
        """The graph as Turtle (for inspection)."""
        from kg_count.graph.namespaces import PREFIXES

        prefixes = {name: str(ns) for name, ns in PREFIXES.items()}
        return self.store.dump(format=ox.RdfFormat.TURTLE, from_graph=ox.DefaultGraph(), prefixes=prefixes).decode()
