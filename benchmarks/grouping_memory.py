"""Peak memory of a whole grouping at a larger scale than its store, in minutes instead of hours.

Reads the reports of a built store (``kg-count build``, e.g. of an archive ``scale_archive.py`` rendered) and
groups ``--copies`` copies of them, each copy's dates moved past the one before (the span of the store's
publication dates plus 30 days, so that no two copies fall within the date slack) and its document ids marked:
the reports of an archive ``--copies`` times as long at the same density, without extracting it. Last names repeat
across the copies, so the pairs of reports sharing one grow with the square of the copies, faster than in a real
archive. The grouping (``grouped_incidents``: candidate pairs, bounds, scoring in forked processes, merging,
reconciling) runs in a child process, and the peak summed memory (PSS) of that process and its children is read
every 0.2 s (``scale_build.run_measured``). Prints one JSON line: reports, incidents, a hash of the incidents'
documents (the same for two codes that group alike), seconds and peak MB.

Usage: python benchmarks/grouping_memory.py --store STORE [--copies 5] [--vectors TITLE_VECTORS.sqlite]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import pickle
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kg_count.incidents.reports.title_vectors import CACHE_ENV as VECTOR_CACHE_ENV  # noqa: E402
from scale_build import run_measured  # noqa: E402


def copied_reports(store: Path, copies: int) -> list:
    """The reports of ``store``, ``copies`` times, each copy after the one before."""
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.reports.reports import reports_from_store

    with GraphStore(str(store), create=False) as opened:
        reports = reports_from_store(opened)
    if not reports:
        raise SystemExit(f"{store}: the store holds no reports")
    span = dt.timedelta(days=(max(r.dct for r in reports) - min(r.dct for r in reports)).days + 30)
    return [
        replace(r, doc_id=f"{r.doc_id}-copy{k}", dct=r.dct + k * span, date=r.date + k * span, people=list(r.people))
        for k in range(copies)
        for r in reports
    ]


def group(reports_file: Path) -> None:
    """Group the pickled reports of ``reports_file`` and print the result's JSON line (the measured child)."""
    from kg_count.incidents.grouping.scored_incidents import grouped_incidents
    from kg_count.incidents.pairs.pair_context import text_rarities

    reports = pickle.loads(reports_file.read_bytes())
    incidents, _ = grouped_incidents(reports, rarity=text_rarities(reports))
    documents = sorted(tuple(sorted(incident.doc_ids)) for incident in incidents)
    digest = hashlib.sha256(repr(documents).encode()).hexdigest()[:16]
    print(json.dumps({"reports": len(reports), "incidents": len(incidents), "incidents_sha": digest}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, help="a built store (an Oxigraph folder)")
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--vectors", type=Path, help="the title-vector cache the store's build filled")
    parser.add_argument("--group", type=Path, help=argparse.SUPPRESS)  # the measured child's reports file
    args = parser.parse_args()
    if args.group:
        group(args.group)
        return
    if args.store is None:
        parser.error("--store is required")
    with tempfile.TemporaryDirectory() as scratch:
        reports_file = Path(scratch) / "reports.pickle"
        reports_file.write_bytes(pickle.dumps(copied_reports(args.store, args.copies)))
        env = {VECTOR_CACHE_ENV: str(args.vectors)} if args.vectors else {}
        seconds, peak_mb, output = run_measured([sys.executable, __file__, "--group", str(reports_file)], env)
    result = json.loads(output.strip().splitlines()[-1])
    print(json.dumps({**result, "copies": args.copies, "seconds": round(seconds, 1), "peak_mb": round(peak_mb)}))


if __name__ == "__main__":
    main()
