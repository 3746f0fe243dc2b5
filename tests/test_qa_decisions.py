"""Choosing TORQUE decision thresholds from cross-validated confidences."""

from __future__ import annotations

from kg_count.qa.inputs.readers import TorqueQuestion
from kg_count.qa.learned.thresholds import choose_torque_thresholds, predictions_with, threshold_from
from kg_count.qa.datasets.torque import Candidates


def question(text: str, *answers: tuple) -> TorqueQuestion:
    return TorqueQuestion("p", "passage", text, False, "1", tuple(answers))


def test_each_kind_of_question_gets_the_threshold_that_scores_best_on_it():
    questions = [
        question("before 1?", ((0, 1),)),
        question("before 2?", ((4, 5),)),
        question("after 1?", ((2, 3), (6, 7))),
    ]
    candidates = {
        "p": {
            "before 1?": Candidates("before", "temporal", ((0, 1, 0.9), (2, 3, 0.6))),
            "before 2?": Candidates("before", "temporal", ((4, 5, 0.75), (6, 7, 0.62))),
            "after 1?": Candidates("after", "temporal", ((2, 3, 0.3), (6, 7, 0.25), (0, 1, 0.1))),
        }
    }
    chosen = choose_torque_thresholds(questions, candidates)
    assert 0.62 < chosen["before"] <= 0.75
    assert 0.1 < chosen["after"] <= 0.25
    predictions = predictions_with(candidates, threshold_from(chosen))
    assert predictions["p"] == {"before 1?": [[0, 1]], "before 2?": [[4, 5]], "after 1?": [[2, 3], [6, 7]]}


def test_ties_go_to_the_threshold_nearest_one_half_and_unknown_kinds_take_the_default():
    questions = [question("during?", ((0, 1),))]
    candidates = {"p": {"during?": Candidates("overlaps", "temporal", ((0, 1, 0.95),)), "other?": None}}
    assert choose_torque_thresholds(questions, candidates) == {"overlaps": 0.5}
    assert predictions_with(candidates, threshold_from({}, default=0.96)) == {"p": {"during?": [], "other?": []}}
