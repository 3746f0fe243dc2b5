"""Reader for TimeML documents (TimeBank, AQUAINT, TE3-Platinum) and their MATRES temporal relations.

A document gives its text (the ``<TEXT>`` element without tags) and its events (character offsets,
``eid`` and class, through ``MAKEINSTANCE`` the ``eiid``, tense, aspect, polarity and modality, and through
the ``TLINK``s to the document creation time each event's relation to it).
MATRES lines are ``docid<TAB>verb1<TAB>verb2<TAB>eiid1<TAB>eiid2<TAB>relation`` (eiids without
the ``ei`` prefix). Used for training and measuring only, never at answering time.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

from kg_count.errors import InputError

MATRES_RELATIONS = ("BEFORE", "AFTER", "EQUAL", "VAGUE")
INVERSE_TLINK = {
    "BEFORE": "AFTER",
    "IBEFORE": "IAFTER",
    "INCLUDES": "IS_INCLUDED",
    "BEGINS": "BEGUN_BY",
    "ENDS": "ENDED_BY",
    "DURING": "DURING_INV",
    "SIMULTANEOUS": "SIMULTANEOUS",
    "IDENTITY": "IDENTITY",
}
INVERSE_TLINK.update({v: k for k, v in INVERSE_TLINK.items()})


@dataclass(frozen=True)
class TimemlEvent:
    """One annotated event: offsets into the document text, ids and its instance's attributes."""

    eid: str
    eiid: str
    start: int
    end: int
    text: str
    tense: str = "NONE"
    aspect: str = "NONE"
    polarity: str = "POS"
    event_class: str = ""
    modality: str = ""
    dct_relation: str = ""


@dataclass(frozen=True)
class TimemlDocument:
    """A TimeML document: id, text and events."""

    doc_id: str
    text: str
    events: tuple[TimemlEvent, ...]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _relations_to_dct(root) -> dict[str, str]:
    """``{eiid: relation}``: each event instance's TLINK relation to the document creation time, read from
    either side of the link (``ei1 BEFORE t0``, or ``t0 AFTER ei1`` inverted)."""
    dct = {
        e.get("tid")
        for e in root.iter()
        if _local(e.tag) == "TIMEX3" and e.get("functionInDocument") == "CREATION_TIME"
    }
    found = {}
    for link in root.iter():
        if _local(link.tag) != "TLINK" or not link.get("relType"):
            continue
        relation = link.get("relType")
        if link.get("eventInstanceID") and link.get("relatedToTime") in dct:
            found[link.get("eventInstanceID")] = relation
        elif link.get("timeID") in dct and link.get("relatedToEventInstance"):
            found[link.get("relatedToEventInstance")] = INVERSE_TLINK.get(relation, relation)
    return found


def read_timeml(path: str | Path) -> TimemlDocument:
    """Read one ``.tml`` file; InputError naming it when it is not TimeML with a ``<TEXT>``."""
    path = Path(path)
    try:
        root = ElementTree.parse(path).getroot()
    except (ElementTree.ParseError, OSError) as error:
        raise InputError(f"not readable TimeML ({error})", path) from None
    text_element = next((e for e in root.iter() if _local(e.tag) == "TEXT"), None)
    if text_element is None:
        raise InputError("no <TEXT> element", path)
    parts: list[str] = []
    spans: dict[str, tuple[int, int]] = {}

    def walk(element) -> None:
        parts.append(element.text or "")
        for child in element:
            start = sum(map(len, parts))
            walk(child)
            if _local(child.tag) == "EVENT" and child.get("eid"):
                spans[child.get("eid")] = (start, sum(map(len, parts)))
            parts.append(child.tail or "")

    walk(text_element)
    text = "".join(parts)
    instances = {e.get("eventID"): e for e in root.iter() if _local(e.tag) == "MAKEINSTANCE"}
    classes = {e.get("eid"): e.get("class", "") for e in root.iter() if _local(e.tag) == "EVENT"}
    to_dct = _relations_to_dct(root)
    events = []
    for eid, (start, end) in sorted(spans.items(), key=lambda item: item[1]):
        instance = instances.get(eid)
        if instance is None:
            continue
        events.append(
            TimemlEvent(
                eid,
                instance.get("eiid", "").removeprefix("ei"),
                start,
                end,
                text[start:end],
                instance.get("tense", "NONE"),
                instance.get("aspect", "NONE"),
                instance.get("polarity", "POS"),
                classes.get(eid, ""),
                instance.get("modality", ""),
                to_dct.get(instance.get("eiid", ""), ""),
            )
        )
    doc_id = next((e.text.strip() for e in root.iter() if _local(e.tag) == "DOCID" and e.text), path.stem)
    return TimemlDocument(doc_id, text, tuple(events))


def read_matres(path: str | Path) -> list[tuple[str, str, str, str]]:
    """MATRES pairs ``(docid, eiid1, eiid2, relation)``; InputError naming the file and line when malformed."""
    path = Path(path)
    pairs = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6 or fields[5] not in MATRES_RELATIONS:
                raise InputError("expected docid, verb1, verb2, eiid1, eiid2, relation", path, line=number)
            pairs.append((fields[0], fields[3], fields[4], fields[5]))
    return pairs


def read_timebank(folder: str | Path) -> tuple[dict[str, TimemlDocument], list[tuple[str, str, str, str]]]:
    """All documents under ``folder`` (its TimeBank/, AQUAINT/, Platinum/) by id, and all MATRES pairs."""
    folder = Path(folder)
    documents = {}
    for path in sorted(folder.glob("*/*.tml")):
        document = read_timeml(path)
        documents[document.doc_id] = document
    pairs = [pair for path in sorted((folder / "matres").glob("*.txt")) for pair in read_matres(path)]
    return documents, pairs
