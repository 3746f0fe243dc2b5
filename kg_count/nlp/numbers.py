"""How many people a noun phrase speaks of: "two men", "a woman", "both", "three others", "John Smith"."""

from __future__ import annotations

import re
from functools import lru_cache

from kg_count.settings import settings

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "dozen": 12,
    "dozens": 24,
    "hundreds": 200,
    "thousand": 1000,
}
SINGULAR_DETERMINERS = {"a", "an", "another", "one", "this", "that"}
MULTIPLIERS = {"double": 2, "triple": 3, "quadruple": 4, "quintuple": 5, "sextuple": 6}  # "a triple shooting"
RELATIVE_PRONOUNS = {"who", "that", "which", "whom"}
SINGULAR_PRONOUNS = {"he", "she", "him", "her", "i", "himself", "herself", "another"}
PERSON_GROUP_WORDS = {
    "people",
    "person",
    "other",
    "others",
    "one",
    "victim",
    "resident",
    "bystander",
    "adult",
    "teen",
    "teenager",
    "child",
    "kid",
    "student",
    "worker",
    "employee",
    "officer",
    "member",
    "individual",
}


@lru_cache(maxsize=8192)
def is_person_noun(lemma: str) -> bool:
    """True when a noun lemma names people: a listed group word, or its first WordNet sense is a person."""
    if lemma in PERSON_GROUP_WORDS:
        return True
    from kg_count.resources.wordnet import wordnet

    senses = wordnet().synsets(lemma, pos="n")
    return bool(senses) and senses[0].lexname() == "noun.person"


def parse_number(text: str) -> int | None:
    """The value of a numeral written in digits or words ("3", "1,200", "three", "a dozen"), or None."""
    lowered = text.lower().replace(",", "").strip()
    if re.fullmatch(r"\d{1,5}", lowered):
        return int(lowered)
    parts = lowered.replace("-", " ").split()
    if parts and all(p in NUMBER_WORDS for p in parts):
        total = 0
        for part in parts:
            value = NUMBER_WORDS[part]
            total = total * value if value in (100, 1000) and total else total + value
        return total
    return None


def count_people(head) -> int | None:
    """How many people the noun phrase headed by spaCy token ``head`` refers to; None when it does not say.

    Coordinated phrases add up ("a man and two women" → 3), and so does a list the parser reads as one person in
    apposition to the next ("a man , a woman and a boy": "woman" an apposition of "man", "boy" its conjunct → 3).
    """
    own = _own_count(head)
    conjuncts = [c for c in head.children if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN", "PRON")]
    if own == 1 and not conjuncts and head.pos_ == "NOUN":
        conjuncts = [c for c in head.children if _starts_a_list(c)]
    if not conjuncts:
        return own
    counts = [own] + [count_people(c) for c in conjuncts]
    return sum(c if c is not None else 1 for c in counts)


def _starts_a_list(appos) -> bool:
    """Whether an apposition is the second item of a list of people: a person noun that, like its conjunct, has an
    indefinite article or a number of its own ("a man , a woman and a boy"), not a restatement ("a man , John
    Smith", "a student and cancer survivor")."""
    return (
        appos.dep_ == "appos"
        and appos.pos_ == "NOUN"
        and is_person_noun(appos.lemma_.lower())
        and _counted_on_its_own(appos)
        and any(c.dep_ == "conj" and c.pos_ == "NOUN" and _counted_on_its_own(c) for c in appos.children)
    )


def _counted_on_its_own(noun) -> bool:
    """Whether a noun carries its own indefinite article or number ("a woman", "two boys")."""
    return any((c.dep_ == "det" and c.lower_ in ("a", "an")) or c.dep_ == "nummod" for c in noun.children)


def _own_count(head) -> int | None:
    lemma = head.lemma_.lower()
    if head.lower_ in MULTIPLIERS:
        return MULTIPLIERS[head.lower_]
    if head.pos_ == "NOUN" and not is_person_noun(lemma):
        return None
    for child in head.children:
        if child.dep_ == "nummod":
            value = parse_number(child.text)
            if value is not None and value < settings().extraction.max_people:
                return value
        if child.dep_ in ("det", "predet") and child.lower_ == "both":
            return 2
    if head.like_num and not _counts_things(head):
        value = parse_number(head.text)
        if value is not None and value < settings().extraction.max_people:
            return value
    if head.lower_ == "both":
        return 2
    if head.lower_ == "other" and any(c.dep_ == "det" and c.lower_ == "the" for c in head.children):
        return 1  # "killed one and wounded the other"
    if head.lower_ in SINGULAR_PRONOUNS or head.ent_type_ == "PERSON" or head.pos_ == "PROPN":
        return 1
    if any(c.dep_ == "det" and c.lower_ in SINGULAR_DETERMINERS for c in head.children):
        return 1
    if head.tag_ == "NN" and lemma not in ("people", "police", "family"):
        return 1
    return None


def of_objects(token) -> list:
    """The words that hang on ``token``'s "of" ("one of the family dogs": [dogs]; "shooting of 5": [5])."""
    return [o for c in token.children if c.dep_ == "prep" and c.lower_ == "of" for o in c.children]


def _counts_things(number) -> bool:
    """Whether a number counts things, not people: "one of the family dogs"."""
    return any(
        o.dep_ == "pobj" and o.pos_ == "NOUN" and not is_person_noun(o.lemma_.lower()) for o in of_objects(number)
    )


def multipliers_of(token) -> list:
    """The multiplier words a noun is modified by ("a triple shooting": [triple]); empty when none."""
    return [c for c in token.children if c.dep_ in ("amod", "compound") and c.lower_ in MULTIPLIERS]
