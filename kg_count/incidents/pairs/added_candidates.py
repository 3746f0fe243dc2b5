"""The candidate pairs of an update's new reports, found over the columns of every report (``report_columns``).

``candidate_pairs.candidate_pair_array`` forms the candidate pairs of a list of reports one report at a time. An update
needs only the pairs of its new reports, but one new report dated only to its year reaches every report of its
kind: forming its pairs read the 50,000 reports of the store one by one (0.6-0.8 s). Here each new report's
partners are found over arrays, by the same rule: reports of one kind whose date intervals lie within the
[clustering] ``date_slack_days``, in one state or with no state named, or sharing a title word at least
``state_bridge_rarity`` rare; or that name someone with the same last name, whatever their dates. The pairs are
those ``candidate_pair_array`` forms with a marked report (``tests/test_added_candidates.py``).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.settings import settings


def added_candidate_pairs(columns: ReportColumns, added: np.ndarray, rarity: WordRarity) -> np.ndarray:
    """The candidate pairs with a report at one of the rows ``added`` of ``columns`` (those of a list of reports,
    whose title words are rare by ``rarity``): an (n, 2) array of row pairs, the smaller row first, each pair
    once, sorted."""
    chosen = settings().clustering
    by_family: dict[int, np.ndarray] = {}
    by_state: dict[tuple[int, int], np.ndarray] = {}  # state -1: none named
    for family in np.unique(columns.family[added]).tolist():
        rows = by_family[family] = np.flatnonzero(columns.family == family)
        for state in np.unique(columns.state[rows]).tolist():
            by_state[family, state] = rows[columns.state[rows] == state]
    titles = columns.texts.get("title")
    holding = titles.words.tocsc() if titles is not None else None
    naming = sparse.csc_matrix(columns.last_names)
    found = [np.zeros(0, dtype=np.int64)]  # pair codes: smaller row * rows + larger row
    for m in added.tolist():
        family, state = int(columns.family[m]), int(columns.state[m])
        placed = [by_family[family]] if state < 0 else [by_state[family, state], by_state.get((family, -1), [])]
        if holding is not None:
            placed.append(_holders(holding, _bridging_words(columns, m, rarity, chosen)))
        named = _holders(naming, _row(columns.last_names, m))
        dated = np.concatenate(placed).astype(np.int64)
        partners = np.concatenate([dated[_close(columns, m, dated, chosen.date_slack_days)], named])
        partners = np.unique(partners[(partners != m) & (columns.family[partners] == family)])
        found.append(np.minimum(partners, m) * len(columns.doc_ids) + np.maximum(partners, m))
    codes = np.unique(np.concatenate(found))
    return np.stack([codes // len(columns.doc_ids), codes % len(columns.doc_ids)], axis=1)


def _close(columns: ReportColumns, m: int, rows: np.ndarray, slack: int) -> np.ndarray:
    """A mask over ``rows``: those whose date interval lies within ``slack`` days of row ``m``'s (the later to
    start begins at most ``slack`` days after the other ends)."""
    return (columns.first[rows] <= columns.last[m] + slack) & (columns.last[rows] >= columns.first[m] - slack)


def _bridging_words(columns: ReportColumns, m: int, rarity: WordRarity, chosen) -> list[int]:
    """The title words (columns of the title words) of row ``m`` at least [clustering] ``state_bridge_rarity`` rare
    by ``rarity`` (read as ``candidate_pair_array`` reads it, not from the columns' rounded rarities)."""
    text = columns.texts["title"]
    held = _row(text.words, m).tolist()
    return [w for w in held if rarity.of(text.vocabulary[w], chosen.rarity_scale) >= chosen.state_bridge_rarity]


def _holders(matrix: sparse.csc_matrix, wanted) -> np.ndarray:
    """The rows holding one of the columns ``wanted`` of a 0/1 ``matrix`` (each once)."""
    if len(wanted) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.concatenate([matrix.indices[matrix.indptr[w] : matrix.indptr[w + 1]] for w in wanted]))


def _row(matrix: sparse.csr_matrix, m: int) -> np.ndarray:
    """The columns row ``m`` of a 0/1 ``matrix`` holds."""
    return matrix.indices[matrix.indptr[m] : matrix.indptr[m + 1]]
