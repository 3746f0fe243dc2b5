"""The set of QA models a passage is read with, and the shipped set; each scorer carries its decision
thresholds and the [qa_training] settings it was fitted with."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from kg_count.learning.linear_model import LinearModel
from kg_count.learning.model_files import load_shipped_model
from kg_count.qa.learned.answer_ranking import AnswerRanker

logger = logging.getLogger(__name__)
SCORERS = ("triggers", "temporal", "status", "semantic")


@dataclass
class QAModels:
    """Trigger, temporal relation, status and semantic relation scorers, the ESTER answer ranker and TORQUE's
    answer-nothing gate (None: answers by the per-event thresholds alone)."""

    triggers: LinearModel
    temporal: LinearModel | None = None
    status: LinearModel | None = None
    semantic: LinearModel | None = None
    answer_ranker: AnswerRanker = field(default_factory=AnswerRanker.confidence_only)
    answer_nothing: LinearModel | None = None

    @property
    def uses_encoder(self) -> bool:
        """Whether any scorer reads the encoder's vectors (has dense blocks)."""
        return any(m is not None and m.blocks for m in (self.triggers, self.temporal, self.status, self.semantic))


def shipped_qa_models(with_gate: bool = False) -> QAModels:
    """The QA models shipped in ``kg_count/models/`` (``qa_*.json``), read by the one model loader (SetupError
    naming a missing one; a warning when they were trained with other settings); TORQUE's answer-nothing gate
    (``qa_answer_nothing.json``) only ``with_gate``."""
    scorers = (load_shipped_model(f"qa_{name}", LinearModel.from_json) for name in SCORERS)
    return QAModels(
        *scorers,
        load_shipped_model("qa_answer_ranker", AnswerRanker.from_json),
        load_shipped_model("qa_answer_nothing", LinearModel.from_json) if with_gate else None,
    )
