"""Train the QA scorers shipped in kg_count/qa/models/ from the shared TORQUE and ESTER files.

Usage: python scripts/train_qa_models.py [--data ../shared/data] [--out kg_count/qa/models]
Trigger annotations of both datasets train the trigger classifier; TORQUE questions train the
temporal relation and status scorers; ESTER (the 'completed' file) trains the semantic relation scorer.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kg_count.qa.training import train_models

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "kg_count" / "qa" / "models")
    args = parser.parse_args()
    started = time.perf_counter()
    models = train_models(args.data / "torque" / "dev-part.json",
                          [args.data / "ester" / "final_train_ans_gen_500completed.json",
                           args.data / "ester" / "final_train_ans_gen_500original.json"])
    for name in ("triggers", "temporal", "status", "semantic"):
        model = getattr(models, name)
        model.save(args.out / f"{name}.json")
        print(f"{name}: {len(model.weights)} features -> {args.out / (name + '.json')}")
    print(f"trained in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
