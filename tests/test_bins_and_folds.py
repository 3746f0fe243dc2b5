"""The one binning helper and the one place folds are assigned."""

from __future__ import annotations

import numpy as np
import pytest

from kg_count.learning.bins import interval_indices, interval_name, interval_names
from kg_count.learning.folds import balanced_folds, hashed_fold


def test_bins_closed_below_and_above_name_their_edges():
    edges = (2, 4, 8)
    assert [interval_name(v, edges) for v in (1, 2, 3, 4, 8, 9)] == ["<2", "2-4", "2-4", "4-8", ">=8", ">=8"]
    assert [interval_name(v, edges, closed="above") for v in (1, 2, 3, 8, 9)] == ["<=2", "<=2", "<=4", "<=8", ">8"]
    with pytest.raises(ValueError, match="closed"):
        interval_name(1, edges, closed="both")


def test_the_array_bins_are_the_named_ones():
    edges = (3, 8, 31, 366)
    values = np.array([-5, 0, 2.9, 3, 7, 8, 30, 31, 365, 366, 1000])
    names = interval_names("gap:", edges)
    assert [names[k] for k in interval_indices(values, edges)] == [f"gap:{interval_name(v, edges)}" for v in values]


def test_hashed_folds_keep_a_unit_together_and_draws_differ():
    keys = [f"incident-{n}" for n in range(400)]
    first = [hashed_fold(k, 5) for k in keys]
    assert first == [hashed_fold(k, 5) for k in keys] and set(first) == set(range(5))
    assert all(60 <= first.count(f) <= 100 for f in range(5))
    assert first != [hashed_fold(k, 5, draw=1) for k in keys]


def test_balanced_folds_deal_whole_units_to_the_smallest_fold():
    units = {"TX": ["a", "b", "c", "d"], "OH": ["e", "f"], "IL": ["g", "h"], "WY": ["i"]}
    fold_of = balanced_folds(units, 2)
    assert fold_of["a"] == fold_of["d"] and fold_of["e"] == fold_of["f"]
    sizes = [sum(1 for f in fold_of.values() if f == k) for k in range(2)]
    assert sorted(sizes) == [4, 5]
