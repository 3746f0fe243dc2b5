"""Score the event coreference chains of ``kg-count answer --conll-out`` against silver gold.

No gold mention annotation ships with the data, so the gold chains are built from what there is:
the documents of each gold incident (the answers files of a task folder). Every killing and
injuring mention the system found in a document with a known gold incident gets that incident's
chain. Both files are then restricted to those documents and scored across documents with MUC,
B-cubed, CEAF-m, CEAF-e and BLANC. The figure measures the grouping of mentions into incidents,
given the system's own mention detection; it says nothing of mentions the system missed.
Usage: python benchmarks/measure_chains.py --system-conll OUT.conll --task-dir DIR
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kg_count.evaluate.coreference import score_coreference
from kg_count.io.conll import read_chains

sys.path.insert(0, str(Path(__file__).parent))
from measure_incidents import gold_from_task  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system-conll", required=True, type=Path)
    parser.add_argument("--task-dir", required=True, type=Path)
    args = parser.parse_args()
    doc_incident, _ = gold_from_task(args.task_dir)
    chain_of = {incident: n for n, incident in enumerate(sorted(set(doc_incident.values())), start=1)}
    system = {doc: chains for doc, chains in read_chains(args.system_conll).items() if doc in doc_incident}
    gold = {
        doc: {chain_of[doc_incident[doc]]: sorted(m for ms in chains.values() for m in ms)}
        for doc, chains in system.items()
        if chains
    }
    scores = score_coreference(gold, {doc: chains for doc, chains in system.items() if chains}, cross_document=True)
    scores["documents"] = len(gold)
    scores["mentions"] = sum(len(ms) for chains in gold.values() for ms in chains.values())
    print(json.dumps(scores, indent=2))


if __name__ == "__main__":
    main()
