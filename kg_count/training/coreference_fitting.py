"""Training and honest measurement of the learned same-incident model, from gold groupings of documents.

Gold groupings: the SemEval answers files (each gold incident's documents; ``gold_from_task``) and
the GVA articles (each article's incident_id; ``gold_from_gva``). A ``Labelled`` set is one store's
reports, the features of their candidate pairs and the gold incident of the documents that have
one; every candidate pair of two gold documents is an example, labelled 1 when both documents
report one gold incident. Thresholds are chosen by the B³ F1 of the clustering over gold
documents; folds split gold incidents by state.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from kg_count.learning.folds import balanced_folds
from kg_count.evaluate.calibration import reliability
from kg_count.geography import parse_city_iri, state_iri
from kg_count.incidents.grouping.cluster import PairScores, merge_groups, candidate_pair_features, score_pairs
from kg_count.incidents.pairs.coreference_model import CoreferenceModel
from kg_count.incidents.reports.reports import Report, reports_from_store
from kg_count.io.answers import read_gold_answers
from kg_count.io.questions import read_questions
from kg_count.learning.linear_model import train

THRESHOLDS = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7)
GROUP_SHARES = (0.25, 0.5, 0.75, 1.0)  # group threshold = share x threshold


def gold_from_task(task_dir: Path) -> tuple[dict[str, str], dict[str, dict]]:
    """Return doc -> gold incident, and incident -> asked properties (type, city, state, dates, names)."""
    doc_incident, props = {}, defaultdict(lambda: defaultdict(set))
    for sub in ("s1", "s2", "s3"):
        answers_path = task_dir / sub / "answers.json"
        if not answers_path.is_file():
            continue
        questions = read_questions(task_dir / sub / "questions.json")
        for qid, answer in read_gold_answers(answers_path).items():
            question = questions[qid]
            for incident, docs in answer.incidents.items():
                for doc in docs:
                    doc_incident[doc] = incident
                p = props[incident]
                p["type"].add(question.event_type)
                if question.location and question.location[1]:
                    p[question.location[0]].add(question.location[1])
                if question.time:
                    p[question.time.granularity].add((question.time.start, question.time.end))
                if question.participant:
                    p["name"].add(question.participant[1].lower())
    return doc_incident, props


def gold_from_gva(path: Path) -> dict[str, str]:
    """Return doc -> incident id of every GVA article in the JSON lines file at ``path``."""
    with open(path, encoding="utf-8") as handle:
        return {(row := json.loads(line))["doc_id"]: str(row["incident_id"]) for line in handle if line.strip()}


@dataclass
class Labelled:
    """One store's reports, their candidate pairs' features and the gold incident of gold documents."""

    name: str
    reports: list[Report]
    pair_features: PairScores
    gold: dict[str, str]

    @classmethod
    def of(cls, name: str, reports: list[Report], gold: dict[str, str]) -> "Labelled":
        """A labelled report set: its reports, their candidate pairs' features, gold incident of each document."""
        return cls(name, reports, candidate_pair_features(reports), gold)

    @classmethod
    def from_store(cls, name: str, store: Path, gold: dict[str, str]) -> "Labelled":
        """The set of the reports of the built store at ``store``, labelled with ``gold``."""
        from kg_count.graph.store import GraphStore

        with GraphStore(store) as opened:
            reports = reports_from_store(opened)
        return cls.of(name, reports, gold)

    def labelled_pairs(self, docs: set[str] | None = None) -> list[tuple[tuple[int, int], int]]:
        """(index pair, label) of each candidate pair of two gold documents (both in ``docs`` when given)."""
        found = []
        for i, j in sorted(self.pair_features.features):
            a, b = self.reports[i].doc_id, self.reports[j].doc_id
            if a in self.gold and b in self.gold and (docs is None or (a in docs and b in docs)):
                found.append(((i, j), int(self.gold[a] == self.gold[b])))
        return found

    def examples(self, docs: set[str] | None = None) -> list[tuple[list[str], int]]:
        """(features, label) of each candidate pair of two gold documents (both in ``docs`` when given)."""
        return [(self.pair_features.features[pair], label) for pair, label in self.labelled_pairs(docs)]


def fit(examples: Sequence[tuple[list[str], int]], l2: float = 1.0) -> CoreferenceModel:
    """A CoreferenceModel fitted on (features, label) examples (its thresholds still to choose)."""
    plain = train(examples, l2=l2, min_count=3)
    return CoreferenceModel(plain.weights, plain.bias)


def system_groups(data: Labelled, scores: PairScores, threshold: float, group_threshold: float) -> dict[str, int]:
    """doc id -> cluster number of ``data``'s reports clustered on ``scores`` at the two thresholds."""
    groups = merge_groups(data.reports, scores.probability, threshold, group_threshold)
    return {data.reports[i].doc_id: n for n, (members, _) in enumerate(groups) for i in members}


def bcubed_sums(gold: dict[str, str], system: dict[str, int], docs: set[str]) -> tuple[float, float, int]:
    """Sums over the gold documents in ``docs`` of B³ precision and recall, and how many: each document's
    system cluster is read among all gold documents (a merge with any gold document counts)."""
    clusters, incidents = defaultdict(set), defaultdict(set)
    for doc, incident in gold.items():
        if doc in system:
            clusters[system[doc]].add(doc)
            incidents[incident].add(doc)
    precision = recall = 0.0
    n = 0
    for doc in docs:
        if doc not in system or doc not in gold:
            continue
        cluster, incident = clusters[system[doc]], incidents[gold[doc]]
        both = len(cluster & incident)
        precision += both / len(cluster)
        recall += both / len(incident)
        n += 1
    return precision, recall, n


def f1(precision: float, recall: float) -> float:
    """The harmonic mean of precision and recall (0 when both are 0)."""
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def choose_merge_thresholds(
    model: CoreferenceModel, tuning: Sequence[tuple[Labelled, set[str] | None]]
) -> CoreferenceModel:
    """``model`` with the thresholds of best pooled B³ F1 over the gold documents of each (set, docs) in
    ``tuning`` (docs None: all its gold documents)."""
    scored = [
        (data, score_pairs(data.pair_features, model), docs if docs is not None else set(data.gold))
        for data, docs in tuning
    ]
    best = None
    for threshold in THRESHOLDS:
        for share in GROUP_SHARES:
            p = r = n = 0
            for data, scores, docs in scored:
                sums = bcubed_sums(data.gold, system_groups(data, scores, threshold, share * threshold), docs)
                p, r, n = p + sums[0], r + sums[1], n + sums[2]
            value = f1(p / n, r / n) if n else 0.0
            if best is None or value > best[0]:
                best = (value, threshold, share * threshold)
    model.threshold, model.group_threshold = best[1], best[2]
    return model


def incident_state(props: dict, docs: Sequence[str], reports: dict[str, Report]) -> str:
    """The state a gold incident folds by: the asked state, the asked city's state, else the state most
    of its documents' reports name, else ``unknown``."""
    for value in sorted(props.get("state", ())):
        return value.rsplit("/", 1)[-1]
    for value in sorted(props.get("city", ())):
        parsed = parse_city_iri(value)
        if parsed is not None:
            return state_iri(parsed[1]).rsplit("/", 1)[-1]
    named = [reports[d].state_iri for d in docs if d in reports and reports[d].state_iri]
    return max(sorted(set(named)), key=named.count).rsplit("/", 1)[-1] if named else "unknown"


def state_folds(gold: dict[str, str], props: dict, reports: Sequence[Report], folds: int = 5) -> dict[str, int]:
    """A fold number for every gold document: its incident's state, states dealt greedily (most documents
    first) into the fold with fewest documents."""
    by_doc = {r.doc_id: r for r in reports}
    docs_of = defaultdict(list)
    for doc, incident in sorted(gold.items()):
        docs_of[incident].append(doc)
    units = defaultdict(list)
    for incident, docs in sorted(docs_of.items()):
        units[incident_state(props.get(incident, {}), docs, by_doc)].extend(docs)
    return balanced_folds(units, folds)


def fit_and_tune(
    examples: Sequence[tuple[list[str], int]], tuning: Sequence[tuple[Labelled, set[str] | None]], l2: float
) -> CoreferenceModel:
    """A model fitted on ``examples`` with thresholds chosen on ``tuning`` (see ``choose_merge_thresholds``)."""
    return choose_merge_thresholds(fit(examples, l2), tuning)


def cross_validate(
    target: Labelled,
    props: dict,
    others: Sequence[Labelled],
    tune_on: Sequence[Labelled],
    folds: int = 5,
    l2: float = 1.0,
) -> dict:
    """B³ over ``target``'s gold documents, folded by state: for each fold a model is fitted on the other
    folds' pairs and every pair of ``others``, its thresholds chosen on the other folds and ``tune_on``,
    and the fold's documents scored in the clustering of the whole store. Returns pooled and per-fold scores."""
    fold_of = state_folds(target.gold, props, target.reports, folds)
    total_p = total_r = total_n = 0.0
    per_fold, held_pairs = [], []
    extra = [example for data in others for example in data.examples()]
    for fold in range(folds):
        training = {d for d, f in fold_of.items() if f != fold}
        held = {d for d, f in fold_of.items() if f == fold}
        model = fit_and_tune(
            target.examples(training) + extra, [(target, training), *((data, None) for data in tune_on)], l2
        )
        scores = score_pairs(target.pair_features, model)
        system = system_groups(target, scores, model.threshold, model.group_threshold)
        held_pairs.extend((scores.probability[pair], label) for pair, label in target.labelled_pairs(held))
        p, r, n = bcubed_sums(target.gold, system, held)
        total_p, total_r, total_n = total_p + p, total_r + r, total_n + n
        per_fold.append(
            {
                "fold": fold,
                "documents": n,
                "threshold": model.threshold,
                "group_threshold": round(model.group_threshold, 3),
                "bcubed_p": round(100 * p / n, 2),
                "bcubed_r": round(100 * r / n, 2),
                "bcubed_f1": round(100 * f1(p / n, r / n), 2),
            }
        )
    precision, recall = total_p / total_n, total_r / total_n
    return {
        "documents": int(total_n),
        "bcubed_p": round(100 * precision, 2),
        "bcubed_r": round(100 * recall, 2),
        "bcubed_f1": round(100 * f1(precision, recall), 2),
        "folds": per_fold,
        "reliability": reliability(held_pairs),
    }


def labelled_sets(tasks: Sequence[tuple[str, str]], gva: Sequence[tuple[str, str]]) -> tuple[list[Labelled], dict]:
    """The Labelled sets of ``tasks`` ((task dir, store) pairs, named by the task dir's folder name) and of
    ``gva`` ((articles file, store) pairs, named ``gva``), and the asked properties of the tasks' incidents."""
    sets, props = [], {}
    for task_dir, store in tasks:
        gold, asked = gold_from_task(Path(task_dir))
        props.update(asked)
        sets.append(Labelled.from_store(Path(task_dir).name, Path(store), gold))
    for articles, store in gva:
        sets.append(Labelled.from_store("gva", Path(store), gold_from_gva(Path(articles))))
    return sets, props
