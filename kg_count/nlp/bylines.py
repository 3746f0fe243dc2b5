"""Where a title's publisher byline begins.

News sites end a story's title with their own name and market: "Teen shot in Mosby Court - NBC12 - WWBT -
Richmond , VA News On Your Side", "Juvenile dies in Montgomery shooting - WTVM.com - Columbus , GA News Weather &
Sports". The places there are the publisher's, not the incident's (a Columbus, Georgia station reports on
Montgomery, Alabama), though they hint at the region it covers.
"""

from __future__ import annotations

import re

SEPARATORS = {"-", "|", "–", "—", "«", "»", "::"}  # and ": :", as the task's tokens write "::"
CALL_SIGN = re.compile(r"^[KW][A-Z]{2,3}(?:-?(?:TV|FM|AM|DT|CD))?\d*(?:\.com)?$", re.IGNORECASE)
NETWORK = re.compile(r"^(?:CBS|NBC|ABC|FOX|CW|PBS)\d*$")
DOMAIN = re.compile(r"^\S+\.(?:com|net|org|tv)$", re.IGNORECASE)
PUBLISHER_WORDS = {  # capitalised; not "Times" or "Post" ("shot multiple times")
    "News",
    "NewsChannel",
    "Newschannel",
    "Channel",
    "TV",
    "Tribune",
    "Herald",
    "Gazette",
    "Chronicle",
    "Dispatch",
    "Inquirer",
    "Examiner",
}


def names_a_publisher(segment: list[str]) -> bool:
    """Whether the words of one part of a title, between separators, name a news publisher: a station's call
    sign ("WTVM", "KVVU", "WBRC"; capitals only), a network ("CBS", "FOX6"), a web address ("wave3.com") or a
    publisher's word ("News", "7News", "Tribune", "Channel")."""
    return any(
        (CALL_SIGN.match(word) and word[:4].isupper())
        or NETWORK.match(word)
        or DOMAIN.match(word)
        or word in PUBLISHER_WORDS
        or (word.endswith(("News", "news")) and not word[:1].islower())
        for word in segment
    )


def byline_start(words: list[str], body_start: int) -> int:
    """The index of the separator where the title (``words[:body_start]``) turns into its publisher's byline:
    the first separator after which the part up to the next one names a publisher (``names_a_publisher``);
    ``body_start`` when the title has no byline."""
    separators = [
        i for i in range(1, body_start) if words[i] in SEPARATORS or (words[i] == ":" and words[i + 1 : i + 2] == [":"])
    ]
    for n, i in enumerate(separators):
        end = separators[n + 1] if n + 1 < len(separators) else body_start
        if names_a_publisher(words[i + 1 : end]):
            return i
    return body_start
