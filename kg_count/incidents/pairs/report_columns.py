"""Reports as columns: what the bound on a pair's logit (``pair_bound``) reads of each report, as arrays.

``ReportColumns.of`` reads a list of reports once. An update (``regroup``) does not read the store's reports
again: it keeps the columns of the reports grouped before (``report_cache``), builds those of the new reports
alone, and joins the two (``joined``), which gives what reading every report at once gives: the same values, read
through vocabularies (kinds, places, last names, words) that may list them in another order. Word rarities are
read again for the joined vocabulary (they move as documents come), and last names alike across the two parts are
found by comparing the new names with all the others (``rapidfuzz.process.cdist``; the same ``fuzz.ratio`` test as
``_similar_last_names``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from itertools import combinations
from typing import Iterable, Protocol, Sequence

import numpy as np
from rapidfuzz import fuzz, process
from scipy import sparse

from kg_count.geography import place_coordinates
from kg_count.incidents.reports.follow_up import has_follow_up_title
from kg_count.incidents.reports.comparison import date_interval
from kg_count.incidents.pairs.pair_features import names_a_victim, sole_victim
from kg_count.incidents.reports.reports import Report
from kg_count.incidents.reports.word_rarity import WordRarity, content_words
from kg_count.settings import settings


class ComparedReports(Protocol):
    """What the columns read of the reports they are built for (``pair_context.PairContext`` is one)."""

    reports: Sequence[Report]
    vectors: dict[str, np.ndarray]
    norms: dict[str, np.floating]
    rarity: WordRarity
    lead_rarity: WordRarity


def _codes(values: Sequence) -> tuple[np.ndarray, list]:
    """Each value's index among the sorted distinct values (None: -1), and those values."""
    distinct = sorted({v for v in values if v is not None})
    index = {v: k for k, v in enumerate(distinct)}
    return np.array([index.get(v, -1) if v is not None else -1 for v in values], dtype=np.int64), distinct


def _membership(groups: Sequence[Iterable[str]]) -> tuple[sparse.csr_matrix, list[str]]:
    """Which items each group holds, as a 0/1 matrix (rows: groups; columns: the items, in order of first
    appearance), and those items."""
    vocabulary: dict[str, int] = {}
    rows, columns = [], []
    for row, group in enumerate(groups):
        for item in group:
            rows.append(row)
            columns.append(vocabulary.setdefault(item, len(vocabulary)))
    shape = (len(groups), len(vocabulary))
    return sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, columns)), shape=shape), list(vocabulary)


def _rarities(words: Sequence[str], rarity: WordRarity) -> np.ndarray:
    """Each word's rarity by ``rarity``, at least 0 (a shared word's rarity matters only from the lowest edge,
    which is above 0)."""
    scale = settings().clustering.rarity_scale
    return np.array([max(rarity.of(w, scale), 0.0) for w in words], dtype=np.float32)


def _similar_last_names(names: list[str], cutoff: float) -> sparse.csr_matrix:
    """Which of ``names`` (lower-case last names) are alike by ``fuzz.ratio`` >= ``cutoff`` (a square 0/1 matrix,
    the diagonal set). Two names that alike differ by few insertions and deletions, so they share a string made
    by deleting a few characters from each: only the names that share one are compared."""
    by_variant: dict[str, list[int]] = {}
    for k, name in enumerate(names):
        most = int((2 * (100 - cutoff) * len(name)) // cutoff)
        for variant in _deletions(name, most):
            by_variant.setdefault(variant, []).append(k)
    rows, columns = list(range(len(names))), list(range(len(names)))
    compared = set()
    for group in by_variant.values():
        for x, y in combinations(group, 2):
            if (x, y) not in compared:
                compared.add((x, y))
                if fuzz.ratio(names[x], names[y]) >= cutoff:
                    rows += [x, y]
                    columns += [y, x]
    return sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, columns)), shape=(len(names), len(names)))


def _alike_across(names: list[str], others: list[str], cutoff: float) -> sparse.csr_matrix:
    """Which of ``others`` each of ``names`` is alike (``fuzz.ratio`` >= ``cutoff``), as a 0/1 matrix (rows:
    ``names``)."""
    if not names or not others:
        return sparse.csr_matrix((len(names), len(others)), dtype=np.float32)
    scores = process.cdist(names, others, scorer=fuzz.ratio, score_cutoff=cutoff, dtype=np.float64, workers=-1)
    return sparse.csr_matrix(((scores >= cutoff) & (scores > 0)).astype(np.float32))


def _deletions(word: str, most: int) -> set[str]:
    """``word`` and every string made by deleting up to ``most`` of its characters."""
    found, level = {word}, {word}
    for _ in range(most):
        level = {w[:k] + w[k + 1 :] for w in level for k in range(len(w))}
        found |= level
    return found


def _name_matrices(reports: Sequence[Report]) -> tuple[sparse.csr_matrix, sparse.csr_matrix, list[str]]:
    """Which last names each report's named victims and suspects have (rows: reports), which last names are
    alike one of them (``comparison.same_person``'s test of last names), and those last names (the columns)."""
    named, names = _membership([{p.last_name.lower() for p in r.named_participants} for r in reports])
    return named, named @ _similar_last_names(names, settings().clustering.last_name_similarity), names


@dataclass
class TextColumns:
    """The content words of one part of each report (title or lead)."""

    words: sparse.csr_matrix  # reports x vocabulary: the words each holds
    rarities: np.ndarray  # of each word of the vocabulary (``_rarities``)
    present: np.ndarray  # the report has the part
    vocabulary: list[str]


@dataclass
class ReportColumns:
    """What the bound reads of each report, as arrays (rows: the reports of ``doc_ids``)."""

    doc_ids: list[str]
    first: np.ndarray  # date interval, ordinal days
    last: np.ndarray
    day: np.ndarray
    stated_day: np.ndarray  # stated in the text to the day
    kind: np.ndarray  # certainty:granularity, index into ``kinds`` (sorted)
    kinds: list[str]
    dct: np.ndarray
    state: np.ndarray  # index into ``states`` (sorted)
    states: list[str]
    city: np.ndarray  # index into ``cities`` (sorted)
    cities: list[str]
    located: np.ndarray  # (city name, state) for distances, index into ``locations`` (sorted)
    locations: list[tuple[str, str]]
    coordinates: np.ndarray  # of each location (rows of ``locations``), where ``has_coordinates``
    has_coordinates: np.ndarray
    counts: np.ndarray  # (n, 3): killed, injured, fired
    family: np.ndarray  # index into ``families`` (sorted)
    families: list[str]
    named: np.ndarray
    last_names: sparse.csr_matrix  # reports x ``names``: the last names each names
    alike_names: sparse.csr_matrix  # reports x ``names``: how many of its last names each is alike
    names: list[str]
    harmed: np.ndarray
    sole: np.ndarray
    follow_up: np.ndarray
    vectors: np.ndarray  # title vectors (zero rows where none) and their norms
    norms: np.ndarray
    has_vector: np.ndarray
    texts: dict[str, TextColumns]  # by part: "title", "lead" (none when no text of the context has a word)

    @classmethod
    def of(cls, context: ComparedReports) -> "ReportColumns":
        """The columns of ``context``'s reports."""
        reports = context.reports
        intervals = [date_interval(r) for r in reports]
        kind, kinds = _codes([f"{r.certainty}:{r.granularity}" for r in reports])
        family, families = _codes([r.family for r in reports])
        last_names, alike_names, names = _name_matrices(reports)
        located, locations = _codes([(r.city, r.state_iri) if r.city and r.state_iri else None for r in reports])
        places = [place_coordinates(*location) for location in locations]
        width = len(next(iter(context.vectors.values()))) if context.vectors else 1
        vectors = np.zeros((len(reports), width), dtype=np.float32)
        norms = np.ones(len(reports), dtype=np.float32)
        has_vector = np.zeros(len(reports), dtype=bool)
        for k, r in enumerate(reports):
            if r.title in context.vectors:
                vectors[k], norms[k], has_vector[k] = context.vectors[r.title], context.norms[r.title], True
        texts = {}
        for part, rarity in (("title", context.rarity), ("lead", context.lead_rarity)):
            if rarity:
                held, vocabulary = _membership([content_words(getattr(r, part)) for r in reports])
                present = np.array([bool(getattr(r, part)) for r in reports])
                texts[part] = TextColumns(held, _rarities(vocabulary, rarity), present, vocabulary)
        state, states = _codes([r.state_iri for r in reports])
        city, cities = _codes([r.city_iri for r in reports])
        return cls(
            doc_ids=[r.doc_id for r in reports],
            first=np.array([i[0].toordinal() for i in intervals], dtype=np.int64),
            last=np.array([i[1].toordinal() for i in intervals], dtype=np.int64),
            day=np.array([r.date.toordinal() for r in reports], dtype=np.int64),
            stated_day=np.array([r.certainty == "text" and r.granularity == "day" for r in reports], dtype=bool),
            kind=kind,
            kinds=kinds,
            dct=np.array([r.dct.toordinal() for r in reports], dtype=np.int64),
            state=state,
            states=states,
            city=city,
            cities=cities,
            located=located,
            locations=locations,
            coordinates=np.array([place or (0.0, 0.0) for place in places], dtype=float).reshape(-1, 2),
            has_coordinates=np.array([place is not None for place in places], dtype=bool),
            counts=np.array([(r.killed, r.injured, r.fired) for r in reports], dtype=np.int64).reshape(-1, 3),
            family=family,
            families=families,
            named=np.array([bool(r.named_participants) for r in reports], dtype=bool),
            last_names=last_names,
            alike_names=alike_names,
            names=names,
            harmed=np.array([names_a_victim(r) for r in reports], dtype=bool),
            sole=np.array([sole_victim(r) for r in reports], dtype=bool),
            follow_up=np.array([has_follow_up_title(r.title) for r in reports], dtype=bool),
            vectors=vectors,
            norms=norms,
            has_vector=has_vector,
            texts=texts,
        )

    def title_vectors(self, reports: Sequence[Report]) -> tuple[dict[str, np.ndarray], dict[str, np.floating]]:
        """The title vectors of ``reports`` (each with a row here) and their norms, as ``sentence_vectors`` gives
        them and ``of`` kept them."""
        row = {doc: k for k, doc in enumerate(self.doc_ids)}
        vectors, norms = {}, {}
        for report in reports:
            k = row[report.doc_id]
            if self.has_vector[k]:
                vectors[report.title], norms[report.title] = self.vectors[k], self.norms[k]
        return vectors, norms

    def take(self, rows: Sequence[int] | np.ndarray) -> "ReportColumns":
        """The columns of the reports at ``rows`` (in that order), read through the same vocabularies."""
        rows = np.asarray(rows, dtype=np.int64)
        chosen = {f.name: getattr(self, f.name)[rows] for f in fields(self) if f.name in _ROW_FIELDS}
        texts = {part: replace(t, words=t.words[rows], present=t.present[rows]) for part, t in self.texts.items()}
        return replace(self, doc_ids=[self.doc_ids[k] for k in rows.tolist()], texts=texts, **chosen)

    def holding(self, part: str, words: set[str]) -> dict[str, set[str]]:
        """Of the reports whose ``part`` ("title" or "lead") holds one of ``words``: the words of them it holds, by
        document id."""
        text = self.texts.get(part)
        wanted = [k for k, word in enumerate(text.vocabulary) if word in words] if text and words else []
        if not wanted:
            return {}
        held = text.words[:, wanted].tocoo()
        found: dict[str, set[str]] = {}
        for row, column in zip(held.row.tolist(), held.col.tolist()):
            found.setdefault(self.doc_ids[row], set()).add(text.vocabulary[wanted[column]])
        return found

    def without(self, doc_ids: set[str]) -> "ReportColumns":
        """The columns of the reports not in ``doc_ids`` (these columns themselves when none is)."""
        rows = [k for k, doc in enumerate(self.doc_ids) if doc not in doc_ids]
        return self if len(rows) == len(self.doc_ids) else self.take(rows)

    def joined(self, other: "ReportColumns", rarity: tuple[WordRarity, WordRarity]) -> "ReportColumns":
        """These reports' columns followed by ``other``'s (none of them here), as ``of`` gives them for the two
        lists at once with word rarities ``rarity`` (title, lead)."""
        rows = {f.name: np.concatenate([getattr(self, f.name), getattr(other, f.name)]) for f in _SIMPLE_ROWS}
        kind, kinds = _recoded(self.kind, self.kinds, other.kind, other.kinds)
        family, families = _recoded(self.family, self.families, other.family, other.families)
        state, states = _recoded(self.state, self.states, other.state, other.states)
        city, cities = _recoded(self.city, self.cities, other.city, other.cities)
        located, locations = _recoded(self.located, self.locations, other.located, other.locations)
        where = {**_coordinates_by_location(other), **_coordinates_by_location(self)}
        last_names, alike_names, names = self._joined_names(other)
        return ReportColumns(
            doc_ids=[*self.doc_ids, *other.doc_ids],
            kind=kind,
            kinds=kinds,
            family=family,
            families=families,
            state=state,
            states=states,
            city=city,
            cities=cities,
            located=located,
            locations=locations,
            coordinates=np.array([where[x] or (0.0, 0.0) for x in locations], dtype=float).reshape(-1, 2),
            has_coordinates=np.array([where[x] is not None for x in locations], dtype=bool),
            last_names=last_names,
            alike_names=alike_names,
            names=names,
            texts=_joined_texts(self, other, rarity),
            **rows,
        )

    def _joined_names(self, other: "ReportColumns") -> tuple[sparse.csr_matrix, sparse.csr_matrix, list[str]]:
        """The last-name matrices of ``joined`` and their names: these names, then ``other``'s new ones."""
        position = {name: k for k, name in enumerate(self.names)}
        new = [name for name in other.names if name not in position]
        names = [*self.names, *new]
        position.update((name, len(self.names) + k) for k, name in enumerate(new))
        mapping = _mapping([position[name] for name in other.names], len(names))
        alike_other = _alike_across(other.names, names, settings().clustering.last_name_similarity)
        ours = _widened(self.last_names, len(names))
        # new names alike one of ours: their columns for our reports (``alike_other``'s rows of the new names)
        row_of = {name: k for k, name in enumerate(other.names)}
        news = _mapping([position[name] for name in new], len(names))
        across = sparse.csr_matrix((news.T @ alike_other[[row_of[name] for name in new]]).T)
        last_names = sparse.vstack([ours, other.last_names @ mapping]).tocsr()
        alike = sparse.vstack([_widened(self.alike_names, len(names)) + ours @ across, other.last_names @ alike_other])
        return last_names, alike.tocsr(), names


_SIMPLE_ROWS = [
    f
    for f in fields(ReportColumns)
    if f.name
    in {
        "first", "last", "day", "stated_day", "dct", "counts", "named", "harmed", "sole", "follow_up", "vectors",
        "norms", "has_vector",
    }
]  # fmt: skip
_ROW_FIELDS = {
    *(f.name for f in _SIMPLE_ROWS),
    *("kind", "state", "city", "located", "family", "last_names", "alike_names"),
}


def _recoded(codes: np.ndarray, values: list, other_codes: np.ndarray, other_values: list) -> tuple[np.ndarray, list]:
    """Two code columns (indexes into sorted ``values``, -1 for none) as one over the sorted union of their
    values."""
    union = sorted(set(values) | set(other_values))
    index = {v: k for k, v in enumerate(union)}
    here = np.array([index[v] for v in values] + [-1], dtype=np.int64)
    there = np.array([index[v] for v in other_values] + [-1], dtype=np.int64)
    return np.concatenate([here[codes], there[other_codes]]), union


def _coordinates_by_location(columns: ReportColumns) -> dict:
    """Each location's coordinates, or None where it has none."""
    return {
        location: tuple(columns.coordinates[k]) if columns.has_coordinates[k] else None
        for k, location in enumerate(columns.locations)
    }


def _mapping(targets: Sequence[int], width: int) -> sparse.csr_matrix:
    """A 0/1 matrix sending column k to column ``targets[k]`` of ``width`` columns."""
    return sparse.csr_matrix(
        (np.ones(len(targets), dtype=np.float32), (np.arange(len(targets)), np.asarray(targets, dtype=np.int64))),
        shape=(len(targets), width),
    )


def _widened(matrix: sparse.csr_matrix, width: int) -> sparse.csr_matrix:
    """``matrix`` with empty columns added up to ``width``."""
    return sparse.csr_matrix((matrix.data, matrix.indices, matrix.indptr), shape=(matrix.shape[0], width))


def _joined_texts(
    ours: ReportColumns, other: ReportColumns, rarity: tuple[WordRarity, WordRarity]
) -> dict[str, TextColumns]:
    """The text columns of ``ours`` joined with ``other``'s, word rarities read from ``rarity``."""
    texts = {}
    for part, part_rarity in zip(("title", "lead"), rarity):
        if not part_rarity:
            continue
        here, there = ours.texts.get(part), other.texts.get(part)
        if here is None or there is None:
            raise ValueError(f"the {part} columns are missing from one side of a join")
        position = {word: k for k, word in enumerate(here.vocabulary)}
        new = [word for word in there.vocabulary if word not in position]
        vocabulary = [*here.vocabulary, *new]
        position.update((word, len(here.vocabulary) + k) for k, word in enumerate(new))
        mapping = _mapping([position[word] for word in there.vocabulary], len(vocabulary))
        words = sparse.vstack([_widened(here.words, len(vocabulary)), there.words @ mapping]).tocsr()
        present = np.concatenate([here.present, there.present])
        texts[part] = TextColumns(words, _rarities(vocabulary, part_rarity), present, vocabulary)
    return texts
