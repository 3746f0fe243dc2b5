"""Training and cross-validating the learned extraction models (kg_count.nlp.extraction_models) on gva-train.

Each article is analysed once (kg_count.nlp.pipeline.analyse); its candidates are labelled against
its incident's record: a date, state, city or count candidate is positive when it equals the
record's, and an article is a follow-up when it was published more than ``follow_up_days`` after
the incident. The follow-up probabilities the date model is trained on are cross-fitted (each
from a model that did not see the article's incident), as they are at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence


from kg_count.learning.folds import balanced_folds, hashed_fold
from kg_count.geography import gazetteer, postal_city
from kg_count.learning.linear_model import LinearModel, train
from kg_count.nlp.pipeline import analyse
from kg_count.nlp.extraction_models import (
    SLOTS,
    Choice,
    DocumentCandidates,
    ExtractionModels,
    best,
    choose,
    count_candidate_features,
    date_features,
)
from kg_count.nlp.place_candidates import city_in_state_features
from kg_count.settings import settings
from kg_count.nlp.annotate import AnnotatedDocument
from kg_count.training.gva import Gold, annotated_articles, read_gold
from kg_count.training.task_records import annotated_task_documents, read_task_gold

FOLDS = 5
INNER_FOLDS = 3
SCORED = ("state", "city", "day", "month", "killed", "injured", "counts")


@dataclass
class Item:
    """One analysed article: its id, DCT, candidates, the rules' choice and its incident's record."""

    doc_id: str
    dct: object
    candidates: DocumentCandidates
    rule: Choice
    gold: Gold


def load_items(gva: Path, cache: Path | None = None, limit: int | None = None) -> list[Item]:
    """Analyse the articles of ``gva`` (the first ``limit``; parses cached in ``cache``) into Items."""
    return analysed_items(annotated_articles(gva, cache, limit), read_gold(gva))


def load_task_items(task_dir: Path, cache: Path | None = None) -> list[Item]:
    """Analyse the task's documents in ``task_dir`` that have an incident record (``training.task_records``; parses
    cached in ``cache``) into Items."""
    gold = read_task_gold(task_dir)
    return analysed_items(annotated_task_documents(task_dir, gold, cache), gold)


def analysed_items(annotated_documents: Iterable[AnnotatedDocument], gold: Mapping[str, Gold]) -> list[Item]:
    """Analyse each annotated document into an Item with its incident's record from ``gold`` (by document id)."""
    items = []
    for annotated in annotated_documents:
        analysis = analyse(annotated)
        document = annotated.document
        rule = Choice(
            analysis.candidates.rule_date,
            analysis.candidates.places.rule,
            analysis.counts.killed,
            analysis.counts.injured,
            0.0,
        )
        items.append(Item(document.doc_id, document.dct, analysis.candidates, rule, gold[document.doc_id]))
    return items


def normal_place(name: str | None) -> str:
    """A place name as compared with the archive's: lower case, "saint" written "st."."""
    return (name or "").lower().replace("saint ", "st. ").strip()


def hits(choice: Choice, gold: Gold) -> dict[str, bool]:
    """Which of SCORED a choice gets right against an incident record."""
    place = choice.place
    state_name = gazetteer().state_names.get(place.state, "") if place and place.state else ""
    date = choice.date.date
    return {
        "state": state_name == gold.state,
        "city": normal_place(place.city if place else None) == normal_place(gold.city),
        "day": date == gold.date,
        "month": (date.year, date.month) == (gold.date.year, gold.date.month),
        "killed": choice.killed == gold.killed,
        "injured": choice.injured == gold.injured,
        "counts": (choice.killed, choice.injured) == (gold.killed, gold.injured),
    }


def is_follow_up(item: Item, follow_up_days: int) -> int:
    """1 when the article was published more than ``follow_up_days`` after its incident."""
    return int((item.dct - item.gold.date).days > follow_up_days)


def _follow_up_model(items: Sequence[Item], follow_up_days: int, l2: float) -> LinearModel:
    return train([(i.candidates.follow_up, is_follow_up(i, follow_up_days)) for i in items], l2=l2)


def folds_by_incident(items: Sequence[Item], folds: int = FOLDS, seed: int = 0) -> list[int]:
    """The fold of each item by its incident (``hashed_fold``; ``seed`` its draw), so that all articles of one
    incident share a fold."""
    return [hashed_fold(i.gold.incident_id, folds, seed) for i in items]


def folds_by_state(items: Sequence[Item], folds: int = FOLDS) -> list[int]:
    """The fold of each item by its incident's state: the states, largest first, each to the fold with the fewest
    items so far, so that no state (and so no incident) lies in two folds."""
    by_state: dict[str, list[int]] = {}
    for n, item in enumerate(items):
        by_state.setdefault(item.gold.state, []).append(n)
    fold_of = balanced_folds(by_state, folds)
    return [fold_of[n] for n in range(len(items))]


def _cross_fitted_follow_up(items: Sequence[Item], follow_up_days: int, l2: float) -> list[float]:
    folds = folds_by_incident(items, seed=1)
    probabilities = [0.0] * len(items)
    for fold in range(FOLDS):
        model = _follow_up_model([i for i, f in zip(items, folds) if f != fold], follow_up_days, l2)
        for n, (item, f) in enumerate(zip(items, folds)):
            if f == fold:
                probabilities[n] = model.probability(item.candidates.follow_up)
    return probabilities


def pointwise_ranker(groups: Sequence[Sequence[tuple[set[str], int]]], l2: float) -> LinearModel:
    """A ranker of candidates from ``groups`` (one list of (features, label) per document): a logistic
    model over the candidates of the documents that have both a right and a wrong one (the others
    teach nothing about which to keep)."""
    return train(
        [
            example
            for group in groups
            if any(label for _, label in group) and not all(label for _, label in group)
            for example in group
        ],
        l2=l2,
    )


def pairwise_ranker(groups: Sequence[Sequence[tuple[set[str], int]]], l2: float) -> LinearModel:
    """A ranker of candidates from ``groups``: a logistic model over candidate pairs of a document, the
    right one against each wrong one, in both orders ("+" features of the first, "-" of the second);
    its weights, folded back onto the plain feature names, score a candidate."""
    pairs = []
    for group in groups:
        right = [f for f, label in group if label]
        wrong = [f for f, label in group if not label]
        for good in right:
            for bad in wrong:
                first = {f"+{f}" for f in good} | {f"-{f}" for f in bad}
                second = {f"+{f}" for f in bad} | {f"-{f}" for f in good}
                pairs += [(first, 1), (second, 0)]
    pairwise = train(pairs, l2=l2)
    names = {name[1:] for name in pairwise.weights}
    weights = {n: (pairwise.weights.get(f"+{n}", 0.0) - pairwise.weights.get(f"-{n}", 0.0)) / 2 for n in names}
    return LinearModel(weights, 0.0)


SCHEMES = {"pointwise": pointwise_ranker, "pairwise": pairwise_ranker}


def top_one(model: LinearModel, groups: Sequence[Sequence[tuple[set[str], int]]]) -> float:
    """The share of ``groups`` whose best-scored candidate (the first on ties) is a right one."""
    right = 0
    for group in groups:
        if group:
            scores = [model.logit(features) for features, _ in group]
            right += group[scores.index(max(scores))][1]
    return right / max(1, len(groups))


def train_slot_model(
    groups: Sequence[Sequence[tuple[set[str], int]]], folds: Sequence[int], l2: float
) -> tuple[LinearModel, str]:
    """The ranker of the scheme (SCHEMES) whose models pick the right candidate most often on held-out
    ``folds`` of these groups, trained on all of them; returns it and the scheme's name."""

    def held_out(scheme) -> float:
        return sum(
            top_one(
                scheme([g for g, f in zip(groups, folds) if f != fold], l2),
                [g for g, f in zip(groups, folds) if f == fold],
            )
            for fold in set(folds)
        )

    name = max(SCHEMES, key=lambda n: held_out(SCHEMES[n]))
    return SCHEMES[name](groups, l2), name


def fit(items: Sequence[Item], l2: float, follow_up_days: int) -> ExtractionModels:
    """Train the models of every slot on ``items`` with L2 weight ``l2``; each slot's ranking scheme is
    chosen by cross-validation by incident within ``items``."""
    folds = folds_by_incident(items, INNER_FOLDS, seed=2)
    models = {"follow_up": _follow_up_model(items, follow_up_days, l2)}
    follow_up = _cross_fitted_follow_up(items, follow_up_days, l2)
    groups = {
        "date": [
            [(date_features(c, p), int(c.value == i.gold.date)) for c in i.candidates.dates]
            for i, p in zip(items, follow_up)
        ]
    }
    names = gazetteer().state_names
    groups["state"] = [
        [(c.features, int(names.get(c.value) == i.gold.state)) for c in i.candidates.places.states] for i in items
    ]
    schemes = {}
    for slot in ("date", "state"):
        models[slot], schemes[slot] = train_slot_model(groups[slot], folds, l2)
    groups["city"] = []
    for item in items:
        state = best(models["state"], item.candidates.places.states)
        code = state.value if state else None
        groups["city"].append(
            [
                (
                    c.features | city_in_state_features(c.value, code),
                    int(normal_place(postal_city(c.value, code) if code else c.value) == normal_place(item.gold.city)),
                )
                for c in item.candidates.places.cities
            ]
        )
    for slot in ("killed", "injured"):
        groups[slot] = [
            [(count_candidate_features(c), int(c.value == getattr(i.gold, slot))) for c in getattr(i.candidates, slot)]
            for i in items
        ]
    for slot in ("city", "killed", "injured"):
        models[slot], schemes[slot] = train_slot_model(groups[slot], folds, l2)
    return ExtractionModels(
        {slot: models[slot] for slot in SLOTS},
        {
            "ranker_l2": l2,
            "follow_up_days": follow_up_days,
            "dct_candidate_days": settings().extraction.dct_candidate_days,
            "articles": len(items),
            "schemes": schemes,
        },
    )


def accuracy(choices: Sequence[Choice], items: Sequence[Item]) -> dict[str, float]:
    """Percent of ``items`` whose choice is right, for each of SCORED."""
    totals = dict.fromkeys(SCORED, 0)
    for choice, item in zip(choices, items):
        for key, right in hits(choice, item.gold).items():
            totals[key] += right
    return {key: round(100.0 * value / max(1, len(items)), 1) for key, value in totals.items()}


def held_out_choices(
    items: Sequence[Item], l2: float, follow_up_days: int, folds: int = FOLDS, by_state: bool = False
) -> tuple[list[Choice], list[int]]:
    """Each item's choice by models trained on the other folds (by incident, or with ``by_state`` by the
    incident's state), and each item's fold."""
    fold_of = folds_by_state(items, folds) if by_state else folds_by_incident(items, folds)
    choices: list = [None] * len(items)
    for fold in range(folds):
        models = fit([i for i, f in zip(items, fold_of) if f != fold], l2, follow_up_days)
        for n, f in enumerate(fold_of):
            if f == fold:
                choices[n] = choose(models, items[n].candidates)
    return choices, fold_of


def cross_validate(
    items: Sequence[Item], l2: float, follow_up_days: int, folds: int = FOLDS, by_state: bool = False
) -> dict:
    """The pooled held-out accuracies of ``held_out_choices`` ("learned"), the rules' on the same articles
    ("rules") and each fold's."""
    choices, fold_of = held_out_choices(items, l2, follow_up_days, folds, by_state)
    per_fold = []
    for fold in range(folds):
        held = [n for n, f in enumerate(fold_of) if f == fold]
        per_fold.append(accuracy([choices[n] for n in held], [items[n] for n in held]))
    return {
        "learned": accuracy(choices, items),
        "rules": accuracy([i.rule for i in items], items),
        "folds": per_fold,
        "articles": len(items),
        "incidents": len({i.gold.incident_id for i in items}),
    }
