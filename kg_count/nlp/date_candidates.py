"""ValueCandidate incident dates of a document: each day a temporal expression resolves to, the DCT and the
day before it, with features of where and how the text states them."""

from __future__ import annotations

import datetime as dt
import re
from typing import Sequence

from kg_count.learning.bins import interval_name
from kg_count.nlp.candidate_features import (
    ValueCandidate,
    mention_count_features,
    governor_features,
    merge,
    sentence_cues,
)
from kg_count.settings import settings
from kg_count.nlp.times import RELATIVE_DAYS, WEEKDAYS, IncidentDate, TimeMention

DAY_BOUNDS = (0, 1, 2, 3, 7, 14, 31, 90)
DAY_PARTS = ("early", "late", "morning", "afternoon", "evening", "night", "midnight", "overnight")
SAME_DAY_NEWS = re.compile(r"\b(developing story|breaking news|refresh|check back|more details as|will update)\b", re.I)


def _kind(text: str) -> str:
    lowered = text.lower()
    if any(phrase in lowered for phrase in RELATIVE_DAYS):
        return "relative"
    if "ago" in lowered:
        return "ago"
    if any(re.search(rf"\b{day}\b", lowered) for day in WEEKDAYS):
        return "weekday"
    return "explicit"


def _mention_features(
    doc, mention: TimeMention, body_start: int, event_sentences: set[int], event_types: dict[int, str]
) -> set[str]:
    span = doc[mention.start : mention.end]
    root = span.root
    features = governor_features(root, event_types)
    features |= {
        f"kind:{_kind(mention.text)}",
        f"sentence:{interval_name(mention.sentence, (0, 1, 2, 4, 8), closed='above')}",
        f"dep:{root.dep_}",
    }
    if mention.start < body_start:
        features.add("in_title")
    if mention.sentence in event_sentences:
        features.add("event_sentence")
    before = doc[mention.start - 1].lower_ if mention.start else ""
    if before in ("on", "since", "until", "by", "from", "through", "before", "after"):
        features.add(f"after:{before}")
    features |= sentence_cues(span.sent)
    features |= {f"part:{part}" for part in DAY_PARTS if re.search(rf"\b{part}\b", mention.text.lower())}
    features.add(f"head:{root.head.lemma_.lower()}" if root.head is not root else "head:none")
    return features


def date_candidates(
    doc,
    times: Sequence[TimeMention],
    event_sentences: set[int],
    dct: dt.date,
    body_start: int,
    rule: IncidentDate,
    event_types: dict[int, str] | None = None,
) -> list[ValueCandidate]:
    """Every day-level date of ``times`` ("stated"), the DCT and the days before it ([extraction]
    dct_candidate_days in all), the rule's date when it is coarser than a day ("coarse"), each with
    the features of its mentions (kind of expression, part of the day, sentence, title, event sentence, cue words,
    syntactic head, whether a typed event (``event_types``: its type by the token it starts at) or a
    follow-up cue governs it), whether the story says it is breaking news (on the DCT candidates), its distance
    to the DCT, its weekday, its order among the dates and
    whether the rule chose it."""
    candidates: dict = {}
    counts: dict = {}
    for mention in times:
        if mention.granularity != "day":
            continue
        merge(candidates, mention.date, _mention_features(doc, mention, body_start, event_sentences, event_types or {}))
        counts[mention.date] = counts.get(mention.date, 0) + 1
    same_day_news = bool(SAME_DAY_NEWS.search(doc.text))
    for offset in range(settings().extraction.dct_candidate_days):
        breaking = {f"dct-{offset}&breaking"} if same_day_news else set()
        merge(candidates, dct - dt.timedelta(days=offset), {f"dct-{offset}"} | breaking)
    if rule.granularity != "day":
        merge(candidates, rule.date, {"coarse", f"coarse:{rule.granularity}"})
    stated = sorted(counts)
    first_stated = min(times, key=lambda t: t.start).date if times else None
    for date, candidate in candidates.items():
        features = candidate.features
        features |= {
            f"before_dct:{interval_name((dct - date).days, DAY_BOUNDS, closed='above')}",
            f"weekday:{date.weekday()}",
        }
        features |= mention_count_features("mentions", counts[date]) | {"stated"} if date in counts else {"unstated"}
        if stated:
            features.add("earliest" if date == stated[0] else "not_earliest")
            if date == stated[-1] and len(stated) > 1:
                features.add("latest")
            features.add(f"dates:{interval_name(len(stated), (1, 2, 3), closed='above')}")
        if date == first_stated:
            features.add("first_stated")
        if date == rule.date:
            features.add("rule")
    return list(candidates.values())
