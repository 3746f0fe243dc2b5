"""The probabilities of the report pairs a grouping scored, kept on disk so that an update scores again only
the pairs whose features the new documents changed.

A grouping keeps the probability of every pair at or above the merge threshold and of every pair merging read
(``cluster.PairProbabilities``: merging compares the groups of one link component, and scores a pair when it
first reads it). They are written as ``ScoredPairs``, named by the fingerprint of the incident graph they made
(``materialise.documents_fingerprint``: the documents' content hashes, the models, the settings and the code), to
``$KG_COUNT_PAIR_CACHE`` (default ``pair_probabilities`` in the project cache folder). When documents are added,
``regroup`` reads the file of the fingerprint the store's incident graph holds (``EarlierScores``): a pair of
earlier reports that shares no word whose rarity moved has the features it had, so its probability is the one
stored, where one is. The pairs of new reports were scored once already, to find the components they link to;
only the pairs sharing a moved word are scored again at once, and the others merging reads are scored as it reads
them. Without the file (another machine, a cleared cache) all are scored as a grouping at once scores them, with
the same result; either way the file written is the one a grouping at once writes.
"""

from __future__ import annotations

import os
from itertools import chain
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from kg_count.incidents.reports.reports import Report
from kg_count.io.atomic import atomic_writer

CACHE_ENV = "KG_COUNT_PAIR_CACHE"
KEPT_FILES = 8  # the most recently written files stay; older ones are removed


def default_pair_cache_folder() -> Path:
    """``$KG_COUNT_PAIR_CACHE``, else ``pair_probabilities`` in the project cache folder."""
    from kg_count.resources.project_cache import project_cache

    return Path(os.environ.get(CACHE_ENV) or project_cache() / "pair_probabilities")


def keep_newest(folder: Path, pattern: str) -> None:
    """Remove all but the ``KEPT_FILES`` most recently written files of ``folder`` matching ``pattern``."""
    for old in sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)[KEPT_FILES:]:
        old.unlink(missing_ok=True)


@dataclass
class ScoredPairs:
    """Pair probabilities by document ids: ``doc_ids`` sorted; ``codes`` sorted, each ``first * len(doc_ids) +
    second`` for indexes ``first < second`` into ``doc_ids``; ``probability`` by code."""

    doc_ids: np.ndarray
    codes: np.ndarray
    probability: np.ndarray

    @classmethod
    def of(cls, reports: Sequence[Report], probability: dict[tuple[int, int], float]) -> "ScoredPairs":
        """The pairs of ``probability`` (indexes into ``reports``) by the reports' document ids."""
        ids = np.array([r.doc_id for r in reports], dtype=str)
        doc_ids, position = np.unique(ids, return_inverse=True)
        rows = np.fromiter(chain.from_iterable(probability), dtype=np.int64, count=2 * len(probability)).reshape(-1, 2)
        values = np.fromiter(probability.values(), dtype=np.float64, count=len(probability))
        return cls.from_indexes(doc_ids, position[rows[:, 0]], position[rows[:, 1]], values)

    @classmethod
    def from_indexes(
        cls, doc_ids: np.ndarray, first: np.ndarray, second: np.ndarray, values: np.ndarray
    ) -> "ScoredPairs":
        """Pairs given by index arrays into ``doc_ids`` (in either order) and their probabilities."""
        codes = np.minimum(first, second) * len(doc_ids) + np.maximum(first, second)
        order = np.argsort(codes, kind="stable")
        return cls(doc_ids, codes[order], values[order])

    def indexes(self) -> tuple[np.ndarray, np.ndarray]:
        """The index into ``doc_ids`` of each pair's first and of its second report."""
        size = max(len(self.doc_ids), 1)
        return self.codes // size, self.codes % size

    def without(self, dropped: set[str]) -> "ScoredPairs":
        """These pairs less those with a report in ``dropped``."""
        first, second = self.indexes()
        gone = np.isin(self.doc_ids, sorted(dropped))
        keep = ~(gone[first] | gone[second])
        return ScoredPairs.from_indexes(self.doc_ids, first[keep], second[keep], self.probability[keep])

    def joined(self, other: "ScoredPairs") -> "ScoredPairs":
        """The pairs of both (no pair is in both)."""
        doc_ids = np.union1d(self.doc_ids, other.doc_ids)
        first, second = [], []
        for part in (self, other):
            moved = np.searchsorted(doc_ids, part.doc_ids)
            a, b = part.indexes()
            first.append(moved[a])
            second.append(moved[b])
        values = np.concatenate([self.probability, other.probability])
        return ScoredPairs.from_indexes(doc_ids, np.concatenate(first), np.concatenate(second), values)

    def positions(self, doc_ids: np.ndarray) -> np.ndarray:
        """The index of each of ``doc_ids`` (an array of strings) into these pairs' ``doc_ids``; -1 for one not here."""
        if not len(self.doc_ids):
            return np.full(len(doc_ids), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.doc_ids, doc_ids), len(self.doc_ids) - 1)
        return np.where(self.doc_ids[at] == doc_ids, at, -1)

    def lookup(self, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each pair of reports, given by their ``positions``, whether it is held, and its probability (0 where
        not)."""
        if not len(self.codes):
            return np.zeros(len(first), dtype=bool), np.zeros(len(first))
        codes = np.minimum(first, second) * len(self.doc_ids) + np.maximum(first, second)
        at = np.minimum(np.searchsorted(self.codes, codes), len(self.codes) - 1)
        held = (first >= 0) & (second >= 0) & (self.codes[at] == codes)
        return held, np.where(held, self.probability[at], 0.0)

    def save(self, fingerprint: str, folder: Path | None = None) -> None:
        """Write these pairs as the file of ``fingerprint`` (whole or not at all), then remove all but the
        ``KEPT_FILES`` most recent files."""
        folder = folder or default_pair_cache_folder()
        with atomic_writer(folder / f"{fingerprint}.npz", binary=True) as handle:
            np.savez(handle, doc_ids=self.doc_ids, codes=self.codes, probability=self.probability)
        keep_newest(folder, "*.npz")

    @classmethod
    def load(cls, fingerprint: str, folder: Path | None = None) -> "ScoredPairs | None":
        """The pairs saved for ``fingerprint``, or None when there are none (or the file cannot be read)."""
        path = (folder or default_pair_cache_folder()) / f"{fingerprint}.npz"
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(data["doc_ids"], data["codes"], data["probability"])
        except (OSError, ValueError, KeyError):
            return None


@dataclass
class EarlierScores:
    """What an update knows of the pairs of the reports it regroups: the earlier grouping's ``scored`` pairs,
    each earlier report's ``component``, the candidate pairs of a new report without a hard conflict that may
    reach the merge threshold (``added``, scored when finding the components the new reports link to; the others
    are under it), and the candidate pairs of earlier
    reports that share a word whose rarity moved (``reread``, by document ids)."""

    scored: ScoredPairs
    component: dict[str, str]
    added: ScoredPairs
    reread: set[tuple[str, str]]

    def resolve(self, reports: Sequence[Report], pairs: np.ndarray) -> tuple[dict[tuple[int, int], float], np.ndarray]:
        """For candidate ``pairs`` (rows of indexes into ``reports``): the probabilities known (a pair of a new
        report scored in ``added``, or a pair of earlier reports the earlier grouping kept), and the pairs to score
        again (those sharing a moved word). The others are scored if merging reads them
        (``cluster.PairProbabilities``)."""
        ids = np.array([r.doc_id for r in reports], dtype=str)
        a, b = pairs[:, 0], pairs[:, 1]
        earlier = np.array([doc in self.component for doc in ids.tolist()], dtype=bool)
        new = ~(earlier[a] & earlier[b])
        reread = np.zeros(len(pairs), dtype=bool)
        if self.reread:
            index = {doc: k for k, doc in enumerate(ids.tolist())}
            marked = [(index[x], index[y]) for x, y in self.reread if x in index and y in index]
            codes = np.array([min(i, j) * len(ids) + max(i, j) for i, j in marked], dtype=np.int64)
            reread = ~new & np.isin(a * len(ids) + b, codes)
        known: dict[tuple[int, int], float] = {}
        for rows, scored in ((new, self.added), (~new & ~reread, self.scored)):
            where = scored.positions(ids)
            held, probability = scored.lookup(where[a[rows]], where[b[rows]])
            known.update(zip(map(tuple, pairs[rows][held].tolist()), probability[held].tolist()))
        return known, pairs[reread]
