"""Task scores on cases computed by hand from the definitions in the task's scorer."""

import math

import pytest

from kg_count.errors import InputError
from kg_count.evaluate.task_scores import answer_class, document_score, evaluate_answers
from kg_count.io.answers import GoldAnswer, SystemAnswer
from kg_count.io.questions import parse_question


def gold(count, *incidents):
    return GoldAnswer(count, {f"i{n}": list(docs) for n, docs in enumerate(incidents)})


def test_document_score_cases():
    assert document_score([], []) == (1.0, 1.0, 1.0)
    assert document_score(["a"], []) == (0.0, 0.0, 0.0)
    assert document_score([], ["a"]) == (0.0, 0.0, 0.0)
    score = document_score(["a", "b", "c"], ["a", "d"])
    assert score.precision == pytest.approx(1 / 3) and score.recall == pytest.approx(1 / 2)
    assert score.f1 == pytest.approx(0.4)


def test_s2_accuracy_rmse_doc_scores_and_answered_share():
    golds = {
        "2-1": gold(2, ["a", "b"], ["c"]),
        "2-2": gold(0),
        "2-3": gold(5, ["d"], ["e"], ["f"], ["g"], ["h"]),
        "2-4": gold(1, ["x"]),  # left unanswered
    }
    system = {
        "2-1": SystemAnswer(2, ["a", "b", "z"]),  # right count; P 2/3, R 2/3, F1 2/3
        "2-2": SystemAnswer(0, []),  # right; both empty -> 1
        "2-3": SystemAnswer(2, ["d"]),  # error -3; P 1, R 1/5, F1 1/3
        "9-9": SystemAnswer(1, []),  # not in gold
    }
    scores = evaluate_answers(golds, system)
    assert scores["subtask"] == 2
    assert scores["answered"] == pytest.approx(75.0)
    assert scores["accuracy"] == pytest.approx(200 / 3)
    assert scores["accuracy_norm"] == pytest.approx(50.0)
    assert scores["rmse"] == pytest.approx(math.sqrt(9 / 3))
    assert scores["doc_precision"] == pytest.approx(100 * (2 / 3 + 1 + 1) / 3)
    assert scores["doc_recall"] == pytest.approx(100 * (2 / 3 + 1 + 1 / 5) / 3)
    assert scores["doc_f1"] == pytest.approx(100 * (2 / 3 + 1 + 1 / 3) / 3)
    assert scores["doc_f1_norm"] == pytest.approx(scores["doc_f1"] * 0.75)
    assert scores["unknown_questions"] == ["9-9"]
    classes = scores["by_answer_class"]
    assert set(classes) == {"0", "1", "2", "4+"}
    assert classes["1"]["answered_questions"] == 0 and classes["1"]["accuracy"] == 0.0
    assert classes["4+"]["rmse"] == pytest.approx(3.0)


def test_s1_has_no_accuracy_and_scores_documents():
    golds = {"1-1": gold(1, ["a", "b"]), "1-2": gold(1, ["c"])}
    scores = evaluate_answers(golds, {"1-1": SystemAnswer(None, ["a"])})
    assert "accuracy" not in scores and "rmse" not in scores
    assert scores["answered"] == 50.0
    assert scores["doc_f1"] == pytest.approx(100 * 2 / 3)
    assert scores["doc_f1_norm"] == pytest.approx(100 / 3)


def test_breakdowns_by_event_type_and_property_pair():
    base = {"subtask": 3, "time": {"year": "2016"}}
    questions = {
        "3-1": parse_question(
            "3-1", {**base, "event_type": "killing", "location": {"state": "http://dbpedia.org/resource/Ohio"}}
        ),
        "3-2": parse_question("3-2", {**base, "event_type": "injuring", "participant": {"first": "John"}}),
    }
    scores = evaluate_answers(
        {"3-1": gold(1, ["a"]), "3-2": gold(3, ["b"])},
        {"3-1": SystemAnswer(1, ["a"]), "3-2": SystemAnswer(1, ["b"])},
        questions,
    )
    assert scores["by_event_type"]["killing"]["accuracy"] == 100.0
    assert scores["by_event_type"]["injuring"]["accuracy"] == 0.0
    assert set(scores["by_property_pair"]) == {"location+time", "time+participant"}


def test_mixed_subtasks_are_scored_apart_and_counts_required():
    scores = evaluate_answers(
        {"1-1": gold(1, ["a"]), "2-1": gold(0)}, {"1-1": SystemAnswer(None, ["a"]), "2-1": SystemAnswer(0, [])}
    )
    assert set(scores["subtasks"]) == {"1", "2"}
    assert scores["subtasks"]["2"]["accuracy"] == 100.0
    with pytest.raises(InputError, match="question 2-1"):
        evaluate_answers({"2-1": gold(0)}, {"2-1": SystemAnswer(None, [])})


def test_answer_classes():
    assert [answer_class(n) for n in (0, 1, 2, 3, 4, 11)] == ["0", "1", "2", "3", "4+", "4+"]
