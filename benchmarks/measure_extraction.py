"""Measure extraction against Gun Violence Archive records: gva-train's articles, or the task's own documents.

For every article: is its state, city, incident date (exact day, same month), killed and injured
counts (each, and both) right for the incident it reports, and which victim names were found. Prints JSON.
Usage: python benchmarks/measure_extraction.py [--gva DIR] [--limit N] [--records OUT.jsonl]
       python benchmarks/measure_extraction.py --task-dir ../shared/data/semeval2018-task5/trial [--task-dir ...]
                                               [--records DIR | --from-records DIR]
       python benchmarks/measure_extraction.py --cv [--cache out/gva_docs.spacy]
       python benchmarks/measure_extraction.py --cv --task-dir DIR [--task-dir DIR ...] [--cache ...]

The first form runs the shipped pipeline over gva-train, whose learned models were trained on these articles:
it measures the training fit. With ``--task-dir`` it runs over the task documents that have a record
(``<dir>/incidents.jsonl``), scored per folder. ``--cv`` measures the learned extraction honestly: 5 folds by
incident, models trained on four (``kg-count train extraction``'s procedure and settings) and scored on the
fifth, beside the hand-written rules on the same articles; with ``--task-dir`` the task's documents join
gva-train's, the folds go by the incident's state, and the held-out accuracies are also given per source.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kg_count.io.articles import iter_articles
from kg_count.io.atomic import atomic_writer
from kg_count.nlp.pipeline import process
from kg_count.nlp.record import DocumentRecord
from kg_count.progress import progress
from kg_count.settings import settings
from kg_count.io.conll import iter_documents
from kg_count.training.extraction_fitting import (
    accuracy,
    cross_validate,
    held_out_choices,
    load_items,
    load_task_items,
)
from kg_count.training.record_accuracy import record_scores, task_articles


def cross_validated(args: argparse.Namespace) -> dict:
    """``--cv``: held-out accuracies by incident on gva-train, or by state on gva-train and the task folders."""
    extraction = settings().extraction
    items = load_items(args.gva, args.cache, args.limit)
    if not args.task_dir:
        return cross_validate(items, extraction.ranker_l2, extraction.follow_up_days)
    sources = {"gva-train": range(len(items))}
    for task_dir in args.task_dir:
        cache = args.cache.with_name(f"{task_dir.name}_{args.cache.name}") if args.cache else None
        task_items = load_task_items(task_dir, cache)
        sources[task_dir.name] = range(len(items), len(items) + len(task_items))
        items += task_items
    choices, _ = held_out_choices(items, extraction.ranker_l2, extraction.follow_up_days, by_state=True)
    result = {"learned": accuracy(choices, items), "rules": accuracy([i.rule for i in items], items)}
    for name, members in sources.items():
        result[name] = {
            "learned": accuracy([choices[n] for n in members], [items[n] for n in members]),
            "rules": accuracy([items[n].rule for n in members], [items[n] for n in members]),
            "articles": len(members),
        }
    return result


def task_records(task_dir: Path, articles: dict, args: argparse.Namespace) -> list[DocumentRecord]:
    """The records of ``task_dir``'s documents that have a GVA record: read from ``<from-records>/<folder>.jsonl``
    when ``--from-records`` names a folder, else extracted (and written to ``<records>/<folder>.jsonl`` when
    ``--records`` names one)."""
    name = f"{task_dir.name}.jsonl"
    if args.from_records:
        lines = (args.from_records / name).read_text(encoding="utf-8").splitlines()
        return [DocumentRecord.from_json(json.loads(line)) for line in lines]
    documents = [d for d in iter_documents(task_dir / "docs.conll") if d.doc_id in articles]
    records = list(progress(process(documents), "extracting", total=len(documents), unit="doc"))
    if args.records:
        with atomic_writer(args.records / name) as handle:
            handle.write("".join(json.dumps(r.to_json()) + "\n" for r in records))
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gva", type=Path, default=Path("../shared/data/gva-train"))
    parser.add_argument(
        "--task-dir", type=Path, action="append", help="a task folder with docs.conll and incidents.jsonl"
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N articles")
    parser.add_argument("--records", type=Path, help="write the records as JSON lines here")
    parser.add_argument("--from-records", type=Path, help="score records written earlier instead of extracting")
    parser.add_argument("--cv", action="store_true", help="cross-validate the learned extraction by incident")
    parser.add_argument("--cache", type=Path, help="with --cv: a DocBin file to keep the parses in")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.cv:
        print(json.dumps({**cross_validated(args), "seconds": round(time.perf_counter() - started, 1)}, indent=1))
        return
    if args.task_dir:
        results = {}
        for task_dir in args.task_dir:
            articles, incidents = task_articles(task_dir)
            records = task_records(task_dir, articles, args)
            results[task_dir.name] = record_scores(records, articles, incidents)
        print(json.dumps({**results, "seconds": round(time.perf_counter() - started, 1)}, indent=2))
        return

    articles = {}
    for line in (args.gva / "articles.jsonl").read_text().splitlines():
        record = json.loads(line)
        articles[record["doc_id"]] = record
    incidents = {}
    for line in (args.gva / "incidents.jsonl").read_text().splitlines():
        record = json.loads(line)
        incidents[record["incident_uri"]] = record
    if args.from_records:
        lines = args.from_records.read_text().splitlines()
        records = [DocumentRecord.from_json(json.loads(line)) for line in lines]
    else:
        documents = list(iter_articles(args.gva / "articles.jsonl"))[: args.limit]
        records = list(progress(process(documents), "extracting", total=len(documents), unit="doc"))
        if args.records:
            args.records.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))
    elapsed = time.perf_counter() - started
    result = record_scores(records, articles, incidents)
    print(json.dumps({**result, "seconds": round(elapsed, 1)}, indent=2))


if __name__ == "__main__":
    main()
