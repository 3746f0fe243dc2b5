"""Train the learned extraction models shipped as kg_count/nlp/models/extraction.json from gva-train.

Usage: python scripts/train_extraction_model.py [--gva ../shared/data/gva-train] [--cache out/gva_docs.spacy]
Every article is parsed (or read from the DocBin ``--cache``), its candidate dates, places and counts
labelled against its incident's record, and one logistic model per slot trained with the
[extraction] settings ``ranker_l2`` and ``follow_up_days``. No torch; SciPy fits the models.
benchmarks/measure_extraction.py --cv measures the same procedure on held-out incidents.
"""

from __future__ import annotations

import argparse
import time
from importlib.resources import files
from pathlib import Path

from kg_count.nlp.ranker import MODEL_FILE, save_models
from kg_count.settings import settings
from kg_count.training.extraction_model import fit, load_items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gva", type=Path, default=Path("../shared/data/gva-train"))
    parser.add_argument("--cache", type=Path, default=None, help="a DocBin file to keep the parses in")
    parser.add_argument("--out", type=Path, default=Path(str(files(MODEL_FILE[0]).joinpath(MODEL_FILE[1]))))
    args = parser.parse_args()
    started = time.perf_counter()
    items = load_items(args.gva, args.cache)
    extraction = settings().extraction
    models = fit(items, extraction.ranker_l2, extraction.follow_up_days)
    save_models(models, args.out)
    features = sum(len(m.weights) for m in models.models.values())
    print(f"{len(items)} articles, {features} features -> {args.out}; {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
