"""What two reports share, as named binary features for the learned same-incident model.

Reads two Reports (and how alike their texts read: ``Similarity``) and returns feature names:
how their dates relate (by certainty and granularity, days apart), how their places relate
(same city, kilometres apart, one unknown), the victims and suspects both name, whether their
counts agree, how alike their titles are (words and sentence vectors), whether the titles read
like follow-up stories, and days between their publication dates. ``hard_conflict`` says when
two reports may never be one incident whatever else agrees.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz

from kg_count.incidents.reports.follow_up import has_follow_up_title
from kg_count.learning.bins import interval_name
from kg_count.incidents.reports.comparison import compare, days_between, distance_km, shared_names, title_words
from kg_count.incidents.reports.reports import Report
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.settings import settings


def rarity_edges() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The rarities at which some pair feature or decision changes, for title words and for lead words
    (sorted): the bins' edges, the [clustering] ``rare_word`` and, for titles, ``state_bridge_rarity``."""
    chosen = settings().clustering
    titles = {*chosen.title_rarity_edges, chosen.rare_word, chosen.state_bridge_rarity}
    return tuple(sorted(titles)), tuple(sorted({*chosen.lead_rarity_edges, chosen.rare_word}))


@dataclass(frozen=True)
class Similarity:
    """How alike two reports read: the cosine of their titles' sentence vectors (None: a title missing),
    and how rare title and lead words are (``WordRarity``; None: not known)."""

    title: float | None = None
    rarity: WordRarity | None = None
    lead_rarity: WordRarity | None = None


def shared_rarities(a: str, b: str, rarity: WordRarity | None) -> list[float]:
    """The rarity of each content word texts ``a`` and ``b`` share (none without rarities)."""
    return rarity.shared(a, b) if rarity else []


def rarest_shared(a: str, b: str, rarity: WordRarity | None) -> float:
    """The rarity of the rarest content word texts ``a`` and ``b`` share (0 when none or no rarities)."""
    return max(shared_rarities(a, b, rarity), default=0.0)


def hard_conflict(a: Report, b: Report, similarity: Similarity = Similarity()) -> str | None:
    """Why ``a`` and ``b`` can never be one incident (other kinds; other states, unless their titles share
    a rare word or both name one victim or suspect (a misread state); date intervals more than
    ``date_slack_days`` apart and no shared name), or None ([clustering] settings)."""
    chosen = settings().clustering
    if a.family != b.family:
        return f"kinds differ ({a.family} / {b.family})"
    states_differ = (
        a.state_iri
        and b.state_iri
        and a.state_iri != b.state_iri
        and rarest_shared(a.title, b.title, similarity.rarity) < chosen.state_bridge_rarity
    )
    dates_apart = days_between(a, b) > chosen.date_slack_days
    if (states_differ or dates_apart) and not shared_names(a, b):
        return "states differ" if states_differ else f"dates apart ({a.date} / {b.date})"
    return None


def _date_features(a: Report, b: Report) -> list[str]:
    kinds = "|".join(sorted(f"{r.certainty}:{r.granularity}" for r in (a, b)))
    gap = days_between(a, b)
    if gap:
        return [f"date:apart:{interval_name(gap, settings().clustering.date_gap_edges)}"]
    if a.certainty == b.certainty == "text" and a.granularity == b.granularity == "day":
        return [f"date:text_days:{interval_name(abs((a.date - b.date).days), settings().clustering.text_day_edges)}"]
    return [f"date:overlap:{kinds}"]


def _place_features(a: Report, b: Report) -> list[str]:
    if a.state_iri and b.state_iri and a.state_iri != b.state_iri:
        return ["place:states_differ"]
    if a.city_iri and b.city_iri:
        if a.city_iri == b.city_iri:
            return ["place:same_city"]
        distance = distance_km(a, b)
        return [
            "place:city_km:"
            + ("unknown" if distance is None else interval_name(distance, settings().clustering.city_km_edges))
        ]
    if a.state_iri and b.state_iri:
        return ["place:same_state:" + ("one_city" if a.city_iri or b.city_iri else "no_city")]
    if a.state_iri or b.state_iri:
        return ["place:one_unknown"]
    return ["place:both_unknown"]


def names_a_victim(report: Report) -> bool:
    """Whether the report names someone it says was killed or injured."""
    return any(p.status in ("killed", "injured") for p in report.named_participants)


def sole_victim(report: Report) -> bool:
    """Whether the report counts at most one person killed or injured."""
    return report.killed + report.injured <= 1


def name_features(a: Report, b: Report) -> list[str]:
    """What the named victims and suspects of two reports say: the names both give (and their roles), or how
    the names they give differ."""
    shared = shared_names(a, b)
    if shared:
        roles = {p.role for p in a.named_participants if p.full_name in shared}
        return [
            f"names:shared:{interval_name(len(shared), settings().clustering.shared_name_edges)}",
            *(f"names:shared_role:{r}" for r in sorted(roles)),
        ]
    if names_a_victim(a) and names_a_victim(b):
        # one victim each, and not the same one: two incidents
        return ["names:different_sole_victims" if sole_victim(a) and sole_victim(b) else "names:different_victims"]
    if any(r.named_participants for r in (a, b)):
        return ["names:one_side" if not all(r.named_participants for r in (a, b)) else "names:different"]
    return ["names:none"]


def _count_features(a: Report, b: Report) -> list[str]:
    features = []
    for name in ("killed", "injured", "fired"):
        here, there = getattr(a, name), getattr(b, name)
        if here and there:
            features.append(
                f"count:{name}:"
                + (f"same:{interval_name(here, settings().clustering.count_edges)}" if here == there else "differ")
            )
        elif here or there:
            features.append(f"count:{name}:one")
    return features


def title_words_feature(a: Report, b: Report) -> str:
    """How alike the two titles' words are (token-set ratio, in bins)."""
    ratio = fuzz.token_set_ratio(title_words(a.title), title_words(b.title))
    return f"title:words:{interval_name(ratio, settings().clustering.title_word_edges)}"


def _text_features(a: Report, b: Report, similarity: Similarity) -> list[str]:
    chosen = settings().clustering
    features = [title_words_feature(a, b)]
    for part, rarity, edges in (
        ("title", similarity.rarity, chosen.title_rarity_edges),
        ("lead", similarity.lead_rarity, chosen.lead_rarity_edges),
    ):
        here, there = getattr(a, part), getattr(b, part)
        if rarity and here and there:
            shared = shared_rarities(here, there, rarity)
            features.append(f"{part}:rarest_shared:{interval_name(max(shared, default=0.0), edges)}")
            features.append(f"{part}:rare_shared:{min(sum(x >= chosen.rare_word for x in shared), 3)}")
    if similarity.title is not None:
        features.append(f"title:cosine:{interval_name(similarity.title, chosen.title_cosine_edges)}")
    follow = sum(has_follow_up_title(r.title) for r in (a, b))
    features.append(f"title:follow_up:{follow}")
    return features


def _rule_feature(a: Report, b: Report) -> str:
    """The hand-weighted comparison (``comparison.compare``, [clustering] weights) as one feature: its
    score in bins, or its conflict."""
    rules = compare(a, b)
    if rules.conflicts:
        return "rules:conflict:" + rules.conflicts[0].split(" (")[0].replace(" ", "_")
    return f"rules:{interval_name(rules.score, (1, 2, 3, 4, 5, 6))}"


def pair_features(a: Report, b: Report, similarity: Similarity = Similarity()) -> list[str]:
    """The features of a pair of reports of one kind (``similarity``: how alike their texts read),
    with a few conjunctions of place, date and names, the strongest signs taken together, and the
    hand-weighted rules' verdict."""
    date, place, names = _date_features(a, b), _place_features(a, b), name_features(a, b)
    features = [
        *date,
        *place,
        *names,
        *_count_features(a, b),
        *_text_features(a, b, similarity),
        _rule_feature(a, b),
        f"dct:{interval_name(abs((a.dct - b.dct).days), settings().clustering.dct_edges)}",
        f"family:{a.family}",
    ]
    features.append(f"{place[0]}&{date[0]}")
    features.append(f"{place[0]}&{names[0]}")
    features.append(f"{date[0]}&{names[0]}")
    return features
