"""The answering job: build what the store lacks, build the incidents, answer with SPARQL."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Mapping

from kg_count.io.answers import SystemAnswer
from kg_count.io.questions import Question
from kg_count.resources.wordnet import project_cache


def default_store(docs: Path) -> Path:
    """The store used for ``docs`` when none is given: under the kg_count cache, named after the file."""
    digest = hashlib.sha256(str(docs.resolve()).encode()).hexdigest()[:10]
    return project_cache() / "stores" / f"{docs.stem}-{digest}"


def answer_with_graph(questions: Mapping[str, Question], docs: Path, store_path=None,
                      conll_out: Path | None = None, build: dict | None = None) -> dict[str, SystemAnswer]:
    """Answer ``questions`` over the documents ``docs``; optionally write their coreference chains.

    Reads documents (CoNLL or JSON lines) into the store (a folder or an endpoint URL; ``build``
    holds the options of ``build_store``) and returns the answers by question id.
    """
    from kg_count.answer.graph_answer import answer_from_store
    from kg_count.graph.loader import build_store
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.materialise import ensure_incidents

    store_path = store_path or default_store(docs)
    summary = build_store(docs, store_path, **(build or {}))
    print(f"store {store_path}: {summary.skipped} documents already in it, {summary.added} added")
    with GraphStore(store_path) as store:
        if summary.in_store > summary.documents:
            print(f"kg-count: note: the store holds {summary.in_store - summary.documents} documents besides "
                  f"the {summary.documents} of {docs}; answers count incidents over all {summary.in_store}",
                  file=sys.stderr)
        count, rebuilt = ensure_incidents(store)
        print(f"incidents: {count} ({'rebuilt' if rebuilt else 'up to date'})")
        answers = answer_from_store(store, questions)
        if conll_out is not None:
            from kg_count.answer.chains import write_chains
            from kg_count.io.articles import iter_any

            write_chains(conll_out, store, list(iter_any(docs)))
    return answers
