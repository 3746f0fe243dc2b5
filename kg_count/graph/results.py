"""SPARQL results as a text table, CSV or JSON."""

from __future__ import annotations

import csv
import io
import json
import re

from rdflib import XSD, Graph, Literal

from kg_count.errors import UsageError
from kg_count.graph.namespaces import bind_prefixes

# strings, IRIs and comments, which may spell SERVICE without calling anything
QUOTED_OR_COMMENT = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\''
    r'|<[^<>"{}|^`\\\s]*>|#[^\n]*'
)
SERVICE_KEYWORD = re.compile(r"(?<![\w?$:])SERVICE(?![\w:])", re.IGNORECASE)


def simple_literal(term):
    """``term``, with an ``xsd:string`` literal written as the simple literal it equals in RDF 1.1."""
    if isinstance(term, Literal) and term.datatype == XSD.string:
        return Literal(str(term))
    return term


def readable_graph(triples) -> Graph:
    """A new in-memory Graph of ``triples`` with the project prefixes bound and simple literals."""
    graph = Graph()
    bind_prefixes(graph)
    for s, p, o in triples:
        graph.add((s, p, simple_literal(o)))
    return graph


def calls_service(query: str) -> bool:
    """True when the SPARQL text uses the SERVICE keyword (a federated call to another endpoint)."""
    return bool(SERVICE_KEYWORD.search(QUOTED_OR_COMMENT.sub(" ", query)))


def refuse_service_calls(query: str, allowed: bool) -> None:
    """Raise a UsageError when the SPARQL text calls another endpoint (SERVICE) and that is not ``allowed``."""
    if calls_service(query) and not allowed:
        raise UsageError(
            "the query calls another endpoint with SERVICE; "
            "give --allow-service (allow_service=True in Python) to let it"
        )


def _cell(value) -> str:
    return "" if value is None else str(value)


def format_results(result, output: str = "table") -> str:
    """Render an rdflib query result: SELECT rows as table/csv/json, ASK as true/false, graphs as Turtle."""
    if result.type == "ASK":
        answer = bool(result.askAnswer)
        return json.dumps({"boolean": answer}) if output == "json" else str(answer).lower()
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        return readable_graph(result.graph).serialize(format="turtle")
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
