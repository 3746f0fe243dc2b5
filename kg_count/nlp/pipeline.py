"""The document pipeline: annotate, then extract events, time, place and participants into a DocumentRecord."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from kg_count.io.conll import Document
from kg_count.nlp.annotate import AnnotatedDocument, annotate
from kg_count.nlp.events import find_event_mentions
from kg_count.nlp.count_candidates import LEAD_BODY_SENTENCES, count_candidates, harm_words
from kg_count.nlp.date_candidates import date_candidates
from kg_count.nlp.followup import follow_up_features
from kg_count.nlp.page_furniture import playlist_tokens
from kg_count.nlp.participants import Counts, count_statements, find_participants, of_the_living, stated_counts
from kg_count.nlp.place_candidates import place_candidates
from kg_count.nlp.places import mentioned_places
from kg_count.nlp.extraction_models import (
    Choice,
    DocumentCandidates,
    ExtractionModels,
    choose,
    shipped_extraction_models,
)
from kg_count.nlp.record import DocumentRecord, MentionRecord, PersonRecord
from kg_count.nlp.harm_cues import SHOOTER_AMONG_KILLED, self_harm_feature, survival_feature
from kg_count.nlp.times import find_time_mentions, incident_date
from kg_count.nlp.made_ahead import made_ahead
from kg_count.settings import settings
from kg_count.task import EVENT_TYPES

FIRE_TITLE_WORDS = {"fire", "blaze", "arson", "flame", "inferno"}  # a title noun that names a fire


def _mention(annotated: AnnotatedDocument, start: int, end: int, **extra) -> MentionRecord:
    span = annotated.doc[start:end]
    return MentionRecord(annotated.token_ids(start, end), span.text, span.start_char, span.end_char, **extra)


def _event_types(mentions, counts, fire_up_front: bool) -> list[str]:
    """Types the document reports: typed mentions, with killing and injuring also backed by counts, and a fire
    told up front (``fire_up_front``) or at least as often as the killings and injuries: a shooting story's
    "burning candles" or "firefighters arrived" further down is no fire."""
    seen = Counter(m.event_type for m in mentions if m.event_type)
    types = [t for t in EVENT_TYPES if seen[t]]
    if counts.killed == 0 and "killing" in types and seen["killing"] < 2:
        types.remove("killing")
    if seen["fire_burning"] and not fire_up_front and seen["fire_burning"] < seen["killing"] + seen["injuring"]:
        types.remove("fire_burning")
    return types


def _fire_up_front(doc, events, body_start: int, lead_end: int) -> bool:
    """Whether a story tells of a fire up front: a fire mention in its title or lead (the sentences before
    ``lead_end``) other than a firefighter ("Firefighter shot, killed"), or a fire noun in its title that is not
    what a gunman opens ("Civilian Fatality Fire", not "Shooter opens fire on cars")."""
    if any(
        e.event_type == "fire_burning" and e.sentence < lead_end and not e.lemma.startswith("firefight") for e in events
    ):
        return True
    return any(
        t.lemma_.lower() in FIRE_TITLE_WORDS and t.pos_ in ("NOUN", "PROPN") and t.head.lemma_.lower() != "open"
        for t in doc[:body_start]
    )


@dataclass
class Analysis:
    """What the pipeline found in one document before the models choose: events, times, people, the
    rules' counts (fired is kept from them) and the candidates of every learned slot."""

    annotated: AnnotatedDocument
    events: list
    times: list
    people: list
    counts: Counts
    candidates: DocumentCandidates
    fire_up_front: bool  # whether a fire is told in the title or lead (``_fire_up_front``)


def analyse(annotated: AnnotatedDocument) -> Analysis:
    """Find the events, times, people and candidate values of one annotated document."""
    document, doc = annotated.document, annotated.doc
    furniture = playlist_tokens(annotated)
    events = [e for e in find_event_mentions(annotated) if e.start not in furniture]
    times = [t for t in find_time_mentions(doc, document.dct) if t.start not in furniture]
    typed_sentences = {e.sentence for e in events if e.event_type}
    event_types = {e.start: e.event_type for e in events if e.event_type}
    rule_date = incident_date(times, typed_sentences, document.dct)
    body_start = sum(1 for p in annotated.positions if document.tokens[p].part == "TITLE")
    people = find_participants(doc, events)
    statements = count_statements(doc, events, body_start)
    counts = stated_counts(doc, events, people, statements=statements)
    named = {status: sum(1 for p in people if p.status == status) for status in ("killed", "injured")}
    words = harm_words(doc, body_start, furniture=furniture)
    survivors = survival_feature(s for s in doc.sents if s.start not in furniture)
    self_harm = self_harm_feature(doc.text)
    title_sentences = sum(1 for sentence in doc.sents if sentence.start < body_start)
    candidates = DocumentCandidates(
        follow_up=follow_up_features(doc, body_start, times, document.dct),
        dates=date_candidates(doc, times, typed_sentences, document.dct, body_start, rule_date, event_types),
        places=place_candidates(doc, body_start, typed_sentences),
        killed=count_candidates(
            "killed",
            statements,
            named["killed"],
            counts.killed,
            0,
            words | ({self_harm} if self_harm else set()),
            title_sentences,
            plus_self=self_harm in SHOOTER_AMONG_KILLED,
        ),
        injured=count_candidates(
            "injured",
            of_the_living(doc, statements, people),
            named["injured"],
            counts.injured,
            counts.killed,
            words | {survivors},
            title_sentences,
        ),
        rule_date=rule_date,
    )
    fire_up_front = _fire_up_front(doc, events, body_start, title_sentences + LEAD_BODY_SENTENCES)
    return Analysis(annotated, events, times, people, counts, candidates, fire_up_front)


def record_of(analysis: Analysis, choice: Choice) -> DocumentRecord:
    """The DocumentRecord of an analysed document with the values the models chose."""
    annotated, events, counts = analysis.annotated, analysis.events, analysis.counts
    document, place, date = annotated.document, choice.place, choice.date
    chosen = Counts(choice.killed, choice.injured, counts.fired)
    return DocumentRecord(
        doc_id=document.doc_id,
        dct=document.dct,
        title=document.title,
        event_types=_event_types(events, chosen, analysis.fire_up_front),
        event_mentions=[
            _mention(annotated, e.start, e.end, event_type=e.event_type, frame=e.frame, synset=e.synset) for e in events
        ],
        incident_date=date.date,
        date_granularity=date.granularity,
        date_certainty=date.certainty,
        time_mentions=[_mention(annotated, t.start, t.end) for t in analysis.times],
        city=place.city if place else None,
        state=place.state if place else None,
        city_iri=place.city_iri if place else None,
        state_iri=place.state_iri if place else None,
        place_found_by=place.found_by if place else None,
        killed=chosen.killed,
        injured=chosen.injured,
        fired=chosen.fired,
        participants=[
            PersonRecord(
                p.full_name,
                p.first_name,
                p.last_name,
                p.age,
                p.role,
                p.status,
                [_mention(annotated, s, e) for s, e in p.mentions],
            )
            for p in analysis.people
        ],
        follow_up=round(choice.follow_up, 3),
        place_names=mentioned_places(annotated.doc),
    )


def extract(annotated: AnnotatedDocument, models: ExtractionModels | None = None) -> DocumentRecord:
    """Extract a DocumentRecord from one annotated document, the learned ``models`` (the shipped ones
    unless given) choosing its incident date, place and killed and injured counts."""
    analysis = analyse(annotated)
    return record_of(analysis, choose(models or shipped_extraction_models(), analysis.candidates))


def process(
    documents: Iterable[Document], batch_size: int | None = None, ahead: bool = False
) -> Iterator[DocumentRecord]:
    """Annotate and extract documents in batches; yield one DocumentRecord per document, in order. With
    ``ahead``, a thread annotates the next batch while this one is extracted and its records used
    (``made_ahead``): for a process that has a core to itself and another to spare."""
    annotated_documents = annotate(documents, batch_size=batch_size)
    if ahead:
        depth = 2 * (batch_size or settings().batch.documents)
        annotated_documents = made_ahead(annotated_documents, depth)
    for annotated in annotated_documents:
        yield extract(annotated)


def extract_file(docs: Path, out: Path) -> int:
    """Extract every document of ``docs`` (CoNLL or JSON lines) and write one JSON line of its record's
    summary per document to ``out`` (atomically); return how many were written. An id that appears twice
    is an InputError naming both lines, before anything is extracted."""
    from kg_count.io.articles import document_ids, iter_any
    from kg_count.io.atomic import atomic_writer
    from kg_count.progress import progress

    document_ids(docs)
    documents = list(iter_any(docs))
    with atomic_writer(out) as stream:
        for record in progress(process(documents, ahead=True), "extracting", total=len(documents), unit="doc"):
            stream.write(json.dumps(record.summary()) + "\n")
    return len(documents)
