"""Train the same-incident model shipped as kg_count/incidents/models/coreference.json.

Usage: python scripts/train_coreference_model.py --task TASK_DIR STORE [--task ...] [--gva ARTICLES STORE] [--l2 1.0]
Each TASK_DIR (e.g. ../shared/data/semeval2018-task5/test-dev, .../trial) gives gold incidents (the
documents of every gold answer), STORE the built store of its documents; ARTICLES is
gva-train/articles.jsonl (each article's incident_id) and STORE its built store. Every candidate
pair of two gold documents is an example; the thresholds are chosen for the best B³ F1 over the
tasks' gold documents. ``benchmarks/measure_incidents.py --cv`` measures the same procedure on
held-out states.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

from kg_count.incidents.coreference_model import COREFERENCE_MODEL_PATH
from kg_count.settings import settings
from kg_count.training.coreference_model import fit_and_tune, labelled_sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", nargs=2, action="append", default=[], metavar=("TASK_DIR", "STORE"))
    parser.add_argument("--gva", nargs=2, action="append", default=[], metavar=("ARTICLES", "STORE"))
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=COREFERENCE_MODEL_PATH)
    args = parser.parse_args()
    started = time.perf_counter()
    sets, _ = labelled_sets(args.task, args.gva)
    examples = [example for data in sets for example in data.examples()]
    model = fit_and_tune(examples, [(data, None) for data in sets if data.name != "gva"], args.l2)
    model.trained_with = {
        "l2": args.l2,
        "examples": {data.name: len(data.examples()) for data in sets},
        "clustering": dataclasses.asdict(settings().clustering),
    }
    model.save(args.out)
    print(
        json.dumps(
            {"threshold": model.threshold, "group_threshold": model.group_threshold, **model.trained_with["examples"]}
        )
    )
    print(f"{len(model.weights)} features -> {args.out}; trained in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
