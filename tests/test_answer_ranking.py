"""Ranking ESTER candidate answers: features, fitting, answer selection and the ranker file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kg_count.errors import SetupError
from kg_count.qa.learned.answer_ranking import (
    FEATURES,
    AnswerRanker,
    AnswerCandidate,
    QuestionCandidates,
    fit_ranker,
    rank_features,
    train_answer_ranker,
)
from kg_count.qa.inputs.readers import EsterQuestion


def feature(matrix: np.ndarray, row: int, name: str) -> float:
    return matrix[row, FEATURES.index(name)]


def test_features_say_how_confident_and_how_near_each_candidate_is():
    anchor = 100
    candidates = [
        AnswerCandidate(300, 305, "far after", 0.9),
        AnswerCandidate(90, 95, "just before", 0.5),
        AnswerCandidate(120, 125, "just after", 0.2),
    ]
    matrix = rank_features(candidates, anchor, "causes")
    assert matrix.shape == (3, len(FEATURES))
    assert [feature(matrix, i, "confidence_rank=0") for i in range(3)] == [1, 0, 0]
    assert (
        feature(matrix, 0, "confidence_logit")
        > feature(matrix, 1, "confidence_logit")
        == 0
        > feature(matrix, 2, "confidence_logit")
    )
    assert [feature(matrix, i, "distance_rank=0") for i in range(3)] == [0, 1, 0]
    assert [feature(matrix, i, "nearest_on_its_side") for i in range(3)] == [0, 1, 1]
    assert feature(matrix, 0, "second_on_its_side") == 1
    assert [feature(matrix, i, "causes&after") for i in range(3)] == [1, 0, 1]
    assert feature(matrix, 1, "causes&before") == 1 and feature(matrix, 1, "coreferent&before") == 0
    assert rank_features([], anchor, "causes").shape == (0, len(FEATURES))


def test_features_say_where_each_candidate_stands_against_the_anchor_the_question_and_the_best():
    candidates = [
        AnswerCandidate(120, 125, "shot two people", 0.8, same_sentence=True, question_share=0.5),
        AnswerCandidate(300, 304, "said", 0.08, reporting=True),
    ]
    matrix = rank_features(candidates, 100, "causes")
    assert [feature(matrix, i, "same_sentence_as_anchor") for i in range(2)] == [1, 0]
    assert [feature(matrix, i, "question_word_share") for i in range(2)] == [0.5, 0]
    assert [feature(matrix, i, "reporting_event") for i in range(2)] == [0, 1]
    assert feature(matrix, 0, "log_confidence_below_best") == 0
    assert feature(matrix, 1, "log_confidence_below_best") == pytest.approx(np.log(0.0801 / 0.8001))
    assert feature(matrix, 0, "log_candidates") == pytest.approx(np.log(2))


def distractor_question(right_is_nearest: bool, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Candidates whose confidence says nothing; the right one is the nearest to the anchor."""
    rng = np.random.default_rng(seed)
    offsets = rng.permutation([10, 40, 80, 160])
    candidates = [
        AnswerCandidate(100 + int(o), 100 + int(o) + 3, "x", float(c)) for o, c in zip(offsets, rng.random(4))
    ]
    candidates.sort(key=lambda c: -c.confidence)
    question = QuestionCandidates("causes", 100, candidates)
    nearest = min(range(4), key=lambda i: candidates[i].begin)
    return question.features, np.array([float(i == nearest) for i in range(4)])


def test_a_fitted_ranker_learns_what_the_confidence_misses():
    weights = fit_ranker([distractor_question(True, seed) for seed in range(40)])
    ranker = AnswerRanker(weights)
    right = 0
    for seed in range(100, 120):
        features, labels = distractor_question(True, seed)
        right += labels[int(np.argmax(features @ ranker.weights))]
    assert right >= 18
    alone = AnswerRanker.confidence_only()
    assert (alone.weights != 0).sum() == 1 and alone.threshold > 1


def question_of(candidates: list[AnswerCandidate]) -> QuestionCandidates:
    return QuestionCandidates("causes", 0, candidates)


def test_answers_start_with_the_likeliest_and_keep_distinct_phrases_above_the_threshold():
    weights = np.zeros(len(FEATURES))
    weights[0] = 1.0
    candidates = [
        AnswerCandidate(10, 12, "the shooting", 0.99),
        AnswerCandidate(20, 22, "The shooting", 0.98),
        AnswerCandidate(30, 32, "a fire", 0.97),
        AnswerCandidate(40, 42, "a storm", 0.01),
    ]
    ranker = AnswerRanker(weights, threshold=0.15)  # probabilities about 0.53, 0.26, 0.18, 0.00
    assert ranker.answers(question_of(candidates), limit=3) == ["the shooting", "a fire"]
    assert ranker.answers(question_of(candidates), limit=1) == ["the shooting"]
    ranker.threshold = 1.01
    assert ranker.answers(question_of(candidates), limit=3) == ["the shooting"]
    assert ranker.answers(question_of([]), limit=3) == []


def ester_question(index: int, triggers: tuple, texts: tuple = ()) -> EsterQuestion:
    return EsterQuestion(index, "p", "passage", "Why?", "Causal", answer_texts=texts, gold_triggers=triggers)


def test_training_chooses_how_many_answers_score_best():
    two_right = [AnswerCandidate(10, 12, "shot him", 0.6), AnswerCandidate(30, 32, "robbed a bank", 0.55)]
    pairs = [
        (ester_question(i, ("shot", "robbed"), ("shot him", "robbed a bank")), question_of(two_right)) for i in range(5)
    ]
    ranker = train_answer_ranker(pairs, limit=3)
    assert ranker.threshold < 1
    assert sorted(ranker.answers(question_of(two_right), limit=3)) == ["robbed a bank", "shot him"]
    one_right = [AnswerCandidate(10, 12, "shot him", 0.6), AnswerCandidate(30, 32, "a storm", 0.55)]
    pairs = [(ester_question(i, ("shot",), ("shot him",)), question_of(one_right)) for i in range(5)]
    assert train_answer_ranker(pairs, limit=3).answers(question_of(one_right), limit=3) == ["shot him"]


def test_the_ranker_file_round_trips_and_a_stale_one_names_itself(tmp_path):
    ranker = AnswerRanker(np.linspace(-1, 1, len(FEATURES)), threshold=0.3)
    ranker.save(tmp_path / "ranker.json")
    again = AnswerRanker.load(tmp_path / "ranker.json")
    assert np.allclose(again.weights, ranker.weights) and again.threshold == 0.3
    stale = json.loads((tmp_path / "ranker.json").read_text())
    stale["features"] = stale["features"][:-1]
    (tmp_path / "stale.json").write_text(json.dumps(stale))
    with pytest.raises(SetupError, match="stale.json"):
        AnswerRanker.load(tmp_path / "stale.json")
    with pytest.raises(SetupError, match="missing.json"):
        AnswerRanker.load(tmp_path / "missing.json")


def test_the_shipped_ranker_loads_with_this_versions_features():
    from kg_count.qa.learned.model_set import shipped_qa_models

    ranker = shipped_qa_models().answer_ranker
    assert ranker.weights.shape == (len(FEATURES),) and 0 < ranker.threshold <= 1.01
