"""What writing document graphs costs a build, per document: the statements (``document_statements``) and the store's
update (``GraphStore.add``: the statements and Oxigraph's ``INSERT DATA``), over records written earlier.

Records come from ``measure_extraction.py --records DIR`` (``DIR/trial.jsonl``) or any JSON lines of
``DocumentRecord.to_json``. Each measure is the best of ``--rounds`` passes over all records (the store a fresh one in
a temporary folder each pass). Prints one JSON object.

Usage: python benchmarks/document_writes.py --records RECORDS.jsonl [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from kg_count.graph.document_graph import document_statements
from kg_count.graph.store import GraphStore
from kg_count.nlp.record import DocumentRecord

CONTENT_HASH = "0" * 64
LEAD = "the opening words of the story"


def statements_ms(records: list[DocumentRecord]) -> float:
    """Milliseconds a document to make the statements of every record (joined as a store's update joins them)."""
    started = time.perf_counter()
    for record in records:
        "\n".join(document_statements(record, CONTENT_HASH, LEAD))
    return 1000 * (time.perf_counter() - started) / len(records)


def store_ms(records: list[DocumentRecord]) -> float:
    """Milliseconds a document to add every record to a fresh embedded store, flushed at the end."""
    with tempfile.TemporaryDirectory() as folder, GraphStore(Path(folder) / "store") as store:
        started = time.perf_counter()
        for record in records:
            store.add(record, CONTENT_HASH, LEAD)
        store.flush()
        return 1000 * (time.perf_counter() - started) / len(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, required=True, help="JSON lines of document records")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    lines = args.records.read_text(encoding="utf-8").splitlines()
    records = [DocumentRecord.from_json(json.loads(line)) for line in lines if line.strip()]
    if not records:
        parser.error(f"{args.records}: no records")
    statements_ms(records[:10])  # the first call renders the vocabulary and reads the pipeline version
    result = {
        "documents": len(records),
        "statements_a_document": round(
            sum(len(document_statements(r, CONTENT_HASH, LEAD)) for r in records) / len(records), 1
        ),
        "statements_ms": round(min(statements_ms(records) for _ in range(args.rounds)), 3),
        "store_add_ms": round(min(store_ms(records) for _ in range(args.rounds)), 3),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
