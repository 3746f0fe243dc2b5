"""What comparing two reports of a list needs from the whole list: their title vectors, how rare their words are,
their candidate pairs and their columns (``PairContext``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator, Sequence

import numpy as np

from kg_count.incidents.pairs.candidate_pairs import candidate_pair_codes, code_pairs, pair_rows
from kg_count.incidents.pairs.pair_features import Similarity, hard_conflict, pair_features
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.reports import Report
from kg_count.incidents.reports.title_vectors import sentence_vectors
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.memory import release_freed_memory


def text_rarities(reports: Sequence[Report]) -> tuple[WordRarity, WordRarity]:
    """How rare the words of ``reports``' titles, and of their leads, are among them."""
    return WordRarity.of_texts(r.title for r in reports), WordRarity.of_texts(r.lead for r in reports)


@dataclass
class PairContext:
    """What comparing two reports of a list needs from the whole list: title vectors and word rarities."""

    reports: Sequence[Report]
    vectors: dict[str, np.ndarray]
    rarity: WordRarity
    lead_rarity: WordRarity
    norms: dict[str, np.floating] = field(default_factory=dict)

    @classmethod
    def of(cls, reports: Sequence[Report], rarity: tuple[WordRarity, WordRarity] | None = None) -> "PairContext":
        """Title vectors of ``reports`` (encoded or cached), how rare their title and lead words are (among
        them, unless ``rarity`` gives it for a larger set)."""
        vectors = sentence_vectors(r.title for r in reports)
        norms = {t: np.linalg.norm(v) for t, v in vectors.items()}
        titles, leads = rarity or text_rarities(reports)
        return cls(reports, vectors, titles, leads, norms)

    def similarity(self, i: int, j: int) -> Similarity:
        """How alike reports ``i`` and ``j`` read (``title_vectors.cosine`` with the norms computed once)."""
        a, b = self.vectors.get(self.reports[i].title), self.vectors.get(self.reports[j].title)
        if a is None or b is None:
            return Similarity(None, self.rarity, self.lead_rarity)
        norms = self.norms[self.reports[i].title] * self.norms[self.reports[j].title]
        return Similarity(float(a @ b / (norms + 1e-9)), self.rarity, self.lead_rarity)

    def features(self, i: int, j: int) -> list[str] | None:
        """The features of reports ``i`` and ``j``, or None when they have a hard conflict."""
        a, b = self.reports[i], self.reports[j]
        similarity = self.similarity(i, j)
        if hard_conflict(a, b, similarity) is not None:
            return None
        return pair_features(a, b, similarity)

    @cached_property
    def candidate_codes(self) -> np.ndarray:
        """The reports' candidate pairs as codes (``candidate_pair_codes``), formed once."""
        codes = candidate_pair_codes(self.reports, self.rarity)
        release_freed_memory()  # the sweep's temporary arrays
        return codes

    @property
    def candidates(self) -> np.ndarray:
        """The reports' candidate pairs as an (n, 2) array of rows ``i < j`` (``candidate_pair_array``), read from
        ``candidate_codes`` each time (not kept: twice their size)."""
        return code_pairs(self.candidate_codes, len(self.reports))

    @cached_property
    def columns(self) -> ReportColumns:
        """The reports as arrays, for bounding many pairs' probabilities at once (``pair_bound``)."""
        return ReportColumns.of(self)

    def use_columns(self, columns: ReportColumns) -> None:
        """Read ``columns`` (built elsewhere, one row for each of the reports, in their order) as the reports'
        columns."""
        if columns.doc_ids != [r.doc_id for r in self.reports]:
            raise ValueError("the columns are not those of the context's reports")
        self.__dict__["columns"] = columns

    def built_columns(self) -> ReportColumns | None:
        """The reports' columns, when something read them already; None otherwise."""
        return self.__dict__.get("columns")

    def forget_candidates(self) -> None:
        """Let go of the candidate pairs (formed again if read again)."""
        self.__dict__.pop("candidate_codes", None)

    def pairs(self) -> Iterator[tuple[tuple[int, int], list[str]]]:
        """Every candidate pair without a hard conflict, with its features."""
        for i, j in pair_rows(self.candidates):
            found = self.features(i, j)
            if found is not None:
                yield (i, j), found
