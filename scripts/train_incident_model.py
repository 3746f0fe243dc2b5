"""Train the incident-match model shipped as kg_count/incidents/models/incident_match.json.

Usage: python scripts/train_incident_model.py --task TASK_DIR STORE [--task TASK_DIR STORE ...]
Each TASK_DIR (e.g. ../shared/data/semeval2018-task5/test-dev, .../trial) gives questions with gold
(every sN/ folder with answers.json), STORE the built store of its documents. The L2 weight and
the document threshold are chosen by cross-validation by state (``kg_count.training.incident_model.fit``);
benchmarks/measure_counting.py measures the same procedure on held-out states.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kg_count.incidents.confidence import MODEL_PATH
from kg_count.training.incident_model import fit, labelled_tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", nargs=2, action="append", required=True, metavar=("TASK_DIR", "STORE"))
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    started = time.perf_counter()
    questions, gold, candidates = labelled_tasks(args.task)
    model, settings = fit(candidates, gold, questions)
    model.save(args.out)
    print(json.dumps(settings))
    print(f"{len(model.weights)} features -> {args.out}; trained in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
