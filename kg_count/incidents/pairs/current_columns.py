"""What an update reads of every report of the store, built for its new reports only: the word frequencies of
titles and leads (``word_rarity``) and the reports' columns (``report_columns``), from those the grouping before it
saved (``report_cache``) less the documents it replaces, joined with the new reports'. Without saved ones they are
read from all the reports, as a grouping of everything reads them.
"""

from __future__ import annotations

from typing import Sequence

from kg_count.incidents.pairs.pair_context import PairContext, text_rarities
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.reports import Report
from kg_count.incidents.reports.word_rarity import WordRarity


def current_rarity(
    saved: tuple[WordRarity, WordRarity] | None,
    replaced: Sequence[Report],
    fresh: Sequence[Report],
    reports: Sequence[Report],
) -> tuple[WordRarity, WordRarity]:
    """How rare title and lead words are among ``reports`` (``pair_context.text_rarities``): the ``saved`` frequencies
    less those of the ``replaced`` reports and with those of the ``fresh`` ones, or, without saved ones, counted
    over all ``reports``."""
    if saved is None:
        return text_rarities(reports)
    titles, leads = saved
    return (
        titles.without(r.title for r in replaced).plus(r.title for r in fresh),
        leads.without(r.lead for r in replaced).plus(r.lead for r in fresh),
    )


def current_columns(
    saved: ReportColumns | None,
    fresh: Sequence[Report],
    reports: Sequence[Report],
    rarity: tuple[WordRarity, WordRarity],
) -> ReportColumns:
    """The columns of every one of ``reports`` (rows in no set order: read them by ``doc_ids``), word rarities by
    ``rarity``: the ``saved`` ones but those of the ``fresh`` reports' documents, joined with the ``fresh``
    reports' own; or, without saved ones (or saved for texts that had no word), built from all ``reports``."""
    if saved is not None:
        kept = saved.without({r.doc_id for r in fresh})
        try:
            if set(kept.doc_ids) | {r.doc_id for r in fresh} != {r.doc_id for r in reports}:
                raise ValueError("the saved columns are not those of the store's other reports")
            return kept.joined(ReportColumns.of(PairContext.of(fresh, rarity)), rarity)
        except ValueError:  # saved for other reports, or with no words of a part the new reports have
            pass
    return ReportColumns.of(PairContext.of(reports, rarity))
