"""Counts a headline states in forms its parse misses: a list of counted people before one harm word ("3 women , 1
man shot", "Man , 2 women wounded", "1 child , 4 adults shot"), a share of the shot who died ("4 shot , 2
fatally", "2 shot , 1 dead", "2 teens shot in Phoenix , 1 killed") and a number right before a harm word ("3 Dead ,
1 Critical", "1 Dies , 4 Hurt", "Two Men Critical"). Headlines drop the verbs and articles the parser
leans on, so these are read from the words, each list item a number (or "a") and a word for a person, or a word for
one person alone."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg_count.nlp.numbers import is_person_noun, parse_number
from kg_count.settings import settings

HARM_STATUS = {
    "shot": "injured",
    "wounded": "injured",
    "injured": "injured",
    "hurt": "injured",
    "killed": "killed",
    "dead": "killed",
    "slain": "killed",
    "dies": "killed",
    "died": "killed",
    "critical": "injured",
    "hospitalized": "injured",
}
EXPLICIT_HARMS = {
    "wounded",
    "injured",
    "hurt",
    "critical",
    "hospitalized",
}  # "shot" in a story of a killing is mostly said of the dead
FATAL_SHARE_WORDS = {"fatally", "dead", "killed", "died"}
LIST_SEPARATORS = {",", "and", "&"}
PLACE_PREPOSITIONS = {"in", "at", "on", "near", "outside"}
SHARE_PLACE_WORDS = 4  # "2 teens shot in north Phoenix , 1 killed": the place between the shot and the share
IRREGULAR_PLURALS = {"men": "man", "women": "woman", "children": "child"}  # WordNet's first sense of "men" is a group
AGE_WORD = re.compile(r"^\d+-(?:year|month|week|day)s?$")  # "4-year" of "4-year - old"
HARM_LEADS = {"fatally": "killed", "found": None, "critically": None, "seriously": None}  # "mother fatally shot"


def _lemma(token) -> str:
    """A title word's lemma, a plural the lemmatizer keeps in a title ("Men") made singular."""
    return IRREGULAR_PLURALS.get(token.lower_, token.lemma_.lower())


def _number(token) -> int | None:
    """The number a token writes ("3", "four", "a"), below ``[extraction] max_people``; None otherwise."""
    value = 1 if token.lower_ in ("a", "an") else parse_number(token.text)
    return value if value is not None and value < settings().extraction.max_people else None


def _item_before(tokens, end: int) -> tuple[int, int] | None:
    """The list item ending at ``tokens[end]``: (its count, its first index): a word for people after a number
    ("2 women", "a man") or a word for one person alone ("Man", "Teen"); None when there is none."""
    if end < 0 or not tokens[end].text[:1].isalpha():
        return None
    noun = tokens[end]
    lemma = _lemma(noun)
    if not is_person_noun(lemma):
        return None
    if end >= 1 and (value := _number(tokens[end - 1])) is not None:
        return value, end - 1
    return (1, end) if noun.lower_ == lemma else None  # "Man", not "Men"


def _listed_count(tokens, harm: int) -> int | None:
    """The sum of a list of two or more counted people that ends right before ``tokens[harm]``; None otherwise. An
    item may carry an age or a word before it ("4-year - old girl , mother", "Mother , Teen Daughter") and an age after
    it ("Boy , 2 , and man"), and the list may end in ", and"."""
    counts, end = [], harm - 1
    while (item := _item_before(tokens, end)) is not None:
        counts.append(item[0])
        start = _modifiers_start(tokens, item[1])
        if start < 1 or tokens[start - 1].lower_ not in LIST_SEPARATORS:
            break
        end = start - 2
        while end >= 0 and tokens[end].lower_ in LIST_SEPARATORS:  # ", and"
            end -= 1
        if end >= 2 and tokens[end].like_num and tokens[end - 1].text == ",":  # "Boy , 2 , and man": an age
            end -= 2
    return sum(counts) if len(counts) >= 2 else None


def _modifiers_start(tokens, start: int) -> int:
    """Where the words before a list item at ``tokens[start]`` begin: an age written before it ("4-year - old") or
    one word for a person or a quality ("Teen Daughter", "pregnant woman")."""
    if start >= 3 and tokens[start - 1].lower_ == "old" and AGE_WORD.match(tokens[start - 3].lower_):
        return start - 3
    if start >= 1 and tokens[start - 1].text[:1].isalpha() and tokens[start - 1].lower_ not in LIST_SEPARATORS:
        before = tokens[start - 1]
        if before.pos_ == "ADJ" or is_person_noun(_lemma(before)):
            return start - 1
    return start


def _counted_before(tokens, harm: int) -> int | None:
    """The number written right before ``tokens[harm]`` ("3 Dead"), or before a word for people there ("Two Men
    Critical"); None for a lone word for a person ("Man Shot") or "a"."""
    if harm < 1:
        return None
    item = _item_before(tokens, harm - 1)
    if item is not None and item[1] < harm - 1:
        return item[0] if tokens[item[1]].lower_ not in ("a", "an") else None
    return _number(tokens[harm - 1]) if tokens[harm - 1].lower_ not in ("a", "an") else None  # "One" is a person too


def _fatal_share(tokens, harm: int) -> tuple[int, int, int] | None:
    """(shot, died, the index of the word that says they died) for "N shot , M fatally" or "N shot , M dead" at
    ``tokens[harm]`` ("shot"), with M below N; the shot may be counted people ("2 teens shot") and a place may stand
    before the comma ("2 teens shot in Phoenix , 1 killed", up to ``SHARE_PLACE_WORDS`` words after a preposition)."""
    if harm < 1 or tokens[harm].lower_ != "shot":
        return None
    shot = _number(tokens[harm - 1])
    if shot is None and (item := _item_before(tokens, harm - 1)) is not None and item[1] < harm - 1:
        shot = item[0]  # "2 teens shot": a number and a word for people, not a lone "Man"
    comma = harm + 1
    if comma < len(tokens) and tokens[comma].lower_ in PLACE_PREPOSITIONS:
        comma = next(
            (i for i in range(comma + 1, min(comma + 2 + SHARE_PLACE_WORDS, len(tokens))) if tokens[i].text == ","),
            comma,
        )
    if comma + 2 >= len(tokens) or tokens[comma].text != ",":
        return None
    died = _number(tokens[comma + 1])
    if shot is None or died is None or tokens[comma + 2].lower_ not in FATAL_SHARE_WORDS or not 0 < died < shot:
        return None
    return shot, died, tokens[comma + 2].i


def _shot_dead(tokens, harm: int) -> bool:
    """Whether ``tokens[harm]`` is a "shot" that the next words say killed ("shot dead", "shot to death")."""
    following = [t.lower_ for t in tokens[harm + 1 : harm + 3]]
    return tokens[harm].lower_ == "shot" and (following[:1] == ["dead"] or following == ["to", "death"])


@dataclass(frozen=True)
class HeadlineCount:
    """A count a headline states: the status ("killed" or "injured"), the number, the harm word's token index and
    lemma, and whether a wounding word states the injury (``EXPLICIT_HARMS``, or the living share of the shot)."""

    status: str
    value: int
    index: int
    lemma: str
    explicit: bool


def headline_counts(doc, title_end: int) -> list[HeadlineCount]:
    """The counts the title (``doc[:title_end]``) states in a list, a fatal share or a number before a harm word."""
    tokens = doc[:title_end]
    found = []
    for token in tokens:
        status = HARM_STATUS.get(token.lower_)
        if status is None:
            continue
        lemma = token.lemma_.lower()
        if _shot_dead(tokens, token.i):
            status = "killed"  # "Five Shot Dead In South Shore"
        share = _fatal_share(tokens, token.i)
        if share is not None:
            shot, died, fatal = share  # the share's "killed" or "dead" is read whole with it
            found.append(HeadlineCount("killed", died, fatal, lemma, False))
            found.append(HeadlineCount("injured", shot - died, token.i, lemma, True))
            continue
        listed = _listed_count(tokens, token.i)
        if listed is None and token.i >= 1 and tokens[token.i - 1].lower_ in HARM_LEADS:
            listed = _listed_count(tokens, token.i - 1)  # "4-year - old girl , mother fatally shot"
            if listed is not None:
                status = HARM_LEADS[tokens[token.i - 1].lower_] or status
        if listed is None:
            listed = _counted_before(tokens, token.i)
        if listed is not None:
            found.append(HeadlineCount(status, listed, token.i, lemma, token.lower_ in EXPLICIT_HARMS))
    return found
