"""Cues of how a story's people fared: survivors, and a shooter's own death."""

import pytest

from kg_count.nlp.harm_cues import self_harm_feature, survival_feature, survival_sentences


@pytest.mark.parametrize(
    "sentence",
    [
        "The other teenager is recovering from his injuries .",
        "Both victims are expected to survive , police said .",
        "He was treated and released from a local hospital .",
        "She was taken to the hospital with non - life - threatening injuries .",
        "The wound is not believed to be life - threatening .",
        "The boy was listed in critical but stable condition .",
        "The girl remains hospitalized .",
    ],
)
def test_a_sentence_telling_of_a_survivor_counts(sentence):
    assert survival_sentences([sentence]) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "The man did not survive his wounds .",
        "He never recovered .",
        "Police recovered a handgun at the scene .",
        "The victim was pronounced dead at the hospital .",
    ],
)
def test_a_sentence_denying_survival_or_of_something_else_does_not(sentence):
    assert survival_sentences([sentence]) == 0


def test_the_survival_feature_bins_the_number_of_sentences():
    lines = ["A man is recovering .", "Another is in stable condition .", "A third man died ."]
    assert survival_feature(lines[2:]) == "survivors:<=0"
    assert survival_feature(lines[1:]) == "survivors:<=1"
    assert survival_feature(lines) == "survivors:>1"


@pytest.mark.parametrize(
    "text, feature",
    [
        ("Police called it a murder - suicide . The man shot himself .", "self:murder_suicide"),
        ("He killed his wife and then turned the gun on himself .", "self:killed_self"),
        ("The boy accidentally shot himself in the leg .", "self:shot_self"),
        ("A man was shot and killed on Friday .", None),
    ],
)
def test_the_strongest_self_harm_cue_is_the_feature(text, feature):
    assert self_harm_feature(text) == feature
