"""``sorted_unique`` gives what ``np.unique`` gives."""

import numpy as np
import pytest

from kg_count.arrays import sorted_unique


@pytest.mark.parametrize("size", [0, 1, 2, 1000])
def test_sorted_unique_is_numpys_unique(size):
    values = np.random.default_rng(size).integers(0, max(size // 3, 1), (size, 2))
    assert np.array_equal(sorted_unique(values), np.unique(values))
    assert sorted_unique(values).dtype == values.dtype


def test_sorted_unique_in_place_reorders_the_array_it_reads():
    values = np.array([5, 1, 5, 3, 1], dtype=np.int64)
    assert sorted_unique(values, in_place=True).tolist() == [1, 3, 5]
    assert values.tolist() == [1, 1, 3, 5, 5]
