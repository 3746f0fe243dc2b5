"""Measure incident building on a built store against gold incidents.

Gold: the SemEval answers files (``--task-dir``, e.g. test-dev: each incident's documents, and the
incident properties its questions ask: city, state, day/month/year, names) or the GVA articles
(``--gva``: each article's incident_id). Reports:
- clustering: B-cubed and pairwise precision/recall/F1 over the gold documents the store has;
- report properties (task data only): for each gold document, whether its report's state, city,
  day, month and year agree with what the questions say of its incident, and whether it has a
  report of the asked event type at all;
- incident properties: the same, for the incident the document was put in.
With ``--cv``, the learned coreference model is measured held out instead: test-dev gold
incidents fall into 5 folds by state; each fold's documents are clustered (with the whole store) by
a model fitted on the other folds and on every ``--train-task`` / ``--train-gva`` set, its
thresholds chosen on the other folds and the train tasks (``kg_count.training.coreference_fitting``).
Usage: python benchmarks/measure_incidents.py --store DIR (--task-dir DIR | --gva ARTICLES.jsonl)
       python benchmarks/measure_incidents.py --cv --store DIR --task-dir DIR [--train-task TASK_DIR STORE]
              [--train-gva ARTICLES STORE] [--folds 5] [--l2 1.0]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from kg_count.evaluate.coreference import bcub, blanc_counts
from kg_count.graph.store import GraphStore
from kg_count.incidents.grouping.scored_incidents import incidents_of
from kg_count.incidents.reports.reports import reports_from_store
from kg_count.training.coreference_fitting import Labelled, cross_validate, gold_from_gva, gold_from_task, labelled_sets


def clustering_scores(gold: dict[str, str], system: dict[str, str]) -> dict:
    docs = sorted(set(gold) & set(system))
    gold_groups, system_groups = defaultdict(set), defaultdict(set)
    for d in docs:
        gold_groups[gold[d]].add(d)
        system_groups[system[d]].add(d)
    key, response = list(gold_groups.values()), list(system_groups.values())
    recall_num, recall_den, precision_num, precision_den = bcub(key, response)
    precision, recall = precision_num / precision_den, recall_num / recall_den
    pairs_gold, pairs_system, both = blanc_counts(key, response)[:3]

    def f1(p, r):
        return 2 * p * r / (p + r) if p + r else 0.0

    pp = both / pairs_system if pairs_system else 1.0
    pr = both / pairs_gold if pairs_gold else 1.0
    return {
        "documents": len(docs),
        "gold_incidents": len(gold_groups),
        "system_incidents": len(system_groups),
        "bcubed_p": round(100 * precision, 2),
        "bcubed_r": round(100 * recall, 2),
        "bcubed_f1": round(100 * f1(precision, recall), 2),
        "pairwise_p": round(100 * pp, 2),
        "pairwise_r": round(100 * pr, 2),
        "pairwise_f1": round(100 * f1(pp, pr), 2),
    }


def property_agreement(items: dict[str, object], doc_incident: dict[str, str], props: dict) -> dict:
    """Share of gold documents whose item (report or incident) agrees with each asked property."""
    agree, asked = Counter(), Counter()
    for doc, incident in doc_incident.items():
        p = props[incident]
        item = items.get(doc)
        for key in ("state", "city"):
            for value in p.get(key, ()):
                asked[key] += 1
                agree[key] += item is not None and getattr(item, f"{key}_iri") == value
        for key in ("day", "month", "year"):
            for start, end in p.get(key, ()):
                asked[key] += 1
                agree[key] += item is not None and start <= item.date <= end
        for value in p.get("type", ()):
            asked["type"] += 1
            agree["type"] += item is not None and value in item.types
        for value in p.get("name", ()):
            asked["name"] += 1
            agree["name"] += item is not None and any(
                value in (x.first_name.lower(), x.last_name.lower(), x.full_name.lower()) for x in item.people
            )
    return {key: f"{100 * agree[key] / asked[key]:.1f} ({asked[key]})" for key in sorted(asked)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, type=Path)
    parser.add_argument("--task-dir", type=Path)
    parser.add_argument("--gva", type=Path)
    parser.add_argument("--cv", action="store_true", help="cross-validate the learned coreference model by state")
    parser.add_argument("--train-task", nargs=2, action="append", default=[], metavar=("TASK_DIR", "STORE"))
    parser.add_argument("--train-gva", nargs=2, action="append", default=[], metavar=("ARTICLES", "STORE"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args()
    if args.cv:
        started = time.perf_counter()
        gold, props = gold_from_task(args.task_dir)
        target = Labelled.from_store(args.task_dir.name, args.store, gold)
        others, _ = labelled_sets(args.train_task, args.train_gva)
        result = cross_validate(target, props, others, [d for d in others if d.name != "gva"], args.folds, args.l2)
        result["seconds"] = round(time.perf_counter() - started, 1)
        print(json.dumps(result, indent=2))
        return
    with GraphStore(args.store) as store:
        reports = reports_from_store(store)
    incidents = incidents_of(reports)
    by_doc = {doc: incident for incident in incidents for doc in incident.doc_ids}
    system = {doc: incident.incident_id for doc, incident in by_doc.items()}
    result = {"reports": len(reports), "incidents": len(incidents)}
    if args.task_dir:
        doc_incident, props = gold_from_task(args.task_dir)
        result["clustering"] = clustering_scores(doc_incident, system)
        result["gold_docs_without_report"] = len(set(doc_incident) - {r.doc_id for r in reports})
        result["report_properties"] = property_agreement({r.doc_id: r for r in reports}, doc_incident, props)
        result["incident_properties"] = property_agreement(by_doc, doc_incident, props)
    if args.gva:
        result["clustering"] = clustering_scores(gold_from_gva(args.gva), system)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
