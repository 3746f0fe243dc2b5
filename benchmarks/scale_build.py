"""Scale benchmark: build time, throughput, peak memory and answering latency against corpus size.

For each size (default 500, 1,000, 2,963 and 10,000 documents: the test documents, then the GVA
articles, then test documents replicated under new ids) it measures, each in a fresh process:
bare spaCy parsing in one process; ``kg-count build --no-cache`` with 1 and 2 local workers into an
embedded store; and, for the smaller sizes, the same into a real ``oxigraph serve`` SPARQL server.
After each build it times answering the 259 test-dev S2 questions over that store (incidents
built first, not timed). Peak memory is
the largest summed resident memory of the build's process tree (sampled every 0.2 s).

Results are appended to OUT/results.jsonl as each run ends (an interrupted benchmark keeps
what it measured and skips it when restarted); OUT/scale.md (a table) and OUT/scale.svg (time
against size) are written from them.

Usage: python benchmarks/scale_build.py --out DIR [--sizes 500,1000,2963,10000] [--workers 1,2]
                                        [--server-sizes 500,1000] [--report-only]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
TASK = ROOT.parent / "shared" / "data" / "semeval2018-task5" / "test-dev"
GVA_ARTICLES = ROOT.parent / "shared" / "data" / "gva-train" / "articles.jsonl"
BIN = Path(sys.executable).parent


def corpus(size: int, folder: Path) -> Path:
    """A CoNLL file of ``size`` documents: test documents, GVA articles, then renamed test documents."""
    from kg_count.io.articles import iter_articles
    from kg_count.io.conll import Document, Token, iter_documents, write_documents

    path = folder / f"corpus-{size}.conll"
    if path.is_file():
        return path
    test = list(iter_documents(TASK / "docs.conll"))
    documents = test[:size]
    if len(documents) < size:
        documents += [d for _, d in zip(range(size - len(documents)), iter_articles(GVA_ARTICLES))]
    copy = 1
    while len(documents) < size:
        for original in test[: size - len(documents)]:
            new_id = f"{original.doc_id}-copy{copy}"
            documents.append(
                Document(
                    new_id,
                    original.dct,
                    [
                        Token(new_id + t.token_id[len(original.doc_id) :], t.text, t.part, t.sentence, t.index)
                        for t in original.tokens
                    ],
                )
            )
        copy += 1
    write_documents(path, documents)
    return path


def spacy_only(docs: Path) -> None:
    """Print the seconds spaCy alone takes to parse ``docs`` (the model as spaCy loads it, loaded first), as JSON."""
    from kg_count.io.articles import iter_any
    from kg_count.nlp.annotate import annotate
    from kg_count.nlp.model import load_model

    nlp = load_model(stock=True)
    for _ in annotate(islice(iter_any(docs), 2), nlp=nlp):
        pass
    started = time.perf_counter()
    tokens = sum(len(a.doc) for a in annotate(iter_any(docs), nlp=nlp))
    print(json.dumps({"seconds": time.perf_counter() - started, "tokens": tokens}))


def resident_bytes(process: psutil.Process) -> int:
    """The memory ``process`` holds: its proportional set size (pages shared with other processes, as forked
    processes share their parent's, divided among them), or its resident set size where PSS is not read."""
    try:
        return process.memory_full_info().pss
    except (AttributeError, psutil.AccessDenied):
        return process.memory_info().rss


def run_measured(
    command: list[str], env: dict | None = None, every: float = 0.2, trace: Path | None = None
) -> tuple[float, float, str]:
    """Run ``command``; return its wall seconds, peak summed memory of its process tree in MB (``resident_bytes``,
    read every ``every`` seconds: reading PSS costs CPU the command then lacks), and its stdout. With ``trace``,
    each reading is also written there as a line of tab-separated seconds, summed MB and each process's
    ``pid:MB``, and the processes' command lines at the end (``# pid command``)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "KG_COUNT_PROGRESS": "0", **(env or {})},
    )
    root = psutil.Process(process.pid)
    peak = 0
    commands: dict[int, str] = {}
    lines = trace.open("w", encoding="utf-8") if trace else None
    while process.poll() is None:
        try:
            held = {p.pid: resident_bytes(p) for p in [root, *root.children(recursive=True)] if p.is_running()}
            peak = max(peak, sum(held.values()))
            if lines:
                for pid in held.keys() - commands.keys():
                    commands[pid] = " ".join(psutil.Process(pid).cmdline())[:200]
                each = "\t".join(f"{pid}:{size / 2**20:.0f}" for pid, size in held.items())
                lines.write(f"{time.perf_counter() - started:.1f}\t{sum(held.values()) / 2**20:.0f}\t{each}\n")
                lines.flush()
        except psutil.Error:
            pass
        time.sleep(every)
    if lines:
        lines.writelines(f"# {pid} {cmd}\n" for pid, cmd in commands.items())
        lines.close()
    out, err = process.communicate()
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}): {err[-2000:]}")
    return time.perf_counter() - started, peak / 2**20, out


def read_results(path: Path) -> list[dict]:
    """The runs a benchmark has already measured (its JSON-lines results file; none when it is missing)."""
    return [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []


def append_result(path: Path, results: list[dict], result: dict) -> None:
    """Print one measured run, add it to ``results`` and append it to the results file at ``path`` at once, so an
    interrupted benchmark keeps it."""
    print(json.dumps(result), flush=True)
    results.append(result)
    with open(path, "a") as handle:
        handle.write(json.dumps(result) + "\n")


def folder_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


class Server:
    """A real ``oxigraph serve`` on 127.0.0.1 with a fresh folder, union default graph."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.folder = folder
        self.process = subprocess.Popen(
            [
                str(BIN / "oxigraph"),
                "serve",
                "--location",
                str(folder),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--union-default-graph",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(150):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def latency(store: str) -> dict:
    _, _, out = run_measured(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "answer_latency.py"),
            "--store",
            store,
            "--questions",
            str(TASK / "s2" / "questions.json"),
        ]
    )
    return json.loads(out)["all"]


def measure(kind: str, size: int, workers: int, docs: Path, scratch: Path) -> dict:
    """One run: ``spacy`` (bare parsing), ``embedded`` or ``server`` build followed by answering latency."""
    result = {"kind": kind, "documents": size, "workers": workers}
    if kind == "spacy":
        seconds, memory, out = run_measured([sys.executable, __file__, "--spacy-only", str(docs)])
        return {**result, "seconds": round(json.loads(out)["seconds"], 1), "peak_mb": round(memory)}
    target = scratch / f"{kind}-{size}-{workers}"
    shutil.rmtree(target, ignore_errors=True)
    server = Server(target) if kind == "server" else None
    location = server.url if server else str(target)
    try:
        command = [
            str(BIN / "kg-count"),
            "build",
            "--docs",
            str(docs),
            "--store",
            location,
            "--no-cache",
            "--workers",
            str(workers),
        ]
        seconds, memory, _ = run_measured(command)
        answer = latency(location)
    finally:
        if server:
            server.stop()
    result.update(
        seconds=round(seconds, 1),
        docs_per_second=round(size / seconds, 2),
        peak_mb=round(memory),
        store_mb=round(folder_mb(target), 1),
        answer_mean_ms=answer["mean_ms"],
        answer_p95_ms=answer["p95_ms"],
    )
    shutil.rmtree(target, ignore_errors=True)
    return result


def line_chart(series: dict[str, list[tuple[int, float]]], width: int = 640, height: int = 360) -> str:
    """An SVG line chart of seconds against documents, one polyline per series."""
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    points = [p for values in series.values() for p in values]
    max_x = max(x for x, _ in points) or 1
    max_y = max(y for _, y in points) or 1
    left, bottom, right, top = 60, height - 40, width - 170, 20

    def at(x: float, y: float) -> str:
        return f"{left + (right - left) * x / max_x:.1f},{bottom - (bottom - top) * y / max_y:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        f'font-size="12"><rect width="100%" height="100%" fill="white"/>',
        f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="black"/>',
        f'<line x1="{left}" y1="{bottom}" x2="{left}" y2="{top}" stroke="black"/>',
        f'<text x="{(left + right) / 2}" y="{height - 8}" text-anchor="middle">documents</text>',
        f'<text x="14" y="{(top + bottom) / 2}" transform="rotate(-90 14 {(top + bottom) / 2})" '
        f'text-anchor="middle">seconds</text>',
    ]
    for tick in range(0, 6):
        x, y = max_x * tick / 5, max_y * tick / 5
        parts.append(f'<text x="{at(x, 0).split(",")[0]}" y="{bottom + 15}" text-anchor="middle">{x:.0f}</text>')
        parts.append(f'<text x="{left - 5}" y="{float(at(0, y).split(",")[1]) + 4}" text-anchor="end">{y:.0f}</text>')
    for n, (name, values) in enumerate(series.items()):
        colour = colours[n % len(colours)]
        path = " ".join(at(x, y) for x, y in sorted(values))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>')
        parts += [
            f'<circle cx="{at(x, y).split(",")[0]}" cy="{at(x, y).split(",")[1]}" r="3" fill="{colour}"/>'
            for x, y in values
        ]
        parts.append(f'<text x="{right + 10}" y="{top + 16 * n + 10}" fill="{colour}">{name}</text>')
    return "\n".join(parts + ["</svg>"])


def report(results: list[dict], out: Path) -> None:
    """Write OUT/scale.md and OUT/scale.svg from the measured runs."""
    spacy = {r["documents"]: r["seconds"] for r in results if r["kind"] == "spacy"}
    builds = sorted(
        (r for r in results if r["kind"] != "spacy"), key=lambda r: (r["kind"], r["workers"], r["documents"])
    )
    rows = [
        "| store | workers | documents | build s | docs/s | build / spaCy | peak MB | store MB "
        "| answer ms (mean, p95) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in builds:
        ratio = f"{r['seconds'] / spacy[r['documents']]:.2f}" if r["documents"] in spacy else "-"
        rows.append(
            f"| {r['kind']} | {r['workers']} | {r['documents']:,} | {r['seconds']} | {r['docs_per_second']} | "
            f"{ratio} | {r['peak_mb']} | {r['store_mb']} | {r['answer_mean_ms']}, {r['answer_p95_ms']} |"
        )
    rows += ["", "| documents | bare spaCy s (1 process) |", "|---|---|"]
    rows += [f"| {n:,} | {s} |" for n, s in sorted(spacy.items())]
    (out / "scale.md").write_text("\n".join(rows) + "\n")
    series: dict[str, list[tuple[int, float]]] = {}
    for r in builds:
        series.setdefault(f"{r['kind']}, {r['workers']} worker{'s' if r['workers'] > 1 else ''}", []).append(
            (r["documents"], r["seconds"])
        )
    series["bare spaCy, 1 process"] = sorted(spacy.items())
    if any(series.values()):
        (out / "scale.svg").write_text(line_chart({k: v for k, v in series.items() if v}))
    print("\n".join(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("out/bench"))
    parser.add_argument("--sizes", default="500,1000,2963,10000")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--server-sizes", default="500,1000")
    parser.add_argument("--report-only", action="store_true", help="only write the table and plot")
    parser.add_argument("--spacy-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spacy_only:
        spacy_only(args.spacy_only)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    results_path = args.out / "results.jsonl"
    results = read_results(results_path)
    if not args.report_only:
        done = {(r["kind"], r["documents"], r["workers"]) for r in results}
        scratch = Path(tempfile.mkdtemp(prefix="kg_count_bench_"))
        server_sizes = {int(s) for s in args.server_sizes.split(",") if s}
        worker_counts = sorted((int(w) for w in args.workers.split(",")), reverse=True)
        for size in (int(s) for s in args.sizes.split(",")):
            docs = corpus(size, args.out)
            runs = [
                ("embedded", worker_counts[0]),
                ("spacy", 1),
                *(("embedded", w) for w in worker_counts[1:]),
                *(("server", w) for w in worker_counts if size in server_sizes),
            ]
            for kind, workers in runs:
                if (kind, size, workers) in done:
                    continue
                result = measure(kind, size, workers, docs, scratch)
                append_result(results_path, results, result)
        shutil.rmtree(scratch, ignore_errors=True)
    report(results, args.out)


if __name__ == "__main__":
    main()
