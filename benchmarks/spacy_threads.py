"""Whether spaCy parses faster in two threads of one process than in one: the floor of a one-process build.

Loads ``en_core_web_sm`` as kg_count's annotation does, then, alternating the order over ``--rounds`` rounds,
times its ``pipe`` over the first ``--docs-limit`` documents of ``--docs`` in one thread, and over the same
documents split between ``--threads`` threads (every K-th document to each), each thread running its own ``pipe``.
Prints each timing, the tokens parsed (the same in both) and the median ratio of the threaded time to the
one-thread time: below 1 means spaCy leaves Python's interpreter lock free for long enough that a second thread
gains; at or above 1, work in another thread of the same process competes with spaCy for the lock.

Usage: python benchmarks/spacy_threads.py --docs ../shared/data/semeval2018-task5/test-dev/docs.conll
       [--docs-limit 300] [--threads 2] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from itertools import islice
from pathlib import Path

from kg_count.io.articles import iter_any
from kg_count.nlp.annotate import to_spacy_doc
from kg_count.nlp.model import load_model


def parse_seconds(nlp, parts: list[list]) -> tuple[float, int]:
    """Wall seconds and tokens of parsing each list of ``parts`` with ``nlp.pipe`` in a thread of its own (one
    part: in this thread)."""
    tokens: list[int] = []

    def parse(documents: list) -> None:
        docs = (to_spacy_doc(d, nlp.vocab)[0] for d in documents)
        tokens.append(sum(len(doc) for doc in nlp.pipe(docs, batch_size=32)))

    started = time.perf_counter()
    if len(parts) == 1:
        parse(parts[0])
    else:
        threads = [threading.Thread(target=parse, args=(part,)) for part in parts]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return time.perf_counter() - started, sum(tokens)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, required=True, help="CoNLL or JSON-lines documents")
    parser.add_argument("--docs-limit", type=int, default=300, help="parse the first N documents (default 300)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    nlp = load_model()
    documents = list(islice(iter_any(args.docs), args.docs_limit))
    parse_seconds(nlp, [documents[:3]])  # warm-up
    ratios = []
    for round_number in range(1, args.rounds + 1):
        order = ("one", "threads") if round_number % 2 else ("threads", "one")
        measured = {}
        for kind in order:
            parts = [documents] if kind == "one" else [documents[k :: args.threads] for k in range(args.threads)]
            seconds, tokens = parse_seconds(nlp, parts)
            measured[kind] = {"seconds": round(seconds, 2), "tokens": tokens}
        ratios.append(measured["threads"]["seconds"] / measured["one"]["seconds"])
        print(json.dumps({"round": round_number, **measured, "ratio": round(ratios[-1], 3)}), flush=True)
    print(
        f"{args.threads} threads / 1 thread: median {statistics.median(ratios):.3f} over {len(ratios)} round(s), "
        f"{len(documents)} documents"
    )


if __name__ == "__main__":
    main()
