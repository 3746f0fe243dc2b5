"""The Gun Violence Archive training data (../shared/data/gva-train): articles with their incident
records, annotated once and cached as a spaCy DocBin so that training and cross-validation do not
parse again.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from kg_count.errors import InputError
from kg_count.io.articles import iter_articles
from kg_count.io.conll import Document
from kg_count.nlp.annotate import AnnotatedDocument, annotate, to_spacy_doc
from kg_count.nlp.model import load_model


CITY_PART = re.compile(r"\s*\(([^()]*)\)$")


def record_city(city_or_county: str) -> str:
    """A record's ``city_or_county`` as the extraction reads places: without its bracketed part ("Chicago
    (Englewood)" -> "Chicago"), a county as the text writes one ("Brazos (county)" -> "Brazos County")."""
    bracket = CITY_PART.search(city_or_county)
    name = city_or_county[: bracket.start()] if bracket else city_or_county
    if bracket and bracket[1].lower() in ("county", "parish") and not name.lower().endswith((" county", " parish")):
        return f"{name} {bracket[1].title()}"
    return name


@dataclass(frozen=True)
class Gold:
    """What the archive records of one article's incident: its id, date, state name, city or county
    name and the killed and injured counts."""

    incident_id: str
    date: dt.date
    state: str
    city: str
    killed: int
    injured: int


def read_gold(gva: Path) -> dict[str, Gold]:
    """Read ``gva``/articles.jsonl and incidents.jsonl; return the Gold of each article by document id.
    InputError naming the file when one is missing or an article's incident is not in the records."""
    try:
        incidents = {}
        for line in (gva / "incidents.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            incidents[record["incident_uri"]] = record
        gold = {}
        for line in (gva / "articles.jsonl").read_text(encoding="utf-8").splitlines():
            article = json.loads(line)
            incident = incidents[article["incident_id"]]
            gold[article["doc_id"]] = Gold(
                article["incident_id"],
                dt.datetime.strptime(incident["date"], "%B %d, %Y").date(),
                incident["state"],
                record_city(incident["city_or_county"]),
                int(incident["num_killed"]),
                int(incident["num_injured"]),
            )
    except (OSError, ValueError, KeyError) as error:
        raise InputError(f"{gva}: not a gva-train folder ({error.__class__.__name__}: {error})") from None
    return gold


def annotated_articles(gva: Path, cache: Path | None = None, limit: int | None = None) -> Iterator[AnnotatedDocument]:
    """Yield the annotated articles of ``gva``/articles.jsonl (the first ``limit``), in file order (parses kept in
    ``cache``: ``annotated_cached``)."""
    documents = list(iter_articles(gva / "articles.jsonl"))[:limit]
    yield from annotated_cached(documents, cache, write=limit is None)


def annotated_cached(documents: list[Document], cache: Path | None, write: bool = True) -> Iterator[AnnotatedDocument]:
    """Yield ``documents`` annotated, in order. With ``cache`` (a DocBin file), parses are read from it when its
    first documents are these (same words); otherwise they are parsed and (with ``write``) written to it."""
    from spacy.tokens import DocBin

    nlp = load_model()
    if cache is not None and cache.exists():
        docs = list(DocBin().from_disk(cache).get_docs(nlp.vocab))[: len(documents)]
        unparsed = [to_spacy_doc(document, nlp.vocab) for document in documents]
        if len(docs) == len(documents) and all(
            [t.text for t in d] == [t.text for t in words] for (words, _), d in zip(unparsed, docs)
        ):
            yield from (AnnotatedDocument(d, doc, p) for d, doc, (_, p) in zip(documents, docs, unparsed))
            return
    parsed = list(annotate(documents))
    if cache is not None and write:
        cache.parent.mkdir(parents=True, exist_ok=True)
        DocBin(
            attrs=["ORTH", "TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD", "ENT_IOB", "ENT_TYPE", "SENT_START"],
            docs=[a.doc for a in parsed],
        ).to_disk(cache)
    yield from parsed
