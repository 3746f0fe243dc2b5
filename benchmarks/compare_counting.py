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
import os
import sys
from dataclasses import asdict
from pathlib import Path

from kg_count.errors import KgCountError
from kg_count.evaluate.paired_bootstrap import MEASURES, paired_differences
from kg_count.io.answers import read_system_answers
from kg_count.io.atomic import atomic_writer
from kg_count.training.incident_match_fitting import fold_unit, task_data


def main() -> int:
    """Compare the two answer files the command line names; return the exit code (1 on bad input, named)."""
    try:
        compare(_arguments())
    except (KgCountError, ValueError) as error:
        print(f"compare_counting: error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader of the table (`| head`) has gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task-dir", required=True, type=Path, help="a task folder with s1/s2/s3 questions and gold")
    parser.add_argument("a", type=Path, help="answers of system A (the reference)")
    parser.add_argument("b", type=Path, help="answers of system B")
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="also write the differences as JSON")
    return parser.parse_args()


def compare(args: argparse.Namespace) -> None:
    """Print (and with ``--out`` write) B - A per subtask and measure."""
    questions, gold = task_data(args.task_dir)
    system_a, system_b = read_system_answers(args.a), read_system_answers(args.b)
    results = {}
    both = set(system_a) & set(system_b)
    with_gold = both & set(gold)
    if not with_gold:
        raise ValueError(f"no question of {args.task_dir} with gold is answered in both files")
    print(f"B = {args.b}\nA = {args.a}\n{len(with_gold)} of the {len(both)} questions both answer have gold here\n")
    print("| subtask | questions | measure | A | B | B - A | 95 % interval | B better |")
    print("|---|---:|---|---:|---:|---:|---|---:|")
    for subtask in (1, 2, 3):
        sub_gold = {q: g for q, g in gold.items() if questions[q].subtask == subtask and q in with_gold}
        if not sub_gold:
            continue
        differences = paired_differences(questions, sub_gold, system_a, system_b, fold_unit, args.resamples, args.seed)
        names = ("doc_f1",) if subtask == 1 else MEASURES  # S1 asks for documents only
        results[f"S{subtask}"] = {name: asdict(differences[name]) for name in names}
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
    sys.exit(main())
