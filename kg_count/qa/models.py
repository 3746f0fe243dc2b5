"""The shipped QA models and their decision thresholds, loaded once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg_count.learning.linear_model import LinearModel

MODEL_DIR = Path(__file__).with_name("models")
TRIGGER_THRESHOLDS = {"torque": 0.4, "ester": 0.3}  # chosen by 5-fold cross-validation of trigger F1
DECISION_THRESHOLDS = {"temporal": 0.5, "status": 0.5, "semantic": 0.2}  # chosen by cross-validated scores


@dataclass
class QAModels:
    """Trigger, temporal relation, status and semantic relation scorers."""

    triggers: LinearModel
    temporal: LinearModel | None = None
    status: LinearModel | None = None
    semantic: LinearModel | None = None

    @property
    def uses_encoder(self) -> bool:
        """Whether any scorer reads the encoder's vectors (has dense blocks)."""
        return any(m is not None and m.blocks for m in (self.triggers, self.temporal, self.status, self.semantic))


@lru_cache(maxsize=1)
def shipped_models() -> QAModels:
    """The models in ``kg_count/qa/models/`` (SetupError naming a missing one)."""
    return QAModels(*(LinearModel.load(MODEL_DIR / f"{name}.json")
                      for name in ("triggers", "temporal", "status", "semantic")))
