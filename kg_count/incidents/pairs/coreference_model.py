"""The learned same-incident model: a LinearModel over pair features (``pair_features``), shipped as JSON.

``kg_count/models/coreference.json`` holds the weights, the bias, the two merge thresholds
(a pair's probability to start a merge; the mean probability over every pair across two groups to
allow it) and the settings it was trained with (L2 weight, training sets, the [clustering] section).
``kg-count train coreference`` retrains it. The file is hashed into the incident fingerprint.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from kg_count.learning.linear_model import LinearModel
from kg_count.learning.model_files import load_shipped_model, model_path
from kg_count.settings import section_record, settings

logger = logging.getLogger(__name__)

COREFERENCE_MODEL_PATH = model_path("coreference")


@dataclass
class CoreferenceModel(LinearModel):
    """P(same incident) of a pair of reports; ``threshold`` starts a merge, ``group_threshold`` bounds
    the mean probability across the two groups merged."""

    group_threshold: float = 0.5

    retrain = "kg-count train coreference"

    def to_json(self) -> dict:
        """The LinearModel's JSON with the group threshold and the training settings."""
        return {
            **super().to_json(),
            "group_threshold": round(self.group_threshold, 4),
            "settings": self.trained_with or {"clustering": section_record(settings().clustering)},
        }

    @classmethod
    def from_json(cls, data: dict) -> "CoreferenceModel":
        """The model as ``to_json`` wrote it."""
        return super().from_json(data, group_threshold=float(data.get("group_threshold", data.get("threshold", 0.5))))

    def reasons(self, features: list[str], top: int = 5) -> list[str]:
        """The ``top`` features that weigh most in this pair's probability, with their weights."""
        weighed = sorted(((self.weights.get(f, 0.0), f) for f in features), key=lambda w: -abs(w[0]))
        return [f"{name} ({weight:+.2f})" for weight, name in weighed[:top] if weight]


def shipped_coreference_model(path: Path | None = None) -> CoreferenceModel:
    """The coreference model in ``path`` (default: the shipped ``kg_count/models/coreference.json``), read by the
    one model loader; SetupError naming the file when it is missing or broken."""
    return load_shipped_model("coreference", CoreferenceModel.from_json, path)
