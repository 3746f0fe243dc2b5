"""An HTML report of task scores: plots (inline SVG) and the worst questions beside their gold.

Reads the scores of ``evaluate_answers``, the gold and system answers, the questions and,
optionally, the store's incidents (to show the system's documents grouped by incident); writes
``index.html`` into a folder, atomically.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Iterable, Mapping

from kg_count.evaluate.task_scores import document_score
from kg_count.io.answers import GoldAnswer, SystemAnswer
from kg_count.io.atomic import atomic_writer
from kg_count.io.questions import Question

WORST_SHOWN = 25
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
        f'<svg width="{width:.0f}" height="{height:.0f}" role="img" aria-label="{html.escape(title)}">',
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
    doc_incidents: Mapping[str, tuple[str, float]],
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
        found = "(no answer)" if answer is None else _grouped(answer.documents, doc_incidents)
        rows.append(
            [
                html.escape(qid),
                html.escape(question.verbose if question else ""),
                str(gold[qid].numerical_answer) if counts else "",
                "" if answer is None or answer.numerical_answer is None else str(answer.numerical_answer),
                _incident_lines(gold[qid].incidents),
                found,
            ]
        )
    parts.append("<h3>Worst questions</h3>")
    parts.append(_table(rows, ["question", "text", "gold", "system", "gold incidents", "system incidents"]))
    return "\n".join(parts)


PRIOR_COLUMNS = ("0", "1", "2", "3", "4-9", "10+")


def _prior_section(number: str, ids: Iterable[str], questions: Mapping[str, Question], prior) -> str:
    """The answer prior (``incidents.answer_prior.AnswerPrior``) the decisions weighed for the shapes of this
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


def _incident_lines(groups: Mapping[str, Iterable[str]]) -> str:
    """One block per incident: its id, then its documents one per line."""
    blocks = [
        f'<div class="incident"><b>{html.escape(i)}</b>'
        + "".join(f"<div class='doc'>{html.escape(d)}</div>" for d in sorted(docs))
        + "</div>"
        for i, docs in groups.items()
    ]
    return "".join(blocks) or "-"


def _grouped(documents, doc_incidents: Mapping[str, tuple[str, float]]) -> str:
    """The system's ``documents`` in blocks by the store's incident, each headed by the incident's id and
    confidence ("?" for a document the store put in no incident)."""
    groups: dict[str, list[str]] = {}
    for doc in documents:
        incident = doc_incidents.get(doc)
        groups.setdefault("?" if incident is None else f"{incident[0]} (confidence {incident[1]:.2f})", []).append(doc)
    return _incident_lines(groups)


def write_report(
    folder: str | os.PathLike,
    scores: dict,
    gold: Mapping[str, GoldAnswer],
    system: Mapping[str, SystemAnswer],
    questions: Mapping[str, Question] | None,
    doc_incidents: Mapping[str, tuple[str, float]] | None = None,
    prior=None,
) -> Path:
    """Write ``folder/index.html``; return its path. ``doc_incidents`` gives each document's incident
    (id, confidence) in the store, to show the system's documents grouped by incident; ``prior`` (an
    ``AnswerPrior``) the answer prior shown beside S2 and S3."""
    subtasks = scores.get("subtasks") or {str(scores.get("subtask", 2)): scores}
    sections = [
        _subtask_section(n, s, gold, system, questions or {}, doc_incidents or {}, prior)
        for n, s in sorted(subtasks.items())
    ]
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>kg-count evaluation</title><style>"
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 6px;font-size:12px;vertical-align:top}"
        "svg{margin:6px 14px 6px 0;vertical-align:top;overflow:visible}"
        ".incident{margin:0 0 6px 0;font-family:monospace;font-size:11px;word-break:break-all}"
        ".incident b{display:block}.doc{padding-left:1.2em}"
        "</style></head><body><h1>kg-count evaluation</h1>" + "\n".join(sections) + "</body></html>"
    )
    path = Path(folder) / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_writer(path) as out:
        out.write(page)
    return path
