"""The incident phase of an update, step by step: where adding documents to a grouped store spends its time.

Copies STORE, its saved grouping files (``$KG_COUNT_PAIR_CACHE`` of the build that grouped it: PAIRS) and its
title-vector cache (VECTORS) into WORK, adds the articles ADDED with ``kg-count build --no-incidents`` (timed),
then brings the incidents up to date in this process, printing the seconds at each step the update reports and the
time the cycle collector took. The copies are the update's; STORE and its files are left as they were.

Usage: python benchmarks/update_phase.py --store STORE --pairs PAIRS --vectors VECTORS --added ADDED.jsonl
                                         --work WORK [--workers 2]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kg_count.incidents.pairs.pair_cache import CACHE_ENV as PAIR_CACHE_ENV  # noqa: E402
from kg_count.incidents.reports.title_vectors import CACHE_ENV as VECTOR_CACHE_ENV  # noqa: E402
from scale_build import BIN  # noqa: E402


class CollectorClock:
    """The seconds the cycle collector ran, and how often, from its callbacks."""

    def __init__(self) -> None:
        self.seconds, self.collections, self._started = 0.0, 0, 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started
            self.collections += 1


def copied(args: argparse.Namespace) -> Path:
    """WORK holding copies of the store, its grouping files and its title vectors (written to disk before
    returning, so that the update does not run beside the copy's write-back)."""
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    shutil.copytree(args.store, args.work / "store")
    shutil.copytree(args.pairs, args.work / "pairs")
    shutil.copy(args.vectors, args.work / "vectors.sqlite")
    os.sync()
    return args.work / "store"


def timed_steps(store: Path) -> dict:
    """Bring the store's incidents up to date here; the seconds at each step it reports and the collector's time."""
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.update import materialise, regroup

    started, steps = time.perf_counter(), []

    def stamped(message: str) -> None:
        steps.append(f"{time.perf_counter() - started:.2f} s: {message}")

    materialise.status = regroup.status = stamped
    clock = CollectorClock()
    with GraphStore(store) as opened:
        count, _ = materialise.ensure_incidents(opened)
    seconds = time.perf_counter() - started
    return {
        "incidents": count,
        "seconds": round(seconds, 2),
        "steps": steps,
        "collector_s": round(clock.seconds, 2),
        "collections": clock.collections,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("store", "pairs", "vectors", "added", "work"):
        parser.add_argument(f"--{name}", type=Path, required=True)
    parser.add_argument("--workers", default="2")
    args = parser.parse_args()
    store = copied(args)
    os.environ.update({PAIR_CACHE_ENV: str(args.work / "pairs"), VECTOR_CACHE_ENV: str(args.work / "vectors.sqlite")})
    started = time.perf_counter()
    build = [str(BIN / "kg-count"), "build", "--docs", str(args.added), "--store", str(store), "--no-cache"]
    subprocess.run([*build, "--workers", args.workers, "--no-incidents"], check=True, stdout=subprocess.DEVNULL)
    documents = round(time.perf_counter() - started, 2)
    print(json.dumps({"documents_s": documents, **timed_steps(store)}, indent=1))


if __name__ == "__main__":
    main()
