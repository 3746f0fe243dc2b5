"""Calibrated counting, cross-validated by state on SemEval questions with gold, and the locked fold.

Usage: python benchmarks/measure_counting.py --store DIR --task-dir TEST_DEV [--extra TASK_DIR STORE ...]
       [--group-with COREFERENCE.json] [--folds 5] [--locked-fold FILE] [--score-locked] [--out DIR]
       [--reference ANSWERS.json]

The locked fold (``benchmarks/locked_fold.json``: a seeded fifth of test-dev's fold units drawn before any
tuning, ``kg_count.training.locked_fold``) is left out of everything by default. The other questions (S1, S2,
S3 of ``--task-dir``) fall into folds by state (``kg_count.training.incident_match_fitting``: the asked state or the
asked city's state; participant questions by the asked name's last word). For each fold, the
incident-match model and its settings (L2 weight, document threshold, missed rates, the answer prior's
weights, smoothing and tail, by inner cross-validation) are fitted on the other folds' questions (plus
every ``--extra`` set, e.g. trial S2 over its own store), and the fold's questions are answered with it.
``--score-locked`` instead fits on all questions outside the locked fold and answers the locked fold's:
run it once, at the end. Prints the task's scores of the held-out answers per subtask, with the learned
answer prior and from the likelihood alone, breakdowns by property pair, shape (``state+year``) and gold
answer class, beside the answers of ``--reference`` (e.g. the system before this model) and the trivial
answers (S2 "2", S3 "1" with no documents), and a reliability table of the held-out probabilities. Writes
the held-out answers (both decisions), the report and the scores under ``--out``.

The stores are measured as built: their incident graphs are not brought up to date with the shipped
models, whose coreference model was trained with test-dev's gold incidents. With ``--group-with FILE``
each store's reports are first grouped by the coreference model in FILE (the README's figures use
``benchmarks/models/without_test_dev/coreference.json``, trained on trial S2 and gva-train only); the
incident graph is rebuilt only when it was built otherwise. A warning says when a store's incident graph
was built with other models than those in force (with FILE's coreference model, when given).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from kg_count.answer.graph_answer import answer_from_candidates, best_incident
from kg_count.evaluate.calibration import reliability
from kg_count.evaluate.task_scores import evaluate_answers
from kg_count.training.incident_match_fitting import fit, labelled_tasks, question_folds
from kg_count.training.locked_fold import read_locked_units, split_locked
from kg_count.io.answers import SystemAnswer, read_system_answers, write_system_answers

TRIVIAL = {2: 2, 3: 1}
LOCKED_FOLD = Path(__file__).with_name("locked_fold.json")


def held_out_answers(candidates, questions, gold, folds, extra, answered=None):
    """Answers of every question of the ``answered`` folds (default: all) by a model fitted on the other folds
    (and ``extra``), with the learned answer prior and without it (``likelihood only``); the probabilities and
    the settings chosen per fold too."""
    answers = {"with the answer prior": {}, "likelihood only": {}}
    probabilities, settings = {}, {}
    for fold in sorted(set(folds.values()) if answered is None else answered):
        train = {q: c for q, c in candidates.items() if folds[q] != fold}
        train.update(extra["candidates"])
        model, prior, chosen = fit(train, {**gold, **extra["gold"]}, {**questions, **extra["questions"]})
        settings[fold] = chosen
        for qid in (q for q in candidates if folds[q] == fold):
            found = candidates[qid]
            ps = [model.probability(c.features) for c in found]
            probabilities.update({id(c): p for c, p in zip(found, ps)})
            incidents = [c.found for c in found]
            # S1's last tie-break reads each incident's confidence: the held-out probability, not the graph's
            # (written by the shipped model, which saw every fold)
            held_out = [replace(c.found, confidence=p) for c, p in zip(found, ps)]
            for name, use_prior in (("with the answer prior", True), ("likelihood only", False)):
                if questions[qid].subtask == 1:
                    answers[name][qid] = SystemAnswer(
                        None, sorted(best_incident(questions[qid], held_out).doc_ids) if held_out else []
                    )
                else:
                    chosen_prior = prior if use_prior else None
                    answers[name][qid] = answer_from_candidates(questions[qid], incidents, ps, model, chosen_prior)
    return answers, probabilities, settings


def held_out_reliability(candidates, probabilities) -> list[dict]:
    """The reliability table of the held-out probabilities of every candidate against its label."""
    return reliability((probabilities[id(c)], c.label) for found in candidates.values() for c in found)


def group_with(store_path: Path, coreference_path: Path) -> None:
    """Group a store's reports into incidents with the coreference model in ``coreference_path``, unless its
    incident graph was built so already."""
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.update.materialise import ensure_incidents

    with GraphStore(store_path) as store:
        count, rebuilt = ensure_incidents(store, coreference_path=coreference_path)
    print(f"{store_path}: {count} incidents" + (f", grouped with {coreference_path}" if rebuilt else ""))


def table(rows: dict[str, dict], subtask: int) -> list[str]:
    lines = ["| answers | accuracy | RMSE | doc P | doc R | doc F1 |", "|---|---:|---:|---:|---:|---:|"]
    for name, s in rows.items():
        acc = f"{s['accuracy']:.2f}" if "accuracy" in s else "–"
        rmse = f"{s['rmse']:.2f}" if "rmse" in s else "–"
        lines.append(
            f"| {name} S{subtask} | {acc} | {rmse} | {s['doc_precision']:.2f} | {s['doc_recall']:.2f} | "
            f"{s['doc_f1']:.2f} |"
        )
    return lines


def breakdown(scores: dict, key: str) -> list[str]:
    lines = [f"| {key} | questions | accuracy | RMSE | doc F1 |", "|---|---:|---:|---:|---:|"]
    for name, s in scores.get(key, {}).items():
        acc = f"{s['accuracy']:.2f}" if "accuracy" in s else "–"
        rmse = f"{s['rmse']:.2f}" if "rmse" in s else "–"
        lines.append(f"| {name} | {s['questions']} | {acc} | {rmse} | {s['doc_f1']:.2f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, type=Path)
    parser.add_argument("--task-dir", required=True, type=Path)
    parser.add_argument(
        "--extra",
        nargs=2,
        action="append",
        default=[],
        metavar=("TASK_DIR", "STORE"),
        help="more questions with gold over their own store, always trained on",
    )
    parser.add_argument(
        "--group-with",
        type=Path,
        metavar="COREFERENCE.json",
        help="group every store's reports with this coreference model first (default: read them as built)",
    )
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument(
        "--locked-fold",
        type=Path,
        default=LOCKED_FOLD,
        metavar="FILE",
        help="the fold units set aside before tuning (default: benchmarks/locked_fold.json)",
    )
    parser.add_argument(
        "--score-locked",
        action="store_true",
        help="answer the locked fold's questions with a model fitted on all the others (once, at the end)",
    )
    parser.add_argument("--reference", type=Path, help="another system's answers to the same questions")
    parser.add_argument("--out", type=Path, default=Path("out/counting"))
    args = parser.parse_args()

    stores = [(args.task_dir, args.store), *((Path(t), Path(s)) for t, s in args.extra)]
    if args.group_with:
        for _, path in stores:
            group_with(path, args.group_with)
    questions, gold, candidates = labelled_tasks(stores[:1], as_built=True, coreference_path=args.group_with)
    prefix = args.task_dir.name + ":"
    questions = {q.removeprefix(prefix): v for q, v in questions.items()}
    gold = {q.removeprefix(prefix): v for q, v in gold.items()}
    candidates = {q.removeprefix(prefix): v for q, v in candidates.items()}
    more = labelled_tasks(stores[1:], as_built=True, coreference_path=args.group_with)
    extra = dict(zip(("questions", "gold", "candidates"), more))
    tuning, locked = split_locked(questions, read_locked_units(args.locked_fold))
    if args.score_locked:
        folds = {q: int(q in locked) for q in questions}
        title = f"locked fold: {len(locked)} questions, answered by a model fitted on the other {len(tuning)}"
        answered = {1}
    else:
        folds = question_folds({q: questions[q] for q in tuning}, args.folds)
        title = f"folds by state: {args.folds} over the {len(tuning)} questions outside the locked fold; sizes " + (
            ", ".join(str(sum(1 for f in folds.values() if f == n)) for n in range(args.folds))
        )
        answered = None
    scored = set(folds) if answered is None else locked
    questions = {q: questions[q] for q in folds}
    gold = {q: gold[q] for q in folds}
    candidates = {q: candidates[q] for q in folds}
    answers, probabilities, settings = held_out_answers(candidates, questions, gold, folds, extra, answered)
    scored_candidates = {q: candidates[q] for q in scored}
    scored_gold = {q: gold[q] for q in scored}

    systems = dict(answers)
    if args.reference:
        systems["reference"] = read_system_answers(args.reference)
    systems["trivial"] = {q: SystemAnswer(TRIVIAL.get(questions[q].subtask), []) for q in scored_gold}
    report = [title, ""]
    results = {}
    for subtask in (1, 2, 3):
        sub_gold = {q: g for q, g in scored_gold.items() if questions[q].subtask == subtask}
        if not sub_gold:  # a set without gold for this subtask (trial's S1 and S3)
            report += [f"S{subtask}: no questions with gold", ""]
            continue
        rows = {}
        for name, system in systems.items():
            if subtask == 1 and name in ("trivial", "likelihood only"):
                continue
            rows[name] = evaluate_answers(
                sub_gold, {q: a for q, a in system.items() if q in sub_gold}, questions, subtask
            )
        results[subtask] = rows
        report += table(rows, subtask) + [""]
    for subtask in (2, 3):
        if subtask not in results:
            continue
        held = results[subtask]["with the answer prior"]
        report += [f"S{subtask} by property pair:"] + breakdown(held, "by_property_pair") + [""]
        report += [f"S{subtask} by shape:"] + breakdown(held, "by_shape") + [""]
        report += [f"S{subtask} by gold answer class:"] + breakdown(held, "by_answer_class") + [""]
    report += ["reliability of held-out probabilities:", "| p | candidates | mean p | right |", "|---|---:|---:|---:|"]
    report += [
        f"| {r['bin']} | {r['n']} | {r['mean_p']} | {r['right']} |"
        for r in held_out_reliability(scored_candidates, probabilities)
    ]
    report += ["", "settings per fold: " + json.dumps(settings)]
    print("\n".join(report))
    args.out.mkdir(parents=True, exist_ok=True)
    write_system_answers(args.out / "held_out_answers.json", answers["with the answer prior"])
    write_system_answers(args.out / "held_out_answers_likelihood_only.json", answers["likelihood only"])
    (args.out / "report.md").write_text("\n".join(report) + "\n", encoding="utf-8")
    scores = json.dumps({str(k): v for k, v in results.items()}, indent=1)
    (args.out / "scores.json").write_text(scores, encoding="utf-8")


if __name__ == "__main__":
    main()
