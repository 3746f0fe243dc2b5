"""Build speed: documents per second, peak memory, and the ratio of the whole build to spaCy alone.

Runs in one process on the same documents: first spaCy alone parses them (the same Doc
construction and pipeline the build uses), then ``build_store`` builds a fresh store.
Usage: python benchmarks/build_speed.py [--docs DOCS.conll] [--limit N] [--store DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import tempfile
import time
from pathlib import Path

from kg_count.graph.loader import build_store
from kg_count.io.articles import iter_any
from kg_count.nlp.annotate import annotate


def peak_memory_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=Path("../shared/data/semeval2018-task5/test-dev/docs.conll"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--store", type=Path, default=None, help="store folder (default: a temporary one)")
    args = parser.parse_args()

    documents = list(iter_any(args.docs))[: args.limit]
    if args.limit:
        subset = Path(tempfile.mkdtemp()) / "subset.conll"
        from kg_count.io.conll import write_documents

        write_documents(subset, documents)
        args.docs = subset
    for _ in annotate(documents[:2]):
        pass  # load the model before timing
    started = time.perf_counter()
    tokens = sum(len(a.doc) for a in annotate(documents))
    spacy_seconds = time.perf_counter() - started
    spacy_memory = peak_memory_mb()

    store = args.store or Path(tempfile.mkdtemp()) / "store"
    summary = build_store(args.docs, store)
    size = sum(p.stat().st_size for p in store.rglob("*") if p.is_file())
    result = {
        "documents": len(documents), "tokens": tokens,
        "spacy_seconds": round(spacy_seconds, 1), "build_seconds": round(summary.seconds, 1),
        "build_docs_per_second": round(summary.added / summary.seconds, 2),
        "build_to_spacy_ratio": round(summary.seconds / spacy_seconds, 2),
        "peak_memory_mb_after_spacy": round(spacy_memory), "peak_memory_mb": round(peak_memory_mb()),
        "triples": summary.triples, "store_mb": round(size / 1e6, 1),
    }
    print(json.dumps(result, indent=2))
    if args.store is None:
        shutil.rmtree(store.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
