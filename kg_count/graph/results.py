"""SPARQL results as a text table, CSV or JSON."""

from __future__ import annotations

import csv
import io
import json


def _cell(value) -> str:
    return "" if value is None else str(value)


def format_results(result, output: str = "table") -> str:
    """Render an rdflib query result: SELECT rows as table/csv/json, ASK as true/false, graphs as Turtle."""
    if result.type == "ASK":
        return json.dumps({"boolean": bool(result.askAnswer)}) if output == "json" else str(bool(result.askAnswer)).lower()
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        return result.graph.serialize(format="turtle")
    names = [str(v) for v in result.vars]
    rows = [[_cell(row[i]) for i in range(len(names))] for row in result]
    if output == "json":
        return json.dumps([dict(zip(names, row)) for row in rows], indent=2)
    if output == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(names)
        writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    widths = [max([len(n)] + [len(r[i]) for r in rows]) for i, n in enumerate(names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths)), "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in rows]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)
