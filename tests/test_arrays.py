"""``sorted_unique`` gives what ``np.unique`` gives."""

import numpy as np
import pytest

from kg_count import arrays
from kg_count.arrays import sorted_unique


@pytest.mark.parametrize("size", [0, 1, 2, 1000])
def test_sorted_unique_is_numpys_unique(size):
    values = np.random.default_rng(size).integers(0, max(size // 3, 1), (size, 2))
    assert np.array_equal(sorted_unique(values), np.unique(values))
    assert sorted_unique(values).dtype == values.dtype


def test_sorted_unique_in_place_moves_the_distinct_values_to_the_front_of_the_array_it_reads():
    values = np.array([5, 1, 5, 3, 1], dtype=np.int64)
    distinct = sorted_unique(values, in_place=True)
    assert distinct.tolist() == [1, 3, 5]
    assert np.shares_memory(distinct, values) and values[:3].tolist() == [1, 3, 5]


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
@pytest.mark.parametrize("seed", range(5))
def test_sorted_unique_in_place_across_chunks(monkeypatch, chunk, seed):
    # runs of equal values cross the chunks' edges, and a chunk may hold a single repeated value
    monkeypatch.setattr(arrays, "CHUNK", chunk)
    values = np.random.default_rng(seed).integers(0, 12, 40)
    assert np.array_equal(sorted_unique(values.copy(), in_place=True), np.unique(values))
