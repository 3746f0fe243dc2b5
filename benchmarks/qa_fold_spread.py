"""Each cross-validation fold's QA scores, from the predictions ``benchmarks/measure_qa.py`` wrote.

Reads OUT/torque_cv_nested_thresholds.json, OUT/ester_cv.json and OUT/ester_test_cv.json (each fold
answered by models, thresholds and ranker fitted without it) and prints TORQUE F1 / EM / C, ESTER
token F1 / HIT@1 / EM and the test file's HIT@1 for every fold (folds by TORQUE source document and
ESTER passage, as ``kg_count.qa.learned.training.fold_of`` assigns them), with their range.

    python benchmarks/qa_fold_spread.py --out out/qa [--data ../shared/data] [--folds 5]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kg_count.qa.datasets.scoring import ester_scores, torque_scores
from kg_count.qa.inputs.readers import read_ester, read_torque_files, torque_clusters_beside
from kg_count.qa.learned.training import fold_of
from kg_count.training.train_command import qa_training_files

ROOT = Path(__file__).resolve().parents[1]


def fold_rows(data: Path, out: Path, folds: int) -> list[dict]:
    """One ``{"fold", "torque_questions", "torque_f1", ..., "ester_test_hit1"}`` row per fold, from the
    predictions under ``out`` and the gold under ``data``."""
    torque_paths, _, _ = qa_training_files(data)
    torque_questions = read_torque_files(torque_paths)
    clusters = torque_clusters_beside(torque_paths)
    torque_predictions = json.loads((out / "torque_cv_nested_thresholds.json").read_text())
    ester = {
        name: (read_ester(data / "ester" / file), json.loads((out / name).read_text()))
        for name, file in (
            ("ester_cv.json", "final_train_ans_gen_500original.json"),
            ("ester_test_cv.json", "final_test_ans_gen.json"),
        )
    }
    rows = []
    for fold in range(folds):
        held_out = [q for q in torque_questions if fold_of(q.passage_id, folds) == fold]
        torque = torque_scores(held_out, torque_predictions, clusters)
        row = {"fold": fold, "torque_questions": len(held_out)}
        row.update({f"torque_{k}": torque[k] for k in ("f1", "em", "c")})
        for name, (questions, predictions) in ester.items():
            scored = ester_scores([q for q in questions if fold_of(q.passage_id, folds) == fold], predictions)
            prefix = "ester" if name == "ester_cv.json" else "ester_test"
            row.update({f"{prefix}_{k}": scored[k] for k in ("f1", "hit1", "em") if k in scored})
        rows.append(row)
    return rows


def print_spread(rows: list[dict]) -> None:
    """Print the rows as a table and each measure's lowest and highest fold."""
    names = [k for k in rows[0] if k != "fold"]
    print("fold " + " ".join(f"{n:>14}" for n in names))
    for row in rows:
        print(f"{row['fold']:>4} " + " ".join(f"{row[n]:>14.2f}" for n in names))
    print("range " + ", ".join(f"{n} {min(r[n] for r in rows):.2f}-{max(r[n] for r in rows):.2f}" for n in names[1:]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the folder measure_qa.py wrote")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    print_spread(fold_rows(args.data, args.out, args.folds))


if __name__ == "__main__":
    main()
