"""The answer prior: learned from gold answers for any distribution, weighed into S2 and S3 decisions,
switchable; and participant questions that count the named people with the asked status."""

import datetime as dt

import pytest

from kg_count.answer.graph_answer import FoundIncident, answer_from_candidates, count_likelihood
from kg_count.answer.answer_prior import AnswerPrior, fit_prior, shape_keys
from kg_count.incidents.grouping.incident_match import IncidentMatchModel
from kg_count.io.questions import parse_question

DBR = "http://dbpedia.org/resource/"


def _question(subtask=2, **asked):
    asked = asked or {"location": {"state": DBR + "Ohio"}, "time": {"year": "2016"}}
    return parse_question("q", {"subtask": subtask, "event_type": "killing", **asked})


def _prior(answers, weight=1.0, **fit):
    question = _question()
    return fit_prior(((question, a) for a in answers), {"2": weight}, **{"pseudo": 10.0, **fit})


def test_the_prior_moves_a_close_call_towards_the_answers_that_exist():
    likelihood = [0.05, 0.5, 0.45]  # the likelihood alone says 1, barely
    rare_one = _prior([2] * 40 + [3] * 10 + [1])
    assert rare_one.decide(_question(), likelihood, weight=0.0) == 1
    assert rare_one.decide(_question(), likelihood) == 2
    # the same code, learned from answers where 1 is common and 2 rare, keeps 1: no value is special
    rare_two = _prior([1] * 40 + [3] * 10 + [2])
    assert rare_two.decide(_question(), likelihood) == 1


def test_strong_likelihood_outweighs_the_prior():
    prior = _prior([2] * 50 + [1])
    assert prior.decide(_question(), [0.0, 0.998, 0.002]) == 1


def test_a_shape_without_answers_falls_back_to_its_subtask_and_nothing_learned_is_neutral():
    prior = _prior([2] * 30)
    other_shape = _question(location={"city": DBR + "Dayton,_Ohio"}, time={"day": "14/03/2016"})
    assert shape_keys(other_shape)[0] not in prior.distributions
    assert prior.distribution_for(other_shape) == prior.distributions[shape_keys(other_shape)[1]]
    assert AnswerPrior().decide(_question(), [0.1, 0.6, 0.3]) == 1


@pytest.mark.parametrize("tail", ["geometric", "power"])
def test_large_answers_keep_a_tail_and_the_prior_round_trips(tail):
    prior = _prior([2] * 20 + [12, 30, 80], tail=tail)
    logs = prior.log_prior(_question(), 100)
    assert all(a > b for a, b in zip(logs[10:], logs[11:]))  # the tail decreases and never vanishes
    assert sum(prior.distributions[shape_keys(_question())[0]]) == pytest.approx(1.0)
    assert AnswerPrior.from_json(prior.to_json()).log_prior(_question(), 100) == pytest.approx(logs, abs=1e-2)


def _incident(iri, killed=1, named=None):
    return FoundIncident(iri, killed, 0, 0, dt.date(2016, 3, 14), "day", "text", 0.9, ["d-" + iri], named=named or {})


def test_switching_the_prior_off_gives_the_likelihood_alone():
    model, prior = IncidentMatchModel({}, 0.0, 0.5), _prior([2] * 40 + [1])
    question = _question()
    incidents = [_incident("a"), _incident("b")]
    probabilities = [0.9, 0.4]  # likelihood: 1 is likeliest (0.54), 2 next (0.36)
    assert answer_from_candidates(question, incidents, probabilities, model, None).numerical_answer == 1
    assert answer_from_candidates(question, incidents, probabilities, model, prior).numerical_answer == 2


def test_a_participant_question_counts_the_named_people_with_the_asked_status():
    # "How many people named Moss were killed in 2016?": the incident killed three, but the Moss it names
    # was most probably injured
    question = _question(3, participant={"last": "Moss"}, time={"year": "2016"})
    moss = {"p0": {"participant": 0.9, "killed": 0.1, "injured": 0.85}}
    incident = _incident("a", killed=3, named=moss)
    assert count_likelihood(question, [incident], [0.95], 0.0)[0] > 0.5
    killed_moss = _incident("b", killed=3, named={"p0": {"participant": 0.9, "killed": 0.9, "injured": 0.05}})
    likelihood = count_likelihood(question, [killed_moss], [0.95], 0.0)
    assert max(range(len(likelihood)), key=likelihood.__getitem__) == 1
    # a question without a name still counts everyone of the asked status
    broad = _question(3)
    assert max(range(4), key=count_likelihood(broad, [incident], [0.95], 0.0).__getitem__) == 3
