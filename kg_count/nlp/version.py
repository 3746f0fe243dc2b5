"""The pipeline version: a hash of everything that decides what a document's record says.

It covers the [extraction] settings, the source of the extraction modules (``kg_count.nlp.pipeline`` and every
kg_count module it imports), the lexicon and
gazetteer files they read, the learned extraction models and station table (kg_count/models/extraction.json,
stations.json),
the task's synsets and the installed spaCy model's name and version.
The record cache keys and each document graph's content hash include it, so a change to any of
these re-extracts the documents, and nothing else does.
"""

from __future__ import annotations

import importlib.metadata
from functools import lru_cache
from importlib.resources import files

from kg_count import task
from kg_count.errors import SetupError
from kg_count.learning.model_files import model_path, retrain_command
from kg_count.nlp import model
from kg_count.settings import ExtractionSettings, settings, stage_fingerprint

EXTRACTION_ROOTS = ("kg_count.nlp.pipeline",)  # the stage that reads a document into its record
DATA_FILES = (
    ("kg_count.ontology", "frames.ttl"),
    ("kg_count.resources", "ap_states.tsv"),
    ("kg_count.resources", "area_codes.tsv"),
    ("kg_count.resources", "dbpedia_bare_cities.txt"),
)
LEARNED = ("extraction", "stations")  # the shipped models extraction reads
VERSION_LENGTH = 16


def installed_model() -> str:
    """``name==version`` of the first installed spaCy model ``load_model`` would take ("none" when none is)."""
    for name in model.MODEL_NAMES:
        try:
            return f"{name}=={importlib.metadata.version(name)}"
        except importlib.metadata.PackageNotFoundError:
            continue
    return "none"


@lru_cache(maxsize=4)
def _version(extraction: ExtractionSettings) -> str:
    data = [files(package).joinpath(name).read_text(encoding="utf-8") for package, name in DATA_FILES]
    for name in LEARNED:
        try:
            data.append(model_path(name).read_text(encoding="utf-8"))
        except OSError:
            raise SetupError(f"{model_path(name)}: missing; retrain it with `{retrain_command(name)}`") from None
    synsets = repr(sorted(task.event_synsets().items()))
    return stage_fingerprint((extraction,), EXTRACTION_ROOTS, *data, synsets, installed_model())[:VERSION_LENGTH]


def pipeline_version() -> str:
    """The version of the extraction in force (16 hex digits)."""
    return _version(settings().extraction)
