"""How rare the words of report titles and leads are among the reports grouped.

Two reports that share a rare word ("Tullahoma", a street's name) more likely tell of one incident
than two that share a common one. A word's rarity is log(S / (df + 1)), df the number of texts that
hold it and S the [clustering] ``rarity_scale``, a fixed number rather than the count of texts: a
word's rarity then changes only when texts holding it come or go, so adding documents to a store
changes the features of just the pairs that share a word of theirs whose rarity moved across one of
the features' edges (``WordRarity.moved``), and a regrouping in parts gives what grouping at once gives.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from kg_count.incidents.reports.comparison import TITLE_STOPWORDS
from kg_count.settings import settings


@lru_cache(maxsize=1 << 19)
def content_words(text: str) -> frozenset[str]:
    """The text's lower-case words of three letters or more, title stopwords left out (remembered for
    the texts of the last reports compared: each is compared with many)."""
    return frozenset(w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in TITLE_STOPWORDS)


@dataclass(frozen=True)
class WordRarity:
    """The document frequency of each content word among some texts; a word not listed is in none."""

    frequency: Counter

    @classmethod
    def of_texts(cls, texts: Iterable[str]) -> "WordRarity":
        """The frequencies of the content words of ``texts``."""
        return cls(Counter(w for text in texts for w in content_words(text)))

    def without(self, texts: Iterable[str]) -> "WordRarity":
        """The frequencies less those of ``texts`` (which must be among the texts counted): what ``of_texts``
        gives for the other texts, without reading them again."""
        return WordRarity(self.frequency - Counter(w for text in texts for w in content_words(text)))

    def plus(self, texts: Iterable[str]) -> "WordRarity":
        """The frequencies with those of ``texts`` added: what ``of_texts`` gives for all the texts together."""
        return WordRarity(self.frequency + Counter(w for text in texts for w in content_words(text)))

    def __bool__(self) -> bool:
        """False when no text held a content word (then two texts share none)."""
        return bool(self.frequency)

    def of(self, word: str, scale: float | None = None) -> float:
        """The rarity of ``word``: log(``scale`` / (frequency + 1)), ``scale`` by default the [clustering]
        ``rarity_scale``."""
        if scale is None:
            scale = settings().clustering.rarity_scale
        return math.log(scale / (self.frequency.get(word, 0) + 1))

    def shared(self, a: str, b: str) -> list[float]:
        """The rarity of each content word texts ``a`` and ``b`` share (the settings read once for them all)."""
        words = content_words(a) & content_words(b)
        if not words:
            return []
        scale = settings().clustering.rarity_scale
        return [self.of(w, scale) for w in words]

    def moved(self, other: "WordRarity", edges: Sequence[float]) -> set[str]:
        """The words whose rarity lies between other ``edges`` here than in ``other`` (sorted edges: the
        values at which some feature or decision reading the rarity changes)."""
        changed = {w for w in self.frequency.keys() | other.frequency.keys() if self.frequency[w] != other.frequency[w]}
        return {w for w in changed if bisect_right(edges, self.of(w)) != bisect_right(edges, other.of(w))}
