"""The ``kg-count`` command line. Exit codes: 0 done, 1 bad input, 2 bad usage, 130 interrupted."""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
from pathlib import Path

from kg_count import __version__
from kg_count.errors import InputError, KgCountError, UsageError
from kg_count.settings import settings
from kg_count.task import EVENT_TYPES
from kg_count.qa.datasets.commands import add_qa_parser

SYSTEMS = ("graph", "baseline")
STORE_HELP = "store folder, or the URL of a SPARQL 1.1 server (query at URL/query, update at URL/update)"
DOCS_HELP = (
    "documents: the task's CoNLL format, or JSON lines of articles (doc_id, title, dct, content) ending in .jsonl"
)
DESCRIPTION = (
    "Read news, build event-centric knowledge graphs, group reports into incidents and answer "
    "counting questions with SPARQL. Exit codes: 0 done, 1 bad input, 2 bad usage, 130 interrupted."
)
SCHEDULER_ADDRESS = re.compile(r"^(tcp|tls|ucx|ws|wss|inproc)://[^\s/]+$")


def _store_location(text: str):
    from kg_count.graph.store import store_location

    try:
        return store_location(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _count_at_least(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def _add_build_options(parser) -> None:
    parser.add_argument(
        "--batch-size",
        type=_count_at_least(1),
        default=None,
        help="documents per batch (default: [batch] documents in the settings, 32)",
    )
    parser.add_argument(
        "--workers", type=_count_at_least(1), default=1, help="local processes extracting documents (default: 1)"
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="send batches to the Dask scheduler at ADDRESS (e.g. tcp://10.0.0.5:8786)",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="extract every document again instead of reusing records cached by content hash",
    )


def _add_answer_prior(parser) -> None:
    parser.add_argument(
        "--answer-prior",
        choices=("learned", "none"),
        default="learned",
        help="S2 and S3 counts weigh the learned prior over the answers of each question shape (learned, the "
        "default), or follow the graph's likelihood alone (none)",
    )


def _add_answer(subparsers) -> None:
    parser = subparsers.add_parser(
        "answer",
        help="answer a questions.json file",
        description="Answer every question of a questions file (S1, S2, S3 mixed or apart).",
    )
    parser.add_argument(
        "--system",
        choices=SYSTEMS,
        default="graph",
        help="graph: SPARQL over the incident graph (default); baseline: the organisers' baseline",
    )
    parser.add_argument("--docs", required=True, type=Path, help=DOCS_HELP)
    parser.add_argument("--questions", required=True, type=Path, help="questions.json")
    parser.add_argument("--out", required=True, type=Path, help="where to write answers.json (written atomically)")
    parser.add_argument(
        "--store",
        type=_store_location,
        help=f"{STORE_HELP}; what it lacks is built first (default: a folder for DOCS under the kg_count cache)",
    )
    parser.add_argument("--conll-out", type=Path, help="also write DOCS with event coreference chains (graph system)")
    _add_answer_prior(parser)
    _add_build_options(parser)
    parser.set_defaults(handler=run_answer)


def _add_evaluate(subparsers) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="score answers or coreference chains against gold",
        description="Incident- and document-level scores (--gold/--system), or mention-level coreference "
        "scores (--gold-conll/--system-conll).",
    )
    parser.add_argument("--gold", type=Path, help="gold answers.json")
    parser.add_argument("--system", type=Path, help="system answers.json")
    parser.add_argument(
        "--questions",
        type=Path,
        help="questions.json for breakdowns by event type and property pair "
        "(default: questions.json beside the gold file, when present)",
    )
    parser.add_argument("--subtask", type=int, choices=(1, 2, 3), help="score all questions as this subtask")
    parser.add_argument("--gold-conll", type=Path, help="gold CoNLL with event coreference chains")
    parser.add_argument("--system-conll", type=Path, help="system CoNLL with event coreference chains")
    parser.add_argument(
        "--cross-document",
        action="store_true",
        help="score chains over the whole file as one document (default: per document, "
        "summed, as the reference scorer does)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument(
        "--report",
        type=Path,
        help="also write an HTML report with plots and the worst questions into this folder (index.html)",
    )
    parser.add_argument(
        "--store", type=_store_location, help="with --report: group the system's documents by the store's incidents"
    )
    parser.set_defaults(handler=run_evaluate)


def _add_run_sample(subparsers) -> None:
    parser = subparsers.add_parser(
        "run-sample",
        help="answer and score the embedded sample (what `make run` does)",
        description="Build the store of a sample folder (docs.conll), answer each of its "
        "s1/, s2/, s3/ questions files and score those that have gold "
        "answers; this is what `make run` does.",
    )
    parser.add_argument("--sample", type=Path, default=Path("data/sample"), help="sample folder (default: data/sample)")
    parser.add_argument("--out", type=Path, default=Path("out/sample"), help="output folder (default: out/sample)")
    parser.add_argument("--system", choices=SYSTEMS, default="graph", help="which system answers (default: graph)")
    _add_answer_prior(parser)
    parser.set_defaults(handler=run_sample)


def _add_train(subparsers) -> None:
    from kg_count.training.train_command import TARGETS, TASK_SETS

    parser = subparsers.add_parser(
        "train",
        help="retrain shipped models from the shared data (what `make models` does)",
        description="Retrain a shipped model (or all of them, in dependency order) from the shared data and "
        "record it in the models folder's manifest.json: its training data and settings hashes, the date and "
        "its cross-validated scores. The stores it needs are built under --work and reused by later runs.",
    )
    parser.add_argument("target", choices=(*TARGETS, "all"), help="which model to retrain")
    parser.add_argument(
        "--data", type=Path, default=Path("../shared/data"), help="the shared data folder (default: ../shared/data)"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=None,
        help="folder for the stores and parses training needs (default: ~/.cache/kg_count/train)",
    )
    parser.add_argument(
        "--models-dir", type=Path, default=None, help="write the models here (default: the package's models folder)"
    )
    parser.add_argument("--workers", type=_count_at_least(1), default=1, help="local processes for store builds")
    parser.add_argument(
        "--task-sets",
        nargs="+",
        choices=TASK_SETS,
        default=list(TASK_SETS),
        help="the SemEval sets the coreference and incident-match models learn from (default: trial test-dev; "
        "`--task-sets trial` trains the coreference model that never saw test-dev, for measuring)",
    )
    parser.add_argument(
        "--slots",
        nargs="+",
        default=None,
        metavar="SLOT",
        help="extraction only: refit these slots (follow_up, date, state, city, killed, injured) and keep the others "
        "as the models folder has them (default: all)",
    )
    parser.set_defaults(handler=run_train)


def run_train(args: argparse.Namespace) -> int:
    """``kg-count train``: retrain the chosen models and print what was written."""
    from kg_count.training.train_command import TrainingPlace, default_work_folder, run_targets

    if args.slots:
        from kg_count.nlp.extraction_models import SLOTS

        if args.target != "extraction":
            raise UsageError("--slots applies to the extraction target only")
        unknown = [slot for slot in args.slots if slot not in SLOTS]
        if unknown:
            raise UsageError(f"unknown extraction slot(s) {', '.join(unknown)}: choose from {', '.join(SLOTS)}")
    work = args.work or default_work_folder()
    slots = tuple(args.slots) if args.slots else None
    place = TrainingPlace(args.data, work, args.models_dir, args.workers, tuple(args.task_sets), slots)
    print("\n".join(run_targets(args.target, place)))
    return 0


def _add_build(subparsers) -> None:
    build = subparsers.add_parser(
        "build",
        help="build or update a graph store from documents",
        description="Extract document graphs into a store (an Oxigraph folder or a "
        "SPARQL server), then group the store's reports into incidents. Documents already in the "
        "store are skipped, so an interrupted build resumes; on an existing store it is the update.",
    )
    build.add_argument("--docs", required=True, type=Path, help=DOCS_HELP)
    build.add_argument("--store", required=True, type=_store_location, help=f"{STORE_HELP} (created when missing)")
    _add_build_options(build)
    build.add_argument(
        "--no-incidents",
        action="store_true",
        help="leave the incidents as they are, to be regrouped by the next build or answer (a store without incidents "
        "is grouped by the first command that reads incidents)",
    )
    build.set_defaults(handler=run_build)


def _add_dump(subparsers) -> None:
    dump = subparsers.add_parser(
        "dump",
        help="print a document's or an incident's graph as Turtle",
        description="Print one document's named graph, or one incident with its time "
        "and people, as Turtle (read-only).",
    )
    dump.add_argument("--store", required=True, type=_store_location, help=STORE_HELP)
    which = dump.add_mutually_exclusive_group(required=True)
    which.add_argument("--doc", help="document id")
    which.add_argument("--incident", help="incident id (see kg-count incidents)")
    dump.set_defaults(handler=run_dump)


def _add_sparql(subparsers) -> None:
    sparql = subparsers.add_parser(
        "sparql",
        help="run a read-only SPARQL query over a store",
        description="Run a SPARQL query (SELECT, ASK, CONSTRUCT, DESCRIBE) over all graphs of a store. The "
        "command is read-only: updates are refused, and so are SERVICE calls to other endpoints "
        "unless --allow-service is given.",
    )
    sparql.add_argument("--store", required=True, type=_store_location, help=STORE_HELP)
    sparql.add_argument("query", nargs="?", help="the query text")
    sparql.add_argument("--file", type=Path, help="read the query from a file")
    sparql.add_argument(
        "--format",
        choices=("table", "csv", "json"),
        default="table",
        help="SELECT rows as an aligned table (default), CSV or JSON; CONSTRUCT and DESCRIBE print Turtle",
    )
    sparql.add_argument(
        "--allow-service",
        action="store_true",
        help="let the query call other SPARQL endpoints with SERVICE (HTTP requests to them)",
    )
    sparql.set_defaults(handler=run_sparql)


def _add_incidents(subparsers) -> None:
    incidents = subparsers.add_parser(
        "incidents",
        help="list incidents, or explain one",
        description="Without --id, list the store's incidents (filtered by type, place, date); with --id, show an "
        "incident's documents, properties and why its documents were merged. The store is only read (beside a "
        "build that is writing it, too): incidents are those the last build or answer made, with a warning when "
        "documents came since.",
    )
    incidents.add_argument("--store", required=True, type=_store_location, help=STORE_HELP)
    incidents.add_argument("--id", help="incident id")
    incidents.add_argument(
        "--question",
        metavar="ID",
        help="with --questions: show this question as read (its place reading) and the incidents its query finds",
    )
    incidents.add_argument("--questions", type=Path, help="the questions.json that holds --question")
    incidents.add_argument("--type", choices=EVENT_TYPES, help="only incidents of this event type")
    incidents.add_argument("--place", help="text the city or state IRI contains, e.g. Columbus or Mississippi")
    incidents.add_argument("--date", help="date prefix, e.g. 2016, 2016-03 or 2016-03-14")
    incidents.add_argument(
        "--limit", type=_count_at_least(0), default=50, help="incidents to list (default: 50; 0 for all)"
    )
    incidents.set_defaults(handler=run_incidents)


def _add_extract(subparsers) -> None:
    extract = subparsers.add_parser(
        "extract",
        help="write what the pipeline reads from each document as JSON lines",
        description="One JSON line per document: event types, incident date, city, "
        "state, location IRIs, killed/injured/fired counts, participants.",
    )
    extract.add_argument("--docs", required=True, type=Path, help=DOCS_HELP)
    extract.add_argument("--out", required=True, type=Path, help="output JSON lines (written atomically)")
    extract.set_defaults(handler=run_extract)


def build_options(args: argparse.Namespace) -> dict:
    """The keyword arguments of ``build_archive`` given by ``--batch-size``, ``--workers``, ``--scheduler`` and
    ``--no-cache``."""
    if args.scheduler is not None and args.workers != 1:
        raise UsageError("give --workers or --scheduler, not both")
    if args.scheduler is not None and not SCHEDULER_ADDRESS.match(args.scheduler):
        raise UsageError(f"--scheduler {args.scheduler!r} is not a Dask scheduler address like tcp://HOST:8786")
    cache = None if args.no_cache else "default"  # build_archive's record cache
    return {"batch_size": args.batch_size, "workers": args.workers, "scheduler": args.scheduler, "cache": cache}


def run_build(args: argparse.Namespace) -> int:
    """``kg-count build``: build or update the store from DOCS, group its incidents (holding the store throughout,
    so that no other writer takes it between the two) and print what was found."""
    from kg_count.api import build_archive

    with build_archive(args.docs, args.store, incidents=not args.no_incidents, **build_options(args)) as archive:
        print(f"store {args.store}")
        print("\n".join(archive.summary.lines()))
        if archive.grouping is not None:
            print(archive.grouping.line())
    return 0


def run_dump(args: argparse.Namespace) -> int:
    """``kg-count dump``: print one document's graph or one incident as Turtle."""
    from kg_count.api import open_archive

    with open_archive(args.store) as archive:
        print(archive.turtle(incident_id=args.incident, doc_id=args.doc))
    return 0


def run_incidents(args: argparse.Namespace) -> int:
    """``kg-count incidents``: list the store's incidents, or explain one."""
    from kg_count.api import open_archive
    from kg_count.incidents.views.explain import list_incidents

    if (args.question is None) != (args.questions is None):
        raise UsageError("--question and --questions go together")
    with open_archive(args.store) as archive:
        if args.question is not None:
            print(_explain_question(archive.store, args.questions, args.question))
        elif args.id is not None:
            print(archive.explain(args.id))
        else:
            print(list_incidents(archive.store, args.type, args.place, args.date, args.limit))
    return 0


def _explain_question(store, path: Path, question_id: str) -> str:
    """A question of ``path`` in words, how its place was read and the incidents its query finds in ``store``."""
    from kg_count.answer.candidates_view import candidate_lines
    from kg_count.evaluate.question_text import place_reading, question_text
    from kg_count.io.questions import read_questions

    questions = read_questions(path)
    if question_id not in questions:
        raise InputError("no such question", path, item=f"question {question_id}")
    question = questions[question_id]
    place = question.place
    reading = place_reading(question) or (f"place as the structured field: {place.describe()}" if place else "")
    lines = [f"{question_id}: {question_text(question)}", *([reading] if reading else [])]
    return "\n".join(lines + candidate_lines(store, question))


def run_sparql(args: argparse.Namespace) -> int:
    """``kg-count sparql``: run a read-only query over the store and print its results."""
    from kg_count.api import open_archive
    from kg_count.graph.results import format_results, refuse_service_calls

    if (args.query is None) == (args.file is None):
        raise UsageError("give a query or --file, not both")
    if args.file is not None and not args.file.is_file():
        raise UsageError(f"query file {args.file} not found")
    text = args.query if args.file is None else args.file.read_text(encoding="utf-8")
    refuse_service_calls(text, args.allow_service)  # before the store is opened
    with open_archive(args.store) as archive:
        print(format_results(archive.query(text, args.allow_service), args.format))
    return 0


def run_extract(args: argparse.Namespace) -> int:
    """``kg-count extract``: write one JSON line of extracted facts per document."""
    from kg_count.nlp.pipeline import extract_file

    count = extract_file(args.docs, args.out)
    print(f"extracted {count} documents -> {args.out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``kg-count`` with all its subcommands."""
    parser = argparse.ArgumentParser(prog="kg-count", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"kg-count {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    _add_answer(subparsers)
    _add_evaluate(subparsers)
    _add_run_sample(subparsers)
    for add in (_add_build, _add_dump, _add_sparql, _add_incidents, _add_extract):
        add(subparsers)
    add_qa_parser(subparsers)
    _add_train(subparsers)
    _remember_parsers(parser)
    return parser


def _remember_parsers(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand's parser a default ``command_parser`` naming itself, so that a usage error
    found after parsing prints that subcommand's usage."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(command_parser=sub)
                _remember_parsers(sub)


def run_answer(args: argparse.Namespace) -> int:
    """``kg-count answer``: answer a questions file and write the answers atomically."""
    answers = answer_file(
        args.system,
        args.docs,
        args.questions,
        args.out,
        args.store,
        args.conll_out,
        build_options(args),
        answer_prior=args.answer_prior == "learned",
    )
    print(f"answered {len(answers)} questions -> {args.out}")
    if args.conll_out is not None:
        print(f"documents with event coreference chains -> {args.conll_out}")
    return 0


def answer_file(
    system: str,
    docs: Path,
    questions: Path,
    out: Path,
    store=None,
    conll_out: Path | None = None,
    build: dict | None = None,
    answer_prior: bool = True,
) -> dict:
    """Answer the questions file ``questions`` over the documents ``docs`` with ``system``, write the answers to
    ``out`` (atomically) and return them by question id. Questions are validated before the documents are read.
    The graph system answers from ``kg_count.archive_for(docs, store, **build)``, with the learned answer prior
    unless ``answer_prior`` is False, and writes the documents' coreference chains to ``conll_out`` when given."""
    from kg_count.io.answers import write_system_answers
    from kg_count.io.questions import read_questions

    parsed = read_questions(questions)
    if system == "baseline":
        from kg_count.answer.baseline import answer_baseline
        from kg_count.io.articles import read_any

        if conll_out is not None:
            raise UsageError("--conll-out needs the graph system")
        answers = answer_baseline(parsed, read_any(docs))
    else:
        from kg_count.api import archive_for

        with archive_for(docs, store, **(build or {})) as archive:
            answers = archive.answer_questions(parsed, answer_prior)
            if conll_out is not None:
                archive.write_chains(conll_out, docs)
    write_system_answers(out, answers)
    return answers


def run_evaluate(args: argparse.Namespace) -> int:
    """``kg-count evaluate``: score answers (or coreference chains) against gold and print the scores."""
    from kg_count.evaluate.text_report import format_coreference_scores, format_task_scores

    answers_given = args.gold is not None or args.system is not None
    chains_given = args.gold_conll is not None or args.system_conll is not None
    if (
        answers_given == chains_given
        or (answers_given and not (args.gold and args.system))
        or (chains_given and not (args.gold_conll and args.system_conll))
    ):
        raise UsageError("give either --gold and --system, or --gold-conll and --system-conll")
    if args.report is not None and not answers_given:
        raise UsageError("--report needs --gold and --system")
    if args.report is not None and args.report.exists() and not args.report.is_dir():
        raise UsageError(f"--report {args.report} is a file; give a folder for index.html")
    if answers_given:
        from kg_count.evaluate.answer_files import read_answer_files
        from kg_count.evaluate.task_scores import evaluate_answers

        inputs = read_answer_files(args.gold, args.system, args.questions)
        scores = evaluate_answers(*inputs, args.subtask, args.system)
        print(json.dumps(scores, indent=2) if args.json else format_task_scores(scores))
        if args.report is not None:
            path = write_html_report(args, scores, inputs)
            print(f"report -> {path}", file=sys.stderr if args.json else sys.stdout)
    else:
        from kg_count.evaluate.coreference import score_chain_files

        scores = score_chain_files(args.gold_conll, args.system_conll, args.cross_document)
        print(json.dumps(scores, indent=2) if args.json else format_coreference_scores(scores))
    return 0


def write_html_report(args: argparse.Namespace, scores: dict, inputs: tuple[dict, dict, dict | None]) -> Path:
    """Write the HTML report of ``kg-count evaluate --report`` from the ``scores`` of the read
    ``inputs`` (gold, system, questions), with the shipped answer prior; return the page's path."""
    from kg_count.evaluate.html_report import StoreView, write_report
    from kg_count.answer.answer_prior import shipped_answer_prior

    if args.store is None:
        return write_report(args.report, scores, *inputs, None, shipped_answer_prior())
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.views.explain import incident_turtles
    from kg_count.incidents.views.incident_views import document_views, incident_views

    with GraphStore(args.store, create=False) as store:
        documents = document_views(store)
        incidents, incident_of = incident_views(store, documents)
        view = StoreView(documents, incidents, incident_of, lambda ids: incident_turtles(store, ids))
        return write_report(args.report, scores, *inputs, view, shipped_answer_prior())


def run_sample(args: argparse.Namespace) -> int:
    """``kg-count run-sample``: answer and score each subtask folder of the embedded sample."""
    from kg_count.evaluate.answer_files import score_answer_files
    from kg_count.evaluate.text_report import format_task_scores

    docs = args.sample / "docs.conll"
    subtasks = sorted(p for p in args.sample.glob("s[123]") if (p / "questions.json").is_file())
    if not docs.is_file() or not subtasks:
        raise UsageError(f"{args.sample} must hold docs.conll and s1/, s2/ or s3/ with questions.json")
    print(f"kg-count {__version__}: system '{args.system}' on {docs}")
    for folder in subtasks:
        out = args.out / folder.name / "answers.json"
        answers = answer_file(
            args.system,
            docs,
            folder / "questions.json",
            out,
            args.out / "store",
            answer_prior=args.answer_prior == "learned",
        )
        print(f"\n{folder.name}: answered {len(answers)} questions -> {out}")
        if (folder / "answers.json").is_file():
            scores = score_answer_files(folder / "answers.json", out, folder / "questions.json")
            print(format_task_scores(scores, f"{folder.name} scores"))
        else:
            print(f"{folder.name}: no gold answers in {folder}; not scored")
    return 0


class _StandardErrorHandler(logging.Handler):
    """Writes log records to whatever ``sys.stderr`` is when they are emitted: progress plainly, notes and
    warnings as ``kg-count: warning: ...``."""

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.levelno >= logging.WARNING:
            message = f"kg-count: {record.levelname.lower()}: {message}"
        print(message, file=sys.stderr, flush=True)


def configure_logging() -> None:
    """Send the library's log (the ``kg_count`` loggers) at INFO and above to standard error, once."""
    logger = logging.getLogger("kg_count")
    if not any(isinstance(h, _StandardErrorHandler) for h in logger.handlers):
        logger.addHandler(_StandardErrorHandler())
    logger.setLevel(logging.INFO)


def main(argv: list[str] | None = None) -> int:
    """Run ``kg-count`` with ``argv``; return the exit code."""
    configure_logging()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings()  # a bad settings file stops every command before it writes anything
        return args.handler(args)
    except UsageError as error:
        getattr(args, "command_parser", parser).error(str(error))
    except KgCountError as error:
        print(f"kg-count: error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("kg-count: interrupted (a build resumes where it stopped when run again)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of our output (e.g. `| head`) has gone: say nothing more on stdout
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print("kg-count: error: output closed before all was written", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
