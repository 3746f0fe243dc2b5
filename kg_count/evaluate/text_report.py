"""Plain-text rendering of scores for the terminal."""

from __future__ import annotations

HEADLINE = ("answered", "accuracy", "accuracy_norm", "rmse", "doc_precision", "doc_recall", "doc_f1", "doc_f1_norm")
BREAKDOWNS = ("by_answer_class", "by_event_type", "by_property_pair", "by_shape")


def _row(name: str, scores: dict) -> str:
    cells = [f"{name:<22}", f"{scores.get('answered_questions', 0):>4}/{scores.get('questions', 0):<4}"]
    for key in ("accuracy", "rmse", "doc_f1"):
        cells.append(f"{key} {scores[key]:6.2f}" if key in scores else " " * (len(key) + 7))
    return "  ".join(cells)


def format_task_scores(scores: dict, title: str = "") -> str:
    """Render task scores (one subtask, or several under ``subtasks``) with their breakdowns."""
    if "subtasks" in scores:
        return "\n\n".join(format_task_scores(s, f"{title} S{n}".strip()) for n, s in scores["subtasks"].items())
    lines = [title or f"S{scores.get('subtask', '?')}"]
    lines += [f"  {key:<14} {scores[key]:8.2f}" for key in HEADLINE if key in scores]
    for breakdown in BREAKDOWNS:
        if scores.get(breakdown):
            lines.append(f"  {breakdown.replace('_', ' ')}:")
            lines += ["    " + _row(name, group) for name, group in scores[breakdown].items()]
    if scores.get("unknown_questions"):
        lines.append(f"  ({len(scores['unknown_questions'])} answered questions are not in the gold)")
    return "\n".join(lines)


def format_coreference_scores(scores: dict) -> str:
    """Render mention-level coreference scores, one metric a line, then the average F1."""
    lines = [
        f"  {name:<6} R {s['recall']:6.2f}  P {s['precision']:6.2f}  F1 {s['f1']:6.2f}"
        for name, s in scores.items()
        if name != "average"
    ]
    lines.append(f"  average F1 {scores['average']:6.2f}")
    return "\n".join(lines)
