"""The new reports' candidate pairs found over columns (``added_candidates``) are those ``candidate_pair_array``
forms with a marked report."""

import random

import numpy as np
import pytest

from kg_count.incidents.pairs.added_candidates import added_candidate_pairs
from kg_count.incidents.pairs.candidate_pairs import candidate_pair_array
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.word_rarity import WordRarity
from tests.helpers import context_of, random_reports


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_pairs_over_columns_are_those_the_reports_form(seed):
    chosen = random.Random(seed)
    reports = random_reports(chosen, 300)
    for k, report in enumerate(reports):  # some sharing rare words across states, some of another kind
        if k % 7 == 0:
            report.title += f" Zyxw{k % 3}"
        if k % 11 == 0:
            report.types = {"job_firing"}
    context = context_of(reports, chosen)
    columns = ReportColumns.of(context)
    for share in (0.02, 0.3):
        marked = np.array([chosen.random() < share for _ in reports], dtype=bool)
        expected = candidate_pair_array(reports, context.rarity, marked)
        found = added_candidate_pairs(columns, np.flatnonzero(marked), context.rarity)
        assert len(expected) > 50
        assert np.array_equal(found, expected)


def test_no_title_words_no_bridging_pairs():
    chosen = random.Random(9)
    reports = random_reports(chosen, 120)
    for report in reports:
        report.title = ""
    context = context_of(reports, chosen)
    columns = ReportColumns.of(context)
    marked = np.zeros(len(reports), dtype=bool)
    marked[:10] = True
    rarity = WordRarity.of_texts([])
    expected = candidate_pair_array(reports, rarity, marked)
    assert np.array_equal(added_candidate_pairs(columns, np.flatnonzero(marked), rarity), expected)
