"""Choosing TORQUE decision thresholds from cross-validated confidences, and the answer-nothing gate."""

from __future__ import annotations

from kg_count.learning.linear_model import LinearModel
from kg_count.qa.inputs.readers import TorqueQuestion
from kg_count.qa.learned.answer_nothing import choose_gate_thresholds, decided_spans, gated_spans, no_answer
from kg_count.qa.learned.thresholds import choose_torque_thresholds, predictions_with, threshold_from
from kg_count.qa.learned.torque_candidates import Candidates


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


def gate_of(weights: dict, bias: float, nothing: float, best_one: float) -> LinearModel:
    model = LinearModel(weights, bias)
    model.thresholds = {"nothing": nothing, "best_one": best_one}
    return model


def test_the_gate_answers_nothing_when_it_is_sure_no_event_fits():
    found = Candidates("after", "temporal", ((10, 15, 0.8), (20, 25, 0.6)), 0, 3, "after")
    sure_of_nothing = gate_of({"kind=after": 5.0}, 0.0, nothing=0.6, best_one=0.0)
    assert decided_spans(found, 0.5, sure_of_nothing, "after") == []
    unsure = gate_of({"kind=after": -5.0}, 0.0, nothing=0.6, best_one=0.0)
    assert decided_spans(found, 0.5, unsure, "after") == [(10, 15), (20, 25)]
    assert decided_spans(found, 0.5, None, "after") == [(10, 15), (20, 25)]


def test_a_gate_sure_something_fits_answers_the_best_candidate_when_none_reaches_its_threshold():
    found = Candidates("before", "temporal", ((30, 34, 0.4), (10, 15, 0.3)), 0, 3, "before")
    sure_of_something = gate_of({"kind=before": -5.0}, 0.0, nothing=0.6, best_one=0.2)
    assert decided_spans(found, 0.5, sure_of_something, "before") == [(30, 34)]
    assert decided_spans(found, 0.5, gate_of({}, 0.0, nothing=0.6, best_one=0.2), "before") == []


def test_gate_thresholds_are_chosen_by_f1_plus_em_on_held_out_probabilities():
    empty = question("after 1?")
    answered = question("after 2?", ((2, 3),))
    found = Candidates("after", "temporal", ((2, 3, 0.7),), 0, 2, "after")
    items = [(empty, found, 0.5, "after"), (answered, found, 0.5, "after")]
    chosen = choose_gate_thresholds(items, [0.9, 0.2])
    assert 0.2 < chosen["nothing"] <= 0.9
    spans = [gated_spans(c, t, p, chosen["nothing"], chosen["best_one"]) for (_, c, t, _), p in zip(items, [0.9, 0.2])]
    assert spans == [[], [(2, 3)]]


def test_an_unplaced_answer_word_is_not_an_empty_answer():
    assert no_answer(question("after?", ()))
    assert not no_answer(question("after?", ((2, 3),)))
    unplaced = TorqueQuestion("p", "passage", "after?", False, "", ((),), unsure=((0, 3), (8, 11)))
    assert not no_answer(unplaced)
