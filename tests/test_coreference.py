"""Coreference metrics on the worked example of Pradhan et al. (2014), computed by hand.

Key {a b c} {d e f g}; response {a b} {c d} {f g h i}.
"""

import pytest

from kg_count.evaluate.coreference import bcub, blanc_counts, blanc_from_counts, ceafe, ceafm, muc, score_coreference

KEY = [frozenset("abc"), frozenset("defg")]
RESPONSE = [frozenset("ab"), frozenset("cd"), frozenset("fghi")]


def prf(rn, rd, pn, pd):
    r, p = rn / rd, pn / pd
    return r, p, 2 * r * p / (r + p)


def test_muc():
    assert muc(KEY, RESPONSE) == (2, 5, 2, 5)


def test_bcub():
    r, p, f = prf(*bcub(KEY, RESPONSE))
    assert r == pytest.approx(35 / 12 / 7) and p == pytest.approx(0.5) and f == pytest.approx(0.4545, abs=1e-4)


def test_ceaf_mention_and_entity():
    assert prf(*ceafm(KEY, RESPONSE))[:2] == pytest.approx((4 / 7, 4 / 8))
    r, p, _ = prf(*ceafe(KEY, RESPONSE))
    assert r == pytest.approx(1.3 / 2) and p == pytest.approx(1.3 / 3)


def test_blanc():
    assert blanc_counts(KEY, RESPONSE) == (9, 8, 2, 12, 20, 8)
    r, p, f = blanc_from_counts(blanc_counts(KEY, RESPONSE))
    assert r == pytest.approx((2 / 9 + 8 / 12) / 2)
    assert p == pytest.approx((2 / 8 + 8 / 20) / 2)
    assert f == pytest.approx((4 / 17 + 0.5) / 2)


def test_blanc_special_cases():
    singletons = [frozenset("a"), frozenset("b")]
    assert blanc_from_counts(blanc_counts(singletons, singletons)) == (1.0, 1.0, 1.0)
    one = [frozenset("ab")]
    assert blanc_from_counts(blanc_counts(one, one)) == (1.0, 1.0, 1.0)


def test_perfect_and_per_document_versus_cross_document():
    key = {"d1": {1: [(0, 0), (3, 4)]}, "d2": {1: [(2, 2)]}}
    assert score_coreference(key, key)["average"] == pytest.approx(100.0)
    split = {"d1": {1: [(0, 0), (3, 4)]}, "d2": {2: [(2, 2)]}}
    per_doc = score_coreference(key, split)
    assert per_doc["muc"]["f1"] == pytest.approx(100.0)
    cross = score_coreference(key, split, cross_document=True)
    assert cross["muc"]["recall"] == pytest.approx(50.0)
    assert cross["muc"]["precision"] == pytest.approx(100.0)


def test_blanc_counts_match_listing_every_link():
    import random
    from itertools import combinations

    from kg_count.evaluate.coreference import blanc_counts

    def listed(entities):
        coref = {frozenset(p) for e in entities for p in combinations(e, 2)}
        mentions = [(m, i) for i, e in enumerate(entities) for m in e]
        return coref, {frozenset((a, b)) for (a, i), (b, j) in combinations(mentions, 2) if i != j}

    generator = random.Random(7)
    for _ in range(50):

        def partition(mentions):
            groups: dict[int, set] = {}
            for m in mentions:
                groups.setdefault(generator.randrange(4), set()).add(m)
            return [frozenset(g) for g in groups.values()]

        key = partition(generator.sample(range(12), generator.randrange(1, 12)))
        response = partition(generator.sample(range(12), generator.randrange(1, 12)))
        (kc, kn), (rc, rn) = listed(key), listed(response)
        assert blanc_counts(key, response) == (len(kc), len(rc), len(kc & rc), len(kn), len(rn), len(kn & rn))
