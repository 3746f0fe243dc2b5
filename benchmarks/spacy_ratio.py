"""The build's cost against spaCy's: bare spaCy and a full `kg-count build` over the same documents, back to back.

Each round times, each in its own process, ``en_core_web_sm`` parsing every document as kg_count's annotation
feeds it (model loaded before the clock starts; ``scale_build.spacy_only``), then ``kg-count build --no-cache
--workers N`` of the same documents into a fresh store, incidents included, with a fresh sentence-vector cache
(every title encoded), and prints both, the ratio and the build's peak memory (summed PSS of its process tree,
read every 5 s: read every 0.2 s, the full test's build took 542 s against 476 s timed alone within the hour).
Rounds alternate which of the two runs first. Results go to standard output as JSON lines and a summary.

Usage: python benchmarks/spacy_ratio.py --docs ../shared/data/semeval2018-task5/test-dev/docs.conll
       [--workers 1] [--rounds 1] [--scratch DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale_build import BIN, run_measured  # noqa: E402


def bare_spacy(docs: Path) -> dict:
    """Seconds and peak MB of spaCy alone over ``docs``, in a fresh process."""
    seconds, memory, out = run_measured(
        [sys.executable, str(Path(__file__).with_name("scale_build.py")), "--spacy-only", str(docs)]
    )
    return {"seconds": round(json.loads(out)["seconds"], 1), "peak_mb": round(memory)}


def full_build(docs: Path, workers: int, scratch: Path) -> dict:
    """Seconds and peak MB of ``kg-count build --no-cache`` of ``docs`` into a fresh store, titles encoded anew."""
    with tempfile.TemporaryDirectory(dir=scratch) as folder:
        env = {
            "KG_COUNT_VECTOR_CACHE": str(Path(folder) / "vectors.sqlite"),
            "KG_COUNT_PAIR_CACHE": str(Path(folder) / "pairs"),
        }
        command = [str(BIN / "kg-count"), "build", "--docs", str(docs), "--store", str(Path(folder) / "store")]
        seconds, memory, _ = run_measured([*command, "--no-cache", "--workers", str(workers)], env, every=5.0)
    return {"seconds": round(seconds, 1), "peak_mb": round(memory)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, required=True, help="CoNLL or JSON-lines documents")
    parser.add_argument("--workers", type=int, default=1, help="extraction processes of the build (default 1)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()), help="where stores are built")
    args = parser.parse_args()
    ratios = []
    for round_number in range(1, args.rounds + 1):
        order = ("spacy", "build") if round_number % 2 else ("build", "spacy")
        measured = {}
        for kind in order:
            measured[kind] = (
                bare_spacy(args.docs) if kind == "spacy" else full_build(args.docs, args.workers, args.scratch)
            )
        ratio = measured["build"]["seconds"] / measured["spacy"]["seconds"]
        ratios.append(ratio)
        print(
            json.dumps(
                {
                    "round": round_number,
                    "first": order[0],
                    **{k: v for k, v in measured.items()},
                    "ratio": round(ratio, 3),
                }
            ),
            flush=True,
        )
    median = statistics.median(ratios)
    print(f"build / bare spaCy: median {median:.3f} over {len(ratios)} round(s) ({args.workers} worker(s))")


if __name__ == "__main__":
    main()
