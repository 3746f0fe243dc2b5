"""Follow-up stories: a title with a word of an arrest, a trial, a funeral ... reports on an incident later."""

from __future__ import annotations

import re
from functools import lru_cache


FOLLOW_UP_WORDS = frozenset(
    {
        "arrest",
        "arrested",
        "arrests",
        "charged",
        "charges",
        "charge",
        "sentenced",
        "sentence",
        "sentencing",
        "trial",
        "court",
        "guilty",
        "plea",
        "pleads",
        "pleaded",
        "convicted",
        "jury",
        "judge",
        "funeral",
        "vigil",
        "memorial",
        "remember",
        "remembered",
        "anniversary",
        "lawsuit",
        "sues",
        "indicted",
        "indictment",
        "hearing",
        "bond",
        "bail",
        "prison",
        "years",
        "life",
        "verdict",
        "murder",
        "manslaughter",
        "extradited",
        "custody",
        "suspect",
        "suspects",
        "mourn",
        "mourns",
        "honor",
        "honored",
        "rally",
        "protest",
    }
)


@lru_cache(maxsize=1 << 19)
def has_follow_up_title(title: str) -> bool:
    """Whether a title has a word of follow-up stories (an arrest, a trial, a funeral ...), remembered for the
    titles of the last reports compared."""
    return bool(set(re.findall(r"[a-z]+", title.lower())) & FOLLOW_UP_WORDS)
