"""Paired rounds of an update against building the same articles alone, for one or more checkouts of the code.

For each round and each ``--code LABEL=CHECKOUT=GROUPED`` (GROUPED: a folder holding ``store``, ``pairs`` and
``v.sqlite``, a store of the archive grouped once by that code, with the grouping's saved files and title-vector
cache), on a fresh copy of GROUPED in WORK, with CHECKOUT's code (``PYTHONPATH``):

- ``update``: ``kg-count build --docs ADDED --no-cache --workers N`` into the copied store;
- ``alone``: the same articles into a new store, with new cache files.

Rounds alternate which code goes first and whether the update or the 500 alone does. Each round's figures (wall
seconds of each ``kg-count`` process, its documents and incidents phases as it prints them, and the peak memory of
its process tree) are appended to ``--out`` as they finish; a run started again skips the rounds it holds. At the
end it prints, for each code, the median update, the median 500-alone run and their ratio.

Usage: python benchmarks/paired_update.py --added ADDED.jsonl --code new=CHECKOUT=GROUPED [--code old=...]
                                          --work WORK --out results.jsonl [--rounds 4] [--workers 2]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kg_count.incidents.pairs.pair_cache import CACHE_ENV as PAIR_CACHE_ENV  # noqa: E402
from kg_count.incidents.reports.title_vectors import CACHE_ENV as VECTOR_CACHE_ENV  # noqa: E402
from scale_build import BIN, append_result, read_results, run_measured  # noqa: E402

SETTLE_SECONDS = 15  # after copying a store of several GB, before timing anything


def build(checkout: Path, added: Path, store: Path, caches: tuple[Path, Path], workers: int) -> dict:
    """Run ``kg-count build`` of ``added`` into ``store`` with ``checkout``'s code and the pair and vector caches
    ``caches``; its wall seconds, the documents and incidents seconds it printed, and its peak MB."""
    command = [str(BIN / "kg-count"), "build", "--docs", str(added), "--store", str(store), "--no-cache"]
    env = {"PYTHONPATH": str(checkout), PAIR_CACHE_ENV: str(caches[0]), VECTOR_CACHE_ENV: str(caches[1])}
    seconds, peak, out = run_measured([*command, "--workers", str(workers)], env)
    documents = re.search(r"triples, ([0-9.]+) s", out)
    incidents = re.search(r"grouped in ([0-9.]+) s", out)
    return {
        "seconds": round(seconds, 2),
        "documents_s": float(documents.group(1)) if documents else None,
        "incidents_s": float(incidents.group(1)) if incidents else None,
        "peak_mb": round(peak),
    }


def one_round(label: str, code: tuple[Path, Path], added: Path, work: Path, round_number: int, workers: int) -> dict:
    """One code's update and 500-alone build in round ``round_number`` (odd rounds build the 500 alone first)."""
    checkout, grouped = code
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copytree(grouped / "store", work / "store")
    shutil.copytree(grouped / "pairs", work / "pairs")
    shutil.copy(grouped / "v.sqlite", work / "v.sqlite")
    time.sleep(SETTLE_SECONDS)
    runs = {
        "update": lambda: build(checkout, added, work / "store", (work / "pairs", work / "v.sqlite"), workers),
        "alone": lambda: build(
            checkout, added, work / "alone", (work / "pairs-alone", work / "v-alone.sqlite"), workers
        ),
    }
    order = ["alone", "update"] if round_number % 2 else ["update", "alone"]
    measured = {name: runs[name]() for name in order}
    return {"round": round_number, "code": label, "first": order[0], **measured}


def summary(results: list[dict]) -> dict:
    """For each code: the median update and 500-alone seconds, their ratio, and the median incident phases."""
    out = {}
    for label in sorted({r["code"] for r in results}):
        mine = [r for r in results if r["code"] == label]
        update = statistics.median(r["update"]["seconds"] for r in mine)
        alone = statistics.median(r["alone"]["seconds"] for r in mine)
        out[label] = {
            "rounds": len(mine),
            "update_s": update,
            "alone_s": alone,
            "ratio": round(update / alone, 3),
            "update_incidents_s": statistics.median(r["update"]["incidents_s"] for r in mine),
            "alone_incidents_s": statistics.median(r["alone"]["incidents_s"] for r in mine),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--added", type=Path, required=True, help="the articles to add (JSON lines)")
    parser.add_argument("--code", action="append", required=True, help="LABEL=CHECKOUT=GROUPED (repeatable)")
    parser.add_argument("--work", type=Path, required=True, help="scratch folder for the copies")
    parser.add_argument("--out", type=Path, required=True, help="JSON-lines results, appended as rounds finish")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    codes = {}
    for given in args.code:
        label, checkout, grouped = given.split("=")
        codes[label] = (Path(checkout).resolve(), Path(grouped).resolve())
    results = read_results(args.out)
    done = {(r["round"], r["code"]) for r in results}
    for round_number in range(1, args.rounds + 1):
        labels = list(codes) if round_number % 2 else list(reversed(codes))
        for label in labels:
            if (round_number, label) not in done:
                measured = one_round(label, codes[label], args.added, args.work, round_number, args.workers)
                append_result(args.out, results, measured)
    print(summary(results))


if __name__ == "__main__":
    main()
