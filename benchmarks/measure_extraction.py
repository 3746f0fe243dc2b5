"""Measure extraction against the Gun Violence Archive records in ../shared/data/gva-train.

For every article: is its state, city, incident date (exact day, same month), killed and injured
counts right for the incident it reports, and which victim names were found. Prints JSON.
Usage: python benchmarks/measure_extraction.py [--gva DIR] [--limit N] [--records OUT.jsonl]
       python benchmarks/measure_extraction.py --cv [--cache out/gva_docs.spacy]

The first form runs the shipped pipeline, whose learned models were trained on these articles: it
measures the training fit. ``--cv`` measures the learned extraction honestly: 5 folds by incident,
models trained on four (``kg-count train extraction``'s procedure and settings) and scored on
the fifth, beside the hand-written rules on the same articles.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from pathlib import Path

from kg_count.io.articles import iter_articles
from kg_count.nlp.pipeline import process
from kg_count.nlp.record import DocumentRecord
from kg_count.progress import progress
from kg_count.settings import settings
from kg_count.training.extraction_fitting import cross_validate, load_items, normal_place


def score(records: list[DocumentRecord], articles: dict, incidents: dict) -> dict:
    """Per-article accuracies (percent) of state, city, date and counts, and victim name recall."""
    hits = {k: 0 for k in ("state", "city", "day", "month", "killed", "injured")}
    victims_total = victims_found = 0
    for record in records:
        incident = incidents[articles[record.doc_id]["incident_id"]]
        gold_date = dt.datetime.strptime(incident["date"], "%B %d, %Y").date()
        state_name = incident["state"]
        from kg_count.geography import gazetteer

        hits["state"] += bool(record.state) and gazetteer().state_names.get(record.state, "") == state_name
        hits["city"] += normal_place(record.city) == normal_place(incident["city_or_county"])
        hits["day"] += record.incident_date == gold_date
        hits["month"] += (record.incident_date.year, record.incident_date.month) == (gold_date.year, gold_date.month)
        hits["killed"] += record.killed == int(incident["num_killed"])
        hits["injured"] += record.injured == int(incident["num_injured"])
        found = {p.full_name.lower() for p in record.participants} | {p.last_name.lower() for p in record.participants}
        for person in incident.get("participants", []):
            if person.get("Type") == "Victim" and person.get("Name"):
                victims_total += 1
                name = person["Name"].lower()
                suffixes = ("jr", "sr", "ii", "iii", "iv")
                last = [w for w in name.replace(",", " ").split() if w.strip(".") not in suffixes]
                victims_found += name in found or bool(last) and last[-1] in found
    n = len(records)
    result = {k: 100.0 * v / n for k, v in hits.items()}
    result["victim_name_recall"] = 100.0 * victims_found / victims_total if victims_total else 0.0
    result["articles"] = n
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gva", type=Path, default=Path("../shared/data/gva-train"))
    parser.add_argument("--limit", type=int, default=None, help="only the first N articles")
    parser.add_argument("--records", type=Path, help="write the records as JSON lines here")
    parser.add_argument("--from-records", type=Path, help="score records written earlier instead of extracting")
    parser.add_argument("--cv", action="store_true", help="cross-validate the learned extraction by incident")
    parser.add_argument("--cache", type=Path, help="with --cv: a DocBin file to keep the parses in")
    args = parser.parse_args()
    if args.cv:
        started = time.perf_counter()
        extraction = settings().extraction
        items = load_items(args.gva, args.cache, args.limit)
        result = cross_validate(items, extraction.ranker_l2, extraction.follow_up_days)
        print(json.dumps({**result, "seconds": round(time.perf_counter() - started, 1)}, indent=1))
        return

    articles = {}
    for line in (args.gva / "articles.jsonl").read_text().splitlines():
        record = json.loads(line)
        articles[record["doc_id"]] = record
    incidents = {}
    for line in (args.gva / "incidents.jsonl").read_text().splitlines():
        record = json.loads(line)
        incidents[record["incident_uri"]] = record
    started = time.perf_counter()
    if args.from_records:
        lines = args.from_records.read_text().splitlines()
        records = [DocumentRecord.from_json(json.loads(line)) for line in lines]
    else:
        documents = list(iter_articles(args.gva / "articles.jsonl"))[: args.limit]
        records = list(progress(process(documents), "extracting", total=len(documents), unit="doc"))
        if args.records:
            args.records.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))
    elapsed = time.perf_counter() - started
    result = score(records, articles, incidents)
    print(json.dumps({**result, "seconds": round(elapsed, 1)}, indent=2))


if __name__ == "__main__":
    main()
