"""Calibrated counting: the count distributions, the training labels and folds, and the shipped
incident-match model on hand-made incidents (a follow-up story, a reporter's name)."""

import itertools
import math
import datetime as dt
from dataclasses import replace

import pytest
from rdflib import Graph, Literal

from kg_count.answer.graph_answer import answer_task_question
from kg_count.graph.document_graph import document_iri
from kg_count.incidents.store.incident_graph import incidents_as_triples
from kg_count.incidents.store.incident_versions import write_version
from kg_count.graph.namespaces import KGC
from kg_count.graph.store import GraphStore
from kg_count.incidents.grouping.scored_incidents import incidents_of
from kg_count.answer.count_distribution import count_distribution, most_probable
from kg_count.incidents.grouping.incident_match import (
    IncidentMatchModel,
    match_features,
    match_probability,
    shipped_model,
    training_settings,
)
from kg_count.answer.answer_prior import shipped_answer_prior
from kg_count.training.incident_match_fitting import IncidentCandidate, label_candidates, question_folds
from kg_count.io.answers import GoldAnswer
from kg_count.io.questions import parse_question
from tests.helpers import DBR, MEMPHIS, report


def test_poisson_binomial_and_its_mode():
    assert count_distribution([0.5, 0.5]) == pytest.approx([0.25, 0.5, 0.25])
    assert most_probable(count_distribution([0.9, 0.9, 0.2])) == 2
    assert most_probable(count_distribution([0.4, 0.4])) == 1  # 0.48 against 0.36 for none
    assert most_probable(count_distribution([])) == 0


def test_people_counts_weigh_each_incident_and_missed_ones_add():
    # one sure incident with 3 killed, one unlikely with 10: most probably 3 people
    assert most_probable(count_distribution([0.95, 0.2], [3, 10])) == 3
    assert sum(count_distribution([0.7, 0.3], [2, 5], missed=1.5)) == pytest.approx(1.0)
    assert most_probable(count_distribution([1.0], missed=2.5)) == 3


def test_count_distribution_is_the_enumerated_one_with_large_sums_folded_into_the_cap():
    probabilities, sizes, cap = [0.3, 0.9, 0.5, 0.25, 0.6], [2, 0, 3, 4, 1], 6
    expected = [0.0] * (cap + 1)
    for outcome in itertools.product((0, 1), repeat=len(sizes)):
        chance = math.prod(p if x else 1 - p for p, x in zip(probabilities, outcome))
        expected[min(sum(s * x for s, x in zip(sizes, outcome)), cap)] += chance
    assert count_distribution(probabilities, sizes, cap=cap) == pytest.approx(expected)
    with_missed = count_distribution(probabilities, sizes, missed=0.8, cap=cap)
    poisson = [math.exp(-0.8) * 0.8**m / math.factorial(m) for m in range(cap + 1)]
    assert with_missed == pytest.approx(
        [sum(expected[n] * poisson[total - n] for n in range(total + 1)) for total in range(cap + 1)], abs=1e-9
    )


def test_only_the_best_match_of_a_gold_incident_is_a_positive():
    gold = GoldAnswer(2, {"g1": ["a", "b", "c"], "g2": ["d"]})
    found = [
        IncidentCandidate("q", "i1", [], 0, ["a", "b"]),
        IncidentCandidate("q", "i2", [], 0, ["c"]),
        IncidentCandidate("q", "i3", [], 0, ["d"]),
        IncidentCandidate("q", "i4", [], 0, ["x"]),
    ]
    label_candidates(found, gold)
    assert [c.label for c in found] == [1, 0, 1, 0]


def test_folds_keep_a_state_together_and_a_city_with_its_state():
    def question(qid, location=None, participant=None):
        raw = {"subtask": 2, "event_type": "killing", "time": {"year": "2016"}}
        if location:
            raw["location"] = location
        if participant:
            raw["participant"] = participant
        return parse_question(qid, raw)

    questions = {
        "a": question("a", {"state": DBR + "Tennessee"}),
        "b": question("b", {"city": MEMPHIS}),
        "c": question("c", {"state": DBR + "Ohio"}),
        "d": question("d", participant={"full_name": "Marcus Deering"}),
        "e": question("e", participant={"last": "Deering"}),
    }
    folds = question_folds(questions, 2)
    assert folds["a"] == folds["b"] and folds["d"] == folds["e"]
    assert folds["a"] != folds["c"]
    assert folds == question_folds(dict(reversed(list(questions.items()))), 2)


def test_model_file_round_trip(tmp_path):
    model = IncidentMatchModel({"docs:<2": -0.5}, 0.3, 0.25, missed_rate={"2": 0.2})
    model.save(tmp_path / "m.json")
    again = IncidentMatchModel.load(tmp_path / "m.json")
    assert again.trained_with == training_settings()  # the settings in force when it was written
    assert again == replace(model, trained_with=training_settings())
    assert again.missed_rate == {"2": 0.2}


def _answer(tmp_path, reports, **asked):
    incidents = incidents_of(reports)
    with GraphStore(tmp_path / "store") as store:
        write_version(store, incidents_as_triples(incidents))
        for r in reports:  # the document ids the answer query reads
            graph = Graph(identifier=document_iri(r.doc_id))
            graph.add((document_iri(r.doc_id), KGC.docId, Literal(r.doc_id)))
            store.replace_graph(graph)
        question = parse_question("q", {"subtask": 2, "event_type": "killing", **asked})
        answer = answer_task_question(store, question, answer_prior=False)
    return incidents, answer


def test_a_follow_up_story_is_not_a_new_incident(tmp_path):
    shooting = [
        report("a", title="Man shot dead on Elm Street", dct="2016-03-14"),
        report("b", title="Victim of Elm Street shooting named", dct="2016-03-15"),
    ]
    # six weeks later: the sentencing story tells of the same day in the same city
    sentencing = report("c", title="Gunman sentenced for Elm Street killing", dct="2016-04-28")
    incidents, answer = _answer(
        tmp_path, shooting + [sentencing], location={"city": MEMPHIS}, time={"month": "03/2016"}
    )
    assert len(incidents) == 1 and answer.numerical_answer == 1 and answer.documents == ["a", "b", "c"]


def test_a_lone_story_about_an_incident_weeks_old_is_less_sure_than_a_fresh_one():
    (fresh,) = incidents_of([report("a", title="Man shot dead on Elm Street", dct="2016-03-14")])
    (late,) = incidents_of([report("c", title="Gunman sentenced for Elm Street killing", dct="2016-04-28")])
    assert "dct_gap:31-366" in late.evidence and late.confidence < fresh.confidence


def test_a_name_carried_only_by_a_reporter_weighs_less_than_a_victim_name():
    # The model learned from the roles the graph holds; they are noisy (about half of the name matches
    # on people marked "other" are right on test-dev), so a reporter's name lowers the probability
    # without ruling the incident out.
    model = shipped_model()
    question = parse_question(
        "q", {"subtask": 2, "event_type": "killing", "participant": {"last": "Smith"}, "time": {"year": "2016"}}
    )
    fit = {}
    for role in ("other", "victim"):
        features = match_features(question, dt.date(2016, 3, 14), "day", "text", 1, 0, {role})
        fit[role] = match_probability(model, 0.6, features)
    assert fit["other"] < fit["victim"]


def test_a_name_whose_carrier_hardly_took_part_weighs_less():
    # the person-status model's P(took part) of the name's carrier is a match feature: a reporter's or a
    # neighbour's name lowers the probability that the incident answers a participant question
    model = shipped_model()
    question = parse_question(
        "q", {"subtask": 2, "event_type": "killing", "participant": {"last": "Smith"}, "time": {"year": "2016"}}
    )
    fit = {}
    for took_part in (0.1, 0.9):
        features = match_features(question, dt.date(2016, 3, 14), "day", "text", 1, 0, {"other"}, took_part)
        fit[took_part] = match_probability(model, 0.6, features)
    assert fit[0.1] < fit[0.9]


def test_the_shipped_model_loads_offline():
    model = shipped_model()
    assert model.weights and 0 < model.threshold < 1 and set(model.missed_rate) == {"2", "3"}
    prior = shipped_answer_prior()
    assert set(prior.weight) == {"2", "3"} and {"s2", "s3"} <= set(prior.distributions)


def test_measuring_reads_a_store_as_built_and_needs_its_incident_graph(tmp_path):
    from kg_count.errors import StoreError
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.update.materialise import stored_fingerprint
    from kg_count.training.incident_match_fitting import labelled_tasks

    with GraphStore(tmp_path / "store"):
        pass
    with pytest.raises(StoreError, match="no incident graph"):
        labelled_tasks([(tmp_path, tmp_path / "store")], as_built=True)
    assert labelled_tasks([(tmp_path, tmp_path / "store")]) == ({}, {}, {})  # builds the (empty) incident graph
    with GraphStore(tmp_path / "store") as store:
        assert stored_fingerprint(store) is not None
    assert labelled_tasks([(tmp_path, tmp_path / "store")], as_built=True) == ({}, {}, {})


def test_reports_can_be_grouped_by_another_coreference_model(tmp_path):
    import json

    from kg_count.incidents.pairs.coreference_model import COREFERENCE_MODEL_PATH, shipped_coreference_model
    from kg_count.incidents.update.materialise import ensure_incidents, fingerprint, stored_fingerprint
    from kg_count.training.incident_match_fitting import labelled_tasks

    reports = [report("a"), report("b")]  # one shooting, same city and day
    assert len(incidents_of(reports)) == 1
    never = json.loads(COREFERENCE_MODEL_PATH.read_text())
    never.update(threshold=1.5, group_threshold=1.5)  # no probability reaches it
    path = tmp_path / "never.json"
    path.write_text(json.dumps(never))
    assert len(incidents_of(reports, coreference=shipped_coreference_model(path))) == 2
    with GraphStore(tmp_path / "store") as store:
        assert ensure_incidents(store, coreference_path=path)[1]
        assert stored_fingerprint(store) == fingerprint(store, path) != fingerprint(store)
        assert not ensure_incidents(store, coreference_path=path)[1]  # built so already
    assert labelled_tasks([(tmp_path, tmp_path / "store")], as_built=True, coreference_path=path) == ({}, {}, {})
