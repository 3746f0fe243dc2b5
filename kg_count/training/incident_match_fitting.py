"""Training data for the incident-match model, from the task's gold answers (never read at answering time).

Every candidate incident a question's query returns is one example: label 1 when it is the best
match, one to one, of a gold incident of that question (most shared documents), else 0 (a wrong
incident, or a second piece of a gold incident already counted). Folds split questions by state:
a question's state is its asked state, or its asked city's state; questions without a place
(participant + time) fold by the asked name's last word, so every question about one name stays
in one fold. Units are dealt to folds greedily, largest first, into the fold with fewest questions.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence, TYPE_CHECKING

from kg_count.learning.folds import balanced_folds
from kg_count.answer.count_distribution import most_probable
from kg_count.incidents.grouping.incident_match import IncidentMatchModel
from kg_count.io.answers import GoldAnswer, read_gold_answers
from kg_count.io.questions import Question, read_questions
from kg_count.geography import parse_city_iri, state_iri
from kg_count.settings import settings

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore

logger = logging.getLogger(__name__)


@dataclass
class IncidentCandidate:
    """One candidate incident of one question: its features, size for S3 counts, documents and label."""

    question_id: str
    incident: str
    features: list[str]
    people: int
    doc_ids: list[str]
    label: int = 0
    found: object = field(default=None, repr=False)


def fold_unit(question: Question) -> str:
    """What a question folds by: ``state:<state IRI's last part or postal code>``, else ``name:<last word>``.

    The place is the structured location field as the task wrote it (``Question.place.structured``), not the place
    read with the verbose text, so that the folds, and the committed locked fold's seeded draw, stay what they were.
    """
    location = question.location
    if location is not None and question.place is not None:
        location = (location[0], question.place.structured)
    if location is not None and location[1]:
        granularity, value = location
        if granularity == "state":
            return "state:" + value.rsplit("/", 1)[-1]
        parsed = parse_city_iri(value)
        if parsed is not None:
            return "state:" + state_iri(parsed[1]).rsplit("/", 1)[-1]
        return "city:" + value.rsplit("/", 1)[-1]
    if question.participant is not None:
        return "name:" + question.participant[1].lower().split()[-1]
    return "none"


def question_folds(questions: Mapping[str, Question], folds: int) -> dict[str, int]:
    """A fold number (0 ... folds-1) for every question, by ``fold_unit``, balanced by question count."""
    units: dict[str, list[str]] = {}
    for qid in sorted(questions):
        units.setdefault(fold_unit(questions[qid]), []).append(qid)
    return balanced_folds(units, folds)


def label_candidates(candidates: Sequence[IncidentCandidate], gold: GoldAnswer) -> None:
    """Set each candidate's label: 1 for the one-to-one best match of a gold incident, else 0."""
    pairs = []
    for n, candidate in enumerate(candidates):
        docs = set(candidate.doc_ids)
        for incident, gold_docs in gold.incidents.items():
            shared = len(docs & set(gold_docs))
            if shared:
                pairs.append((-shared, candidate.incident, incident, n))
    used_candidates, used_gold = set(), set()
    for _, _, incident, n in sorted(pairs):
        if n in used_candidates or incident in used_gold:
            continue
        used_candidates.add(n)
        used_gold.add(incident)
    for n, candidate in enumerate(candidates):
        candidate.label = int(n in used_candidates)


def incident_evidence(store: GraphStore) -> dict[str, list[str]]:
    """The evidence features of every incident in the store's incident graph, by incident IRI."""
    from kg_count.graph.queries import read_query
    from kg_count.incidents.store.incident_versions import incident_sparql

    evidence: dict[str, list[str]] = {}
    for row in store.query(incident_sparql(store, read_query("incident_evidence"))):
        evidence.setdefault(str(row.incident), []).append(str(row.evidence))
    return {iri: sorted(features) for iri, features in evidence.items()}


def question_candidates(
    store: GraphStore,
    questions: Mapping[str, Question],
    gold: Mapping[str, GoldAnswer],
    evidence: Mapping[str, list[str]],
) -> dict[str, list[IncidentCandidate]]:
    """The labelled candidates of every question with gold: what its query (S1: its relaxation
    cascade) finds, each with its incident's evidence and its match features."""
    from kg_count.answer.graph_answer import candidate_incidents, candidate_match_features

    found: dict[str, list[IncidentCandidate]] = {}
    for qid, question in questions.items():
        if qid not in gold:
            continue
        incidents = candidate_incidents(store, question)
        candidates = [
            IncidentCandidate(
                qid,
                incident.iri,
                evidence.get(incident.iri, []) + features,
                incident.people(question),
                list(incident.doc_ids),
                found=incident,
            )
            for incident, features in zip(incidents, candidate_match_features(question, incidents))
        ]
        label_candidates(candidates, gold[qid])
        found[qid] = candidates
    return found


def out_of_fold(
    candidates: Mapping[str, list[IncidentCandidate]], folds: Mapping[str, int], l2: float
) -> dict[int, float]:
    """Probabilities of every candidate (by ``id``) from models trained without its question's fold."""
    from kg_count.learning.linear_model import train

    probabilities: dict[int, float] = {}
    for fold in sorted(set(folds.values())):
        examples = [(c.features, c.label) for q, found in candidates.items() if folds[q] != fold for c in found]
        model = train(examples, l2=l2)
        for q, found in candidates.items():
            if folds[q] == fold:
                probabilities.update({id(c): model.probability(c.features) for c in found})
    return probabilities


def _log_loss(candidates: Mapping[str, list[IncidentCandidate]], probabilities: Mapping[int, float]) -> float:
    import math

    losses = [
        -math.log(max(1e-9, p if c.label else 1 - p))
        for found in candidates.values()
        for c in found
        for p in [probabilities[id(c)]]
    ]
    return sum(losses) / max(1, len(losses))


def document_threshold(
    candidates: Mapping[str, list[IncidentCandidate]],
    golds: Mapping[str, GoldAnswer],
    probabilities: Mapping[int, float],
    subtasks: Mapping[str, int],
) -> float:
    """The probability threshold whose incidents' documents give the best mean document F1 on S2 and S3 questions."""
    from kg_count.evaluate.task_scores import document_score

    counted = [q for q in candidates if subtasks[q] in (2, 3)]

    def mean_f1(threshold: float) -> float:
        scores = [
            document_score(
                {d for c in candidates[q] if probabilities[id(c)] >= threshold for d in c.doc_ids}, golds[q].documents
            ).f1
            for q in counted
        ]
        return sum(scores) / max(1, len(scores))

    return max(settings().training.incident_document_threshold_grid, key=lambda t: (mean_f1(t), -abs(t - 0.5)))


def missed_rates(
    candidates: Mapping[str, list[IncidentCandidate]],
    golds: Mapping[str, GoldAnswer],
    questions: Mapping[str, Question],
) -> dict[str, float]:
    """Per subtask (2, 3): gold incidents (people) no candidate matched, per candidate incident (person) found."""
    rates = {}
    for subtask in (2, 3):
        missed = found = 0
        for q, cands in candidates.items():
            if questions[q].subtask != subtask:
                continue
            sizes = [1 if subtask == 2 else c.people for c in cands]
            found += sum(sizes)
            missed += golds[q].numerical_answer - sum(size for size, c in zip(sizes, cands) if c.label)
        rates[str(subtask)] = round(max(0.0, missed / found), 4) if found else 0.0
    return rates


def _likelihood(
    candidates: Sequence[IncidentCandidate], question: Question, probabilities: Mapping[int, float], rate: float
) -> list[float]:
    """The distribution of one S2 or S3 question's count from its candidates' probabilities and the missed rate."""
    from kg_count.answer.graph_answer import count_likelihood

    return count_likelihood(question, [c.found for c in candidates], [probabilities[id(c)] for c in candidates], rate)


def _squared_error(
    candidates: Mapping[str, list[IncidentCandidate]],
    golds: Mapping[str, GoldAnswer],
    questions: Mapping[str, Question],
    probabilities: Mapping[int, float],
    subtask: int,
    rate: float,
) -> float:
    """Mean squared error of the most probable counts of one subtask's questions, with ``rate`` missed per found."""

    errors = [
        (most_probable(_likelihood(cands, questions[q], probabilities, rate)) - golds[q].numerical_answer) ** 2
        for q, cands in candidates.items()
        if questions[q].subtask == subtask
    ]
    return sum(errors) / max(1, len(errors))


@dataclass
class PriorChoice:
    """The answer prior's smoothing, tail, large-answer rule and per-subtask weights chosen out of fold, with
    the accuracy of each weight tried with them."""

    smoothing: float
    tail: str
    large_answer: str
    weights: dict[str, float]
    accuracy: dict[str, dict[str, float]]


def prior_weights(
    candidates: Mapping[str, list[IncidentCandidate]],
    golds: Mapping[str, GoldAnswer],
    questions: Mapping[str, Question],
    folds: Mapping[str, int],
    probabilities: Mapping[int, float],
    rates: Mapping[str, float],
) -> PriorChoice:
    """The answer prior's smoothing ([training] ``answer_prior_smoothing_grid``), tail (``answer_prior.TAILS``),
    large-answer rule (``answer_prior.LARGE_ANSWERS``) and, for S2 and S3, its weight ([training]
    ``answer_prior_weight_grid``) whose decisions are right most often out of fold: each fold's questions decided
    with a prior fitted on the other folds' gold answers, from out-of-fold probabilities. Ties go to the lower
    squared error, then the smaller weight; other ties to the first smoothing, tail and rule."""
    from kg_count.answer.answer_prior import LARGE_ANSWERS, TAILS, fit_prior

    counted = [q for q in candidates if questions[q].subtask in (2, 3)]
    likelihood = {
        q: _likelihood(candidates[q], questions[q], probabilities, rates[str(questions[q].subtask)]) for q in counted
    }
    best: PriorChoice | None = None
    best_score = (-1, 0)
    grid = ((s, t, a) for s in settings().training.answer_prior_smoothing_grid for t in TAILS for a in LARGE_ANSWERS)
    for smoothing, tail, large_answer in grid:
        outcomes: dict[str, dict[float, list[tuple[int, int]]]] = {"2": {}, "3": {}}
        for fold in sorted({folds[q] for q in counted}):
            training = ((questions[q], golds[q].numerical_answer) for q in counted if folds[q] != fold)
            prior = fit_prior(training, pseudo=smoothing, tail=tail, large_answer=large_answer)
            for q in (q for q in counted if folds[q] == fold):
                for weight in settings().training.answer_prior_weight_grid:
                    error = prior.decide(questions[q], likelihood[q], weight) - golds[q].numerical_answer
                    outcomes[str(questions[q].subtask)].setdefault(weight, []).append((error == 0, error * error))
        choice, right, squared = PriorChoice(smoothing, tail, large_answer, {}, {}), 0, 0
        for subtask, by_weight in outcomes.items():
            if not by_weight:
                choice.weights[subtask] = 0.0
                continue
            choice.accuracy[subtask] = {
                str(w): round(100 * sum(r for r, _ in o) / len(o), 2) for w, o in by_weight.items()
            }
            weight = max(
                settings().training.answer_prior_weight_grid,
                key=lambda w: (sum(r for r, _ in by_weight[w]), -sum(e for _, e in by_weight[w]), -w),
            )
            choice.weights[subtask] = weight
            right += sum(r for r, _ in by_weight[weight])
            squared += sum(e for _, e in by_weight[weight])
        if (right, -squared) > best_score:
            best, best_score = choice, (right, -squared)
    return best


def _useful_missed_rates(candidates, golds, questions, probabilities) -> dict[str, float]:
    """Each subtask's rate of missed incidents (people), kept where it lowers the out-of-fold squared error of
    the counts (with the out-of-fold ``probabilities``), else 0."""
    rates = missed_rates(candidates, golds, questions)
    for subtask, rate in list(rates.items()):
        errors = {
            scale: _squared_error(candidates, golds, questions, probabilities, int(subtask), scale * rate)
            for scale in (0.0, 1.0)
        }
        rates[subtask] = rate if errors[1.0] < errors[0.0] else 0.0
    return rates


def fit(
    candidates: Mapping[str, list[IncidentCandidate]],
    golds: Mapping[str, GoldAnswer],
    questions: Mapping[str, Question],
    inner_folds: int = 4,
):
    """Train the incident-match model on labelled candidates; settings chosen by inner cross-validation by state.

    S1 questions whose incidents were found only once an asked place or time was dropped are left out: their
    incidents do not fit the question by construction (with them, held-out S2 RMSE rose from 2.45 to 2.95).

    The L2 weight is the one with the lowest out-of-fold log loss, the document threshold the one with
    the best out-of-fold document F1; each subtask's rate of missed incidents (people) is kept when it
    lowers the out-of-fold squared error of the counts, else 0; the answer prior is fitted on the gold
    answers and weighed per subtask as ``prior_weights`` chooses. Returns the IncidentMatchModel, the AnswerPrior
    and the settings chosen.
    """
    from kg_count.answer.graph_answer import LOOSENING_RELAXATIONS
    from kg_count.answer.answer_prior import fit_prior
    from kg_count.learning.linear_model import train

    candidates = {
        q: found
        for q, found in candidates.items()
        if not found or found[0].found is None or found[0].found.relax <= LOOSENING_RELAXATIONS
    }
    folds = question_folds({q: questions[q] for q in candidates}, inner_folds)
    grid = settings().training.incident_l2_grid
    trials = {l2: out_of_fold(candidates, folds, l2) for l2 in grid}
    losses = {l2: _log_loss(candidates, p) for l2, p in trials.items()}
    l2 = min(grid, key=lambda value: (losses[value], value))
    threshold = document_threshold(candidates, golds, trials[l2], {q: questions[q].subtask for q in candidates})
    rates = _useful_missed_rates(candidates, golds, questions, trials[l2])
    choice = prior_weights(candidates, golds, questions, folds, trials[l2], rates)
    prior = fit_prior(
        ((questions[q], golds[q].numerical_answer) for q in candidates if questions[q].subtask in (2, 3)),
        choice.weights,
        pseudo=choice.smoothing,
        tail=choice.tail,
        large_answer=choice.large_answer,
    )
    fitted = train([(c.features, c.label) for found in candidates.values() for c in found], l2=l2)
    model = IncidentMatchModel(fitted.weights, fitted.bias, threshold, missed_rate=rates)
    return (
        model,
        prior,
        {
            "l2": l2,
            "doc_threshold": threshold,
            "missed_rate": model.missed_rate,
            "prior_weight": choice.weights,
            "prior_smoothing": choice.smoothing,
            "prior_tail": choice.tail,
            "prior_large_answer": choice.large_answer,
            "prior_accuracy": choice.accuracy,
            "log_loss": {str(k): round(v, 4) for k, v in losses.items()},
            "questions": len(candidates),
            "candidates": sum(len(f) for f in candidates.values()),
        },
    )


def task_data(task_dir: Path) -> tuple[dict[str, Question], dict[str, GoldAnswer]]:
    """Questions and gold of every subtask folder (``s1``, ``s2``, ``s3``) of ``task_dir`` that has gold."""
    questions, gold = {}, {}
    for sub in ("s1", "s2", "s3"):
        if (task_dir / sub / "answers.json").is_file():
            questions.update(read_questions(task_dir / sub / "questions.json"))
            gold.update(read_gold_answers(task_dir / sub / "answers.json"))
    return questions, gold


def labelled_tasks(tasks: Sequence[tuple[Path, Path]], as_built: bool = False, coreference_path: Path | None = None):
    """Questions, gold and labelled candidates of several (task folder, built store) pairs; ids prefixed
    with the task folder's name (``test-dev:2-5109``) so that sets never collide.

    Each store's incident graph is brought up to date with the models and settings in force, unless
    ``as_built``: then it is read as it was built (a store built with a held-out coreference model stays
    so); StoreError when it has none, a warning when the models or settings in force (with the coreference
    model of ``coreference_path``, when given) differ."""
    from kg_count.errors import StoreError
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.update.materialise import ensure_incidents, fingerprint, stored_fingerprint

    questions, gold, candidates = {}, {}, {}
    for task_dir, store_path in tasks:
        more_questions, more_gold = task_data(Path(task_dir))
        prefix = Path(task_dir).name + ":"
        with GraphStore(Path(store_path)) as store:
            built_from = stored_fingerprint(store) if as_built else None
            if not as_built:
                ensure_incidents(store)
            elif built_from is None:
                raise StoreError("no incident graph: group its reports with `kg-count incidents --store`", store_path)
            elif built_from != fingerprint(store, coreference_path):
                logger.warning(
                    "%s: incident graph built with other models or settings than those in force; read as built",
                    store_path,
                )
            found = question_candidates(store, more_questions, more_gold, incident_evidence(store))
        questions.update({prefix + q: v for q, v in more_questions.items()})
        gold.update({prefix + q: v for q, v in more_gold.items()})
        candidates.update({prefix + q: v for q, v in found.items()})
    return questions, gold, candidates
