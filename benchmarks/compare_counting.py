"""Two systems' answers to the same questions with gold: is B's counting better than A's, or within the noise?

A paired bootstrap over the questions, resampled by state as the cross-validation folds them
(``kg_count.evaluate.paired_bootstrap``): for each subtask, B - A in accuracy, RMSE and mean document F1 on the
questions both answered, the mean over resamples, a 95 % interval and how often B did better. Give it the held-out
answers ``measure_counting.py --out`` writes for two variants (``held_out_answers.json``), or any two answer files.

Usage: python benchmarks/compare_counting.py --task-dir ../shared/data/semeval2018-task5/test-dev A.json B.json
       [--resamples 2000] [--seed 0] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from kg_count.evaluate.paired_bootstrap import MEASURES, paired_differences
from kg_count.io.answers import read_system_answers
from kg_count.io.atomic import atomic_writer
from kg_count.training.incident_match_fitting import fold_unit, task_data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task-dir", required=True, type=Path, help="a task folder with s1/s2/s3 questions and gold")
    parser.add_argument("a", type=Path, help="answers of system A (the reference)")
    parser.add_argument("b", type=Path, help="answers of system B")
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="also write the differences as JSON")
    args = parser.parse_args()
    questions, gold = task_data(args.task_dir)
    system_a, system_b = read_system_answers(args.a), read_system_answers(args.b)
    results = {}
    print(f"B = {args.b}\nA = {args.a}\n")
    print("| subtask | questions | measure | A | B | B - A | 95 % interval | B better |")
    print("|---|---:|---|---:|---:|---:|---|---:|")
    for subtask in (1, 2, 3):
        sub_gold = {
            q: g for q, g in gold.items() if questions[q].subtask == subtask and q in system_a and q in system_b
        }
        if not sub_gold:
            continue
        differences = paired_differences(questions, sub_gold, system_a, system_b, fold_unit, args.resamples, args.seed)
        results[f"S{subtask}"] = {name: asdict(d) for name, d in differences.items()}
        names = ("doc_f1",) if subtask == 1 else MEASURES
        for name in names:
            d = differences[name]
            print(
                f"| S{subtask} | {len(sub_gold)} | {name} | {d.a:.2f} | {d.b:.2f} | {d.observed:+.2f} | "
                f"{d.low:+.2f} … {d.high:+.2f} | {100 * d.better_share:.0f} % |"
            )
    if args.out:
        with atomic_writer(args.out) as stream:
            json.dump(results, stream, indent=1)


if __name__ == "__main__":
    main()
