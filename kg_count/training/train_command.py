"""``kg-count train``: every shipped model retrained from the shared data, in the order they depend on each other.

The targets and what each reads (``DATA`` is the shared data folder, ``../shared/data`` by default):

- ``stations``: the text of trial's and test-dev's documents (no record, no gold: each story's own "City , State"
  phrases and state names) -> ``stations.json``, the state each broadcast station reports on; not gva-train's
  articles, so that the extraction models learn the station evidence on stories the table did not see;
- ``extraction``: gva-train's articles against their incidents' records -> ``extraction.json``;
- ``coreference``: gold incidents of SemEval trial and test-dev and of gva-train, over their built stores
  -> ``coreference.json``;
- ``incident-match``: the incident-match model and the answer prior, from trial's and test-dev's questions with
  gold over their stores (incidents grouped by the shipped coreference model) -> ``incident_match.json``,
  ``answer_prior.json``;
- ``person-status``: gva-train's participant records over its store -> ``person_status.json``;
- ``qa``: the four passage scorers from TORQUE, ESTER and TimeBank, and the ESTER answer ranker fitted on
  their cross-validated candidates -> ``qa_*.json``;
- ``all``: each of these in that order (stations and extraction first: the stores the others read are built with
  them).

The stores are built under the work folder (``--work``, default ``~/.cache/kg_count/train``) by the same
build as ``kg-count build``, so an interrupted run resumes and a second run reuses them. Each model is
written atomically into the models folder and recorded in its manifest (``kg_count.learning.model_files``)
with the hashes of its training data and settings and its cross-validated scores.
"""

from __future__ import annotations

import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from kg_count.errors import InputError
from kg_count.learning.model_files import data_sha256, save_shipped_model
from kg_count.progress import status

if TYPE_CHECKING:
    from kg_count.qa.learned.training import TrainingData

logger = logging.getLogger(__name__)

TARGETS = ("stations", "extraction", "coreference", "incident-match", "person-status", "qa")
TASK_SETS = ("trial", "test-dev")


@dataclass(frozen=True)
class TrainingPlace:
    """Where training reads and writes: the shared data folder, the work folder (stores, parse caches), the
    models folder written to, the build's worker count, which SemEval sets the coreference and
    incident-match models learn from (``("trial",)`` gives the model that never saw test-dev), and which slots of
    the extraction models are refitted (the others are kept as the models folder has them)."""

    data: Path
    work: Path
    models_dir: Path | None = None
    workers: int = 1
    task_sets: tuple[str, ...] = TASK_SETS
    extraction_slots: tuple[str, ...] | None = None  # refit only these slots of extraction.json (None: all)

    @property
    def gva(self) -> Path:
        """The gva-train folder (articles.jsonl, incidents.jsonl)."""
        return self.data / "gva-train"

    def task(self, name: str) -> Path:
        """A SemEval-2018 Task 5 folder (``trial``, ``test-dev``)."""
        return self.data / "semeval2018-task5" / name

    def store(self, name: str) -> Path:
        """The work folder's store of a document set (``trial``, ``test-dev``, ``gva-train``)."""
        return self.work / "stores" / name


def default_work_folder() -> Path:
    """``$KG_COUNT_CACHE/train``, or ``~/.cache/kg_count/train``."""
    return Path(os.environ.get("KG_COUNT_CACHE", Path.home() / ".cache" / "kg_count")) / "train"


def _require_files(*paths: Path) -> None:
    for path in paths:
        if not path.exists():
            raise InputError("training data not found (is --data the shared data folder?)", path)


def _built_store(place: TrainingPlace, name: str) -> Path:
    """The store of a document set, built or brought up to date (resumable, records cached)."""
    from kg_count.graph.loader import build_store

    docs = place.gva / "articles.jsonl" if name == "gva-train" else place.task(name) / "docs.conll"
    _require_files(docs)
    store = place.store(name)
    status(f"building the {name} store ({store})")
    summary = build_store(docs, store, workers=place.workers)
    logger.info("%s store: %s", name, "; ".join(summary.lines()[:1]))
    return store


def train_stations(place: TrainingPlace) -> Path:
    """Learn the station table from the words of trial's and test-dev's documents; the stations kept, and how
    many of their stories write a state, in the manifest."""
    from kg_count.io.conll import iter_documents
    from kg_count.settings import settings
    from kg_count.training.station_fitting import station_table

    paths = [place.task(name) / "docs.conll" for name in TASK_SETS]
    _require_files(*paths)
    status("learning the stations' states from the task documents' text")
    limits = settings().stations
    lead = settings().extraction.dateline_words
    texts = (
        (document.words(), document.words("TITLE") + document.words("BODY")[:lead])
        for path in paths
        for document in iter_documents(path)
    )
    table = station_table(texts, limits.min_documents, limits.min_share, limits.near_km)
    scores = {"states": len(table.states), "points": len(table.points), "stories": sum(table.documents.values())}
    data = {name: data_sha256(path) for name, path in zip(TASK_SETS, paths)}
    return save_shipped_model("stations", table, place.models_dir, data, scores)


def train_extraction(place: TrainingPlace) -> Path:
    """Fit the extraction models on gva-train (parses cached in the work folder); cross-validated accuracies
    by incident in the manifest."""
    from kg_count.settings import settings
    from kg_count.training.extraction_fitting import cross_validate, fit, load_items

    _require_files(place.gva / "articles.jsonl", place.gva / "incidents.jsonl")
    place.work.mkdir(parents=True, exist_ok=True)
    status("parsing gva-train's articles (cached after the first run)")
    items = load_items(place.gva, place.work / "gva_docs.spacy")
    extraction = settings().extraction
    status("cross-validating the extraction models by incident")
    scores = {"cross_validated_by_incident": cross_validate(items, extraction.ranker_l2, extraction.follow_up_days)}
    models = fit(items, extraction.ranker_l2, extraction.follow_up_days)
    trained_by = None
    if place.extraction_slots:
        models = with_slots_refitted(_current_extraction_models(place), models, place.extraction_slots)
        scores["refitted_slots"] = list(place.extraction_slots)
        trained_by = f"kg-count train extraction --slots {' '.join(place.extraction_slots)}"
    data = {"gva-train": data_sha256(place.gva / "articles.jsonl", place.gva / "incidents.jsonl")}
    return save_shipped_model("extraction", models, place.models_dir, data, scores, trained_by)


def _current_extraction_models(place: TrainingPlace):
    """The extraction models the models folder holds now, whose slots ``--slots`` keeps (read by the one model
    loader: SetupError naming the file when it is missing or broken)."""
    from kg_count.learning.model_files import load_shipped_model, model_path
    from kg_count.nlp.extraction_models import ExtractionModels

    return load_shipped_model("extraction", ExtractionModels.from_json, model_path("extraction", place.models_dir))


def with_slots_refitted(current, fitted, slots: Sequence[str]):
    """``current`` ExtractionModels with the models of ``slots`` (and their ranking schemes) taken from ``fitted``."""
    from kg_count.nlp.extraction_models import SLOTS, ExtractionModels

    models = {slot: (fitted if slot in slots else current).models[slot] for slot in SLOTS}
    trained_with = dict(current.trained_with)
    schemes = dict(trained_with.get("schemes", {}))
    fitted_schemes = fitted.trained_with.get("schemes", {})
    schemes.update({slot: fitted_schemes[slot] for slot in slots if slot in fitted_schemes})
    trained_with["schemes"] = schemes
    return ExtractionModels(models, trained_with)


def train_coreference(place: TrainingPlace) -> Path:
    """Fit the same-incident model on every candidate pair of trial's, test-dev's and gva-train's gold
    documents, thresholds chosen for B³ over the tasks' gold documents."""

    from kg_count.settings import section_record, settings
    from kg_count.training.coreference_fitting import fit_and_tune, labelled_sets

    tasks = [(str(place.task(name)), str(_built_store(place, name))) for name in place.task_sets]
    gva = [(str(place.gva / "articles.jsonl"), str(_built_store(place, "gva-train")))]
    status("fitting the coreference model")
    sets, _ = labelled_sets(tasks, gva)
    examples = [example for labelled in sets for example in labelled.examples()]
    l2 = settings().training.coreference_l2
    model = fit_and_tune(examples, [(labelled, None) for labelled in sets if labelled.name != "gva"], l2)
    model.trained_with = {
        "l2": l2,
        "examples": {labelled.name: len(labelled.examples()) for labelled in sets},
        "clustering": section_record(settings().clustering),
    }
    data = {name: data_sha256(place.task(name)) for name in place.task_sets}
    data["gva-train"] = data_sha256(place.gva / "articles.jsonl")
    scores = {"threshold": model.threshold, "group_threshold": model.group_threshold}
    return save_shipped_model("coreference", model, place.models_dir, data, scores)


def train_incident_match(place: TrainingPlace) -> Path:
    """Fit the incident-match model and the answer prior (``answer_prior.json``) on trial's and test-dev's questions
    with gold; their settings (L2 weight, document threshold, prior weights) chosen by inner cross-validation by
    state."""
    from kg_count.training.incident_match_fitting import fit, labelled_tasks

    tasks = [(place.task(name), _built_store(place, name)) for name in place.task_sets]
    status("fitting the incident-match model")
    questions, gold, candidates = labelled_tasks(tasks)
    model, prior, chosen = fit(candidates, gold, questions)
    data = {name: data_sha256(place.task(name)) for name in place.task_sets}
    scores = {"chosen_by_inner_cross_validation": chosen}
    save_shipped_model("answer_prior", prior, place.models_dir, data, scores)
    return save_shipped_model("incident_match", model, place.models_dir, data, scores)


def train_person_status(place: TrainingPlace) -> Path:
    """Fit the person-status model on gva-train's participant records; cross-validated accuracies by archive
    incident in the manifest."""
    from kg_count.graph.store import GraphStore
    from kg_count.training.person_status_fitting import fit_person_status, person_examples

    store = _built_store(place, "gva-train")
    status("fitting the person-status model")
    with GraphStore(store) as graph_store:
        examples = person_examples(graph_store, place.gva / "articles.jsonl", place.gva / "incidents.jsonl")
    model, chosen = fit_person_status(examples)
    data = {"gva-train": data_sha256(place.gva / "articles.jsonl", place.gva / "incidents.jsonl")}
    return save_shipped_model("person_status", model, place.models_dir, data, chosen)


TORQUE_FILES = ("dev-part.json", "dev-part2.json")
TORQUE_TRAIN_FILE = "train-torquestra.json"


def qa_training_files(data: Path) -> tuple[list[Path], list[Path], Path]:
    """(TORQUE dev files, ESTER training files, TimeBank folder) under the shared data folder; TORQUE's train
    passages are ``torque_train_file(data)``."""
    return (
        [data / "torque" / name for name in TORQUE_FILES],
        [data / "ester" / "final_train_ans_gen_500completed.json", data / "ester" / "final_test_ans_gen.json"],
        data / "timebank",
    )


def torque_train_file(data: Path) -> Path:
    """TORQUE's train passages under the shared data folder (trained on, never scored)."""
    return data / "torque" / TORQUE_TRAIN_FILE


def qa_training_data(
    torque_paths: list[Path],
    ester_paths: list[Path],
    timebank: Path,
    with_silver: bool = True,
    torque_train: list[Path] = (),
) -> TrainingData:
    """The QA scorers' examples (kg_count.qa.learned.training.collect) from the training files, with the silver
    TORQUE questions unless ``with_silver`` is false and TORQUE's ``torque_train`` passages, weighted by the
    ``[qa_training]`` settings."""
    from kg_count.qa.learned.training import collect
    from kg_count.settings import settings

    weights = settings().qa_training
    silver = None
    if with_silver:
        status("making silver TORQUE questions from TimeBank and MATRES")
        silver = qa_silver_questions(timebank)
    status("reading the QA training passages")
    return collect(
        torque_paths,
        ester_paths,
        timebank,
        silver,
        weights.silver_weight,
        weights.matres_weight,
        torque_train,
        weights.torque_train_weight,
    )


def qa_silver_questions(timebank: Path) -> dict:
    """The silver TORQUE passages of the TimeML documents under ``timebank``, in windows of the
    ``[qa_training] silver_window_sentences`` setting (kg_count.qa.learned.silver_questions)."""
    from kg_count.qa.learned.silver_questions import silver_torque
    from kg_count.settings import settings

    return silver_torque(timebank, settings().qa_training.silver_window_sentences)


def train_qa(place: TrainingPlace) -> Path:
    """Fit the four passage scorers on all the QA training data (TORQUE's train passages included), with
    TORQUE's decision thresholds, its answer-nothing gate and the ESTER answer ranker chosen on the candidates
    of 5-fold cross-validation by source document (scores of thresholds, gate and ranker chosen without the
    scored fold in the manifest)."""
    from kg_count.settings import settings
    from kg_count.qa.inputs.readers import read_ester, read_torque_files, torque_clusters_beside
    from kg_count.qa.datasets.scoring import ester_scores, torque_scores
    from kg_count.qa.learned.training import (
        cross_validate,
        matres_f1,
        nested_gate_predictions,
        nested_ranker_predictions,
        nested_threshold_predictions,
        train_models,
    )

    torque_paths, ester_paths, timebank = qa_training_files(place.data)
    original = place.data / "ester" / "final_train_ans_gen_500original.json"
    train_passages = [torque_train_file(place.data)] if settings().qa_training.torque_train_weight > 0 else []
    _require_files(*torque_paths, *train_passages, *ester_paths, timebank, original)
    training = qa_training_data(torque_paths, ester_paths, timebank, torque_train=train_passages)
    torque_questions = read_torque_files(torque_paths)
    clusters = torque_clusters_beside(torque_paths) or None
    ester_questions = {path: read_ester(path) for path in (original, ester_paths[1])}
    status("cross-validating the QA models by source document (5 folds)")
    folds = cross_validate(training, torque_questions, ester_questions)
    nested, ranker = nested_ranker_predictions(ester_questions, folds["ester_candidates"], 5)
    _, thresholds = nested_threshold_predictions(torque_questions, folds["torque_candidates"], 5)
    torque_nested, gate = nested_gate_predictions(torque_questions, folds["torque_candidates"], 5)
    scores = {
        "torque": torque_scores(torque_questions, torque_nested, clusters),
        "torque_thresholds": thresholds,
        "ester": {path.name: ester_scores(ester_questions[path], nested[path]) for path in ester_questions},
        "matres": matres_f1(folds["matres"]),
    }
    status("fitting the QA models on every passage")
    models = train_models(training, torque_thresholds=thresholds)
    data = {"qa": data_sha256(*torque_paths, *train_passages, *ester_paths, original, timebank)}
    for name in ("triggers", "temporal", "status", "semantic"):
        save_shipped_model(f"qa_{name}", getattr(models, name), place.models_dir, data, {"cross_validated": scores})
    gate.trained_with = {"qa_training": asdict(settings().qa_training)}
    save_shipped_model("qa_answer_nothing", gate, place.models_dir, data, {"cross_validated": scores["torque"]})
    return save_shipped_model("qa_answer_ranker", ranker, place.models_dir, data, {"cross_validated": scores["ester"]})


TRAINERS: dict[str, Callable[[TrainingPlace], Path]] = {
    "stations": train_stations,
    "extraction": train_extraction,
    "coreference": train_coreference,
    "incident-match": train_incident_match,
    "person-status": train_person_status,
    "qa": train_qa,
}


def run_targets(target: str, place: TrainingPlace) -> list[str]:
    """Run one target (or ``all``, every target in dependency order); return what each wrote, as lines."""
    chosen = TARGETS if target == "all" else (target,)
    lines = []
    for name in chosen:
        status(f"training {name}")
        written = TRAINERS[name](place)
        lines.append(f"{name}: {written}")
    return lines
