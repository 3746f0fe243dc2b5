"""Which candidate pairs could start a merge: an upper bound on the coreference model's logit over arrays.

Grouping's first pass needs only the candidate pairs whose probability reaches the merge threshold (they make
the link components; the pairs inside a component are scored exactly afterwards, ``cluster``). Scoring one pair
builds its features one by one (``pair_features``), some 60 µs in Python, and most candidate pairs (one state,
one week, nothing else in common) lie far under the threshold. ``may_link`` reads the reports once into columns
(``report_columns.ReportColumns``) and bounds the logit of many pairs at once: every feature it computes exactly over
arrays (dates, places, counts, publication days, kind, the titles' vectors' cosine, follow-up titles, the rarity of the
words titles and leads share) but three, which it bounds: the hand-weighted rules' verdict and the titles' word
ratio at the highest weight any value could add, and the names, exact unless the two reports name people of alike
last names, and then at the best of any names they could share. Pairs still above the threshold are bounded again
with their names and title words read exactly (``pair_features.name_features`` and ``title_words_feature``). A pair
whose bound stays under the threshold cannot reach it, so skipping it changes no grouping.
"""

from __future__ import annotations

import math
from functools import lru_cache
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence

import numpy as np

from kg_count.learning.bins import interval_indices, interval_name, interval_names
from kg_count.incidents.reports.comparison import city_distance_km
from kg_count.incidents.pairs.candidate_pairs import pair_endpoints
from kg_count.incidents.pairs.pair_features import name_features, title_words_feature
from kg_count.incidents.pairs.pair_context import PairContext
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.reports import Report
from kg_count.learning.linear_model import LinearModel
from kg_count.settings import settings


CHUNK = 1 << 17  # pairs bounded at once
DOT_CHUNK = 1 << 14  # pairs whose title vectors are gathered at once
SPHERE_ERROR = 0.01  # the sphere's distance and the ellipsoid's (geodesic) differ by under 0.6 %
EARTH_RADIUS_KM = 6371.0088
COSINE_TOLERANCE = 1e-4  # the arrays' cosine may differ from one pair's in the last bits: both bins near an edge
UNSHARED_NAMES = ("names:different_sole_victims", "names:different_victims", "names:one_side", "names:different")


@lru_cache(maxsize=4)
def _place_feature_names(city_km_edges: tuple[float, ...]) -> tuple[str, ...]:
    return (
        "place:states_differ",
        "place:same_city",
        "place:city_km:unknown",
        *(f"place:city_km:{interval_name(v, city_km_edges)}" for v in (-1, *city_km_edges)),
        "place:same_state:one_city",
        "place:same_state:no_city",
        "place:one_unknown",
        "place:both_unknown",
    )


def place_feature_names() -> tuple[str, ...]:
    """The place features a pair may have, in the order of their codes (the [clustering] ``city_km_edges``)."""
    return _place_feature_names(settings().clustering.city_km_edges)


@lru_cache(maxsize=4)
def _name_feature_names(shared_name_edges: tuple[float, ...]) -> tuple[str, ...]:
    shared = (f"names:shared:{interval_name(v, shared_name_edges)}" for v in (1, *shared_name_edges))
    return (*UNSHARED_NAMES, "names:none", *shared)


def name_feature_names() -> tuple[str, ...]:
    """The name features a pair may have, in the order of their codes (the [clustering] ``shared_name_edges``)."""
    return _name_feature_names(settings().clustering.shared_name_edges)


def shared_names_mask() -> np.ndarray:
    """Which of ``name_feature_names`` say the two reports share a name."""
    return np.arange(len(name_feature_names())) >= len(UNSHARED_NAMES) + 1


class WeightTables:
    """The model's weights arranged by feature group, so that a group's weight for many pairs is one lookup."""

    def __init__(self, model: LinearModel, columns: ReportColumns):
        w = model.weights
        kinds = columns.kinds
        self.dates = [
            *interval_names("date:apart:", settings().clustering.date_gap_edges),
            *interval_names("date:text_days:", settings().clustering.text_day_edges),
            *(f"date:overlap:{x}|{y}" for x in kinds for y in kinds),
        ]
        self.overlap_at = (
            len(interval_names("date:apart:", settings().clustering.date_gap_edges))
            + len(settings().clustering.text_day_edges)
            + 1
        )
        self.date = np.array([w.get(d, 0.0) for d in self.dates])
        self.place = np.array([w.get(p, 0.0) for p in place_feature_names()])
        self.place_date = np.array([[w.get(f"{p}&{d}", 0.0) for d in self.dates] for p in place_feature_names()])
        roles = sum(max(v, 0.0) for f, v in w.items() if f.startswith("names:shared_role:"))
        self.names = np.array(
            [
                [
                    [w.get(n, 0.0) + w.get(f"{p}&{n}", 0.0) + w.get(f"{d}&{n}", 0.0) for d in self.dates]
                    for p in place_feature_names()
                ]
                for n in name_feature_names()
            ]
        )
        self.names[shared_names_mask()] += roles
        self.counts = [
            {
                "same": np.array(
                    [
                        w.get(f"count:{name}:{b}", 0.0)
                        for b in interval_names("same:", settings().clustering.count_edges)
                    ]
                ),
                "differ": w.get(f"count:{name}:differ", 0.0),
                "one": w.get(f"count:{name}:one", 0.0),
            }
            for name in ("killed", "injured", "fired")
        ]
        self.dct = np.array([w.get(f, 0.0) for f in interval_names("dct:", settings().clustering.dct_edges)])
        self.family = np.array([w.get(f"family:{f}", 0.0) for f in columns.families])
        self.cosine_edges = settings().clustering.title_cosine_edges
        self.cosine = np.array([w.get(f, 0.0) for f in interval_names("title:cosine:", self.cosine_edges)])
        self.follow_up = np.array([w.get(f"title:follow_up:{k}", 0.0) for k in range(3)])
        self.texts = {
            part: (
                np.array([w.get(f, 0.0) for f in interval_names(f"{part}:rarest_shared:", edges)]),
                np.array([w.get(f"{part}:rare_shared:{k}", 0.0) for k in range(4)]),
                edges,
            )
            for part, edges in (
                ("title", settings().clustering.title_rarity_edges),
                ("lead", settings().clustering.lead_rarity_edges),
            )
        }
        self.rules = max([0.0, *(v for f, v in w.items() if f.startswith("rules:"))])
        self.title_words = max([0.0, *(v for f, v in w.items() if f.startswith("title:words:"))])


def _date_codes(columns: ReportColumns, tables: WeightTables, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    gap = np.maximum(np.maximum(columns.first[b] - columns.last[a], columns.first[a] - columns.last[b]), 0)
    both_days = columns.stated_day[a] & columns.stated_day[b]
    days = (
        interval_indices(np.abs(columns.day[a] - columns.day[b]), settings().clustering.text_day_edges)
        + len(settings().clustering.date_gap_edges)
        + 1
    )
    low, high = np.minimum(columns.kind[a], columns.kind[b]), np.maximum(columns.kind[a], columns.kind[b])
    overlap = tables.overlap_at + low * len(columns.kinds) + high
    return np.where(
        gap > 0, interval_indices(gap, settings().clustering.date_gap_edges), np.where(both_days, days, overlap)
    )


def _place_codes(columns: ReportColumns, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    sa, sb, ca, cb = columns.state[a], columns.state[b], columns.city[a], columns.city[b]
    code = np.where(
        (sa >= 0) | (sb >= 0),
        place_feature_names().index("place:one_unknown"),
        place_feature_names().index("place:both_unknown"),
    )
    code = np.where(
        (sa >= 0) & (sb >= 0),
        np.where(
            (ca >= 0) | (cb >= 0),
            place_feature_names().index("place:same_state:one_city"),
            place_feature_names().index("place:same_state:no_city"),
        ),
        code,
    )
    two_cities = (ca >= 0) & (cb >= 0)
    apart = np.flatnonzero(two_cities & (ca != cb))
    code[apart] = _distance_codes(columns, a[apart], b[apart])
    code[two_cities & (ca == cb)] = place_feature_names().index("place:same_city")
    code[(sa >= 0) & (sb >= 0) & (sa != sb)] = place_feature_names().index("place:states_differ")
    return code


def _distance_codes(columns: ReportColumns, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The place code of pairs in two cities: their distance's bin, or unknown. Each pair of places is measured
    once, on the sphere; the geodesic distance the features read (``comparison.city_distance_km``) is computed only
    where the two could fall in different bins (they differ by well under ``SPHERE_ERROR``)."""
    width = len(columns.locations) + 1
    keys, inverse = np.unique((columns.located[a] + 1) * width + columns.located[b] + 1, return_inverse=True)
    x, y = keys // width - 1, keys % width - 1
    unknown = place_feature_names().index("place:city_km:unknown")
    codes = np.full(len(keys), unknown, dtype=np.int64)
    known = (x >= 0) & (y >= 0) & columns.has_coordinates[np.maximum(x, 0)] & columns.has_coordinates[np.maximum(y, 0)]
    here, there = x[known], y[known]
    km = _sphere_km(columns.coordinates[here], columns.coordinates[there])
    low, high = (
        interval_indices(km * (1 - SPHERE_ERROR), settings().clustering.city_km_edges),
        interval_indices(km * (1 + SPHERE_ERROR), settings().clustering.city_km_edges),
    )
    for k in np.flatnonzero(low != high).tolist():
        km_exact = city_distance_km(*columns.locations[here[k]], *columns.locations[there[k]])
        high[k] = interval_indices(np.array([km_exact]), settings().clustering.city_km_edges)[0]
    codes[known] = unknown + 1 + high
    return codes[inverse.reshape(-1)]


def _sphere_km(here: np.ndarray, there: np.ndarray) -> np.ndarray:
    """Great-circle kilometres between rows of (latitude, longitude) in degrees."""
    lat1, lon1, lat2, lon2 = (np.radians(v) for v in (here[:, 0], here[:, 1], there[:, 0], there[:, 1]))
    h = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.minimum(h, 1.0)))


def _unshared_name_codes(columns: ReportColumns, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The names feature of pairs as ``name_features`` gives it when the two reports share no name."""
    both_harmed = columns.harmed[a] & columns.harmed[b]
    sole = columns.sole[a] & columns.sole[b]
    either, both = columns.named[a] | columns.named[b], columns.named[a] & columns.named[b]
    code = np.where(
        either,
        np.where(both, name_feature_names().index("names:different"), name_feature_names().index("names:one_side")),
        name_feature_names().index("names:none"),
    )
    different_victims = np.where(
        sole,
        name_feature_names().index("names:different_sole_victims"),
        name_feature_names().index("names:different_victims"),
    )
    return np.where(both_harmed, different_victims, code)


def _count_weights(columns: ReportColumns, tables: WeightTables, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    total = np.zeros(len(a))
    for k, weights in enumerate(tables.counts):
        here, there = columns.counts[a, k], columns.counts[b, k]
        both, one = (here > 0) & (there > 0), (here > 0) ^ (there > 0)
        same = weights["same"][
            np.minimum(interval_indices(here, settings().clustering.count_edges), len(weights["same"]) - 1)
        ]
        total += np.where(both, np.where(here == there, same, weights["differ"]), np.where(one, weights["one"], 0.0))
    return total


def _dots(vectors: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dot product of rows ``a`` and ``b`` of ``vectors``, each pair's as one row's einsum gives it, over
    ``DOT_CHUNK`` pairs at a time (gathering the rows of all pairs at once, 300 MB for 100,000 pairs of
    384 dimensions, took three times as long)."""
    dots = np.empty(len(a), dtype=vectors.dtype)
    for start in range(0, len(a), DOT_CHUNK):
        end = start + DOT_CHUNK
        dots[start:end] = np.einsum("ij,ij->i", vectors[a[start:end]], vectors[b[start:end]])
    return dots


def _text_weights(columns: ReportColumns, tables: WeightTables, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    total = tables.follow_up[columns.follow_up[a].astype(int) + columns.follow_up[b].astype(int)]
    cosine = _dots(columns.vectors, a, b) / (columns.norms[a] * columns.norms[b] + 1e-9)
    near = [
        tables.cosine[interval_indices(cosine + shift, tables.cosine_edges)]
        for shift in (-COSINE_TOLERANCE, COSINE_TOLERANCE)
    ]
    total += np.where(columns.has_vector[a] & columns.has_vector[b], np.maximum(*near), 0.0)
    for part, text in columns.texts.items():
        words, rarities, present = text.words, text.rarities, text.present
        rarest_weights, rare_weights, edges = tables.texts[part]
        if words.shape[1] == 0:  # no content word in any of these texts: none shared
            total += np.where(present[a] & present[b], rarest_weights[0] + rare_weights[0], 0.0)
            continue
        shared = words[a].multiply(words[b])
        rarest = np.asarray(shared.multiply(rarities[None, :]).max(axis=1).toarray()).reshape(-1)
        rare = np.asarray(shared @ (rarities >= settings().clustering.rare_word).astype(np.float32)).reshape(-1)
        part_weight = rarest_weights[interval_indices(rarest, edges)] + rare_weights[np.minimum(rare.astype(int), 3)]
        total += np.where(present[a] & present[b], part_weight, 0.0)
    return total


def _bound_chunk(
    columns: ReportColumns, tables: WeightTables, model: LinearModel, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bound of each pair (a, b) with names at their best and title words at the most they add; and each
    pair's place and date codes."""
    date, place = _date_codes(columns, tables, a, b), _place_codes(columns, a, b)
    names = tables.names[_unshared_name_codes(columns, a, b), place, date]
    may_share = np.asarray(columns.last_names[a].multiply(columns.alike_names[b]).sum(axis=1)).reshape(-1) > 0
    best_shared = tables.names[shared_names_mask()][:, place, date].max(axis=0)
    names = np.where(may_share, np.maximum(names, best_shared), names)
    bound = (
        model.bias
        + tables.date[date]
        + tables.place[place]
        + tables.place_date[place, date]
        + names
        + _count_weights(columns, tables, a, b)
        + tables.dct[interval_indices(np.abs(columns.dct[a] - columns.dct[b]), settings().clustering.dct_edges)]
        + tables.family[columns.family[a]]
        + _text_weights(columns, tables, a, b)
        + tables.rules
        + tables.title_words
    )
    return bound, names, np.stack([place, date], axis=1)


def _exact_names_and_words(
    reports: Sequence[Report], model: LinearModel, tables: WeightTables, pair: tuple[int, int], codes: np.ndarray
) -> float:
    """The weight the names (with their conjunctions) and the title words of one pair add, read exactly."""
    a, b = reports[pair[0]], reports[pair[1]]
    w = model.weights
    names = name_features(a, b)
    conjoined = w.get(f"{place_feature_names()[codes[0]]}&{names[0]}", 0.0) + w.get(
        f"{tables.dates[codes[1]]}&{names[0]}", 0.0
    )
    return sum(w.get(f, 0.0) for f in names) + conjoined + w.get(title_words_feature(a, b), 0.0)


def upper_logits(context: PairContext, model: LinearModel, pairs: np.ndarray, at_least: float) -> np.ndarray:
    """An upper bound on ``model``'s logit of each of ``pairs`` (rows of report indexes into ``context``, or their
    codes: ``candidate_pairs.pair_endpoints``), exact in the names and title words for the pairs whose first bound
    reaches the logit ``at_least``."""
    return _bounded(context, model, pairs, at_least, lambda bound: bound, np.float64)


def may_link(context: PairContext, model: LinearModel, pairs: np.ndarray, at_least: float) -> np.ndarray:
    """A mask over ``pairs`` (as ``upper_logits`` reads them): False where ``model``'s probability cannot reach
    ``at_least`` (``upper_logits``). Only the mask is kept of each chunk's bounds: one byte a pair."""
    if not 0.0 < at_least < 1.0:
        return np.ones(len(pairs), dtype=bool)
    floor = math.log(at_least / (1.0 - at_least)) - 1e-6  # a hair under: the logit's own sum may round up
    return _bounded(context, model, pairs, floor, lambda bound: bound >= floor, bool)


def _bounded(
    context: PairContext,
    model: LinearModel,
    pairs: np.ndarray,
    at_least: float,
    kept: Callable[[np.ndarray], np.ndarray],
    dtype: type,
) -> np.ndarray:
    """``kept`` of the bounds of ``upper_logits`` of each chunk of ``pairs``, end to end. Chunks are bounded in
    [batch] ``grouping_processes`` threads (0: one per CPU core): the array work leaves the interpreter free, and
    each chunk's bounds are the same whichever thread computes them."""
    columns = context.columns
    tables = WeightTables(model, columns)
    threads = settings().batch.grouping_processes or os.cpu_count() or 1
    size = max(min(CHUNK // threads, -(-len(pairs) // threads)), 1)  # the chunks in flight hold what one did

    def bounded(start: int) -> np.ndarray:
        a, b = pair_endpoints(pairs, start, start + size, len(context.reports))
        bound, names, codes = _bound_chunk(columns, tables, model, a, b)
        for k in np.flatnonzero(bound >= at_least).tolist():
            exact = _exact_names_and_words(context.reports, model, tables, (int(a[k]), int(b[k])), codes[k])
            bound[k] += exact - names[k] - tables.title_words
        return kept(bound)

    starts = range(0, len(pairs), size)
    if threads < 2 or len(starts) < 2:
        return np.concatenate([np.empty(0, dtype=dtype), *map(bounded, starts)])
    with ThreadPoolExecutor(threads, thread_name_prefix="bound") as pool:
        return np.concatenate([np.empty(0, dtype=dtype), *pool.map(bounded, starts)])
