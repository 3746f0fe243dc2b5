"""The ``kg-count qa`` subcommands: answer TORQUE or ESTER files, score predictions, show a passage graph."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kg_count.errors import InputError
from kg_count.io.atomic import read_json, write_json_atomic


def add_qa_parser(subparsers) -> None:
    """Register ``kg-count qa torque|ester|evaluate|graph|silver``."""
    qa = subparsers.add_parser(
        "qa",
        help="answer TORQUE / ESTER reading-comprehension questions",
        description="Answer temporal (TORQUE) and semantic-relation (ESTER) questions "
        "with SPARQL over each passage's event graph.",
    )
    commands = qa.add_subparsers(dest="qa_command", metavar="QA_COMMAND")
    commands.required = True
    _add_answer_parsers(commands)
    _add_evaluate_parser(commands)
    _add_graph_and_silver_parsers(commands)


def _add_answer_parsers(commands) -> None:
    """Register ``kg-count qa torque`` and ``kg-count qa ester``."""
    for dataset, shape in (
        ("torque", "{passageID: {question: [[start, end], ...]}}"),
        ("ester", '{"<index in the input list>": ["answer phrase", ...]}'),
    ):
        answer = commands.add_parser(
            dataset,
            help=f"answer a {dataset.upper()} file",
            description=f"Answer every question of a {dataset.upper()} JSON file; writes {shape}.",
        )
        answer.add_argument("--input", required=True, type=Path, help=f"{dataset.upper()} JSON file")
        answer.add_argument("--out", required=True, type=Path, help="predictions JSON (written atomically)")
        if dataset == "torque":
            answer.add_argument(
                "--answer-nothing",
                choices=("thresholds", "gate"),
                default="thresholds",
                help="when a question gets no answer: thresholds, when no event reaches its kind's threshold (the "
                "default); gate, also when the learned answer-nothing gate says so (measured: more exact matches, "
                "lower F1; docs/pipeline/reading.md)",
            )
        answer.set_defaults(handler=run_qa_answer, dataset=dataset)


def _add_evaluate_parser(commands) -> None:
    """Register ``kg-count qa evaluate``."""
    evaluate = commands.add_parser(
        "evaluate",
        help="score predictions against a gold file",
        description="TORQUE: F1, EM and C; ESTER: token F1, HIT@1 and EM; overall and by question kind / type.",
    )
    evaluate.add_argument("dataset", choices=("torque", "ester"))
    evaluate.add_argument("--gold", required=True, type=Path, help="the dataset file with gold answers")
    evaluate.add_argument("--pred", required=True, type=Path, help="predictions written by `kg-count qa`")
    evaluate.add_argument("--clusters", type=Path, help="TORQUE contrast groups (question_clustering.json), for C")
    evaluate.add_argument("--json", action="store_true", help="print the scores as JSON")
    evaluate.set_defaults(handler=run_qa_evaluate)


def _add_graph_and_silver_parsers(commands) -> None:
    """Register ``kg-count qa graph`` and ``kg-count qa silver``."""
    graph = commands.add_parser(
        "graph",
        help="print a passage's event graph as Turtle",
        description="Build the event graph of one passage of a TORQUE or ESTER file.",
    )
    graph.add_argument("dataset", choices=("torque", "ester"))
    graph.add_argument("--input", required=True, type=Path, help="the TORQUE or ESTER JSON file")
    graph.add_argument("--id", required=True, help="TORQUE passage id, or ESTER question index")
    graph.set_defaults(handler=run_qa_graph)
    silver = commands.add_parser(
        "silver",
        help="write silver TORQUE questions made from TimeML documents and MATRES",
        description="Make TORQUE-format passages and questions (before/after/while by MATRES, the warm-up "
        "questions by each event's annotated status) from a TimeML folder, as `kg-count train qa` trains on.",
    )
    silver.add_argument(
        "--timebank", required=True, type=Path, help="TimeML documents (SUBFOLDER/*.tml), MATRES pairs (matres/*.txt)"
    )
    silver.add_argument("--out", required=True, type=Path, help="TORQUE-format JSON (written atomically)")
    silver.add_argument(
        "--sentences", type=int, help="sentences a passage (default: [qa_training] silver_window_sentences)"
    )
    silver.set_defaults(handler=run_qa_silver)


def _questions(dataset: str, path: Path):
    from kg_count.qa.inputs.readers import read_ester, read_torque

    return read_torque(path) if dataset == "torque" else read_ester(path)


def run_qa_answer(args: argparse.Namespace) -> int:
    """``kg-count qa torque|ester``: answer every question of a file and write the predictions."""
    from kg_count.qa.datasets import ester, torque
    from kg_count.qa.learned.model_set import shipped_qa_models

    questions = _questions(args.dataset, args.input)
    models = shipped_qa_models(with_gate=getattr(args, "answer_nothing", "thresholds") == "gate")
    started = time.perf_counter()
    answer = torque.answer_torque if args.dataset == "torque" else ester.answer_ester
    predictions = answer(questions, models)
    write_json_atomic(args.out, predictions)
    seconds = time.perf_counter() - started
    print(f"{len(questions)} questions answered in {seconds:.1f} s -> {args.out}")
    return 0


def torque_question_kind(question) -> str:
    """The kind a TORQUE question is scored under (warm-up status, or relation and modality)."""
    from kg_count.qa.passage_graph.question_parsing import parse_temporal_question

    return parse_temporal_question(question.question).kind


def format_scores(dataset: str, scores: dict) -> str:
    """The scores as a plain-text table, overall then by kind or type."""
    metrics = ("f1", "em", "c") if dataset == "torque" else ("f1", "hit1", "em")
    names = {"f1": "F1" if dataset == "torque" else "token F1", "em": "EM", "c": "C", "hit1": "HIT@1"}
    lines = [
        f"{'':32} {'questions':>9} " + " ".join(f"{names[m]:>8}" for m in metrics),
        f"{'all':32} {scores['questions']:>9} "
        + " ".join(f"{scores[m]:>8.2f}" if m in scores else f"{'':>8}" for m in metrics),
    ]
    for kind, row in scores["by_kind" if dataset == "torque" else "by_type"].items():
        lines.append(
            f"{kind[:32]:32} {row['questions']:>9} "
            + " ".join(f"{row[m]:>8.2f}" if m in row else f"{'':>8}" for m in metrics)
        )
    return "\n".join(lines)


def run_qa_evaluate(args: argparse.Namespace) -> int:
    """``kg-count qa evaluate``: score predictions against a gold file and print the scores."""
    from kg_count.qa.inputs.readers import read_torque_clusters
    from kg_count.qa.datasets.scoring import ester_scores, torque_scores

    questions = _questions(args.dataset, args.gold)
    predictions = read_json(args.pred)
    if not isinstance(predictions, dict):
        raise InputError("expected a JSON object of predictions", args.pred)
    if args.dataset == "torque":
        clusters = read_torque_clusters(args.clusters) if args.clusters else None
        scores = torque_scores(questions, predictions, clusters, kind_of=torque_question_kind)
    else:
        scores = ester_scores(questions, predictions)
    print(json.dumps(scores, indent=2) if args.json else format_scores(args.dataset, scores))
    return 0


def run_qa_graph(args: argparse.Namespace) -> int:
    """``kg-count qa graph``: print one passage's event graph as Turtle."""
    from kg_count.qa.passage_graph.analysis import analyse_passage
    from kg_count.qa.learned.model_set import shipped_qa_models

    questions = _questions(args.dataset, args.input)
    key = (lambda q: q.passage_id) if args.dataset == "torque" else (lambda q: str(q.index))
    match = next((q for q in questions if key(q) == args.id), None)
    if match is None:
        raise InputError(f"no passage {args.id!r}", args.input)
    analysis = analyse_passage(match.passage_id, match.passage, shipped_qa_models(), args.dataset)
    print(analysis.graph.turtle())
    return 0


def run_qa_silver(args: argparse.Namespace) -> int:
    """``kg-count qa silver``: write the silver TORQUE questions of a TimeML folder."""
    from kg_count.qa.learned.silver_questions import silver_torque
    from kg_count.settings import settings

    if not args.timebank.is_dir():
        raise InputError(f"{args.timebank}: not a folder of TimeML documents")
    sentences = settings().qa_training.silver_window_sentences if args.sentences is None else args.sentences
    if sentences < 1:
        raise InputError(f"--sentences {sentences}: a passage needs at least one sentence")
    passages = silver_torque(args.timebank, sentences)
    if not passages:
        raise InputError(f"{args.timebank}: no TimeML document with MATRES relations (matres/*.txt)")
    write_json_atomic(args.out, passages)
    questions = sum(len(p["question_answer_pairs"]) for p in passages.values())
    print(f"{len(passages)} passages, {questions} questions -> {args.out}")
    return 0
