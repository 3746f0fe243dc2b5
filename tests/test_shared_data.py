"""Readers and scorer on the full task data in ../shared/data (skipped when it is absent)."""

from kg_count.evaluate.task_scores import evaluate_answers
from kg_count.io.answers import SystemAnswer, read_gold_answers
from kg_count.io.conll import iter_documents
from kg_count.io.questions import read_questions


def test_all_test_documents_read(task_data):
    docs = list(iter_documents(task_data / "test-dev" / "docs.conll"))
    assert len(docs) == 2963 and len({d.doc_id for d in docs}) == 2963
    assert all(d.tokens for d in docs)


def test_all_questions_validate(task_data):
    for split in ("trial", "test-dev"):
        for subtask in (1, 2, 3):
            questions = read_questions(task_data / split / f"s{subtask}" / "questions.json")
            assert questions and all(q.subtask == subtask for q in questions.values())


def test_gold_scored_against_itself_is_perfect(task_data):
    for subtask in (1, 2, 3):
        folder = task_data / "test-dev" / f"s{subtask}"
        gold = read_gold_answers(folder / "answers.json")
        system = {
            q: SystemAnswer(a.numerical_answer if subtask > 1 else None, sorted(a.documents)) for q, a in gold.items()
        }
        scores = evaluate_answers(gold, system, read_questions(folder / "questions.json"))
        assert scores["answered"] == 100.0 and scores["doc_f1"] == 100.0
        if subtask > 1:
            assert scores["accuracy"] == 100.0 and scores["rmse"] == 0.0


def test_always_two_on_test_s2(task_data):
    gold = read_gold_answers(task_data / "test-dev" / "s2" / "answers.json")
    scores = evaluate_answers(gold, {q: SystemAnswer(2, []) for q in gold})
    expected = 100 * sum(a.numerical_answer == 2 for a in gold.values()) / len(gold)
    assert scores["accuracy"] == expected
