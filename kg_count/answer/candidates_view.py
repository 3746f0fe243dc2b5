"""The incidents a question's query finds, one line each, with the probability that each is a distinct real
incident answering it: what ``kg-count incidents --question`` prints under the question and its reading."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg_count.answer.graph_answer import candidate_incidents, candidate_match_features, query_plan
from kg_count.incidents.grouping.incident_match import match_probability, shipped_model
from kg_count.io.questions import Question

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore


def candidate_lines(store: GraphStore, question: Question) -> list[str]:
    """The query fragments of ``question``'s exact plan, then one line per candidate incident (for S1, those of the
    first relaxation that finds any): its IRI's last part, date, counts, match probability and documents."""
    plan = query_plan(question)
    lines = [f"query fragments: {', '.join(plan[0]) if plan else '(none)'}"]
    incidents = candidate_incidents(store, question)
    model = shipped_model()
    features = candidate_match_features(question, incidents)
    for incident, match in zip(incidents, features):
        probability = match_probability(model, incident.confidence, match)
        lines.append(
            f"{incident.iri.rsplit('/', 1)[-1]}  {incident.date}  killed {incident.killed}  injured "
            f"{incident.injured}  p={probability:.2f}  relax {incident.relax}  docs {' '.join(incident.doc_ids)}"
        )
    if not incidents:
        lines.append("no incident fits")
    return lines
