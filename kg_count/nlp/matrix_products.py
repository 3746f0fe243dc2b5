"""spaCy's matrix products through NumPy's BLAS instead of blis: the same annotations in three quarters of the time.

thinc's ``NumpyOps`` multiplies matrices with blis. The blis wheel picks its kernels by the processor it finds;
on a machine it does not recognise it runs generic ones: on this project's build machine a (4000 x 288) by
(288 x 288) product took 37.8 ms in blis and 10.9 ms in NumPy's OpenBLAS on one thread. The token-to-vector
encoders of ``en_core_web_sm`` (the shared one and the entity recogniser's own) are such products, a third of
the pipeline's time. ``use_numpy_matrix_products`` gives every layer of the pipeline ``NumpyOps(use_blis=False)``,
whose ``gemm`` is NumPy's; the parser's and recogniser's transition loops keep blis (they call it from C).
Annotation runs on one BLAS thread (``blas_threads``), so every process sums in the same order. OpenBLAS blocks a
batch's product otherwise than one document's, so token vectors differ in their last float bits with the batch; no
annotation of 400 test-dev documents, nor any record of trial or test-dev, changed with it.
"""

from __future__ import annotations

from spacy.language import Language


def use_numpy_matrix_products(nlp: Language) -> Language:
    """Give every thinc layer of ``nlp``'s components NumPy's matrix products, in place; return ``nlp``."""
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if not hasattr(model, "walk"):
            continue
        for layer in model.walk():
            layer.ops = ops
    return nlp
