"""The states a story's telephone numbers lie in: a tip line or a police desk ("call Crime Stoppers at ( 601 ) 355 -
8477") is local, and its area code names the state (``kg_count/resources/area_codes.tsv``, written by
``scripts/make_area_codes.py``). Toll-free and other non-geographic codes name none.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from importlib.resources import files

from kg_count.nlp.candidate_features import vote_features

# an area code in parentheses or not, then the exchange and the line, as the task's tokens and articles write them:
# "( 601 ) 355 - 8477", "(601) 355-8477", "601-355-8477", "601.355.8477", "1-601-355-8477"
PHONE_NUMBER = re.compile(r"(?<![\d-])(?:1\s*-\s*)?\(?\s*([2-9]\d\d)\s*\)?\s*[-.]?\s*[2-9]\d\d\s*[-.]\s*\d{4}(?![\d-])")


@lru_cache(maxsize=1)
def area_code_states() -> dict[str, str]:
    """Area code -> postal code of its state, from the shipped table."""
    text = files("kg_count.resources").joinpath("area_codes.tsv").read_text(encoding="utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {code: state for code, state in rows}


def phone_states(words: list[str]) -> Counter:
    """How many of the telephone numbers ``words`` write (joined by spaces) have an area code of each state
    (postal code -> numbers)."""
    states = area_code_states()
    text = " ".join(words)
    return Counter(states[code] for code in PHONE_NUMBER.findall(text) if code in states)


def phone_state_features(words: list[str]) -> dict[str, set[str]]:
    """The state candidates of the numbers ``words`` write (``phone_states``), with features: ``phone`` for every
    such state, ``phone:top`` for the state most of them lie in (when one state leads)."""
    return vote_features(phone_states(words), "phone")
