"""Event coreference chains from the incident graph: every killing and injuring mention of one
incident's documents shares one chain id, across documents."""

from __future__ import annotations

import os
from collections import defaultdict
from typing import Sequence, TYPE_CHECKING

from kg_count.graph.queries import read_query
from kg_count.incidents.store.incident_versions import incident_sparql
from kg_count.io.conll import Document, Mention, write_documents

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore


def incident_chains(store: GraphStore, documents: Sequence[Document]) -> dict[str, dict[int, list[Mention]]]:
    """Read the store's incident mentions; return ``{doc_id: {chain_id: [(start, end), ...]}}``.

    Chain ids number the incidents in the order of their ids, from 1.
    """
    positions = {doc.doc_id: {t.token_id: n for n, t in enumerate(doc.tokens)} for doc in documents}
    query = incident_sparql(store, read_query("chain_mentions"))
    rows = [(str(r.incidentId), str(r.docId), str(r.tokenIds)) for r in store.query(query)]
    chain_ids = {incident: n for n, incident in enumerate(sorted({row[0] for row in rows}), start=1)}
    chains: dict[str, dict[int, list[Mention]]] = defaultdict(lambda: defaultdict(list))
    for incident, doc_id, token_ids in rows:
        where = positions.get(doc_id)
        if where is None:
            continue
        covered = [where[t] for t in token_ids.split() if t in where]
        if covered:
            chains[doc_id][chain_ids[incident]].append((min(covered), max(covered)))
    return {doc_id: {c: sorted(m) for c, m in found.items()} for doc_id, found in chains.items()}


def write_chains(path: str | os.PathLike, store: GraphStore, documents: Sequence[Document]) -> None:
    """Write ``documents`` as CoNLL with the store's incident chains in the fourth column (atomically)."""
    write_documents(path, documents, incident_chains(store, documents))
