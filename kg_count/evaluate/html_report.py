"""An HTML report of task scores: plots (inline SVG) and the worst questions beside their gold.

Reads the scores of ``evaluate_answers``, the gold and system answers, the questions and, optionally, a
view of the store (``StoreView``): then each worst question shows the system's incidents with their title,
date, place, counts, confidence and documents, the gold incidents' documents by title, each document marked
found, missed or extra against gold, and a link to each incident's Turtle (written beside the page). Writes
``index.html`` (and ``incidents/*.ttl``) into a folder, atomically.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

from kg_count.evaluate.question_text import place_reading, question_text
from kg_count.evaluate.task_scores import document_score
from kg_count.incidents.views.incident_views import DocumentView, IncidentView
from kg_count.io.answers import GoldAnswer, SystemAnswer
from kg_count.io.atomic import atomic_writer
from kg_count.io.questions import Question

WORST_SHOWN = 25


@dataclass
class StoreView:
    """What the report shows of the store: its documents and incidents by id, each document's incident, and
    a function giving the Turtle of several incidents by id (None: no Turtle links). ``shown`` collects the
    incidents shown."""

    documents: Mapping[str, DocumentView] = field(default_factory=dict)
    incidents: Mapping[str, IncidentView] = field(default_factory=dict)
    incident_of: Mapping[str, str] = field(default_factory=dict)
    turtles: Callable[[Iterable[str]], Mapping[str, str]] | None = None
    shown: set[str] = field(default_factory=set)


BAR_WIDTH, BAR_GAP, PLOT_HEIGHT = 46, 10, 160
AXIS_WIDTH, TITLE_HEIGHT, VALUE_ROOM = 48, 22, 16
CHAR_WIDTH = 6.2
TICKS = 4


def _class_order(name: str) -> tuple:
    return (int(name.rstrip("+")), name) if name.rstrip("+").isdigit() else (10**6, name)


def _tick_label(value: float) -> str:
    return f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"


def bar_chart(title: str, values: Mapping[str, float], maximum: float = 100.0, unit: str = "") -> str:
    """An inline SVG bar chart of ``values`` (label -> number), bars scaled to ``maximum``, with a y axis,
    each bar's value above it and its full label below it (slanted when long)."""
    names = sorted(values, key=_class_order)
    longest = max((len(name) for name in names), default=1)
    slanted = longest * CHAR_WIDTH > BAR_WIDTH + BAR_GAP
    label_room = (longest * CHAR_WIDTH * 0.72 + 14) if slanted else 18
    plot_top = TITLE_HEIGHT + VALUE_ROOM
    plot_bottom = plot_top + PLOT_HEIGHT
    bars_width = AXIS_WIDTH + len(names) * (BAR_WIDTH + BAR_GAP) + BAR_GAP
    width = max(bars_width, len(title) * 7.6 + 12) + (longest * CHAR_WIDTH * 0.72 if slanted else 0)
    height = plot_bottom + label_room + 4
    parts = [
        f'<svg width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        f'aria-label="{html.escape(title)}">',
        f'<text x="4" y="16" font-size="13" font-weight="bold">{html.escape(title)}</text>',
        f'<line x1="{AXIS_WIDTH}" y1="{plot_top}" x2="{AXIS_WIDTH}" y2="{plot_bottom}" stroke="#555"/>',
        f'<line x1="{AXIS_WIDTH}" y1="{plot_bottom}" x2="{bars_width}" y2="{plot_bottom}" stroke="#555"/>',
    ]
    for tick in range(TICKS + 1):
        value = maximum * tick / TICKS
        y = plot_bottom - PLOT_HEIGHT * tick / TICKS
        parts.append(
            f'<line x1="{AXIS_WIDTH - 4}" y1="{y:.1f}" x2="{bars_width}" y2="{y:.1f}" '
            f'stroke="{"#555" if tick == 0 else "#e4e4e4"}"/>'
        )
        parts.append(
            f'<text x="{AXIS_WIDTH - 7}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{_tick_label(value)}</text>'
        )
    for n, name in enumerate(names):
        value = values[name]
        bar = 0 if maximum <= 0 else PLOT_HEIGHT * min(value, maximum) / maximum
        x = AXIS_WIDTH + BAR_GAP + n * (BAR_WIDTH + BAR_GAP)
        centre = x + BAR_WIDTH / 2
        parts.append(
            f'<rect x="{x}" y="{plot_bottom - bar:.1f}" width="{BAR_WIDTH}" height="{bar:.1f}" '
            f'fill="#4a7bb7"><title>{html.escape(name)}: {value:.2f}{unit}</title></rect>'
        )
        parts.append(
            f'<text x="{centre}" y="{plot_bottom - bar - 4:.1f}" font-size="11" text-anchor="middle">'
            f"{value:.1f}{unit}</text>"
        )
        if slanted:
            parts.append(
                f'<text x="{centre}" y="{plot_bottom + 12}" font-size="10" text-anchor="end" '
                f'transform="rotate(-40 {centre} {plot_bottom + 12})">{html.escape(name)}</text>'
            )
        else:
            parts.append(
                f'<text x="{centre}" y="{plot_bottom + 14}" font-size="10" text-anchor="middle">'
                f"{html.escape(name)}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)


def _table(rows: list[list[str]], header: list[str]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _subtask_section(
    number: str,
    scores: dict,
    gold: Mapping[str, GoldAnswer],
    system: Mapping[str, SystemAnswer],
    questions: Mapping[str, Question],
    view: StoreView,
    prior=None,
) -> str:
    counts = "accuracy" in scores
    keys = (
        ["answered", "accuracy", "rmse", "doc_precision", "doc_recall", "doc_f1"]
        if counts
        else ["answered", "doc_precision", "doc_recall", "doc_f1"]
    )
    parts = [
        f"<h2>Subtask {number}</h2>",
        _table([[k, f"{scores[k]:.2f}"] for k in keys if k in scores], ["measure", "value"]),
    ]
    for breakdown in ("by_count", "by_event_type", "by_property_pair", "by_shape"):
        groups = scores.get(breakdown)
        if not groups:
            continue
        label = breakdown.removeprefix("by_").replace("_", " ")
        if counts:
            parts.append(bar_chart(f"accuracy by {label}", {k: v["accuracy"] for k, v in groups.items()}))
            parts.append(
                bar_chart(
                    f"RMSE by {label}",
                    {k: v["rmse"] for k, v in groups.items()},
                    max([v["rmse"] for v in groups.values()] + [1.0]),
                )
            )
        parts.append(bar_chart(f"document F1 by {label}", {k: v["doc_f1"] for k, v in groups.items()}))
    ids = [q for q in gold if q in questions and questions[q].subtask == int(number)] or list(gold)
    parts.append(_prior_section(number, ids, questions, prior))
    worst = sorted(ids, key=lambda q: _badness(gold[q], system.get(q)), reverse=True)[:WORST_SHOWN]
    rows = []
    for qid in worst:
        answer, question = system.get(qid), questions.get(qid)
        found = set(answer.documents) if answer is not None else set()
        text = question_text(question) if question is not None else ""
        reading = place_reading(question) if question is not None else ""
        reading_note = f"<div class='qid'>{html.escape(reading)}</div>" if reading else ""
        rows.append(
            [
                f"{html.escape(text)}<div class='qid'>{html.escape(qid)}</div>{reading_note}",
                str(gold[qid].numerical_answer) if counts else "",
                "" if answer is None or answer.numerical_answer is None else str(answer.numerical_answer),
                _gold_incidents(gold[qid].incidents, found, view),
                "(no answer)" if answer is None else _system_incidents(answer.documents, gold[qid].documents, view),
            ]
        )
    parts.append("<h3>Worst questions</h3>")
    parts.append(
        "<p class='legend'><span class='hit'>&#10003; found</span> <span class='missed'>&#10007; missed</span> "
        "<span class='extra'>+ extra</span> (documents against gold)</p>"
    )
    parts.append(_table(rows, ["question", "gold", "system", "gold incidents", "system incidents"]))
    return "\n".join(parts)


PRIOR_COLUMNS = ("0", "1", "2", "3", "4-9", "10+")


def _prior_section(number: str, ids: Iterable[str], questions: Mapping[str, Question], prior) -> str:
    """The answer prior (``answer.answer_prior.AnswerPrior``) the decisions weighed for the shapes of this
    subtask's questions: the prior's weight and the share of each answer."""
    if prior is None or number not in ("2", "3"):
        return ""
    rows, seen = [], set()
    for qid in ids:
        question = questions.get(qid)
        shares = prior.distribution_for(question) if question is not None else None
        key = (question.property_pair, question.shape, question.event_type) if question is not None else None
        if shares is None or key in seen:
            continue
        seen.add(key)
        columns = [shares[0], shares[1], shares[2], shares[3], sum(shares[4 : prior.cap]), shares[prior.cap]]
        rows.append([html.escape(" ".join(key)), *(f"{100 * p:.1f}" for p in columns)])
    if not rows:
        return ""
    weight = prior.weight.get(number, 0.0)
    return f"<h3>Answer prior (weight {weight:g}; % of answers by question shape)</h3>" + _table(
        sorted(rows), ["shape", *PRIOR_COLUMNS]
    )


def _badness(gold: GoldAnswer, answer: SystemAnswer | None) -> tuple:
    if answer is None:
        return (float("inf"), 1.0)
    error = abs((answer.numerical_answer or 0) - gold.numerical_answer) if answer.numerical_answer is not None else 0
    return (error, 1.0 - document_score(answer.documents, gold.documents).f1)


def _document_line(doc_id: str, mark: str, view: StoreView) -> str:
    """One document: its mark (hit, missed, extra), title and date when the store knows it, and its id."""
    symbol = {"hit": "&#10003;", "missed": "&#10007;", "extra": "+"}[mark]
    document = view.documents.get(doc_id)
    label = f"{html.escape(document.title)} <span class='date'>{document.dct}</span>" if document else ""
    return f"<div class='doc {mark}'>{symbol} {label} <span class='id'>{html.escape(doc_id)}</span></div>"


def _incident_heading(incident_id: str, view: StoreView) -> str:
    """An incident of the store: title, date, place, counts, confidence and a link to its Turtle."""
    incident = view.incidents.get(incident_id)
    if incident is None:
        return f"<b>{html.escape(incident_id)}</b>"
    view.shown.add(incident_id)
    link = f" <a href='incidents/{html.escape(incident_id)}.ttl'>Turtle</a>" if view.turtles is not None else ""
    return (
        f"<b>{html.escape(incident.title or incident_id)}</b>"
        f"<div class='facts'>{incident.date} &middot; {html.escape(incident.place)} &middot; "
        f"{' '.join(incident.types)} &middot; killed {incident.killed}, injured {incident.injured} &middot; "
        f"{html.escape(incident_id)} (confidence {incident.confidence:.2f}){link}</div>"
    )


def _gold_incidents(groups: Mapping[str, Iterable[str]], found: set[str], view: StoreView) -> str:
    """One block per gold incident: its id, then its documents, each found or missed by the system."""
    blocks = [
        f"<div class='incident'><b>gold incident {html.escape(incident)}</b>"
        + "".join(_document_line(d, "hit" if d in found else "missed", view) for d in sorted(docs))
        + "</div>"
        for incident, docs in groups.items()
    ]
    return "".join(blocks) or "-"


def _system_incidents(documents: Iterable[str], gold_documents: Iterable[str], view: StoreView) -> str:
    """The system's documents in blocks by the store's incident (documents in none under "no incident"),
    each document marked right or extra against the gold documents."""
    gold = set(gold_documents)
    groups: dict[str, list[str]] = {}
    for doc in documents:
        groups.setdefault(view.incident_of.get(doc, ""), []).append(doc)
    blocks = [
        "<div class='incident'>"
        + (_incident_heading(incident, view) if incident else "<b>no incident</b>")
        + "".join(_document_line(d, "hit" if d in gold else "extra", view) for d in docs)
        + "</div>"
        for incident, docs in groups.items()
    ]
    return "".join(blocks) or "-"


STYLE = (
    "body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:4px 6px;font-size:13px;vertical-align:top;text-align:left}"
    "svg{margin:6px 14px 6px 0;vertical-align:top;overflow:visible;max-width:100%;height:auto}"
    ".incident{margin:0 0 8px 0}.incident b{display:block}.facts{color:#444;font-size:12px}"
    ".doc{padding-left:1em;font-size:12px}.id,.qid{font-family:monospace;font-size:10px;color:#777;"
    "word-break:break-all}.date{color:#555}.hit{color:#1a7f37}.missed{color:#b42318}.extra{color:#b54708}"
    ".legend span{margin-right:1em}@media (max-width:800px){body{margin:.5em}td,th{font-size:11px}}"
)


def write_report(
    folder: str | os.PathLike,
    scores: dict,
    gold: Mapping[str, GoldAnswer],
    system: Mapping[str, SystemAnswer],
    questions: Mapping[str, Question] | None,
    view: StoreView | None = None,
    prior=None,
) -> Path:
    """Write ``folder/index.html`` and, when ``view`` gives Turtle, ``folder/incidents/ID.ttl`` for each incident
    shown; return the page's path. ``view`` is what the report shows of the store (incidents beside the
    system's documents); ``prior`` (an ``AnswerPrior``) the answer prior shown beside S2 and S3."""
    view = view or StoreView()
    subtasks = scores.get("subtasks") or {str(scores.get("subtask", 2)): scores}
    sections = [_subtask_section(n, s, gold, system, questions or {}, view, prior) for n, s in sorted(subtasks.items())]
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'><title>kg-count evaluation</title>"
        f"<style>{STYLE}</style></head><body><h1>kg-count evaluation</h1>" + "\n".join(sections) + "</body></html>"
    )
    folder = Path(folder)
    if view.turtles is not None:
        for incident_id, turtle in sorted(view.turtles(view.shown).items()):
            with atomic_writer(folder / "incidents" / f"{incident_id}.ttl") as out:
                out.write(turtle)
    path = folder / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_writer(path) as out:
        out.write(page)
    return path
