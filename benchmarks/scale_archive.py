"""Scale benchmark on a rendered news archive: build, incidents, grouping quality and answering by size.

The archive is ``../shared/data/gva-scale`` written by its ``render.py`` (seed 1, from 2016-01-01): N
articles of real Gun Violence Archive incidents in date order, at the archive's real density, with a
gold file of which incident each article reports. For each size and each way of running (``local:W``,
W local worker processes; ``dask:W``, a Dask LocalCluster of W single-threaded worker processes) it
measures, each in fresh processes:

- ``kg-count build --no-cache`` into a new store, with a new sentence-vector cache (every title is
  encoded), which extracts the documents and then groups them into incidents: wall seconds of each
  phase, documents a second, the peak summed memory (PSS) of the build's process tree (and the
  cluster's; every reading, by process, in OUT/memory-SIZE-KIND-WORKERS.tsv), the store's size on disk;
- grouping quality: B³ precision, recall and F1 of the store's incidents against the gold incidents;
- answering latency (mean and 95th percentile) over questions made from the gold records in the
  task's shapes: an event type with a city or a state and a day, month or year, or with a victim's
  or suspect's name (``archive_questions``);
- the yardstick: bare spaCy parsing of the same articles in one process;
- with ``--add N``, after each local build: ``kg-count build`` of the next N articles of the archive into
  the built store (documents and incidents: an update) against building those N alone into a new store
  (each with its titles encoded anew).

Results are appended to OUT/results.jsonl as each run ends, so an interrupted benchmark keeps what it
measured and skips it when restarted; OUT/scale-archive.md (a table) is written from them.

Usage: python benchmarks/scale_archive.py --out DIR [--sizes 5000,20000,50000,100000]
                                          [--runs local:2,local:1,dask:2] [--questions 300] [--add 500]
                                          [--report-only] [--sample-every 2] [--keep-stores]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kg_count.incidents.reports.title_vectors import CACHE_ENV as VECTOR_CACHE_ENV  # noqa: E402
from scale_build import BIN, append_result, folder_mb, read_results, resident_bytes, run_measured  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCALE_DATA = ROOT.parent / "shared" / "data" / "gva-scale"


def render(size: int, out: Path) -> Path:
    """The folder holding ``articles.jsonl`` and ``gold.jsonl`` of the first ``size`` rendered articles."""
    folder = out / f"archive-{size}"
    if not (folder / "gold.jsonl").is_file():
        subprocess.run(
            [sys.executable, str(SCALE_DATA / "render.py"), "--docs", str(size), "--out", str(folder), "--seed", "1"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return folder


def gold_incidents(folder: Path) -> dict[str, str]:
    """doc id -> gold incident id of a rendered archive."""
    return {row["doc_id"]: row["incident_id"] for row in map(json.loads, open(folder / "gold.jsonl"))}


def archive_records(incident_ids: set[str]) -> list[dict]:
    """The gva-scale records of ``incident_ids``, in the file's (date) order."""
    with gzip.open(SCALE_DATA / "records.jsonl.gz", "rt") as lines:
        return [r for r in map(json.loads, lines) if r["incident_id"] in incident_ids]


def _place(record: dict) -> dict | None:
    """The task's city or state location of a record (a city in the gazetteer), or None."""
    import us

    from kg_count.geography import city_iri, state_iri

    state = us.states.lookup(record["state"] or "")
    if state is None:
        return None
    city = re.sub(r"\s*\(.*\)$", "", record["city_or_county"] or "").strip()
    if city and "county" not in city.lower():
        return {"city": city_iri(city, state.abbr)}
    return {"state": state_iri(state.abbr)}


def _time(record: dict, granularity: str) -> dict:
    year, month, day = record["date"].split("-")
    return {"day": {"day": f"{day}/{month}/{year}"}, "month": {"month": f"{month}/{year}"}, "year": {"year": year}}[
        granularity
    ]


def archive_questions(records: list[dict], count: int, seed: int = 1) -> dict:
    """``count`` questions in the task's format (ids ``2-N`` and ``3-N``) drawn from ``records`` (records with
    no victims or no place are drawn again): an event type
    the record has (killing, injuring) with its city or state and its day, month or year, or, one time in
    four, with a participant's first, last or full name and the year."""
    chosen = random.Random(seed)
    questions: dict[str, dict] = {}
    for n in range(100 * count):
        if len(questions) == count:
            break
        record = chosen.choice(records)
        types = [t for t, key in (("killing", "n_killed"), ("injuring", "n_injured")) if record[key]]
        place = _place(record)
        if not types or place is None:
            continue
        question = {"event_type": chosen.choice(types), "subtask": chosen.choice((2, 3))}
        names = [p["name"].split() for p in record["participants"] if len(p.get("name", "").split()) >= 2]
        if names and chosen.random() < 0.25:
            name = chosen.choice(names)
            part = chosen.choice(("first", "last", "full_name"))
            question["participant"] = {part: {"first": name[0], "last": name[-1], "full_name": " ".join(name)}[part]}
            question["time"] = _time(record, "year")
        else:
            question["location"] = place
            question["time"] = _time(record, chosen.choice(("day", "month", "year")))
        questions[f"{question['subtask']}-{n}"] = question
    return questions


def incidents_of_store(store: Path) -> dict[str, str]:
    """doc id -> incident id of the store's incident graph."""
    from kg_count.graph.document_graph import document_id
    from kg_count.graph.store import GraphStore
    from kg_count.incidents.store.incident_versions import incident_sparql

    query = "SELECT ?id ?doc WHERE { GRAPH %INCIDENTS% { ?i kgc:incidentId ?id ; prov:wasDerivedFrom ?doc } }"
    with GraphStore(store, create=False) as graph:
        return {document_id(doc): incident_id for incident_id, doc in graph.values(incident_sparql(graph, query))}


def bcubed(gold: dict[str, str], system: dict[str, str]) -> dict:
    """B³ precision, recall and F1 (percent) of ``system`` clusters against ``gold`` (doc -> cluster id), over
    the gold documents; a document the system left out is a cluster of its own."""
    gold_members, system_members = defaultdict(set), defaultdict(set)
    for doc, incident in gold.items():
        gold_members[incident].add(doc)
        system_members[system.get(doc, f"alone:{doc}")].add(doc)
    precision = recall = 0.0
    for doc, incident in gold.items():
        mine, theirs = system_members[system.get(doc, f"alone:{doc}")], gold_members[incident]
        both = len(mine & theirs)
        precision += both / len(mine)
        recall += both / len(theirs)
    p, r = 100 * precision / len(gold), 100 * recall / len(gold)
    return {"b3_p": round(p, 2), "b3_r": round(r, 2), "b3_f1": round(2 * p * r / (p + r), 2)}


class DaskCluster:
    """A Dask LocalCluster of ``workers`` single-threaded processes, run by a child process of its own."""

    def __init__(self, workers: int) -> None:
        code = (
            "import sys, time\nfrom distributed import LocalCluster\n"
            f"c = LocalCluster(n_workers={workers}, threads_per_worker=1, processes=True, dashboard_address=None)\n"
            "print(c.scheduler_address, flush=True)\nsys.stdin.read()\nc.close()\n"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.address = self.process.stdout.readline().strip()

    def memory(self) -> int:
        """The summed memory (``resident_bytes``) of the cluster's processes, in bytes."""
        tree = psutil.Process(self.process.pid)
        return sum(resident_bytes(p) for p in [tree, *tree.children(recursive=True)])

    def stop(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def build_phases(output: str) -> dict:
    """The documents' and the incidents' seconds as ``kg-count build`` printed them."""
    documents = re.search(r"added or updated \(\d+ triples, ([\d.]+) s", output)
    incidents = re.search(r"incidents: (\d+) .*?in ([\d.]+) s", output)
    return {
        "documents_s": float(documents.group(1)) if documents else None,
        "incidents": int(incidents.group(1)) if incidents else None,
        "incidents_s": float(incidents.group(2)) if incidents else None,
    }


def later_articles(size: int, count: int, out: Path) -> Path:
    """The ``count`` articles that follow the first ``size`` of the archive (rendered: the first ``size`` of a
    larger rendering are the articles of ``size``), as OUT/added-SIZE-COUNT.jsonl."""
    path = out / f"added-{size}-{count}.jsonl"
    if not path.is_file():
        earlier = set(gold_incidents(render(size, out)))
        larger = render(size + count, out) / "articles.jsonl"
        with larger.open(encoding="utf-8") as lines:  # not splitlines: texts hold U+2028, which it splits at
            later = [line for line in lines if json.loads(line)["doc_id"] not in earlier]
        path.write_text("".join(later), encoding="utf-8")
    return path


def measure_update(store: Path, vectors: Path, added: Path, workers: str, scratch: Path) -> dict:
    """Seconds of adding the articles ``added`` to ``store`` (whose titles' vectors are in ``vectors``), and of
    building them alone into a new store; the peak memory of the update."""
    build = [str(BIN / "kg-count"), "build", "--docs", str(added), "--no-cache", "--workers", workers]
    seconds, memory, _ = run_measured([*build, "--store", str(store)], {VECTOR_CACHE_ENV: str(vectors)})
    alone, alone_vectors = scratch / "store-added-alone", scratch / "vectors-added-alone.sqlite"
    shutil.rmtree(alone, ignore_errors=True)
    alone_vectors.unlink(missing_ok=True)
    alone_seconds = run_measured([*build, "--store", str(alone)], {VECTOR_CACHE_ENV: str(alone_vectors)})[0]
    shutil.rmtree(alone, ignore_errors=True)
    alone_vectors.unlink(missing_ok=True)
    return {
        "added": sum(1 for _ in added.open()),
        "add_seconds": round(seconds, 1),
        "add_alone_seconds": round(alone_seconds, 1),
        "add_ratio": round(seconds / alone_seconds, 2),
        "add_peak_mb": round(memory),
    }


def measure_build(
    size: int, run: str, folder: Path, questions: Path, scratch: Path, added: Path | None, every: float, keep: bool
) -> dict:
    """One build of the archive at ``folder`` the way ``run`` says, its memory read every ``every`` seconds, with its
    grouping quality and latency (its memory readings in OUT/memory-SIZE-KIND-WORKERS.tsv; and, with ``added``
    articles and local workers, the update that adds them: ``measure_update``). With ``keep`` the store and its
    title vectors stay in OUT/kept/ (replacing a kept pair)."""
    kind, workers = run.split(":")
    store = scratch / f"store-{size}-{kind}-{workers}"
    shutil.rmtree(store, ignore_errors=True)
    command = [str(BIN / "kg-count"), "build", "--docs", str(folder / "articles.jsonl"), "--store", str(store)]
    vectors = scratch / f"vectors-{size}-{kind}-{workers}.sqlite"  # titles are encoded anew, as on a new machine
    vectors.unlink(missing_ok=True)
    cluster = DaskCluster(int(workers)) if kind == "dask" else None
    try:
        options = ["--scheduler", cluster.address] if cluster else ["--workers", workers]
        seconds, memory, output = run_measured(
            [*command, "--no-cache", *options],
            {VECTOR_CACHE_ENV: str(vectors)},
            every=every,
            trace=scratch.parent / f"memory-{size}-{kind}-{workers}.tsv",
        )
        cluster_mb = cluster.memory() / 2**20 if cluster else 0.0
    finally:
        if cluster:
            cluster.stop()
    _, _, timings = run_measured(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "answer_latency.py"),
            "--store",
            str(store),
            "--questions",
            str(questions),
        ]
    )
    answer = json.loads(timings)["all"]
    result = {
        "kind": run,
        "documents": size,
        "seconds": round(seconds, 1),
        "docs_per_second": round(size / seconds, 2),
        **build_phases(output),
        "peak_mb": round(memory + cluster_mb),
        "store_mb": round(folder_mb(store), 1),
        **bcubed(gold_incidents(folder), incidents_of_store(store)),
        "answer_mean_ms": answer["mean_ms"],
        "answer_p95_ms": answer["p95_ms"],
    }
    if added is not None and kind == "local":
        result.update(measure_update(store, vectors, added, workers, scratch))
    if keep:
        kept = scratch.parent / "kept"
        kept.mkdir(exist_ok=True)
        shutil.rmtree(kept / store.name, ignore_errors=True)
        store.rename(kept / store.name)
        vectors.replace(kept / vectors.name)
    else:
        shutil.rmtree(store, ignore_errors=True)
        vectors.unlink(missing_ok=True)
    return result


def measure_spacy(size: int, folder: Path) -> dict:
    """Bare spaCy parsing of the archive's articles in one process."""
    seconds_json = run_measured(
        [sys.executable, str(ROOT / "benchmarks" / "scale_build.py"), "--spacy-only", str(folder / "articles.jsonl")]
    )[2]
    return {"kind": "spacy", "documents": size, "seconds": round(json.loads(seconds_json)["seconds"], 1)}


def report(results: list[dict], out: Path) -> None:
    """Write OUT/scale-archive.md from the measured runs and print it."""
    spacy = {r["documents"]: r["seconds"] for r in results if r["kind"] == "spacy"}
    rows = [
        "| run | documents | build s (documents + incidents) | docs/s | ms a document | build / spaCy | peak MB "
        "| store MB | incidents | B³ P / R / F1 | answer ms (mean, p95) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted((r for r in results if r["kind"] != "spacy"), key=lambda r: (r["kind"], r["documents"])):
        ratio = f"{r['seconds'] / spacy[r['documents']]:.2f}" if r["documents"] in spacy else "-"
        rows.append(
            f"| {r['kind']} | {r['documents']:,} | {r['seconds']} ({r['documents_s']} + {r['incidents_s']}) "
            f"| {r['docs_per_second']} | {1000 * r['seconds'] / r['documents']:.1f} | {ratio} | {r['peak_mb']} "
            f"| {r['store_mb']} | {r['incidents']:,} | {r['b3_p']} / {r['b3_r']} / {r['b3_f1']} "
            f"| {r['answer_mean_ms']}, {r['answer_p95_ms']} |"
        )
    rows += ["", "| documents | bare spaCy s (1 process) |", "|---|---|"]
    rows += [f"| {n:,} | {s} |" for n, s in sorted(spacy.items())]
    updates = sorted((r for r in results if "add_seconds" in r), key=lambda r: (r["kind"], r["documents"]))
    if updates:
        rows += ["", "| run | store of | articles added | update s | alone s | update / alone | update peak MB |"]
        rows += ["|---|---|---|---|---|---|---|"]
        rows += [
            f"| {r['kind']} | {r['documents']:,} | {r['added']} | {r['add_seconds']} | {r['add_alone_seconds']} "
            f"| {r['add_ratio']} | {r['add_peak_mb']} |"
            for r in updates
        ]
    (out / "scale-archive.md").write_text("\n".join(rows) + "\n")
    print("\n".join(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("out/scale-archive"))
    parser.add_argument("--sizes", default="5000,20000,50000,100000")
    parser.add_argument("--runs", default="local:2,local:1,dask:2", help="local:W and dask:W, comma-separated")
    parser.add_argument("--questions", type=int, default=300, help="questions made from the gold records")
    parser.add_argument("--spacy", action=argparse.BooleanOptionalAction, default=True, help="bare spaCy yardstick")
    parser.add_argument("--add", type=int, default=0, help="articles added to each local build (an update)")
    parser.add_argument("--report-only", action="store_true", help="only write the table")
    parser.add_argument(
        "--sample-every", type=float, default=2.0, help="seconds between reads of a build's memory (default 2)"
    )
    parser.add_argument("--keep-stores", action="store_true", help="keep each built store and its vectors in OUT/kept")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results_path = args.out / "results.jsonl"
    results = read_results(results_path)
    if not args.report_only:
        done = {(r["kind"], r["documents"]) for r in results}
        scratch = Path(tempfile.mkdtemp(prefix="kg_count_archive_", dir=args.out))
        for size in (int(s) for s in args.sizes.split(",")):
            folder = render(size, args.out)
            questions = folder / f"questions-{args.questions}.json"
            if not questions.is_file():
                records = archive_records(set(gold_incidents(folder).values()))
                questions.write_text(json.dumps(archive_questions(records, args.questions), indent=1))
            runs = [*args.runs.split(","), *(["spacy"] if args.spacy else [])]
            added = later_articles(size, args.add, args.out) if args.add else None
            for run in (r for r in runs if (r, size) not in done):
                result = (
                    measure_spacy(size, folder)
                    if run == "spacy"
                    else measure_build(
                        size, run, folder, questions, scratch, added, args.sample_every, args.keep_stores
                    )
                )
                append_result(results_path, results, result)
        shutil.rmtree(scratch, ignore_errors=True)
    report(results, args.out)


if __name__ == "__main__":
    main()
