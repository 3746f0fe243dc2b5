"""Answering latency: seconds per question over a built store (incidents built before timing).

Usage: python benchmarks/answer_latency.py --store DIR|URL --questions Q.json [Q.json ...]
Prints the mean, median, 95th percentile and maximum milliseconds per question, by subtask. The first
question of each subtask is answered once before timing, after loading the gazetteer (they load the models;
reported as ``first_questions_ms``), so the figures are a running system's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from kg_count.answer.graph_answer import answer_task_question
from kg_count.geography import gazetteer
from kg_count.graph.store import GraphStore, store_location
from kg_count.incidents.update.materialise import ensure_incidents
from kg_count.io.questions import read_questions


def summary(values: list[float]) -> dict:
    ordered = sorted(values)
    return {
        "questions": len(values),
        "mean_ms": round(1000 * statistics.mean(values), 1),
        "median_ms": round(1000 * statistics.median(values), 1),
        "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
        "max_ms": round(1000 * ordered[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, type=store_location, help="store folder or SPARQL server URL")
    parser.add_argument("--questions", required=True, type=Path, nargs="+")
    args = parser.parse_args()
    questions = {}
    for path in args.questions:
        questions.update(read_questions(path))
    timings: dict[str, list[float]] = {}
    with GraphStore(args.store) as store:
        ensure_incidents(store)
        started = time.perf_counter()
        gazetteer()
        for subtask in sorted({q.subtask for q in questions.values()}):  # loads the models
            answer_task_question(store, next(q for q in questions.values() if q.subtask == subtask))
        first_ms = round(1000 * (time.perf_counter() - started), 1)
        for question in questions.values():
            started = time.perf_counter()
            answer_task_question(store, question)
            timings.setdefault(f"s{question.subtask}", []).append(time.perf_counter() - started)
    result = {name: summary(values) for name, values in sorted(timings.items())}
    result["all"] = summary([v for values in timings.values() for v in values])
    result["first_questions_ms"] = first_ms
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
