"""The Gun Violence Archive records behind the task's own documents (``<task dir>/incidents.jsonl`` beside
``docs.conll``, for trial and test-dev): each document's incident as a ``gva.Gold``, so that extraction is
measured and trained on the text the questions are asked over."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Iterator

from kg_count.errors import InputError
from kg_count.io.conll import iter_documents
from kg_count.nlp.annotate import AnnotatedDocument
from kg_count.training.gva import Gold, annotated_cached, record_city


def read_task_gold(task_dir: Path) -> dict[str, Gold]:
    """The Gold of each document ``task_dir``/incidents.jsonl names, by document id. The record's city is read
    by ``gva.record_city`` ("Chicago (Englewood)" -> "Chicago", "Brazos (county)" -> "Brazos County").
    InputError naming the file and line for a record that cannot be read."""
    path = task_dir / "incidents.jsonl"
    gold: dict[str, Gold] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise InputError(f"cannot read the task's incident records ({error.strerror})", path) from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            incident = Gold(
                str(record["incident_uri"]),
                dt.datetime.strptime(record["date"], "%B %d, %Y").date(),
                record["state"],
                record_city(record["city_or_county"]),
                int(record["num_killed"]),
                int(record["num_injured"]),
            )
            for doc_id in record["doc_ids"]:
                gold[doc_id] = incident
        except (ValueError, KeyError, TypeError) as error:
            reason = f"{error.__class__.__name__}: {error}"
            raise InputError(f"not an incident record ({reason})", path, line=number) from None
    return gold


def annotated_task_documents(
    task_dir: Path, gold: dict[str, Gold], cache: Path | None = None
) -> Iterator[AnnotatedDocument]:
    """The documents of ``task_dir``/docs.conll that ``gold`` has a record for, annotated, in file order (parses
    kept in ``cache``)."""
    documents = [d for d in iter_documents(task_dir / "docs.conll") if d.doc_id in gold]
    yield from annotated_cached(documents, cache)
