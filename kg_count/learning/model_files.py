"""The shipped models: one folder (``kg_count/models/``), one manifest, one loader.

Every learned part is a JSON file in ``kg_count/models/``, written by ``kg-count train TARGET`` and
recorded in ``manifest.json`` beside it: the file's SHA-256, the target that trained it, when, the
SHA-256 of the data it was trained on, the settings sections it depends on (with their hash) and its
cross-validated scores. ``load_shipped_model`` is the one way to read a shipped model: it reads each file once
per version and warns once, here, when the settings in force differ from those the model was trained
with, or when the file is not the one the manifest records.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Protocol, TypeVar

from kg_count.errors import SetupError
from kg_count.io.atomic import atomic_writer, read_json, write_json_atomic
from kg_count.settings import section_record, settings

logger = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class ModelSpec:
    """A shipped model: its file in the models folder, the ``kg-count train`` target that writes it, and
    the settings sections its training depends on."""

    file: str
    target: str
    sections: tuple[str, ...]


SHIPPED = {
    "stations": ModelSpec("stations.json", "stations", ("stations",)),
    "extraction": ModelSpec("extraction.json", "extraction", ("extraction", "training")),
    "coreference": ModelSpec("coreference.json", "coreference", ("clustering", "training")),
    "incident_match": ModelSpec("incident_match.json", "incident-match", ("clustering", "confidence", "training")),
    "answer_prior": ModelSpec("answer_prior.json", "incident-match", ("clustering", "confidence", "training")),
    "person_status": ModelSpec("person_status.json", "person-status", ("training",)),
    "qa_triggers": ModelSpec("qa_triggers.json", "qa", ("qa_training", "training")),
    "qa_temporal": ModelSpec("qa_temporal.json", "qa", ("qa_training", "training")),
    "qa_status": ModelSpec("qa_status.json", "qa", ("qa_training", "training")),
    "qa_semantic": ModelSpec("qa_semantic.json", "qa", ("qa_training", "training")),
    "qa_answer_ranker": ModelSpec("qa_answer_ranker.json", "qa", ("reading", "training")),
    "qa_answer_nothing": ModelSpec("qa_answer_nothing.json", "qa", ("qa_training", "training")),
}


class JsonModel(Protocol):
    """What every learned part offers: itself as a JSON object, and itself again from that object."""

    def to_json(self) -> dict:
        """The model as a JSON object, the form its ``from_json`` reads."""
        ...


M = TypeVar("M")


def model_path(name: str, models_dir: Path | None = None) -> Path:
    """The file of the shipped model ``name`` (a key of SHIPPED) in ``models_dir`` (default: the package's)."""
    return (models_dir or MODELS_DIR) / SHIPPED[name].file


def retrain_command(name: str) -> str:
    """The command that retrains the model ``name``."""
    return f"kg-count train {SHIPPED[name].target}"


def settings_record(sections: tuple[str, ...]) -> dict[str, dict]:
    """The settings sections in force, by name, as plain dictionaries."""
    current = settings()
    return {section: section_record(getattr(current, section)) for section in sections}


def _hash_json(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_manifest(models_dir: Path | None = None) -> dict:
    """The manifest of ``models_dir`` (``{"models": {name: entry}}``; empty when there is none yet)."""
    path = (models_dir or MODELS_DIR) / MANIFEST
    if not path.exists():
        return {"models": {}}
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        raise SetupError(f"{path}: not a model manifest (no 'models' object)")
    return data


def load_shipped_model(name: str, from_json: Callable[[dict], M], path: Path | None = None) -> M:
    """The model ``name`` read by ``from_json`` from its shipped file (or from ``path``), once per version of the
    file. SetupError naming the file and the command that retrains it when it is missing or broken; one
    warning when the settings in force differ from the manifest's record, or the file from the recorded one."""
    path = Path(path or model_path(name))
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise SetupError(f"{path}: the {name} model is missing; retrain it with `{retrain_command(name)}`") from None
    model = _read(name, from_json, str(path), stamp)
    if path == model_path(name) or (path.parent / MANIFEST).exists():
        current = settings()
        _warn_when_stale(name, str(path), stamp, tuple(getattr(current, s) for s in SHIPPED[name].sections))
    return model


@lru_cache(maxsize=32)
def _read(name: str, from_json: Callable[[dict], M], path: str, stamp: int) -> M:
    try:
        return from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise SetupError(
            f"{path}: cannot read the {name} model ({error}); retrain it with `{retrain_command(name)}`"
        ) from None


@lru_cache(maxsize=64)
def _warn_when_stale(name: str, path: str, stamp: int, sections_in_force: tuple) -> None:
    """Warn (once per file version and ``sections_in_force``, the model's settings sections) when the manifest
    beside ``path`` lacks the model, records another file, or records other settings than those in force."""
    entry = read_manifest(Path(path).parent).get("models", {}).get(name)
    retrain = retrain_command(name)
    if entry is None:
        logger.warning("the %s model is not in the manifest; retrain it with `%s`", name, retrain)
        return
    if entry.get("sha256") != file_sha256(Path(path)):
        logger.warning("the %s model file is not the one the manifest records; retrain it with `%s`", name, retrain)
    recorded = entry.get("settings", {})
    current = {s: section_record(section) for s, section in zip(SHIPPED[name].sections, sections_in_force)}
    differing = sorted(section for section in current if recorded.get(section, current[section]) != current[section])
    if differing:
        logger.warning(
            "the %s model was trained with other [%s] settings; retrain it with `%s`",
            name,
            "], [".join(differing),
            retrain,
        )


def save_shipped_model(
    name: str,
    model: JsonModel,
    models_dir: Path | None = None,
    data: dict[str, str] | None = None,
    scores: dict | None = None,
    trained_by: str | None = None,
) -> Path:
    """Write ``model`` as the shipped model ``name`` into ``models_dir`` (default: the package's) atomically, and
    record it in the manifest: its SHA-256, the command that trained it (``trained_by``, default the target's
    ``retrain_command``), date, the SHA-256 of each training input (``data``: what -> hash), the settings it
    depends on and their hash, and ``scores``. Returns the file written."""
    models_dir = models_dir or MODELS_DIR
    path = model_path(name, models_dir)
    with atomic_writer(path) as handle:
        json.dump(model.to_json(), handle, indent=0, sort_keys=True)
    recorded_settings = settings_record(SHIPPED[name].sections)
    manifest = read_manifest(models_dir)
    manifest["models"][name] = {
        "file": SHIPPED[name].file,
        "sha256": file_sha256(path),
        "trained_by": trained_by or retrain_command(name),
        "trained_on": dt.date.today().isoformat(),
        "data": dict(sorted((data or {}).items())),
        "settings": recorded_settings,
        "settings_sha256": _hash_json(recorded_settings),
        "scores": scores or {},
    }
    write_json_atomic(models_dir / MANIFEST, manifest)
    return path


def data_sha256(*paths: Path) -> str:
    """SHA-256 over the bytes of files (a folder: every file under it, in path order), for the manifest."""
    digest = hashlib.sha256()
    for path in paths:
        path = Path(path)
        for file in sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]:
            digest.update(str(file.relative_to(path) if path.is_dir() else file.name).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()
