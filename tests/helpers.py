"""Helpers shared by the tests, in one place: paths to the sample and the shared data, documents annotated by the
real model, hand-made and random incident reports, and a process's descendants read from /proc."""

from __future__ import annotations

import datetime as dt
import random
import time
from pathlib import Path

import numpy as np

from kg_count.incidents.pairs.candidate_pairs import pair_rows
from kg_count.incidents.pairs.pair_context import PairContext
from kg_count.incidents.pairs.coreference_model import CoreferenceModel
from kg_count.incidents.reports.reports import Report, ReportedPerson
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.io.conll import Document, Token

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
SAMPLE = ROOT / "data" / "sample"
# the spaCy annotations two parses of one text are compared by (``Doc.to_array``)
ANNOTATIONS = ["POS", "TAG", "MORPH", "LEMMA", "DEP", "HEAD", "ENT_IOB", "ENT_TYPE"]
SHARED_DATA = ROOT.parent / "shared" / "data"
TASK_DATA = SHARED_DATA / "semeval2018-task5"


def write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (UTF-8); return the path."""
    path.write_text(text, encoding="utf-8")
    return path


# documents from plain sentences, annotated with the real model


def document(body: str, title: str = "", dct: str = "2017-01-25", doc_id: str = "d") -> Document:
    """A Document whose title and body sentences (split on ' | ') are the given space-separated words."""
    tokens = [Token(f"{doc_id}.t1.{i}", w, "TITLE", "t1", i) for i, w in enumerate(title.split(), start=1)]
    for n, sentence in enumerate(body.split(" | "), start=1):
        first = 1 if n == 1 else 0
        tokens += [
            Token(f"{doc_id}.b{n}.{i}", w, "BODY", f"b{n}", i) for i, w in enumerate(sentence.split(), start=first)
        ]
    return Document(doc_id, dt.date.fromisoformat(dct), tokens)


def annotated(body: str, title: str = "", dct: str = "2017-01-25"):
    """The spaCy doc of ``document(body, title, dct)`` as the pipeline annotates it."""
    from kg_count.nlp.annotate import annotate

    return next(annotate([document(body, title, dct)]))


# hand-made incident reports


DBR = "http://dbpedia.org/resource/"
MEMPHIS, NASHVILLE = DBR + "Memphis,_Tennessee", DBR + "Nashville,_Tennessee"
GERMANTOWN = DBR + "Germantown,_Tennessee"
TENNESSEE, OHIO = DBR + "Tennessee", DBR + "Ohio"


def person(full, role="victim", status="killed", age=None):
    """A reported person named ``full``."""
    first, _, last = full.rpartition(" ")
    return ReportedPerson(full, first, last, age, role, status)


def report(
    doc_id,
    date="2016-03-14",
    certainty="text",
    city=MEMPHIS,
    state=TENNESSEE,
    killed=1,
    injured=0,
    people=(),
    types=("killing",),
    title="",
    dct=None,
    granularity="day",
):
    """A report of a Memphis killing on 2016-03-14 stated in the text, with whatever the arguments change."""
    day = dt.date.fromisoformat(date)
    label = city.rsplit("/", 1)[-1].split(",")[0] if city else None
    return Report(
        doc_id,
        dt.date.fromisoformat(dct) if dct else day,
        title,
        set(types),
        day,
        granularity,
        certainty,
        city,
        label,
        state,
        killed,
        injured,
        0,
        list(people),
    )


# random incident reports, pair contexts and models

CITIES = [
    (DBR + "Memphis,_Tennessee", "Memphis", DBR + "Tennessee"),
    (DBR + "Germantown,_Tennessee", "Germantown", DBR + "Tennessee"),
    (DBR + "Nashville,_Tennessee", "Nashville", DBR + "Tennessee"),
    (DBR + "Nowhere,_Tennessee", "Nowhere", DBR + "Tennessee"),
    (DBR + "Columbus,_Ohio", "Columbus", DBR + "Ohio"),
    (None, None, DBR + "Ohio"),
    (None, None, None),
]
NAMES = ["Ann Smith", "Bo Jones", "Cy Smith", "Di Park", "Ann Smyth", "A. Smith", "Bo Jonés"]
WORDS = ["Riverside", "Oakland", "downtown", "tavern", "arrested", "funeral", "shooting", "fire", "teen", "Main"]


def random_reports(chosen: random.Random, n: int) -> list[Report]:
    """Reports that vary in everything the pair features read (dates, places, names, counts, texts)."""
    reports = []
    for k in range(n):
        city_iri, city, state = chosen.choice(CITIES)
        day = dt.date(2016, 3, 1) + dt.timedelta(days=chosen.randrange(30))
        people = [
            ReportedPerson(full, full.rpartition(" ")[0], full.rpartition(" ")[2], None, role, status)
            for full, role, status in (
                (chosen.choice(NAMES), chosen.choice(["victim", "suspect"]), chosen.choice(["killed", "injured", ""]))
                for _ in range(chosen.choice([0, 0, 1, 2, 3]))
            )
        ]
        reports.append(
            Report(
                f"d{k:03d}",
                day + dt.timedelta(days=chosen.randrange(3)),
                " ".join(chosen.sample(WORDS, chosen.randrange(0, 5))),
                {chosen.choice(["killing", "killing", "injuring", "fire_burning"])},
                day,
                chosen.choice(["day", "day", "week", "month", "year"]),
                chosen.choice(["text", "text", "dct"]),
                city_iri,
                city,
                state,
                chosen.choice([0, 1, 1, 2, 3, 5]),
                chosen.choice([0, 0, 1, 2, 4]),
                chosen.choice([0, 0, 1]),
                people,
                " ".join(chosen.sample(WORDS, chosen.randrange(0, 7))),
            )
        )
    return reports


def context_of(reports: list[Report], chosen: random.Random) -> PairContext:
    """A pair context with random title vectors (no encoder) and the reports' own word rarities."""
    vectors = {}
    for r in reports:
        if r.title:
            vectors[r.title] = np.array([chosen.gauss(0, 1) for _ in range(8)], dtype=np.float32)
    norms = {t: np.linalg.norm(v) for t, v in vectors.items()}
    titles = WordRarity.of_texts(r.title for r in reports)
    leads = WordRarity.of_texts(r.lead for r in reports)
    return PairContext(reports, vectors, titles, leads, norms)


def random_model(chosen: random.Random, context: PairContext, pairs: np.ndarray) -> CoreferenceModel:
    """A model weighing every feature the pairs have (and their conjunctions) at random, either sign."""
    names = {f for i, j in pair_rows(pairs) for f in context.features(i, j) or ()}
    weights = {f: chosen.gauss(0, 1.5) for f in sorted(names)}
    return CoreferenceModel(weights=weights, bias=chosen.gauss(-2, 1), threshold=0.4)


# processes


PROC = Path("/proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None when it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``: its children, theirs, and so on."""
    parents: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents.setdefault(stat[1], []).append(int(entry.name))
    found, frontier = set(), [pid]
    while frontier:
        children = parents.get(frontier.pop(), [])
        found.update(children)
        frontier.extend(children)
    return found


def running(pids: set[int]) -> set[int]:
    """The processes of ``pids`` that still run (a zombie waiting to be reaped does not)."""
    return {pid for pid in pids if (stat := _stat(pid)) is not None and stat[0] != "Z"}


def still_running_after(pids: set[int], patience: float = 30.0) -> set[int]:
    """The processes of ``pids`` still running once they have had ``patience`` seconds to end."""
    deadline = time.monotonic() + patience
    while running(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return running(pids)
