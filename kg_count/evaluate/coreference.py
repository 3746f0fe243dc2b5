"""Mention-level coreference scores: MUC, B³, CEAF-m, CEAF-e and BLANC, and their average.

Definitions follow the reference coreference scorer (Pradhan et al. 2014, scorer v8): mentions
match by exact boundaries; mentions present in only one side ("twinless") count as singletons
there; BLANC is the version of Luo et al. (2014) for differing mention sets. Like the reference
scorer run on a multi-document file, each document is scored on its own and numerators and
denominators are summed over documents; ``cross_document=True`` scores the whole file as one
document instead, so chains that span documents count as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Hashable, Mapping, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

from kg_count.errors import InputError

Entity = frozenset
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")


@dataclass
class Tally:
    """Summed recall and precision numerators and denominators of one metric."""

    recall_num: float = 0.0
    recall_den: float = 0.0
    precision_num: float = 0.0
    precision_den: float = 0.0

    def add(self, rn: float, rd: float, pn: float, pd: float) -> None:
        """Add one document's recall and precision numerators and denominators."""
        self.recall_num += rn
        self.recall_den += rd
        self.precision_num += pn
        self.precision_den += pd

    def prf(self) -> tuple[float, float, float]:
        """Recall, precision and F1 of everything added (0 where a denominator is 0)."""
        recall = self.recall_num / self.recall_den if self.recall_den else 0.0
        precision = self.precision_num / self.precision_den if self.precision_den else 0.0
        f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
        return recall, precision, f1


def _muc_side(gold: Sequence[Entity], other: Sequence[Entity]) -> tuple[float, float]:
    where = {m: i for i, entity in enumerate(other) for m in entity}
    numerator = denominator = 0
    for entity in gold:
        parts = {where.get(m, ("alone", m)) for m in entity}
        numerator += len(entity) - len(parts)
        denominator += len(entity) - 1
    return numerator, denominator


def muc(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """MUC (Vilain et al. 1995): link-based recall and precision numerators and denominators."""
    return (*_muc_side(key, response), *_muc_side(response, key))


def _bcub_side(gold: Sequence[Entity], other: Sequence[Entity]) -> tuple[float, float]:
    numerator = sum(len(g & o) ** 2 / len(g) for g in gold for o in other if g & o)
    return numerator, sum(len(g) for g in gold)


def bcub(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """B³ (Bagga and Baldwin 1998), mention-weighted."""
    return (*_bcub_side(key, response), *_bcub_side(response, key))


def _ceaf(key: Sequence[Entity], response: Sequence[Entity], similarity) -> float:
    if not key or not response:
        return 0.0
    matrix = np.array([[similarity(k, r) for r in response] for k in key], dtype=float)
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    return float(matrix[rows, cols].sum())


def ceafm(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """Mention-based CEAF (Luo 2005, φ3 = |K ∩ R|)."""
    total = _ceaf(key, response, lambda k, r: len(k & r))
    return total, sum(map(len, key)), total, sum(map(len, response))


def ceafe(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """Entity-based CEAF (Luo 2005, φ4 = 2|K ∩ R| / (|K| + |R|))."""
    total = _ceaf(key, response, lambda k, r: 2 * len(k & r) / (len(k) + len(r)))
    return total, len(key), total, len(response)


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def blanc_counts(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[int, ...]:
    """BLANC link counts: (key coref, response coref, common coref, key non-coref, response non-coref, common).

    Counted from entity sizes and overlaps rather than by listing links, so chains across
    thousands of documents stay cheap: a common non-coreference link joins two mentions present
    on both sides that neither side puts in one entity.
    """
    key_c = sum(_pairs(len(e)) for e in key)
    response_c = sum(_pairs(len(e)) for e in response)
    where = {m: i for i, e in enumerate(response) for m in e}
    overlaps: dict[tuple[int, int], int] = {}
    for k, entity in enumerate(key):
        for mention in entity:
            if mention in where:
                overlaps[k, where[mention]] = overlaps.get((k, where[mention]), 0) + 1
    common_c = sum(_pairs(n) for n in overlaps.values())
    shared = sum(overlaps.values())
    key_in_shared, response_in_shared = {}, {}
    for (k, r), n in overlaps.items():
        key_in_shared[k] = key_in_shared.get(k, 0) + n
        response_in_shared[r] = response_in_shared.get(r, 0) + n
    common_n = (
        _pairs(shared)
        - sum(_pairs(n) for n in key_in_shared.values())
        - sum(_pairs(n) for n in response_in_shared.values())
        + common_c
    )
    key_n = _pairs(sum(len(e) for e in key)) - key_c
    response_n = _pairs(sum(len(e) for e in response)) - response_c
    return key_c, response_c, common_c, key_n, response_n, common_n


def _f(common: int, key: int, response: int) -> tuple[float, float, float]:
    recall = common / key if key else 0.0
    precision = common / response if response else 0.0
    return recall, precision, (2 * recall * precision / (recall + precision) if recall + precision else 0.0)


def blanc_from_counts(counts: Sequence[int]) -> tuple[float, float, float]:
    """BLANC recall, precision, F1 from summed link counts.

    Where neither side has a coreference link only the non-coreference part counts, and where
    neither side has a non-coreference link only the coreference part counts.
    """
    kc, rc, cc, kn, rn, cn = counts
    coref = _f(cc, kc, rc)
    non_coref = _f(cn, kn, rn)
    if kc == 0 and rc == 0:
        return non_coref
    if kn == 0 and rn == 0:
        return coref
    return tuple((a + b) / 2 for a, b in zip(coref, non_coref))


def entities_from_chains(chains: Mapping[Hashable, Sequence[Hashable]]) -> list[Entity]:
    """Turn ``{chain_id: [mention, ...]}`` into a list of entities (frozensets of mentions)."""
    return [frozenset(mentions) for mentions in chains.values() if mentions]


def score_coreference(
    key_docs: Mapping[str, Mapping[int, Sequence]],
    response_docs: Mapping[str, Mapping[int, Sequence]],
    cross_document: bool = False,
) -> dict:
    """Score response chains against key chains; both ``{doc_id: {chain_id: [(start, end), ...]}}``.

    Returns ``{metric: {"recall", "precision", "f1"}}`` in percentages, plus ``average`` (mean F1).
    Documents only in the response are left out, as the reference scorer does.
    """
    if cross_document:

        def merged(docs):
            chains: dict = {}
            for doc_id, doc_chains in docs.items():
                for chain, mentions in doc_chains.items():
                    chains.setdefault(chain, []).extend((doc_id, *m) for m in mentions)
            return {"*": chains}

        key_docs, response_docs = merged(key_docs), merged(response_docs)
    tallies = {name: Tally() for name in METRICS if name != "blanc"}
    blanc_totals = [0] * 6
    functions = {"muc": muc, "bcub": bcub, "ceafm": ceafm, "ceafe": ceafe}
    for doc_id, key_chains in key_docs.items():
        key = entities_from_chains(key_chains)
        response = entities_from_chains(response_docs.get(doc_id, {}))
        for name, function in functions.items():
            tallies[name].add(*function(key, response))
        blanc_totals = [a + b for a, b in zip(blanc_totals, blanc_counts(key, response))]
    results = {}
    for name in METRICS:
        recall, precision, f1 = blanc_from_counts(blanc_totals) if name == "blanc" else tallies[name].prf()
        results[name] = {"recall": 100 * recall, "precision": 100 * precision, "f1": 100 * f1}
    results["average"] = sum(results[name]["f1"] for name in METRICS) / len(METRICS)
    return results


def require_same_documents(gold: dict, system: dict, gold_path: Path, system_path: Path) -> None:
    """InputError when the gold and system CoNLL files do not hold the same documents."""
    for path, missing in ((system_path, set(gold) - set(system)), (gold_path, set(system) - set(gold))):
        if missing:
            raise InputError(
                f"lacks {len(missing)} document(s) the other file has (e.g. {min(missing)}): is one file truncated?",
                path,
            )


def score_chain_files(gold_path: Path, system_path: Path, cross_document: bool = False) -> dict:
    """Read gold and system CoNLL coreference chains, check they hold the same documents, and score them."""
    from kg_count.io.conll import read_chains

    gold, system = read_chains(gold_path), read_chains(system_path)
    require_same_documents(gold, system, gold_path, system_path)
    return score_coreference(gold, system, cross_document)
