"""Event mentions and their types on hand-written sentences, the ambiguous ones included."""

import os
import subprocess
import sys

import pytest

from kg_count.nlp.events import find_event_mentions
from kg_count.nlp.lexicon import event_lexicon
from tests.helpers import annotated


def typed(text: str) -> list[tuple[str, str | None, str | None]]:
    return [(m.lemma, m.frame, m.event_type) for m in find_event_mentions(annotated(text))]


def types_of(text: str, lemma: str) -> list[str | None]:
    """The event types of the mentions of ``lemma`` in ``text``."""
    return [event_type for found, _, event_type in typed(text) if found == lemma]


@pytest.mark.parametrize(
    "text, lemma, frame, event_type",
    [
        ("The suspect fired a gun at the officers .", "fire", "Shoot_projectiles", None),
        ("The team fired the coach on Monday .", "fire", "Firing", "job_firing"),
        ("He was fired from his job at the bank .", "fire", "Firing", "job_firing"),
        ("The fire spread to two homes .", "fire", "Fire_burning", "fire_burning"),
        ("Rifle fire killed two women in the yard .", "fire", "Shoot_projectiles", None),
        ("Witnesses heard rapid fire before the victims fell .", "fire", "Shoot_projectiles", None),
        ("A man was shot in the leg .", "shoot", "Shoot_projectiles", "injuring"),
        ("A man was shot dead on Friday .", "shoot", "Shoot_projectiles", "killing"),
        ("A woman was fatally shot on Main Street .", "shoot", "Shoot_projectiles", "killing"),
        ("The company will lay off 300 workers .", "lay off", "Firing", "job_firing"),
        ("Two people were murdered in their home .", "murder", "Killing", "killing"),
        ("Three people were wounded .", "wound", "Cause_harm", "injuring"),
        ("A man was shot Friday and later succumbed to his injuries .", "shoot", "Shoot_projectiles", "killing"),
    ],
)
def test_types_in_context(text, lemma, frame, event_type):
    assert (lemma, frame, event_type) in typed(text)


def test_a_shootings_multiplier_counts_the_shot_unless_its_own_words_tell_of_a_death():
    assert ("shooting", "Shoot_projectiles", "injuring") in typed("One man is dead after a double shooting .")
    assert ("shooting", "Shoot_projectiles", "killing") in typed("Police are investigating a fatal double shooting .")


def test_shot_alone_is_injuring_until_someone_dies():
    assert ("shoot", "Shoot_projectiles", "injuring") in typed("A teen was shot Saturday night .")
    assert ("shoot", "Shoot_projectiles", "killing") in typed("A teen was shot and later died at the hospital .")


def test_negated_and_legal_senses_are_not_typed():
    assert ("injure", "Cause_harm", None) in typed("No one was injured in the fire .")
    assert typed("The judge dismissed the case .") == []
    assert ("shot", "Shoot_projectiles", None) in typed("Shots were fired into the house .")


@pytest.mark.parametrize(
    "text, lemma",
    [
        ("He was charged with attempted murder .", "murder"),
        ("There was no evidence of a suicide attempt .", "suicide"),
        ("He tried to kill his wife .", "kill"),
        ("The suicidal man climbed a tree .", "suicidal"),
        ("He was charged with aggravated assault with a deadly weapon .", "deadly"),
    ],
)
def test_an_attempted_killing_a_state_of_mind_or_a_weapons_kind_is_no_killing(text, lemma):
    assert types_of(text, lemma) == [None]


@pytest.mark.parametrize(
    "text, lemma",
    [
        ("They could have killed me .", "kill"),
        ("I could have been killed .", "kill"),
        ("Doctors said he could die .", "die"),
        ("She would have died without the officer .", "die"),
        ("It might have been fatal .", "fatal"),
    ],
)
def test_a_harm_only_supposed_is_no_event(text, lemma):
    assert types_of(text, lemma) == [None]


def test_a_later_harm_told_with_would_is_typed():
    assert ("die", "killing") in [(lemma, t) for lemma, _, t in typed("The man , who would later die , was shot .")]


@pytest.mark.parametrize(
    "text, lemma",
    [
        ("The victim did not survive .", "die"),
        ("He later succumbed at the hospital .", "succumb"),
        ("She was taken to the medical center where she passed away .", "pass away"),
        ("( UPDATE ) Klamath Boy on Life Support After Being Shot in the Head Dies", "die"),
    ],
)
def test_a_death_told_without_die_or_in_a_headline_is_a_killing(text, lemma):
    assert "killing" in types_of(text, lemma)


@pytest.mark.parametrize(
    "text, lemma",
    [
        ("Maribel Barrera was fatally injured after shots were fired .", "injure"),
        ("The clerk was mortally wounded in the robbery .", "wound"),
    ],
)
def test_a_harm_its_own_modifier_calls_fatal_is_a_killing(text, lemma):
    assert types_of(text, lemma) == ["killing"]


def test_a_harm_not_called_fatal_stays_an_injuring():
    assert types_of("The clerk was critically wounded in the robbery .", "wound") == ["injuring"]


def test_a_survival_is_no_death():
    assert [t for _, _, t in typed("The victim survived .")] == []


def test_a_killing_charged_or_done_is_still_typed():
    assert ("murder", "Killing", "killing") in typed("He was charged with murder .")
    assert ("suicide", None, "killing") in typed("She died in an apparent suicide .")
    assert ("deadly", "killing") in [
        (lemma, event_type) for lemma, _, event_type in typed("It was a deadly shooting .")
    ]


def test_wordnet_hyponyms_type_words_no_frame_lists():
    lexicon = event_lexicon()
    assert lexicon[("slay", "VERB")].event_type == "killing"
    assert lexicon[("strangle", "VERB")].event_type == "killing"
    assert lexicon[("furlough", "VERB")].event_type == "job_firing"
    assert lexicon[("wildfire", "NOUN")].event_type == "fire_burning"
    assert lexicon[("kill", "VERB")].frame == "Killing" and lexicon[("kill", "VERB")].synset == "kill.v.01"


def test_the_lexicon_is_the_same_whatever_the_hash_seed():
    script = (
        "import hashlib; from kg_count.nlp.lexicon import event_lexicon; "
        "print(hashlib.sha256(repr(sorted(event_lexicon().items())).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(digests) == 1
