"""What adding documents to a store costs, against building everything and building the new ones alone.

Draws ``--later`` documents of ``--docs`` (seeded), builds a store of the others with its incidents, then
times, each in this process with the record cache warm (every document is extracted once first):

- ``update``: adding the drawn documents to that store (``build_store`` + ``ensure_incidents``, which
  regroups only what they touch);
- ``at once``: a new store of all the documents with its incidents;
- ``alone``: a new store of the drawn documents alone with its incidents.

Checks that the updated store's incident graph equals the one built at once, quad for quad, and that
every question of ``--questions`` gets the same answer from both. Prints the seconds and the ratios as JSON.

Usage: python benchmarks/incremental_update.py --docs DOCS --later 300 [--questions Q.json ...] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from pathlib import Path

from kg_count.answer.graph_answer import answer_from_store
from kg_count.graph.loader import build_store
from kg_count.graph.store import GraphStore
from kg_count.incidents.store.incident_versions import current_triples
from kg_count.incidents.update.materialise import ensure_incidents
from kg_count.io.articles import iter_any
from kg_count.io.conll import write_documents
from kg_count.io.questions import read_questions
from kg_count.nlp.record_cache import default_record_cache_path


def timed_build(docs: Path, store: Path) -> float:
    """Seconds to add ``docs`` to ``store`` and bring its incidents up to date."""
    started = time.perf_counter()
    build_store(docs, store, cache=default_record_cache_path())
    with GraphStore(store) as opened:
        ensure_incidents(opened)
    return time.perf_counter() - started


def incident_triples(store: Path) -> set[tuple]:
    """The triples of the store's incident graph (its current version)."""
    with GraphStore(store) as opened:
        return current_triples(opened)


def answers(store: Path, questions: dict) -> dict:
    """Each question's count and answer documents over the store."""
    with GraphStore(store) as opened:
        found = answer_from_store(opened, questions)
    return {qid: (answer.numerical_answer, sorted(answer.documents)) for qid, answer in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", required=True, type=Path)
    parser.add_argument("--later", type=int, default=300)
    parser.add_argument("--questions", type=Path, nargs="*", default=[])
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--out", type=Path, default=None, help="keep the stores here (default: a temporary folder)")
    args = parser.parse_args()
    work = args.out or Path(tempfile.mkdtemp(prefix="kg_count_update_"))
    work.mkdir(parents=True, exist_ok=True)
    documents = list(iter_any(args.docs))
    later = set(random.Random(args.seed).sample([d.doc_id for d in documents], args.later))
    write_documents(work / "all.conll", documents)
    write_documents(work / "first.conll", [d for d in documents if d.doc_id not in later])
    write_documents(work / "later.conll", [d for d in documents if d.doc_id in later])
    for name in ("update", "at_once", "alone", "warm"):
        shutil.rmtree(work / name, ignore_errors=True)
    build_store(work / "all.conll", work / "warm", cache=default_record_cache_path())  # every record cached
    timed_build(work / "first.conll", work / "update")
    result = {
        "documents": len(documents),
        "later": len(later),
        "update_s": round(timed_build(work / "later.conll", work / "update"), 2),
        "at_once_s": round(timed_build(work / "all.conll", work / "at_once"), 2),
        "alone_s": round(timed_build(work / "later.conll", work / "alone"), 2),
    }
    result["update_over_at_once"] = round(result["update_s"] / result["at_once_s"], 3)
    result["update_over_alone"] = round(result["update_s"] / result["alone_s"], 3)
    result["same_incident_graph"] = incident_triples(work / "update") == incident_triples(work / "at_once")
    questions = {}
    for path in args.questions:
        questions.update(read_questions(path))
    if questions:
        mine, theirs = answers(work / "update", questions), answers(work / "at_once", questions)
        result["questions"] = len(questions)
        result["different_answers"] = sum(mine[q] != theirs[q] for q in questions)
    print(json.dumps(result, indent=1))
    if args.out is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
