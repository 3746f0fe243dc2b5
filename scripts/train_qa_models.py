"""Train the QA scorers shipped in kg_count/qa/models/ from the shared TORQUE, ESTER and TimeBank data.

Usage: python scripts/train_qa_models.py [--data ../shared/data] [--out kg_count/qa/models]
Each scorer reads parse features and the encoder's token vectors (kg_count.learning.encoder). Trigger
annotations of TORQUE and ESTER train the trigger scorer; TORQUE questions and MATRES pairs the
temporal one; the TORQUE warm-up questions the status one; the ESTER 'completed' answers and the
released test file's answer triggers the semantic one. Set KG_COUNT_ENCODER_CACHE to a folder to
encode each passage once across runs.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kg_count.qa.training import collect, train_models

ROOT = Path(__file__).resolve().parents[1]


def training_files(data: Path) -> tuple[Path, list[Path], Path]:
    """(TORQUE file, ESTER training files, TimeBank folder) under the shared data folder."""
    return (
        data / "torque" / "dev-part.json",
        [data / "ester" / "final_train_ans_gen_500completed.json", data / "ester" / "final_test_ans_gen.json"],
        data / "timebank",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "kg_count" / "qa" / "models")
    args = parser.parse_args()
    started = time.perf_counter()
    models = train_models(collect(*training_files(args.data)))
    for name in ("triggers", "temporal", "status", "semantic"):
        model = getattr(models, name)
        model.save(args.out / f"{name}.json")
        print(
            f"{name}: {len(model.weights)} features, {len(model.blocks)} dense blocks -> {args.out / (name + '.json')}"
        )
    print(f"trained in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
