"""A question as a sentence ("How many people were killed in Memphis, Tennessee in January 2017?").

The task's own ``verbose_question`` field is a Python repr of its parts; this reads the parsed Question.
"""

from __future__ import annotations

from kg_count.incidents.views.incident_views import readable_place
from kg_count.io.questions import Question

EVENT_NOUNS = {"killing": "killing", "injuring": "injuring", "fire_burning": "fire", "job_firing": "job firing"}
PEOPLE_VERBS = {"killing": "killed", "injuring": "injured", "fire_burning": "hurt in fires", "job_firing": "fired"}
NAME_PARTS = {"first": "first name", "last": "last name", "full_name": "name"}


def _place(question: Question) -> str:
    if question.location is None:
        return ""
    place = question.place
    if place is not None and place.no_state:
        return " outside the US states"
    if place is not None and place.part:
        return f" in {place.part.title()} ({readable_place(question.location[1])})"
    return f" in {readable_place(question.location[1])}"


def place_reading(question: Question) -> str:
    """How the question's place was read (``io.question_place``) when its verbose text changed it, else ""."""
    place = question.place
    if place is None or place.rule == "structured":
        return ""
    structured = readable_place(place.structured) or "empty"
    return f"{place.text!r} read as {place.describe()}; the structured field: {structured}"


def _time(question: Question) -> str:
    time = question.time
    if time is None:
        return ""
    if time.granularity == "day":
        return f" on {time.start.day} {time.start:%B %Y}"
    if time.granularity == "month":
        return f" in {time.start:%B %Y}"
    return f" in {time.start.year}"


def _participant(question: Question) -> str:
    if question.participant is None:
        return ""
    part, value = question.participant
    return f" involving someone with the {NAME_PARTS[part]} {value}"


def question_text(question: Question) -> str:
    """The question in words, from its subtask, event type, place, time and participant."""
    noun = EVENT_NOUNS.get(question.event_type, question.event_type)
    asked = f"{_place(question)}{_time(question)}{_participant(question)}"
    if question.subtask == 1:
        return f"Which {noun} incident happened{asked}?"
    if question.subtask == 2:
        return f"How many {noun} incidents happened{asked}?"
    return f"How many people were {PEOPLE_VERBS.get(question.event_type, question.event_type)}{asked}?"
