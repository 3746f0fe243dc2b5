"""The saved reports of a grouping: whole, or as the changes an update made to a whole file."""

from __future__ import annotations

import datetime as dt

from kg_count.incidents.store import report_cache
from kg_count.incidents.store.report_cache import (
    CHANGES_SUFFIX,
    SUFFIX,
    load_reports,
    save_report_changes,
    save_reports,
)
from kg_count.incidents.reports.reports import Report


def report(doc_id: str, title: str = "Man shot on Main Street") -> Report:
    day = dt.date(2016, 3, 1)
    return Report(doc_id, day, title, {"injuring"}, day, "day", "stated", None, None, None, 0, 1, 0)


def by_id(reports: list[Report]) -> dict[str, Report]:
    return {r.doc_id: r for r in reports}


def test_an_update_saves_its_changes_and_they_read_back_as_every_report(tmp_path):
    first = [report(f"d{k:02}") for k in range(20)]
    save_reports(first, "one", tmp_path)
    second = [*first, report("d20"), report("d21")]
    save_report_changes(second, {"d20", "d21"}, "one", "two", tmp_path)
    third = [*second[:3], report("d03", "Woman shot downtown"), *second[4:], report("d22")]
    save_report_changes(third, {"d03", "d22"}, "two", "three", tmp_path)
    assert not (tmp_path / f"two{SUFFIX}").exists() and not (tmp_path / f"three{SUFFIX}").exists()
    assert (tmp_path / f"three{CHANGES_SUFFIX}").exists()
    assert load_reports("two", tmp_path) == by_id(second)
    assert load_reports("three", tmp_path) == by_id(third)
    assert load_reports("three", tmp_path)["d03"].title == "Woman shot downtown"


def test_changes_that_grow_past_their_share_are_saved_whole(tmp_path):
    first = [report(f"d{k:02}") for k in range(8)]
    save_reports(first, "one", tmp_path)
    grown = [*first, *(report(f"e{k}") for k in range(report_cache.WHOLE_SHARE))]
    save_report_changes(grown, {r.doc_id for r in grown[8:]}, "one", "two", tmp_path)
    assert (tmp_path / f"two{SUFFIX}").exists() and not (tmp_path / f"two{CHANGES_SUFFIX}").exists()
    assert load_reports("two", tmp_path) == by_id(grown)


def test_changes_without_their_whole_file_read_as_none(tmp_path):
    first = [report(f"d{k:02}") for k in range(20)]
    save_reports(first, "one", tmp_path)
    save_report_changes([*first, report("d20")], {"d20"}, "one", "two", tmp_path)
    (tmp_path / f"one{SUFFIX}").unlink()
    assert load_reports("two", tmp_path) is None


def test_changes_on_no_saved_reports_are_saved_whole(tmp_path):
    reports = [report(f"d{k:02}") for k in range(20)]
    save_report_changes(reports, {"d19"}, "missing", "two", tmp_path)
    assert load_reports("two", tmp_path) == by_id(reports)
