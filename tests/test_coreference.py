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
