"""Cross-validated TORQUE, ESTER and MATRES scores of the QA bridge (no passage both trained on and scored).

Passages are split into folds by a hash of their source document (TORQUE: the news document a passage
was cut from; ESTER: the passage; TimeBank: the document); for each fold the four scorers are trained on
the other folds (``kg-count train qa``'s data and procedure, silver TORQUE questions included unless
``--no-silver``) and that fold's questions answered and MATRES pairs ordered. Writes the predictions
(OUT/torque_cv.json, OUT/ester_cv.json, OUT/ester_test_cv.json), every question's held-out candidates
with their confidences (OUT/torque_cv_candidates.json, OUT/ester_cv_candidates.json) and OUT/scores.json,
and prints the scores by kind and type, and each fold's (benchmarks/qa_fold_spread.py). TORQUE's per-kind
decision thresholds are chosen, for each fold, on the other
folds' held-out confidences (kg_count.qa.learned.thresholds; OUT/torque_cv_nested_thresholds.json); the
thresholds chosen on all folds are printed for the [qa_training] settings. ESTER's answer ranker
(kg_count.qa.learned.answer_ranking) is likewise fitted, for each fold, on the other folds' held-out
candidates of both ESTER files; the one fitted on all folds is written to OUT/answer_ranker.json
(``kg-count train qa`` fits and ships the same one). Per-question latency:
answering the whole TORQUE and ESTER files with the shipped models (``--latency``), encoder
included: wall time, and the CPU time of the answering process and of the process that encodes passages
ahead of it (``vectors.encode_ahead``; CPU time is what other jobs on a shared machine do not inflate).

Usage: python benchmarks/measure_qa.py [--data ../shared/data] [--folds 5] [--out out/qa] [--latency]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from kg_count.io.atomic import write_json_atomic
from kg_count.settings import settings
from kg_count.qa.datasets.commands import format_scores, torque_question_kind
from kg_count.qa.inputs.readers import read_ester, read_torque_files, torque_clusters_beside
from kg_count.qa.datasets.scoring import ester_scores, torque_scores
from kg_count.training.train_command import qa_training_data, qa_training_files, torque_train_file
from kg_count.qa.learned.training import (
    cross_validate,
    matres_f1,
    nested_gate_predictions,
    nested_ranker_predictions,
    nested_threshold_predictions,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from qa_fold_spread import fold_rows, print_spread  # noqa: E402


def _children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def latency(torque_paths: list[Path], ester_path: Path) -> dict:
    """Wall and CPU seconds answering whole files with the shipped models (a fresh passage cache)."""
    from kg_count.qa.datasets import ester, torque
    from kg_count.learning.encoder import load_encoder
    from kg_count.qa.learned.model_set import shipped_qa_models
    from kg_count.qa.passage_graph.vectors import stop_encoding_process

    models = shipped_qa_models()
    load_encoder()
    result = {}
    for name, questions, answer in (
        ("torque", read_torque_files(torque_paths), torque.answer_torque),
        ("ester", read_ester(ester_path), ester.answer_ester),
    ):
        started, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        answer(questions, models)
        seconds = time.perf_counter() - started
        stop_encoding_process()  # its CPU time counts once it has ended
        result[name] = {
            "questions": len(questions),
            "seconds": seconds,
            "cpu_seconds": time.process_time() - cpu,
            "encoder_process_cpu_seconds": _children_cpu() - children,
        }
        result[name]["ms_per_question"] = 1000 * result[name]["seconds"] / len(questions)
        result[name]["cpu_ms_per_question"] = 1000 * result[name]["cpu_seconds"] / len(questions)
        result[name]["encoder_process_cpu_ms_per_question"] = (
            1000 * result[name]["encoder_process_cpu_seconds"] / len(questions)
        )
    return result


def torque_scores_by_gold(questions: list, predictions: dict) -> dict:
    """F1 and EM of the questions whose gold answer is empty and of the others, apart."""
    from kg_count.qa.learned.answer_nothing import no_answer

    return {
        name: torque_scores([q for q in questions if no_answer(q) == empty], predictions)
        for name, empty in (("empty gold", True), ("others", False))
    }


def candidates_as_json(candidates: dict) -> dict:
    """``{passageID: {question: {asked, scorer, rows} | None}}``: every TORQUE question's held-out candidates
    with their confidences, for studying the answer decision."""
    return {
        pid: {
            q: None
            if c is None
            else {
                "asked": c.asked,
                "scorer": c.scorer,
                "rows": c.rows,
                "anchor": c.anchor_begin,
                "events": c.events,
                "kind": c.kind,
            }
            for q, c in by_q.items()
        }
        for pid, by_q in candidates.items()
    }


def ester_candidates_as_json(candidates: dict) -> dict:
    """``{index: {relation, anchor, rows: [[begin, end, phrase, confidence], ...], features: [[...], ...]} |
    None}``: every ESTER question's held-out candidates with the answer ranker's features (one row per
    candidate, in ``answer_ranking.FEATURES`` order), for studying the ranking and refitting the ranker."""
    return {
        index: None
        if c is None
        else {
            "relation": c.relation,
            "anchor": c.anchor_begin,
            "rows": [[x.begin, x.end, x.phrase, x.confidence] for x in c.candidates],
            "features": [[round(float(v), 6) for v in row] for row in c.features],
        }
        for index, c in candidates.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("out/qa"))
    parser.add_argument("--latency", action="store_true", help="only measure per-question latency")
    parser.add_argument("--no-silver", action="store_true", help="train without the silver TORQUE questions")
    parser.add_argument(
        "--no-train-passages",
        action="store_true",
        help="train without TORQUE's train passages even when [qa_training] torque_train_weight is above 0",
    )
    args = parser.parse_args()
    torque_paths, ester_train, timebank = qa_training_files(args.data)
    original = args.data / "ester" / "final_train_ans_gen_500original.json"
    test = args.data / "ester" / "final_test_ans_gen.json"
    if args.latency:
        timings = latency(torque_paths, original)
        write_json_atomic(args.out / "latency.json", timings)
        for name, row in timings.items():
            print(
                f"{name}: {row['questions']} questions in {row['seconds']:.1f} s, "
                f"{row['ms_per_question']:.0f} ms a question ({row['cpu_ms_per_question']:.0f} ms of CPU time)"
            )
        return
    started = time.perf_counter()
    weight = settings().qa_training.torque_train_weight
    train_passages = [torque_train_file(args.data)] if weight > 0 and not args.no_train_passages else []
    data = qa_training_data(torque_paths, ester_train, timebank, not args.no_silver, train_passages)
    torque_questions = read_torque_files(torque_paths)
    ester_questions = {path: read_ester(path) for path in (original, test)}
    result = cross_validate(data, torque_questions, ester_questions, args.folds)
    write_json_atomic(args.out / "torque_cv.json", result["torque"])
    write_json_atomic(args.out / "torque_cv_candidates.json", candidates_as_json(result["torque_candidates"]))
    write_json_atomic(
        args.out / "ester_cv_candidates.json",
        {path.name: ester_candidates_as_json(result["ester_candidates"][path]) for path in ester_questions},
    )
    ester_nested, ranker = nested_ranker_predictions(ester_questions, result["ester_candidates"], args.folds)
    write_json_atomic(args.out / "ester_cv.json", ester_nested[original])
    write_json_atomic(args.out / "ester_test_cv.json", ester_nested[test])
    ranker.save(args.out / "answer_ranker.json")
    clusters = torque_clusters_beside(torque_paths)
    by_thresholds, thresholds = nested_threshold_predictions(torque_questions, result["torque_candidates"], args.folds)
    write_json_atomic(args.out / "torque_cv_nested_thresholds.json", by_thresholds)
    nested, gate = nested_gate_predictions(torque_questions, result["torque_candidates"], args.folds)
    write_json_atomic(args.out / "torque_cv_nested.json", nested)
    gate.save(args.out / "answer_nothing.json")
    scores = {
        "torque": torque_scores(torque_questions, nested, clusters, kind_of=torque_question_kind),
        "torque_by_gold": torque_scores_by_gold(torque_questions, nested),
        "torque_thresholds_only": torque_scores(torque_questions, by_thresholds, clusters),
        "torque_thresholds_only_by_gold": torque_scores_by_gold(torque_questions, by_thresholds),
        "torque_thresholds_0.5": torque_scores(torque_questions, result["torque"], clusters),
        "torque_thresholds_chosen_on_all_folds": thresholds,
        "ester": {path.name: ester_scores(ester_questions[path], ester_nested[path]) for path in ester_questions},
        "ester_confidence_only": {
            path.name: ester_scores(ester_questions[path], result["ester"][path]) for path in ester_questions
        },
        "matres": matres_f1(result["matres"]),
    }
    write_json_atomic(args.out / "scores.json", scores)
    seconds = time.perf_counter() - started
    print(f"{args.folds}-fold CV by source document (TORQUE, TimeBank), passage (ESTER): {seconds:.0f} s\n")
    print("TORQUE dev-part and dev-part2, thresholds and answer-nothing gate chosen on the other folds")
    print(format_scores("torque", scores["torque"]))
    alone = scores["torque_thresholds_only"]
    print(f"thresholds alone (no gate): F1 {alone['f1']:.2f}, EM {alone['em']:.2f}, C {alone['c']:.2f}")
    for name in ("torque_by_gold", "torque_thresholds_only_by_gold"):
        print(
            f"{name}: "
            + "; ".join(f"{g} ({r['questions']}): F1 {r['f1']:.2f}, EM {r['em']:.2f}" for g, r in scores[name].items())
        )
    print(f"answer-nothing gate fitted on all folds ({gate.thresholds}) -> {args.out / 'answer_nothing.json'}")
    fixed = scores["torque_thresholds_0.5"]
    print(f"with every threshold 0.5: F1 {fixed['f1']:.2f}, EM {fixed['em']:.2f}, C {fixed['c']:.2f}")
    print("thresholds chosen on all folds (what kg-count train qa ships):", thresholds)
    for name, table in scores["ester"].items():
        print(f"\nESTER {name}, answer ranker fitted on the other folds\n" + format_scores("ester", table))
        alone = scores["ester_confidence_only"][name]
        print(
            "ranked by confidence alone, one answer: "
            + ", ".join(f"{k} {alone[k]:.2f}" for k in ("f1", "hit1", "em") if k in alone)
        )
    print(f"answer ranker fitted on all folds -> {args.out / 'answer_ranker.json'}")
    m = scores["matres"]
    print(
        f"\nMATRES held-out documents: {m['pairs']} BEFORE/AFTER/EQUAL pairs, micro F1 {m['f1']:.2f} "
        f"(BEFORE {m['BEFORE']:.2f}, AFTER {m['AFTER']:.2f}, EQUAL {m['EQUAL']:.2f})"
    )
    print("\nEach fold's scores (benchmarks/qa_fold_spread.py)")
    print_spread(fold_rows(args.data, args.out, args.folds))


if __name__ == "__main__":
    main()
