"""Columns joined from two lists of reports (an update's) bound every pair as the columns of both lists at once."""

import random
from dataclasses import replace

import numpy as np
import pytest

from kg_count.incidents.pairs.candidate_pairs import candidate_pair_array
from kg_count.incidents.pairs.pair_context import PairContext
from kg_count.incidents.pairs.coreference_model import shipped_coreference_model
from kg_count.incidents.pairs.pair_bound import upper_logits
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.reports import ReportedPerson
from kg_count.incidents.reports.word_rarity import WordRarity, content_words
from tests.helpers import context_of, random_model, random_reports


def part_context(whole: PairContext, reports, rarity: tuple[WordRarity, WordRarity]) -> PairContext:
    """``whole``'s title vectors for ``reports``, with the word rarities ``rarity``."""
    vectors = {r.title: whole.vectors[r.title] for r in reports if r.title in whole.vectors}
    return PairContext(reports, vectors, *rarity, {t: whole.norms[t] for t in vectors})


def alike_by_name(columns: ReportColumns) -> list[dict[str, float]]:
    """Each report's count of alike last names, by name (whatever the columns' order of names)."""
    dense = columns.alike_names.toarray()
    return [{columns.names[k]: v for k, v in enumerate(row) if v} for row in dense]


@pytest.mark.parametrize("seed", [4, 5])
def test_joined_columns_bound_as_columns_read_at_once(seed):
    chosen = random.Random(seed)
    reports = random_reports(chosen, 200)
    later_names = ["Smithe", "Joness", "Parkinson"]  # last names alike earlier ones, or not, that come later only
    for k in range(150, 200, 3):
        name = later_names[k % 3]
        reports[k] = replace(reports[k], people=[ReportedPerson(f"Al {name}", "Al", name, None, "victim", "killed")])
    whole = context_of(reports, chosen)
    earlier = [r for r in reports[:150] if chosen.random() < 0.9]
    later = [r for r in reports if r not in earlier]
    then = (WordRarity.of_texts(r.title for r in earlier), WordRarity.of_texts(r.lead for r in earlier))
    now = (whole.rarity, whole.lead_rarity)
    stale = ReportColumns.of(part_context(whole, earlier + later[:5], then))  # saved before; 5 replaced since
    kept = stale.without({r.doc_id for r in later[:5]})
    joined = kept.joined(ReportColumns.of(part_context(whole, later, now)), now)
    row = {doc: k for k, doc in enumerate(joined.doc_ids)}
    columns = joined.take([row[r.doc_id] for r in reports])
    at_once = ReportColumns.of(whole)
    assert columns.doc_ids == at_once.doc_ids
    assert alike_by_name(columns) == alike_by_name(at_once)
    assert any(len(counts) > 1 for counts in alike_by_name(at_once))  # names alike across the two parts are found
    pairs = candidate_pair_array(reports, whole.rarity)
    given = PairContext(reports, whole.vectors, whole.rarity, whole.lead_rarity, whole.norms)
    given.use_columns(columns)
    for model in (shipped_coreference_model(), random_model(chosen, whole, pairs)):
        assert np.array_equal(upper_logits(given, model, pairs, np.inf), upper_logits(whole, model, pairs, np.inf))


def test_columns_of_other_reports_are_refused():
    chosen = random.Random(6)
    reports = random_reports(chosen, 20)
    context = context_of(reports, chosen)
    with pytest.raises(ValueError):
        context.use_columns(ReportColumns.of(context).take(range(10)))


def test_the_reports_holding_words_are_those_whose_text_has_them():
    chosen = random.Random(8)
    reports = random_reports(chosen, 60)
    columns = ReportColumns.of(context_of(reports, chosen))
    for part, words in (("title", {"riverside", "tavern"}), ("lead", {"oakland", "teen", "nowhere"})):
        expected = {r.doc_id: content_words(getattr(r, part)) & words for r in reports}
        assert columns.holding(part, words) == {doc: held for doc, held in expected.items() if held}
        assert columns.holding(part, words)
    assert columns.holding("title", set()) == {}
