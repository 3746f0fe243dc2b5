"""Train the person-status model shipped as kg_count/incidents/models/person_status.json.

Usage: python scripts/train_person_status_model.py --store GVA_STORE [--gva ../shared/data/gva-train] [--out FILE]
GVA_STORE is the store built from the gva-train articles (`kg-count build --docs
../shared/data/gva-train/articles.jsonl --store GVA_STORE`). Prints the L2 weight chosen by 5-fold
cross-validation by archive incident, with the cross-validated accuracy of each status beside the
accuracy of the extracted status alone (``kg_count.training.person_status_model``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kg_count.graph.store import GraphStore
from kg_count.incidents.person_status import PERSON_STATUS_PATH
from kg_count.training.person_status_model import fit_person_status, person_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, type=Path)
    parser.add_argument("--gva", type=Path, default=Path("../shared/data/gva-train"))
    parser.add_argument("--out", type=Path, default=PERSON_STATUS_PATH)
    args = parser.parse_args()
    started = time.perf_counter()
    with GraphStore(args.store) as store:
        examples = person_examples(store, args.gva / "articles.jsonl", args.gva / "incidents.jsonl")
    model, settings = fit_person_status(examples)
    model.save(args.out)
    print(json.dumps(settings))
    print(f"{len(examples)} people -> {args.out}; trained in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
