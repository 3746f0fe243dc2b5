"""Candidate pairs of reports: which reports are compared at all (of one kind, their date intervals within the
slack or a shared last name, across states only through a rare shared title word or a last name), as sorted
index arrays.

A whole grouping holds its candidate pairs as one code a pair, ``i * n + j`` for reports ``i < j`` of ``n``
(``candidate_pair_codes``): 8 bytes a pair, where the (pairs, 2) array of ``candidate_pair_array`` takes 16; at
20,000 rendered articles they are 6.4 million. ``pair_endpoints`` reads either form a slice at a time."""

from __future__ import annotations

from itertools import chain
from typing import Iterator, Sequence

import numpy as np

from kg_count.arrays import sorted_unique
from kg_count.incidents.reports.comparison import date_interval
from kg_count.incidents.reports.reports import Report
from kg_count.incidents.reports.word_rarity import WordRarity, content_words
from kg_count.settings import settings


def _close_in_time(
    groups: Sequence[Sequence[int]], first: np.ndarray, last: np.ndarray, slack: int, touching: np.ndarray | None = None
) -> np.ndarray:
    """Index pairs (rows ``i < j``) of members of one of ``groups`` whose date intervals (``first`` and ``last``:
    the day ordinals of every index's interval) lie within ``slack`` days; with ``touching`` (a mask over all
    indices), only the pairs with a marked member. One sweep over the groups laid end to end (each group's days
    shifted past those the group before it can reach) and sorted by first day, each member reaching the later ones
    that start at most ``slack`` days after it ends. A pair of two members of more than one group may come more
    than once."""
    sizes = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
    if not sizes.sum():
        return np.zeros((0, 2), dtype=np.int64)
    index = np.fromiter(chain.from_iterable(groups), dtype=np.int64, count=int(sizes.sum()))
    group = np.repeat(np.arange(len(groups)), sizes)
    index, group = index[order := np.lexsort((last[index], first[index], group))], group[order]
    base, span = int(first[index].min()), int(last[index].max() - first[index].min()) + slack + 1
    starts = first[index] - base + group * span
    ends = np.searchsorted(starts, last[index] - base + group * span + slack, side="right")
    earlier, later = _reached(ends, None if touching is None else touching[index])
    a, b = index[earlier], index[later]
    return np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1)


def _reached(ends: np.ndarray, marked: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The position pairs (p, q) with p < q < ``ends[p]``; with ``marked`` (a mask over positions), only those
    with a marked position."""
    positions = np.arange(len(ends))
    reach = ends - positions - 1
    if marked is None:
        earlier = np.repeat(positions, reach)
        return earlier, np.arange(int(reach.sum())) - np.repeat(np.cumsum(reach) - reach, reach) + earlier + 1
    chosen = positions[marked]  # a marked position reaches every later one it reaches
    earlier = np.repeat(chosen, reach[marked])
    later = np.arange(len(earlier)) - np.repeat(np.cumsum(reach[marked]) - reach[marked], reach[marked]) + earlier + 1
    lo = np.searchsorted(chosen, positions[~marked], side="right")  # an unmarked one, only the marked ones
    count = np.searchsorted(chosen, ends[~marked], side="left") - lo
    others = np.repeat(positions[~marked], count)
    offsets = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    return np.concatenate([earlier, others]), np.concatenate([later, chosen[np.repeat(lo, count) + offsets]])


def _all_pairs(members: Sequence[int], marked: np.ndarray | None = None) -> np.ndarray:
    """Every index pair (rows ``i < j``) of ``members``; with ``marked`` (a mask over all indices), only those
    with a marked member (a pair of two marked members may come twice)."""
    index = np.array(sorted(members), dtype=np.int64)
    if marked is None:
        earlier, later = np.triu_indices(len(index), 1)
        return np.stack([index[earlier], index[later]], axis=1)
    chosen = index[marked[index]]
    a, b = np.repeat(chosen, len(index)), np.tile(index, len(chosen))
    apart = a != b
    a, b = a[apart], b[apart]
    return np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1)


def candidate_pair_array(
    reports: Sequence[Report], rarity: WordRarity | None = None, touching: np.ndarray | None = None
) -> np.ndarray:
    """``candidate_pair_codes`` as an (n, 2) array of rows ``i < j``, sorted."""
    return code_pairs(candidate_pair_codes(reports, rarity, touching), len(reports))


def code_pairs(codes: np.ndarray, size: int) -> np.ndarray:
    """The pair codes ``i * size + j`` as an (n, 2) array of rows ``(i, j)``."""
    return np.stack(pair_endpoints(codes, 0, len(codes), size), axis=1)


def pair_endpoints(pairs: np.ndarray, start: int, stop: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The first and the second report of the pairs ``start:stop`` of ``pairs``, an (n, 2) array or the codes
    ``i * size + j`` (``candidate_pair_codes``)."""
    if pairs.ndim == 1:
        codes = pairs[start:stop]
        return codes // max(size, 1), codes % max(size, 1)
    return pairs[start:stop, 0], pairs[start:stop, 1]


def candidate_pair_codes(
    reports: Sequence[Report], rarity: WordRarity | None = None, touching: np.ndarray | None = None
) -> np.ndarray:
    """Index pairs of reports of one kind whose date intervals lie within the [clustering] ``date_slack_days``,
    or that name someone with the same last name, whatever their dates, as the sorted codes ``i * n + j`` of
    the pairs ``i < j`` (``n``: the number of reports). ``touching``: a mask over ``reports``; when given, only
    the pairs with a marked report (formed without the others, which a common last name makes many).

    Pairs in two named states are formed only when their titles share a word at least [clustering]
    ``state_bridge_rarity`` rare by ``rarity``, or a last name (``hard_conflict`` refuses the others, and
    those whose shared last name is not one named victim or suspect), so the work grows with the reports
    of one state and time, not with the archive: reports are compared within their state, with reports of
    no state, and across states only through such a word or name."""
    chosen = settings().clustering
    intervals = [date_interval(report) for report in reports]
    first = np.array([interval[0].toordinal() for interval in intervals], dtype=np.int64)
    last = np.array([interval[1].toordinal() for interval in intervals], dtype=np.int64)
    by_state: dict[str, dict[str | None, list[int]]] = {}
    by_name: dict[tuple[str, str], list[int]] = {}
    by_rare_word: dict[tuple[str, str], list[int]] = {}
    bridging = _bridging_words(reports, rarity, touching)
    for i, report in enumerate(reports):
        family = report.family
        by_state.setdefault(family, {}).setdefault(report.state_iri, []).append(i)
        for name in {p.last_name.lower() for p in report.named_participants}:
            by_name.setdefault((family, name), []).append(i)
        for word in content_words(report.title) if rarity else ():
            if bridging(family, word):
                by_rare_word.setdefault((family, word), []).append(i)
    size = max(len(reports), 1)
    blocks = [np.zeros(0, dtype=np.int64)]  # each block's pairs as codes i * size + j, kept while the others form

    def keep(pairs: np.ndarray) -> None:
        blocks.append(pairs[:, 0] * size + pairs[:, 1])

    for members in by_name.values():
        if touching is None or touching[members].any():  # a group with no marked report forms no pair
            keep(_all_pairs(members, touching))
    stateless = np.zeros(len(reports), dtype=bool)
    for states in by_state.values():
        stateless[states.get(None, [])] = True
    slack = chosen.date_slack_days
    for states in by_state.values():
        apart = states.get(None, [])
        for state, members in states.items():
            if state is not None:  # one state at a time: all of them at once would hold every pair twice over
                pairs = _close_in_time([members + apart], first, last, slack, touching)
                keep(pairs[~(stateless[pairs[:, 0]] & stateless[pairs[:, 1]])])  # two stateless: once, below
        keep(_close_in_time([apart], first, last, slack, touching))
    keep(_close_in_time(list(by_rare_word.values()), first, last, slack, touching))
    return sorted_unique(_joined(blocks), in_place=True)


def _joined(blocks: list[np.ndarray]) -> np.ndarray:
    """The arrays of ``blocks`` end to end, each let go of (removed from the list) once copied: the join holds
    them and the result together only one block at a time, not all of them."""
    joined = np.empty(sum(len(block) for block in blocks), dtype=np.int64)
    at = 0
    while blocks:
        block = blocks.pop(0)
        joined[at : at + len(block)] = block
        at += len(block)
    return joined


def _bridging_words(reports: Sequence[Report], rarity: WordRarity | None, touching: np.ndarray | None):
    """Whether a title word of a report of some kind may bridge two states (at least [clustering]
    ``state_bridge_rarity`` rare by ``rarity``); with ``touching``, only the words of a marked report of that kind
    (a group of reports sharing a word forms a pair only with a marked report), looked up without weighing the
    rarity of each word of every report."""
    chosen = settings().clustering
    scale, bridge = chosen.rarity_scale, chosen.state_bridge_rarity
    if rarity is None or touching is None:
        return lambda family, word: rarity.of(word, scale) >= bridge
    marked = (reports[k] for k in np.flatnonzero(touching).tolist())
    rare = {(r.family, w) for r in marked for w in content_words(r.title) if rarity.of(w, scale) >= bridge}
    return lambda family, word: (family, word) in rare


def pair_rows(pairs: np.ndarray, chunk: int = 1 << 16) -> Iterator[tuple[int, int]]:
    """The rows of an (n, 2) pair array as tuples of ints, converted a chunk at a time."""
    for start in range(0, len(pairs), chunk):
        yield from map(tuple, pairs[start : start + chunk].tolist())
