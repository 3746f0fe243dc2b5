"""Features of whether a document reports the incident itself or a later event about it (an arrest, a
trial, a sentencing, a funeral, a vigil, an anniversary): the cue words of its title and lead and how
far before the DCT the dates it states lie. The learned follow-up classifier reads them."""

from __future__ import annotations

import datetime as dt
from typing import Sequence

from kg_count.learning.bins import interval_name
from kg_count.nlp.candidate_features import FOLLOW_UP_CUES, INCIDENT_CUES
from kg_count.nlp.times import TimeMention

LEAD_SENTENCES = 3
DAY_BOUNDS = (0, 1, 2, 3, 7, 31)


def follow_up_features(doc, body_start: int, times: Sequence[TimeMention], dct: dt.date) -> set[str]:
    """The follow-up features of a spaCy doc whose body starts at token ``body_start``, with its resolved
    ``times`` and DCT: ``title:LEMMA`` and ``lead:LEMMA`` for cue words, the days between the DCT and the
    earliest and latest stated day, and whether coarser (month or year) dates are stated."""
    cues = FOLLOW_UP_CUES | INCIDENT_CUES
    features = {f"title:{t.lemma_.lower()}" for t in doc[:body_start] if t.lemma_.lower() in cues}
    lead_end = body_start
    for n, sentence in enumerate(doc[body_start:].sents if body_start < len(doc) else []):
        if n >= LEAD_SENTENCES:
            break
        lead_end = sentence.end
    features |= {f"lead:{t.lemma_.lower()}" for t in doc[body_start:lead_end] if t.lemma_.lower() in cues}
    features |= {f"lead_tense:{t.tag_}" for t in doc[body_start:lead_end] if t.dep_ == "ROOT"}
    days = sorted((dct - t.date).days for t in times if t.granularity == "day")
    if days:
        features |= {
            f"earliest:{interval_name(days[-1], DAY_BOUNDS, closed='above')}",
            f"latest:{interval_name(days[0], DAY_BOUNDS, closed='above')}",
        }
    else:
        features.add("no_day")
    if any(t.granularity != "day" for t in times):
        features.add("coarse_date")
    return features
