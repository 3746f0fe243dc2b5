"""The ``kg-count`` command line. Exit codes: 0 done, 1 bad input, 2 bad usage."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from kg_count import __version__
from kg_count.errors import KgCountError

SYSTEMS = ("baseline",)


def _add_answer(subparsers) -> None:
    parser = subparsers.add_parser("answer", help="answer a questions.json file",
                                   description="Answer every question of a questions file (S1, S2, S3 mixed or apart).")
    parser.add_argument("--system", choices=SYSTEMS, default="baseline", help="which system answers (default: baseline)")
    parser.add_argument("--docs", required=True, type=Path, help="documents in the task's CoNLL format")
    parser.add_argument("--questions", required=True, type=Path, help="questions.json")
    parser.add_argument("--out", required=True, type=Path, help="where to write answers.json (written atomically)")
    parser.set_defaults(handler=run_answer)


def _add_evaluate(subparsers) -> None:
    parser = subparsers.add_parser(
        "evaluate", help="score answers or coreference chains against gold",
        description="Incident- and document-level scores (--gold/--system), or mention-level coreference "
                    "scores (--gold-conll/--system-conll).")
    parser.add_argument("--gold", type=Path, help="gold answers.json")
    parser.add_argument("--system", type=Path, help="system answers.json")
    parser.add_argument("--questions", type=Path,
                        help="questions.json for breakdowns by event type and property pair "
                             "(default: questions.json beside the gold file, when present)")
    parser.add_argument("--subtask", type=int, choices=(1, 2, 3), help="score all questions as this subtask")
    parser.add_argument("--gold-conll", type=Path, help="gold CoNLL with event coreference chains")
    parser.add_argument("--system-conll", type=Path, help="system CoNLL with event coreference chains")
    parser.add_argument("--cross-document", action="store_true",
                        help="score chains over the whole file as one document (default: per document, "
                             "summed, as the reference scorer does)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.set_defaults(handler=run_evaluate)


def _add_run_sample(subparsers) -> None:
    parser = subparsers.add_parser("run-sample", help="answer and score the embedded sample (what `make run` does)")
    parser.add_argument("--sample", type=Path, default=Path("data/sample"), help="sample folder (default: data/sample)")
    parser.add_argument("--out", type=Path, default=Path("out/sample"), help="output folder (default: out/sample)")
    parser.add_argument("--system", choices=SYSTEMS, default="baseline", help="which system answers")
    parser.set_defaults(handler=run_sample)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``kg-count`` with all its subcommands."""
    parser = argparse.ArgumentParser(prog="kg-count", description=__doc__.splitlines()[0].rstrip("."))
    parser.add_argument("--version", action="version", version=f"kg-count {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    _add_answer(subparsers)
    _add_evaluate(subparsers)
    _add_run_sample(subparsers)
    return parser


def answer_file(system: str, documents: Callable[[], dict], questions: Path, out: Path) -> dict:
    """Answer the questions file ``questions`` over ``documents`` with ``system``; write ``out``, return the answers.

    ``documents`` is a callable returning the documents, so that questions are validated before
    a large document file is read.
    """
    from kg_count.answer.baseline import answer_baseline
    from kg_count.io.answers import write_system_answers
    from kg_count.io.questions import read_questions

    parsed = read_questions(questions)
    answers = answer_baseline(parsed, documents())
    write_system_answers(out, answers)
    return answers


def run_answer(args: argparse.Namespace) -> int:
    from kg_count.io.conll import read_documents

    answers = answer_file(args.system, lambda: read_documents(args.docs), args.questions, args.out)
    print(f"answered {len(answers)} questions -> {args.out}")
    return 0


def score_answer_files(gold: Path, system: Path, questions: Path | None = None, subtask: int | None = None) -> dict:
    """Read gold, system answers and (optional) questions and return the task scores."""
    from kg_count.evaluate.task_scores import evaluate_answers
    from kg_count.io.answers import read_gold_answers, read_system_answers
    from kg_count.io.questions import read_questions

    if questions is None and (gold.parent / "questions.json").is_file():
        questions = gold.parent / "questions.json"
    parsed = read_questions(questions) if questions else None
    return evaluate_answers(read_gold_answers(gold), read_system_answers(system), parsed, subtask)


def run_evaluate(args: argparse.Namespace) -> int:
    from kg_count.evaluate.text_report import format_coreference_scores, format_task_scores

    answers_given = args.gold is not None or args.system is not None
    chains_given = args.gold_conll is not None or args.system_conll is not None
    if answers_given == chains_given or (answers_given and not (args.gold and args.system)) or \
            (chains_given and not (args.gold_conll and args.system_conll)):
        raise UsageError("give either --gold and --system, or --gold-conll and --system-conll")
    if answers_given:
        scores = score_answer_files(args.gold, args.system, args.questions, args.subtask)
        print(json.dumps(scores, indent=2) if args.json else format_task_scores(scores))
    else:
        from kg_count.evaluate.coreference import score_coreference
        from kg_count.io.conll import read_chains

        scores = score_coreference(read_chains(args.gold_conll), read_chains(args.system_conll), args.cross_document)
        print(json.dumps(scores, indent=2) if args.json else format_coreference_scores(scores))
    return 0


def run_sample(args: argparse.Namespace) -> int:
    from kg_count.evaluate.text_report import format_task_scores

    docs = args.sample / "docs.conll"
    subtasks = sorted(p for p in args.sample.glob("s[123]") if (p / "questions.json").is_file())
    if not docs.is_file() or not subtasks:
        raise UsageError(f"{args.sample} must hold docs.conll and s1/, s2/ or s3/ with questions.json")
    from kg_count.io.conll import read_documents

    print(f"kg-count {__version__}: system '{args.system}' on {docs}")
    documents = read_documents(docs)
    for folder in subtasks:
        out = args.out / folder.name / "answers.json"
        answers = answer_file(args.system, lambda: documents, folder / "questions.json", out)
        print(f"\n{folder.name}: answered {len(answers)} questions -> {out}")
        if (folder / "answers.json").is_file():
            scores = score_answer_files(folder / "answers.json", out, folder / "questions.json")
            print(format_task_scores(scores, f"{folder.name} scores"))
        else:
            print(f"{folder.name}: no gold answers in {folder}; not scored")
    return 0


class UsageError(Exception):
    """Bad command-line usage (exit code 2)."""


def main(argv: list[str] | None = None) -> int:
    """Run ``kg-count`` with ``argv``; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except UsageError as error:
        parser.error(str(error))
    except KgCountError as error:
        print(f"kg-count: error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("kg-count: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
