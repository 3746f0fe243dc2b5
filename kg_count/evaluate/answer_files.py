"""Scoring answer files: gold and system answers (and the questions) read from disk, scored as the task scores."""

from __future__ import annotations

from pathlib import Path


def read_answer_files(gold: Path, system: Path, questions: Path | None = None) -> tuple[dict, dict, dict | None]:
    """Read gold answers, system answers and the questions (``questions``, else the questions.json
    beside the gold file when there is one, else None)."""
    from kg_count.io.answers import read_gold_answers, read_system_answers
    from kg_count.io.questions import read_questions

    if questions is None and (gold.parent / "questions.json").is_file():
        questions = gold.parent / "questions.json"
    return read_gold_answers(gold), read_system_answers(system), read_questions(questions) if questions else None


def score_answer_files(gold: Path, system: Path, questions: Path | None = None, subtask: int | None = None) -> dict:
    """Read gold, system answers and (optional) questions and return the task scores."""
    from kg_count.evaluate.task_scores import evaluate_answers

    return evaluate_answers(*read_answer_files(gold, system, questions), subtask, system)
