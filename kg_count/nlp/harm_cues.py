"""Cues of how a story's people fared, read from its sentences' words.

Survival: sentences that tell of someone alive after being harmed (recovering, expected to survive, treated and
released, in a hospital's condition, wounds not life-threatening). How many a story has is a feature of its injured
count's candidates: a story of a killing that also tells of a survivor ("the other teenager is recovering from his
injuries") reports someone injured even where no number is stated.

Self-harm: a murder-suicide, or a shooter who killed or shot himself. The archive counts a shooter's suicide among
the killed, while stories count the victims ("killed his wife and then himself": two killed, one stated), so the
killed count's candidates gain each stated number plus one, and every candidate the kind of cue the story has."""

from __future__ import annotations

import re

from kg_count.learning.bins import interval_name

SURVIVAL_CUES = re.compile(
    r"\b(?:"
    r"non-?\s?life-?\s?threatening"
    r"|not (?:believed to be |considered |thought to be )?life-?\s?threatening"
    r"|expected to (?:survive|recover|live|be (?:ok|okay|fine|all right))"
    r"|(?:is|are|was|were) (?:still |now )?recovering"
    r"|recovering (?:from|at|in)"
    r"|treated and released"
    r"|released from (?:the |a )?hospital"
    r"|in (?:stable|critical|serious|fair|good|grave|guarded)(?: but stable| and stable)? condition"
    r"|(?:remains?|remained) (?:hospitalized|in (?:the |a )?hospital|in intensive care)"
    r"|survived"
    r"|minor injuries"
    r")"
)
SHOOTER_AMONG_KILLED = frozenset({"self:murder_suicide", "self:killed_self"})  # the cues that add the shooter's death
GLUED_DASH = re.compile(r"\s*-\s*")


def survival_sentences(sentences) -> int:
    """How many of ``sentences`` (spaCy spans, or strings) tell of someone alive after harm (``SURVIVAL_CUES``);
    a survival denied ("did not survive", "never recovered") is none."""
    count = 0
    for sentence in sentences:
        text = GLUED_DASH.sub("-", str(sentence).lower())
        count += any(not _denied(text, m.start()) for m in SURVIVAL_CUES.finditer(text))
    return count


def _denied(text: str, start: int) -> bool:
    return bool(re.search(r"\b(?:not|never|n't)\s*$", text[:start]))


SELF_HARM_CUES = (
    ("murder_suicide", re.compile(r"\bmurder-suicide\b")),
    (
        "killed_self",
        re.compile(r"\b(?:killed|turned the gun on) (?:him|her|them)sel(?:f|ves)\b|took (?:his|her) own life"),
    ),
    ("shot_self", re.compile(r"\bshot (?:him|her|them)sel(?:f|ves)\b")),
)


def self_harm_feature(text: str) -> str | None:
    """The strongest self-harm cue of a story's ``text`` (``SELF_HARM_CUES``, in that order) as a feature of its
    killed count's candidates, ``self:murder_suicide`` say; None when it has none."""
    text = GLUED_DASH.sub("-", text.lower())
    return next((f"self:{name}" for name, cue in SELF_HARM_CUES if cue.search(text)), None)


def survival_feature(sentences) -> str:
    """The feature of the injured count's candidates that says how many ``sentences`` tell of a survivor."""
    return f"survivors:{interval_name(survival_sentences(sentences), (0, 1), closed='above')}"
