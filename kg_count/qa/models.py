"""The shipped QA models, loaded once; each carries its decision thresholds and the [qa_training]
settings it was fitted with (a warning is logged when those in force differ)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg_count.learning.linear_model import LinearModel
from kg_count.qa.answer_ranking import AnswerRanker
from kg_count.settings import sections_trained_otherwise

logger = logging.getLogger(__name__)
MODEL_DIR = Path(__file__).with_name("models")
SCORERS = ("triggers", "temporal", "status", "semantic")
ANSWER_RANKER = MODEL_DIR / "answer_ranker.json"


@dataclass
class QAModels:
    """Trigger, temporal relation, status and semantic relation scorers, and the ESTER answer ranker."""

    triggers: LinearModel
    temporal: LinearModel | None = None
    status: LinearModel | None = None
    semantic: LinearModel | None = None
    answer_ranker: AnswerRanker = field(default_factory=AnswerRanker.confidence_only)

    @property
    def uses_encoder(self) -> bool:
        """Whether any scorer reads the encoder's vectors (has dense blocks)."""
        return any(m is not None and m.blocks for m in (self.triggers, self.temporal, self.status, self.semantic))


@lru_cache(maxsize=1)
def shipped_models() -> QAModels:
    """The models in ``kg_count/qa/models/`` (SetupError naming a missing one)."""
    models = QAModels(
        *(LinearModel.load(MODEL_DIR / f"{name}.json") for name in SCORERS), AnswerRanker.load(ANSWER_RANKER)
    )
    if any(sections_trained_otherwise(getattr(models, name).trained_with, ("qa_training",)) for name in SCORERS):
        logger.warning(
            "the QA models were trained with other [qa_training] settings; retrain them with %s", LinearModel.retrain
        )
    return models
