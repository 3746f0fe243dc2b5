"""Cut the embedded sample in data/sample/ from the SemEval-2018 Task 5 trial data.

Picks trial S2 questions (with gold) of every property pair and answer size within a document
budget, the S1 and S3 questions that ask the same event type, place and time (so their answers
lie in the same documents), and confusing documents: same month and same city name, other
incidents. Usage: python scripts/make_sample.py [--trial DIR] [--out DIR] [--max-bytes N]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from kg_count.io.conll import read_documents, write_documents
from kg_count.io.questions import read_questions


def constraint_key(raw: dict) -> tuple:
    return (
        raw["event_type"],
        json.dumps(raw.get("location")),
        json.dumps(raw.get("time")),
        json.dumps(raw.get("participant")),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trial", type=Path, default=Path("../shared/data/semeval2018-task5/trial"))
    parser.add_argument("--out", type=Path, default=Path("data/sample"))
    parser.add_argument("--answer-docs", type=int, default=100, help="budget of answer documents")
    parser.add_argument("--confusers", type=int, default=30, help="confusing documents to add")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()

    documents = read_documents(args.trial / "docs.conll")
    raw_questions = {s: json.loads((args.trial / f"s{s}" / "questions.json").read_text()) for s in (1, 2, 3)}
    gold = json.loads((args.trial / "s2" / "answers.json").read_text())
    parsed = read_questions(args.trial / "s2" / "questions.json")
    rng = random.Random(args.seed)

    candidates = sorted(gold)
    rng.shuffle(candidates)
    chosen, docs = [], set()
    quota = {}
    for qid in candidates:
        answer_docs = {d for ds in gold[qid]["answer_docs"].values() for d in ds}
        bucket = (parsed[qid].property_pair, min(gold[qid]["numerical_answer"], 4))
        if quota.get(bucket, 0) >= 3 or len(docs | answer_docs) > args.answer_docs:
            continue
        quota[bucket] = quota.get(bucket, 0) + 1
        chosen.append(qid)
        docs |= answer_docs

    keys = {constraint_key(raw_questions[2][q]) for q in chosen}
    same = {s: {q: raw for q, raw in raw_questions[s].items() if constraint_key(raw) in keys} for s in (1, 3)}

    cities = {
        parsed[q].location[1].rsplit("/", 1)[-1].split(",_")[0].replace("_", " ") for q in chosen if parsed[q].location
    }
    months = {documents[d].dct.strftime("%Y-%m") for d in docs}
    confusers = [
        d
        for d, doc in documents.items()
        if d not in docs and doc.dct.strftime("%Y-%m") in months and any(city in doc.text for city in cities)
    ]
    rng.shuffle(confusers)
    docs |= set(confusers[: args.confusers])

    args.out.mkdir(parents=True, exist_ok=True)
    write_documents(args.out / "docs.conll", [documents[d] for d in documents if d in docs])
    for s, questions in ((1, same[1]), (2, {q: raw_questions[2][q] for q in chosen}), (3, same[3])):
        folder = args.out / f"s{s}"
        folder.mkdir(exist_ok=True)
        (folder / "questions.json").write_text(json.dumps(questions, indent=2, sort_keys=True) + "\n")
    (args.out / "s2" / "answers.json").write_text(
        json.dumps({q: gold[q] for q in chosen}, indent=2, sort_keys=True) + "\n"
    )
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(
        f"{len(docs)} documents, S1 {len(same[1])} / S2 {len(chosen)} / S3 {len(same[3])} questions, "
        f"{size / 1e6:.2f} MB in {args.out}"
    )


if __name__ == "__main__":
    main()
