"""The pipeline's settings: one frozen, typed object per stage, read from ``default_settings.toml``.

``settings()`` returns the defaults, overridden by the TOML file named in ``$KG_COUNT_SETTINGS``
(any subset of sections and keys). Unknown sections or keys, and values of the wrong type, are a
SetupError naming the file and the key. ``stage_fingerprint`` hashes a stage's settings with the
source of the modules that use them, so that what a stage stored is rebuilt exactly when either
changes.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, fields
from functools import lru_cache
from importlib.resources import files
from typing import Iterator

from kg_count.errors import SetupError
from kg_count.source_closure import imported_modules, module_file

SETTINGS_ENV = "KG_COUNT_SETTINGS"
DEFAULTS = "default_settings.toml"


@dataclass(frozen=True)
class BatchSettings:
    """How work is cut into batches: speed only, never results."""

    documents: int
    batches_per_worker: int
    flush_every: int
    grouping_processes: int
    grouping_parallel_pairs: int
    helper_encoding_titles: int
    incident_write_chunk: int


@dataclass(frozen=True)
class ExtractionSettings:
    """What one document's record says: dates, counts, ages and which words type an event."""

    earliest_days_before_dct: int
    future_date_days: int
    max_people: int
    max_age: int
    hyponym_depth: int
    ranker_l2: float
    someone_harmed: bool
    dct_candidate_days: int
    follow_up_days: int
    follow_up_high: float
    follow_up_mid: float
    dateline_words: int
    dateline_sentences: int
    dateline_sentence_words: int


@dataclass(frozen=True)
class ClusteringSettings:
    """The comparison points and limits by which two reports are taken for one incident."""

    nearby_km: float
    days_before_dct: int
    same_day: float
    days_apart: float
    dates_overlap: float
    dates_apart_penalty: float
    same_city: float
    nearby_cities: float
    same_state: float
    shared_names: float
    different_victims: float
    same_count: float
    titles_alike: float
    title_similarity: float
    first_name_similarity: float
    last_name_similarity: float
    date_slack_days: int
    state_bridge_rarity: float
    rarity_scale: float
    stated_day_slack_days: int
    stated_week_slack_days: int
    title_cosine_edges: tuple[float, ...]
    title_rarity_edges: tuple[float, ...]
    lead_rarity_edges: tuple[float, ...]
    rare_word: float
    date_gap_edges: tuple[float, ...]
    text_day_edges: tuple[float, ...]
    city_km_edges: tuple[float, ...]
    shared_name_edges: tuple[float, ...]
    count_edges: tuple[float, ...]
    title_word_edges: tuple[float, ...]
    dct_edges: tuple[float, ...]


@dataclass(frozen=True)
class ConfidenceSettings:
    """The features of the incident-match model that are not learned."""

    first_days: int
    document_edges: tuple[float, ...]
    dct_gap_edges: tuple[float, ...]
    count_edges: tuple[float, ...]
    named_edges: tuple[float, ...]
    took_part_edges: tuple[float, ...]
    fit_count_edges: tuple[float, ...]
    fit_killed_edges: tuple[float, ...]
    candidate_edges: tuple[float, ...]


@dataclass(frozen=True)
class AnsweringSettings:
    """How far S1's relaxations widen an asked time and place, and how S1 ranks the incidents they find."""

    near_days: int
    near_km: float
    dct_days_before: int
    same_area_km: float
    region_km: float
    far_km: float


@dataclass(frozen=True)
class ReadingSettings:
    """Reading comprehension: anchors, phrases, stored edges and answers."""

    max_ester_answers: int
    min_stored_confidence: float
    max_phrase_words: int
    anchor_lemma_match: float
    anchor_word_match: float
    anchor_min_word_share: float


@dataclass(frozen=True)
class QATrainingSettings:
    """How the reading-comprehension scorers are fitted and where they decide; recorded in each model file."""

    triggers_l2: float
    triggers_vector_l2: float
    temporal_l2: float
    temporal_vector_l2: float
    status_l2: float
    status_vector_l2: float
    semantic_l2: float
    semantic_vector_l2: float
    torque_trigger_threshold: float
    ester_trigger_threshold: float
    silver_window_sentences: int
    silver_weight: float
    matres_weight: float
    torque_train_weight: float
    answer_nothing_l2: float


@dataclass(frozen=True)
class StationSettings:
    """Which stations ``kg-count train stations`` keeps: those with at least ``min_documents`` stories that write
    their state, ``min_share`` of them in one state (or within ``near_km`` of the middle of their places, for the
    station's point); and how near a station's point a candidate town lies to be ``near_station``."""

    min_documents: int
    min_share: float
    near_km: float


@dataclass(frozen=True)
class TrainingSettings:
    """How ``kg-count train`` fits the models: the search grids, penalties and iteration limits; recorded in
    the manifest for the models they shape."""

    max_iterations: int
    coreference_l2: float
    incident_l2_grid: tuple[float, ...]
    person_status_l2_grid: tuple[float, ...]
    answer_ranker_l2: float
    answer_ranker_iterations: int
    extra_answer_grid: tuple[float, ...]
    torque_threshold_grid: tuple[float, ...]
    answer_prior_cap: int
    answer_prior_smoothing_grid: tuple[float, ...]
    answer_prior_weight_grid: tuple[float, ...]
    incident_document_threshold_grid: tuple[float, ...]


@dataclass(frozen=True)
class Settings:
    """Every stage's settings."""

    batch: BatchSettings
    extraction: ExtractionSettings
    clustering: ClusteringSettings
    confidence: ConfidenceSettings
    answering: AnsweringSettings
    reading: ReadingSettings
    qa_training: QATrainingSettings
    training: TrainingSettings
    stations: StationSettings


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _typed(section_type: type, values: dict, where: str):
    """One section's dataclass from its TOML table; SetupError naming ``where`` and the key on a bad value."""
    names = {f.name: f for f in fields(section_type)}
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise SetupError(f"{where}: unknown setting {unknown[0]!r} (known: {', '.join(names)})")
    missing = sorted(set(names) - set(values))
    if missing:
        raise SetupError(f"{where}: setting {missing[0]!r} is missing")
    typed = {}
    for name, value in values.items():
        kind = names[name].type
        if kind == "tuple[float, ...]":
            if not isinstance(value, list) or not all(_is_number(v) for v in value):
                raise SetupError(f"{where}: setting {name!r} must be a list of numbers, not {value!r}")
            typed[name] = tuple(float(v) for v in value)
            continue
        if kind == "float" and _is_number(value):
            value = float(value)
        if type(value).__name__ != kind:
            raise SetupError(
                f"{where}: setting {name!r} must be {'a number' if kind == 'float' else 'an ' + kind}, not {value!r}"
            )
        typed[name] = value
    return section_type(**typed)


def _read_toml(text: str, where: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SetupError(f"{where}: not valid TOML ({error})") from None


@lru_cache(maxsize=8)
def load_settings(override: str | None = None) -> Settings:
    """The default settings, with the sections and keys of the TOML file ``override`` (a path) put over them."""
    tables = _read_toml(files("kg_count").joinpath(DEFAULTS).read_text(encoding="utf-8"), DEFAULTS)
    if override:
        try:
            text = open(override, encoding="utf-8").read()
        except OSError as error:
            raise SetupError(f"{override}: cannot read the settings file ({error.strerror})") from None
        except UnicodeDecodeError as error:
            raise SetupError(f"{override}: the settings file is not UTF-8 (byte {error.start})") from None
        for section, values in _read_toml(text, override).items():
            if section not in tables or not isinstance(values, dict):
                raise SetupError(
                    f"{override}: unknown settings section [{section}] "
                    f"(known: {', '.join(f.name for f in fields(Settings))})"
                )
            tables[section] = {**tables[section], **values}
    where = override or DEFAULTS
    sections = {
        f.name: _typed(globals()[f.type], tables.get(f.name, {}), f"{where} [{f.name}]") for f in fields(Settings)
    }
    return Settings(**sections)


@lru_cache(maxsize=8)
def _load_stamped(override: str, stamp: tuple[int, int]) -> Settings:
    return load_settings.__wrapped__(override)


_held: list[Settings] = []  # the settings ``held_settings`` fixed, innermost last


@contextmanager
def held_settings() -> Iterator[Settings]:
    """Fix the settings in force for the block: ``settings()`` inside it returns them without looking at the
    environment or the file again (a grouping asks for them millions of times). Yields them."""
    _held.append(settings())
    try:
        yield _held[-1]
    finally:
        _held.pop()


def settings() -> Settings:
    """The settings in force: those ``held_settings`` holds, else the defaults, overridden by
    ``$KG_COUNT_SETTINGS`` when it names a file (read again when the file changes)."""
    if _held:
        return _held[-1]
    override = os.environ.get(SETTINGS_ENV)
    if not override:
        return load_settings()
    try:
        status = os.stat(override)
    except OSError:
        return load_settings.__wrapped__(override)  # raises the SetupError naming the file
    return _load_stamped(override, (status.st_mtime_ns, status.st_size))


def section_record(section) -> dict:
    """A settings section as a model records it: a plain dictionary as JSON reads it back (lists, not tuples)."""
    return json.loads(json.dumps(dataclasses.asdict(section)))


@lru_cache(maxsize=256)
def code_fingerprint(source: str) -> str:
    """The code of a module's source without its comments, docstrings and layout (its AST, dumped).

    Editing only the documentation of a module leaves its fingerprint, and so what was stored, alone. Cached
    by source text: fingerprints are taken whenever a store is checked, and parsing is the costly part.
    """
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def stage_fingerprint(sections: tuple[object, ...], roots: tuple[str, ...], *extra: str) -> str:
    """SHA-256 of settings sections (as canonical JSON), the code of the modules ``roots`` (dotted names) and
    every kg_count module they import (``kg_count.source_closure``), and any ``extra`` text."""
    digest = hashlib.sha256()
    for section in sections:
        digest.update(json.dumps(dataclasses.asdict(section), sort_keys=True).encode())
    for name in imported_modules(tuple(roots)):
        digest.update(name.encode())
        digest.update(code_fingerprint(module_file(name).read_text(encoding="utf-8")).encode())
    for text in extra:
        digest.update(text.encode())
    return digest.hexdigest()
