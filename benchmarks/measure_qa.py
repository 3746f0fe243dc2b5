"""Cross-validated TORQUE and ESTER scores of the QA bridge (no passage both trained on and scored).

Passages are split into folds by a hash of their id; for each fold the four scorers are trained
on the other folds (scripts/train_qa_models.py's procedure) and that fold's questions answered.
Writes OUT/torque_cv.json and OUT/ester_cv.json (predictions) and prints the scores by kind and type.

Usage: python benchmarks/measure_qa.py [--data ../shared/data] [--folds 5] [--out out/qa]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kg_count.io.atomic import write_json_atomic
from kg_count.qa.commands import torque_question_kind, format_scores
from kg_count.qa.readers import read_ester, read_torque, read_torque_clusters
from kg_count.qa.scoring import ester_scores, torque_scores
from kg_count.qa.training import cross_validate

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("out/qa"))
    args = parser.parse_args()
    torque_path = args.data / "torque" / "dev-part.json"
    ester_paths = [args.data / "ester" / "final_train_ans_gen_500completed.json",
                   args.data / "ester" / "final_train_ans_gen_500original.json"]
    started = time.perf_counter()
    torque_predictions, ester_predictions = cross_validate(torque_path, ester_paths, args.folds)
    write_json_atomic(args.out / "torque_cv.json", torque_predictions)
    write_json_atomic(args.out / "ester_cv.json", ester_predictions)
    clusters = read_torque_clusters(args.data / "torque" / "dev-part_question_clustering.json")
    print(f"{args.folds}-fold cross-validation by passage, {time.perf_counter() - started:.0f} s\n")
    print("TORQUE dev-part\n" + format_scores("torque", torque_scores(
        read_torque(torque_path), torque_predictions, clusters, kind_of=torque_question_kind)))
    for path in ester_paths:
        print(f"\nESTER {path.name}\n" + format_scores("ester", ester_scores(read_ester(path), ester_predictions)))


if __name__ == "__main__":
    main()
