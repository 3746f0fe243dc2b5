"""ValueCandidate killed and injured counts of a document: every number its typed event mentions state for
that status, zero, one, the named people with that status and the rule's count, with features of
where and how often each is stated."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from kg_count.learning.bins import interval_name
from kg_count.nlp.candidate_features import ValueCandidate, merge
from kg_count.nlp.participants import INJURED_EXPLICITLY, CountStatement

LEAD_SENTENCES = 6
LEAD_BODY_SENTENCES = 2  # the body sentences that, after the title, make a story's lead for its harm words
HARM_EVIDENCE = frozenset(
    {"rule", "explicit", "shot_total", "stated:title", "stated:lead", "stated:later", "minus_other", "shot_minus_other"}
)  # the features of a candidate count that say the text states the value (a statement, the rule, the people shot)
SHOOT_LEMMAS = {"shoot", "shot"}
HARM_WORDS = {
    "kill",
    "dead",
    "die",
    "death",
    "murder",
    "homicide",
    "fatal",
    "fatally",
    "slay",
    "wound",
    "injure",
    "hurt",
    "shoot",
    "shooting",
    "shot",
    "suicide",
    "critical",
    "hospitalize",
    "injury",
    "victim",
    "body",
    "double",
    "triple",
    "mass",
    "accidental",
    "accidentally",
    "graze",
    "stable",
    "survive",
}


def _statement_features(statement: CountStatement, title_sentences: int) -> set[str]:
    if statement.sentence < title_sentences:
        where = "title"
    else:
        where = "lead" if statement.sentence < LEAD_SENTENCES else "later"
    features = {f"stated:{where}", f"lemma:{statement.lemma}"}
    if statement.statistics:
        features.add("statistics")
    if statement.another:
        features.add("another")
    if statement.status == INJURED_EXPLICITLY:
        features.add("explicit")
    return features


def harm_words(
    doc, body_start: int, lead_sentences: int = LEAD_BODY_SENTENCES, furniture: frozenset[int] = frozenset()
) -> set[str]:
    """``title:LEMMA`` and ``lead:LEMMA`` for the words of harm (killed, wounded, shot, ...) in a spaCy
    doc's title (tokens before ``body_start``) and its first ``lead_sentences`` body sentences, those that begin
    in ``furniture`` (token indexes of a page's playlist, ``page_furniture``) left out."""
    found = {f"title:{t.lemma_.lower()}" for t in doc[:body_start] if t.lemma_.lower() in HARM_WORDS}
    body = doc[body_start:].sents if body_start < len(doc) else []
    for n, sentence in enumerate(s for s in body if s.start not in furniture):
        if n >= lead_sentences:
            break
        found |= {f"lead:{t.lemma_.lower()}" for t in sentence if t.lemma_.lower() in HARM_WORDS}
    return found


def _value_features(value, features, context, counted, numbers, named, others, shot) -> set[str]:
    """Features of one candidate count ``value`` (already carrying ``features``) against everything the
    document states: how it ranks among the stated numbers, the named people, other statuses' numbers,
    the people shot; the zero and one candidates crossed with the document's ``context``."""
    found = {f"value:{interval_name(value, (0, 1, 2, 3, 5), closed='above')}"}
    found |= {f"{c}&{f}" for c in context for f in ("zero", "one") if f in features}
    if counted[value]:
        found.add(f"times:{interval_name(counted[value], (1, 2), closed='above')}")
    if numbers and value == max(numbers):
        found.add("max_stated")
    if numbers and value == min(numbers) and len(set(numbers)) > 1:
        found.add("min_stated")
    if value < named:
        found.add("below_named")
    if not numbers:
        found.add("none_stated")
    if value in others:
        found.add("stated_for_other")
    if shot and value > max(shot):
        found.add("above_shot")
    return found


def count_candidates(
    status: str,
    statements: Sequence[CountStatement],
    named: int,
    rule: int,
    other_count: int,
    words: set[str] = frozenset(),
    title_sentences: int = 1,
    plus_self: bool = False,
) -> list[ValueCandidate]:
    """Candidates for the ``status`` count ("killed" or "injured") from the document's count
    ``statements``; ``named`` is how many named people have that status, ``rule`` the hand-written
    rule's count and ``other_count`` the rule's count of the other status (killed for injured): a
    stated number less it is a candidate too ("five were shot, one fatally": four injured), and so are the
    numbers of people shot whatever the status the event was typed with, and those less it; a candidate larger
    than every number stated shot is marked ``above_shot``. ``words``
    (``harm_words``) are features of every candidate; the first ``title_sentences`` sentences are the title. With
    ``plus_self`` (the story tells of a shooter's suicide, ``harm_cues``) each stated number plus one is a candidate
    too, marked ``plus_self``: the victims and the shooter."""
    own = [s for s in statements if s.status == status or (status == "injured" and s.status == INJURED_EXPLICITLY)]
    numbers = [s.value for s in own if s.value is not None and not s.statistics]
    mentions = Counter(s.sentence for s in own)
    candidates: dict = {}
    for statement in own:
        if statement.value is not None:
            merge(candidates, statement.value, _statement_features(statement, title_sentences))
    for value, source in ((0, "zero"), (1, "one"), (named, "named"), (rule, "rule")):
        merge(candidates, value, {source})
    for number in set(numbers):
        if plus_self:
            merge(candidates, number + 1, {"plus_self"})
        if number > other_count > 0:
            merge(candidates, number - other_count, {"minus_other"})
    shot = {s.value for s in statements if s.lemma in SHOOT_LEMMAS and s.value is not None and not s.statistics}
    for number in shot:
        merge(candidates, number, {"shot_total"})
        if number > other_count > 0:
            merge(candidates, number - other_count, {"shot_minus_other"})
    others = [s.value for s in statements if s.status not in (status, INJURED_EXPLICITLY) and s.value is not None]
    counted = Counter(numbers)
    context = {
        f"mentions:{interval_name(len(own), (0, 1, 2, 4), closed='above')}",
        f"sentences:{interval_name(len(mentions), (0, 1, 3), closed='above')}",
        f"other:{interval_name(other_count, (0, 1), closed='above')}",
        f"other_stated:{interval_name(len(others), (0, 1), closed='above')}",
    }
    for value, candidate in candidates.items():
        candidate.features |= words
        candidate.features |= _value_features(value, candidate.features, context, counted, numbers, named, others, shot)
    return list(candidates.values())
