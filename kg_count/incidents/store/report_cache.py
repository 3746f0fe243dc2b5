"""The reports a grouping read and the incidents it wrote, kept on disk beside its pair probabilities
(``pair_cache``), so that an update reads from the store only the reports of the documents it adds, and none of
the incidents; and the reports' columns (``report_columns``) and word frequencies, so that it builds those of the
new reports only; and the documents' content hashes the graph was grouped from, so that an update need not read
those back from the incident graph either.

An update's reports are mostly those of the grouping before it, so it saves them as the changes it made
(``ReportChanges``: the reports new since the last whole reports file, and that file's fingerprint) rather than
pickling every report again (1.3 s at 50,000 documents); the changes are written whole again once they hold more
than a ``WHOLE_SHARE``th of the reports.

Reading every report back from the store is most of an update's reading at 50,000 documents (about 40 s, as
the store's SPARQL joins each document's events, times and places); reading every incident back (what
``stored_incidents`` gives) another 5 s. The files are named by the fingerprint of the incident graph grouped
from the reports (``materialise.documents_fingerprint``: the documents' content hashes and the code that reads
reports), so files found under the fingerprint the store's incident graph holds describe exactly that graph.
They are pickles of the project's own ``Report``, ``StoredIncident``, ``ReportColumns`` and ``WordRarity`` objects
(and of plain strings), in the project cache folder (``$KG_COUNT_PAIR_CACHE``); a missing or unreadable file means
reading them from the store, with the same result.
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from kg_count.incidents.pairs.pair_cache import default_pair_cache_folder, keep_newest
from kg_count.incidents.pairs.report_columns import ReportColumns
from kg_count.incidents.reports.reports import Report
from kg_count.incidents.store.stored_incidents import StoredIncident
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.io.atomic import atomic_writer

SUFFIX = ".reports.pickle"
INCIDENTS_SUFFIX = ".incidents.pickle"
COLUMNS_SUFFIX = ".columns.pickle"
VERSIONS_SUFFIX = ".versions.pickle"
CHANGES_SUFFIX = ".report-changes.pickle"
WHOLE_SHARE = 4  # changes holding more than a quarter of the reports are saved as a whole reports file


@dataclass
class ReportChanges:
    """The reports of a grouping as changes to a whole reports file: that file's fingerprint (``base``), how many
    reports there are in all (``count``) and those that are not the base's (new since it, or read again)."""

    base: str
    count: int
    reports: list[Report]


def _save(items: list, fingerprint: str, suffix: str, folder: Path | None) -> None:
    """Pickle ``items`` as the file of ``fingerprint`` (whole or not at all); keep the newest such files only."""
    folder = folder or default_pair_cache_folder()
    with atomic_writer(folder / f"{fingerprint}{suffix}", binary=True) as handle:
        pickle.dump(items, handle, protocol=pickle.HIGHEST_PROTOCOL)
    keep_newest(folder, f"*{suffix}")


def _load(fingerprint: str, suffix: str, folder: Path | None, kind: type | tuple[type, ...]) -> list | None:
    """The list of ``kind`` objects pickled as the file of ``fingerprint``; None when there is none or it is
    unreadable or holds anything else."""
    path = (folder or default_pair_cache_folder()) / f"{fingerprint}{suffix}"
    try:
        with path.open("rb") as handle:
            items = pickle.load(handle)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None
    if not isinstance(items, list) or not all(isinstance(item, kind) for item in items):
        return None
    return items


def save_reports(reports: Sequence[Report], fingerprint: str, folder: Path | None = None) -> None:
    """Write ``reports`` as the reports file of ``fingerprint``."""
    _save(list(reports), fingerprint, SUFFIX, folder)


def load_reports(fingerprint: str, folder: Path | None = None) -> dict[str, Report] | None:
    """The reports saved for ``fingerprint``, by document id: whole, or as changes to a whole file
    (``save_report_changes``); None when there are none or a file they need is missing or unreadable."""
    reports = _load(fingerprint, SUFFIX, folder, Report)
    if reports is not None:
        return {r.doc_id: r for r in reports}
    changes = _changes(fingerprint, folder)
    base = None if changes is None else _load(changes.base, SUFFIX, folder, Report)
    if base is None:
        return None
    by_id = {r.doc_id: r for r in base}
    by_id.update((r.doc_id, r) for r in changes.reports)
    return by_id if len(by_id) == changes.count else None


def save_report_changes(
    reports: Sequence[Report], changed: set[str], earlier: str | None, fingerprint: str, folder: Path | None = None
) -> None:
    """Write ``reports`` (every report of the grouping of ``fingerprint``) as the reports file of ``fingerprint``:
    as changes (``ReportChanges``) to the whole file that the reports saved for ``earlier`` are or rest on, the
    ``changed`` ones (document ids of the reports new or read again since ``earlier``) and those that earlier
    changes held; whole when there is no such file (or no ``earlier``) or the changes would hold more than a
    ``WHOLE_SHARE``th of the reports. ``reports`` must be those of ``earlier`` but for the ``changed`` ones."""
    folder = folder or default_pair_cache_folder()
    if earlier is None:
        save_reports(reports, fingerprint, folder)
        return
    before = _changes(earlier, folder)
    base = earlier if before is None else before.base
    since = set(changed) | ({r.doc_id for r in before.reports} if before is not None else set())
    base_file = folder / f"{base}{SUFFIX}"
    if len(since) * WHOLE_SHARE > len(reports) or not base_file.exists():
        save_reports(reports, fingerprint, folder)
        return
    os.utime(base_file)  # counts as newly written, so that keeping the newest files keeps it
    _save(
        [ReportChanges(base, len(reports), [r for r in reports if r.doc_id in since])],
        fingerprint,
        CHANGES_SUFFIX,
        folder,
    )


def _changes(fingerprint: str, folder: Path | None) -> ReportChanges | None:
    """The reports of ``fingerprint`` saved as changes, or None when they are not (or cannot be read)."""
    items = _load(fingerprint, CHANGES_SUFFIX, folder, ReportChanges)
    return items[0] if items is not None and len(items) == 1 else None


def save_incidents(incidents: Sequence[StoredIncident], fingerprint: str, folder: Path | None = None) -> None:
    """Write ``incidents`` (those of the incident graph of ``fingerprint``) as its incidents file."""
    _save(list(incidents), fingerprint, INCIDENTS_SUFFIX, folder)


def load_incidents(fingerprint: str, folder: Path | None = None) -> dict[str, StoredIncident] | None:
    """The incidents saved for ``fingerprint``, by id; None when there are none or the file is unreadable."""
    incidents = _load(fingerprint, INCIDENTS_SUFFIX, folder, StoredIncident)
    return None if incidents is None else {i.incident_id: i for i in incidents}


def save_columns(
    columns: ReportColumns, rarity: tuple[WordRarity, WordRarity], fingerprint: str, folder: Path | None = None
) -> None:
    """Write the columns of every report the grouping of ``fingerprint`` read, with their title and lead word
    frequencies ``rarity``, as its columns file."""
    _save([columns, *rarity], fingerprint, COLUMNS_SUFFIX, folder)


def load_columns(
    fingerprint: str, folder: Path | None = None
) -> tuple[ReportColumns, tuple[WordRarity, WordRarity]] | None:
    """The columns and word frequencies saved for ``fingerprint``; None when there are none or the file is
    unreadable."""
    items = _load(fingerprint, COLUMNS_SUFFIX, folder, (ReportColumns, WordRarity))
    if items is None or len(items) != 3 or not isinstance(items[0], ReportColumns):
        return None
    if not all(isinstance(item, WordRarity) for item in items[1:]):
        return None
    return items[0], (items[1], items[2])


def save_versions(built_with: str, versions: dict[str, str], fingerprint: str, folder: Path | None = None) -> None:
    """Write what the incident graph of ``fingerprint`` was grouped from: the ``built_with`` fingerprint of the
    models, settings and code (``materialise.models_fingerprint``) and each document's content hash ``versions``."""
    _save([built_with, versions], fingerprint, VERSIONS_SUFFIX, folder)


def load_versions(fingerprint: str, folder: Path | None = None) -> tuple[str, dict[str, str]] | None:
    """The ``built_with`` fingerprint and the document versions saved for ``fingerprint``; None when there are none
    or the file is unreadable."""
    items = _load(fingerprint, VERSIONS_SUFFIX, folder, (str, dict))
    if items is None or len(items) != 2 or not isinstance(items[0], str) or not isinstance(items[1], dict):
        return None
    return items[0], items[1]
