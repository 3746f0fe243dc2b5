"""The reports a grouping read, kept on disk beside its pair probabilities (``pair_cache``), so that an update
reads from the store only the reports of the documents it adds.

Reading every report back from the store is most of an update's reading at 50,000 documents (about 40 s, as
the store's SPARQL joins each document's events, times and places). The file is named by the fingerprint of the
incident graph grouped from the reports (``materialise.documents_fingerprint``: the documents' content hashes
and the code that reads reports), so a file found under the fingerprint the store's incident graph holds has
exactly that graph's reports. It is a pickle of the project's own ``Report`` objects, in the project cache folder
(``$KG_COUNT_PAIR_CACHE``); a missing or unreadable file means reading every report from the store, with the
same result.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Sequence

from kg_count.incidents.pair_cache import default_pair_cache_folder, keep_newest
from kg_count.incidents.reports import Report
from kg_count.io.atomic import atomic_writer

SUFFIX = ".reports.pickle"


def save_reports(reports: Sequence[Report], fingerprint: str, folder: Path | None = None) -> None:
    """Write ``reports`` as the file of ``fingerprint`` (whole or not at all); keep the newest files only."""
    folder = folder or default_pair_cache_folder()
    with atomic_writer(folder / f"{fingerprint}{SUFFIX}", binary=True) as handle:
        pickle.dump(list(reports), handle, protocol=pickle.HIGHEST_PROTOCOL)
    keep_newest(folder, f"*{SUFFIX}")


def load_reports(fingerprint: str, folder: Path | None = None) -> dict[str, Report] | None:
    """The reports saved for ``fingerprint``, by document id; None when there are none or the file is unreadable."""
    path = (folder or default_pair_cache_folder()) / f"{fingerprint}{SUFFIX}"
    try:
        with path.open("rb") as handle:
            reports = pickle.load(handle)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None
    if not isinstance(reports, list) or not all(isinstance(r, Report) for r in reports):
        return None
    return {r.doc_id: r for r in reports}
