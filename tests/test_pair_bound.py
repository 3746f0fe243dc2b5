"""The bound on a pair's logit over arrays (``pair_bound``) is never under the logit its features give."""

import math
import random

import numpy as np
import pytest

from kg_count.incidents.grouping import cluster
from kg_count.incidents.pairs.candidate_pairs import candidate_pair_array, candidate_pair_codes, pair_rows
from kg_count.incidents.pairs.coreference_model import shipped_coreference_model
from kg_count.incidents.pairs.pair_bound import may_link, upper_logits
from kg_count.settings import SETTINGS_ENV
from tests.helpers import context_of, random_model, random_reports


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bound_is_never_under_the_logit(seed):
    chosen = random.Random(seed)
    reports = random_reports(chosen, 160)
    context = context_of(reports, chosen)
    pairs = candidate_pair_array(reports, context.rarity)
    for model in (shipped_coreference_model(), random_model(chosen, context, pairs)):
        logits = {(i, j): model.logit(f) for i, j in pair_rows(pairs) if (f := context.features(i, j)) is not None}
        assert len(logits) > 1000
        for at_least in (-math.inf, model.logit([]) + 1.0):  # every pair refined, and only some
            bounds = upper_logits(context, model, pairs, at_least)
            under = [
                (pair, logits[pair], bound)
                for pair, bound in zip(pair_rows(pairs), bounds)
                if pair in logits and bound < logits[pair] - 1e-9
            ]
            assert not under, under[:3]
        reaching = may_link(context, model, pairs, model.threshold)
        threshold = math.log(model.threshold / (1 - model.threshold))
        missed = [
            pair
            for k, pair in enumerate(pair_rows(pairs))
            if logits.get(pair, -math.inf) >= threshold and not reaching[k]
        ]
        assert not missed
        assert 0 < reaching.sum() < len(pairs)  # and it does leave pairs out


def test_a_bound_read_exactly_is_the_logit_but_for_the_rules():
    """Refined for every pair (names and title words read exactly), the bound exceeds the logit by the rules' largest
    weight less the weight of the pair's own verdict, save for a cosine within a hair of a bin's edge."""
    chosen = random.Random(11)
    reports = random_reports(chosen, 120)
    context = context_of(reports, chosen)
    pairs = candidate_pair_array(reports, context.rarity)
    model = random_model(chosen, context, pairs)
    rules = max([0.0, *(v for f, v in model.weights.items() if f.startswith("rules:"))])
    bounds = upper_logits(context, model, pairs, -math.inf)
    excess = []
    for (i, j), bound in zip(pair_rows(pairs), bounds):
        features = context.features(i, j)
        if features is not None:
            verdict = model.weights.get(next(f for f in features if f.startswith("rules:")), 0.0)
            excess.append(bound - model.logit(features) - (rules - verdict))
    assert len(excess) > 1000 and min(excess) > -1e-6
    assert sum(e > 1e-6 for e in excess) <= len(excess) // 100


def test_bounds_over_threads_are_those_of_one_thread(monkeypatch, tmp_path):
    """Chunks bounded in several threads give each pair the bound one thread gives it."""
    chosen = random.Random(5)
    reports = random_reports(chosen, 160)
    context = context_of(reports, chosen)
    pairs = candidate_pair_array(reports, context.rarity)
    model = random_model(chosen, context, pairs)
    bounds = {}
    for threads in (1, 3):
        path = tmp_path / f"settings{threads}.toml"
        path.write_text(f"[batch]\ngrouping_processes = {threads}\n")
        monkeypatch.setenv(SETTINGS_ENV, str(path))
        bounds[threads] = upper_logits(context, model, pairs, model.logit([]) + 1.0)
    assert len(pairs) > 1000 and np.array_equal(bounds[1], bounds[3])


def test_pair_codes_are_read_as_the_pairs_they_stand_for(monkeypatch):
    """A whole grouping holds its candidate pairs as codes (``candidate_pair_codes``): bounding, the may-link mask
    and the pairs inside a link component (read a chunk at a time) are those of the index pairs."""
    chosen = random.Random(7)
    reports = random_reports(chosen, 160)
    context = context_of(reports, chosen)
    pairs = candidate_pair_array(reports, context.rarity)
    codes = candidate_pair_codes(reports, context.rarity)
    assert np.array_equal(codes, pairs[:, 0] * len(reports) + pairs[:, 1]) and np.array_equal(context.candidates, pairs)
    model = shipped_coreference_model()
    assert np.array_equal(upper_logits(context, model, codes, 0.0), upper_logits(context, model, pairs, 0.0))
    reaching = may_link(context, model, codes, model.threshold)
    assert reaching.dtype == bool and np.array_equal(reaching, may_link(context, model, pairs, model.threshold))
    components = [f"c{chosen.randrange(4)}" for _ in reports]
    label = dict(zip(range(len(reports)), components))
    inside = [i * len(reports) + j for i, j in pair_rows(pairs) if label[i] == label[j]]
    monkeypatch.setattr(cluster, "WITHIN_CHUNK", 7)  # chunks end between the codes of one report
    assert 0 < len(inside) < len(pairs) and cluster._within_codes(codes, components).tolist() == inside
