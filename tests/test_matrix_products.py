"""spaCy's layers multiply matrices with NumPy, on one BLAS thread while annotating (the annotations themselves are
compared with spaCy's in tests/test_rule_lookups.py)."""

from itertools import islice

from threadpoolctl import threadpool_info

from kg_count.io.conll import iter_documents
from kg_count.nlp.annotate import annotate
from kg_count.nlp.model import load_model
from tests.helpers import SAMPLE


def layer_ops(nlp):
    models = [getattr(component, "model", None) for _, component in nlp.pipeline]
    return [layer.ops for model in models if hasattr(model, "walk") for layer in model.walk()]


def test_the_loaded_model_multiplies_with_numpy_and_the_stock_model_with_blis():
    ours, stock = layer_ops(load_model()), layer_ops(load_model(stock=True))
    assert ours and all(ops.name == "numpy" and not ops.use_blis for ops in ours)
    assert any(ops.use_blis for ops in stock)


def test_documents_are_annotated_on_one_blas_thread_and_the_limit_is_lifted_after():
    def blas_threads():
        return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}

    before = blas_threads()
    seen = [blas_threads() for _ in annotate(islice(iter_documents(SAMPLE / "docs.conll"), 3))]
    assert seen and all(threads == {1} for threads in seen)
    assert blas_threads() == before
