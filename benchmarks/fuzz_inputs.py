"""The long fuzzing run: every reader's property of tests/test_fuzz_inputs.py with many random examples.

Runs pytest on that module with ``KG_COUNT_FUZZ_EXAMPLES`` examples per reader (not derandomised: each run
draws new inputs) and prints how many inputs each reader was given and the pytest outcome; exit status is
pytest's. A failure shows the smallest failing input Hypothesis found.

Usage: python benchmarks/fuzz_inputs.py [--per-reader 3000] [--out out/fuzz] [-k EXPRESSION]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-reader", type=int, default=3000, help="examples per reader (7 readers)")
    parser.add_argument("--out", type=Path, default=Path("out/fuzz"))
    parser.add_argument("-k", dest="select", default="", help="only the tests pytest -k selects")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    log = (args.out / "counts.json").resolve()
    log.unlink(missing_ok=True)
    env = {**os.environ, "KG_COUNT_FUZZ_EXAMPLES": str(args.per_reader), "KG_COUNT_FUZZ_LOG": str(log)}
    started = time.perf_counter()
    outcome = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_fuzz_inputs.py"]
        + (["-k", args.select] if args.select else []),
        cwd=ROOT,
        env=env,
    )
    seconds = time.perf_counter() - started
    counts = json.loads(log.read_text()) if log.exists() else {}
    for reader, n in sorted(counts.items()):
        print(f"{reader:10} {n:7,} inputs")
    print(f"{'all':10} {sum(counts.values()):7,} inputs in {seconds:.0f} s; pytest exit {outcome.returncode}")
    (args.out / "summary.json").write_text(
        json.dumps({"counts": counts, "seconds": seconds, "pytest_exit": outcome.returncode}, indent=1),
        encoding="utf-8",
    )
    return outcome.returncode


if __name__ == "__main__":
    sys.exit(main())
