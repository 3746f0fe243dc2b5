"""How right the extraction reads each document, against the Gun Violence Archive record of its incident: state,
city, date (exact day, same month), killed and injured counts (each, and both), and victims' names found."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kg_count.geography import gazetteer
from kg_count.nlp.record import DocumentRecord
from kg_count.training.extraction_fitting import normal_place
from kg_count.training.gva import record_city

FIELDS = ("state", "city", "day", "month", "killed", "injured", "counts")
NAME_SUFFIXES = ("jr", "sr", "ii", "iii", "iv")


def record_hits(records: list[DocumentRecord], articles: dict, incidents: dict) -> dict[str, int]:
    """How many of ``records`` read each of ``FIELDS`` right for the incident ``articles`` (doc id -> {"incident_id"})
    and ``incidents`` (records by id) give, with ``victims`` (the records' victims with a name) and
    ``victims_found`` (those whose name a record's participants hold) and ``articles``."""
    hits = {k: 0 for k in FIELDS}
    victims_total = victims_found = 0
    for record in records:
        incident = incidents[articles[record.doc_id]["incident_id"]]
        gold_date = dt.datetime.strptime(incident["date"], "%B %d, %Y").date()
        state_name = incident["state"]
        hits["state"] += bool(record.state) and gazetteer().state_names.get(record.state, "") == state_name
        hits["city"] += normal_place(record.city) == normal_place(incident["city_or_county"])
        hits["day"] += record.incident_date == gold_date
        hits["month"] += (record.incident_date.year, record.incident_date.month) == (gold_date.year, gold_date.month)
        hits["killed"] += record.killed == int(incident["num_killed"])
        hits["injured"] += record.injured == int(incident["num_injured"])
        hits["counts"] += (record.killed, record.injured) == (int(incident["num_killed"]), int(incident["num_injured"]))
        found = {p.full_name.lower() for p in record.participants} | {p.last_name.lower() for p in record.participants}
        for person in incident.get("participants", []):
            if person.get("Type") == "Victim" and person.get("Name"):
                victims_total += 1
                name = person["Name"].lower()
                last = [w for w in name.replace(",", " ").split() if w.strip(".") not in NAME_SUFFIXES]
                victims_found += name in found or bool(last) and last[-1] in found
    return {**hits, "victims": victims_total, "victims_found": victims_found, "articles": len(records)}


def record_scores(records: list[DocumentRecord], articles: dict, incidents: dict) -> dict:
    """``record_hits`` as percentages of the articles (each field) and of the victims (``victim_name_recall``)."""
    hits = record_hits(records, articles, incidents)
    n = hits["articles"]
    result = {k: 100.0 * hits[k] / n for k in FIELDS}
    result["victim_name_recall"] = 100.0 * hits["victims_found"] / hits["victims"] if hits["victims"] else 0.0
    result["articles"] = n
    return result


def task_articles(task_dir: Path) -> tuple[dict, dict]:
    """The ``record_hits`` inputs of the task documents in ``task_dir`` that have a record: each document's incident id
    (as gva-train's articles give it), and the records by incident id."""
    articles, incidents = {}, {}
    for line in (task_dir / "incidents.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        incidents[record["incident_uri"]] = {**record, "city_or_county": record_city(record["city_or_county"])}
        articles.update({doc_id: {"incident_id": record["incident_uri"]} for doc_id in record["doc_ids"]})
    return articles, incidents
