"""Text of a web page that is not its story: a video playlist's clips, each a running time and a title ("0:24
Police investigate scene of shooting in southwest Fresno Pause 1:38 After wife missing nearly half a year , ...").

The titles of other stories tell of other shootings, places and days; read as the story's own words they give a
document the wrong counts, city and date, and a page whose story the crawler missed reads as those clips. A
body sentence holding two or more clip running times is such a playlist, and so is the sentence after one that
ends with a running time (that clip's title). A clock time is no running time: "at 9:00 & 10:00", "10:24 PM".
The events, times, counts and people of a playlist are not the story's; its places are left to the place
candidates, as a local outlet's other stories lie in its region.
"""

from __future__ import annotations

import re

from typing import TYPE_CHECKING

from kg_count.io.conll import Document

if TYPE_CHECKING:
    from kg_count.nlp.annotate import AnnotatedDocument

RUNNING_TIME = re.compile(r"^\d{1,2}:[0-5]\d$")
CLOCK_WORDS_AFTER = {"a.m.", "p.m.", "a.m", "p.m", "am", "pm", "a", "p", "est", "edt", "cst", "cdt", "pst", "pdt"}
CLOCK_WORDS_BEFORE = {"at", "about", "around", "by", "until", "till", "before", "after", "from", "to", "between"}
CLOCK_WORDS_BEFORE |= {"and", "&", "@", "-", ",", "since", "past", "near", "approximately", "roughly", "just"}
MIN_RUNNING_TIMES = 2


def _running_times(words: list[str]) -> list[int]:
    """The indexes of the words of one sentence that are a clip's running time, not a clock time."""
    found = []
    for i, word in enumerate(words):
        if not RUNNING_TIME.match(word):
            continue
        after = words[i + 1].lower() if i + 1 < len(words) else ""
        before = words[i - 1].lower() if i else ""
        if after not in CLOCK_WORDS_AFTER and before not in CLOCK_WORDS_BEFORE:
            found.append(i)
    return found


def playlist_sentences(document: Document) -> set[str]:
    """The sentence keys of the body's video playlists: each body sentence with ``MIN_RUNNING_TIMES`` clip running
    times or more, and the sentence after one whose last word is a running time."""
    furniture: set[str] = set()
    title_follows = False
    for sentence in document.sentences():
        words = [token.text for token in sentence if not token.is_layout]
        if sentence[0].part != "BODY" or not words:
            continue
        times = _running_times(words)
        if len(times) >= MIN_RUNNING_TIMES or title_follows:
            furniture.add(sentence[0].sentence)
        title_follows = len(times) >= MIN_RUNNING_TIMES and times[-1] == len(words) - 1
    return furniture


def playlist_tokens(annotated: AnnotatedDocument) -> frozenset[int]:
    """The indexes of the spaCy tokens of an annotated document that lie in its video playlists
    (``playlist_sentences``)."""
    tokens = annotated.document.tokens
    keys = playlist_sentences(annotated.document)
    return frozenset(i for i, position in enumerate(annotated.positions) if tokens[position].sentence in keys)
