"""The events that may answer one TORQUE question, with their confidences."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Candidates:
    """The events that may answer a TORQUE question: what it asks (a relation to its anchor or a
    status), which scorer's threshold decides, ``(begin, end, confidence)`` rows, best first, where its
    anchor's trigger begins (-1 for a status question), how many events the passage has, and the
    question's kind (``TemporalQuestion.kind``: relation or status with its modality mark)."""

    asked: str
    scorer: str
    rows: tuple[tuple[int, int, float], ...] = ()
    anchor_begin: int = -1
    events: int = 0
    kind: str = ""

    def spans(self, threshold: float) -> list[tuple[int, int]]:
        """The trigger spans whose confidence reaches ``threshold``, in text order."""
        return sorted({(begin, end) for begin, end, confidence in self.rows if confidence >= threshold})
