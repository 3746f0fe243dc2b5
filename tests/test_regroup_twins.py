"""An update reads twin features again only where they can change, and gets those reading all incidents gives."""

import datetime as dt
import random

from kg_count.incidents.grouping.incident_match import twin_features
from kg_count.incidents.update.regroup import changed_twins
from kg_count.incidents.store.stored_incidents import StoredIncident

CITIES = ["c:Memphis", "c:Dayton", "c:Akron", None]


def incidents(chosen: random.Random, prefix: str, n: int) -> list[StoredIncident]:
    """Incidents of two kinds in a few cities over three months, of one to three documents."""
    return [
        StoredIncident(
            f"{prefix}{k}",
            "",
            [f"{prefix}{k}-{d}" for d in range(chosen.randint(1, 3))],
            dt.date(2016, 5, 1) + dt.timedelta(days=chosen.randrange(90)),
            chosen.choice(CITIES),
            chosen.choice(["killing", "fire"]),
            [],
        )
        for k in range(n)
    ]


def test_changed_twins_are_the_twins_of_all_incidents():
    chosen = random.Random(3)
    before = incidents(chosen, "a", 80)
    for incident, twin in zip(before, twin_features(before, [i.family for i in before])):
        incident.twins = sorted(twin)
    removed = [i for i in before if i.city_iri == "c:Dayton" and i.family == "fire" and len(i.doc_ids) == 3]
    kept = [i for i in before if i not in removed]
    fresh = [i for i in incidents(chosen, "b", 10) if i.city_iri != "c:Akron" and i.city_iri != "c:Dayton"]
    families = [i.family for i in fresh]
    everything = twin_features([*fresh, *kept], [*families, *(i.family for i in kept)])
    assert changed_twins(fresh, families, kept, removed) == everything
    assert any(everything) and any(i.twins for i in kept)


def test_twin_features_compare_each_incident_with_its_city_and_kind_as_a_pass_over_all_pairs_does():
    """The features read within a week of each incident are those every pair of one kind and city gives."""
    import datetime as dt
    import random
    from types import SimpleNamespace

    chosen = random.Random(3)
    incidents = [
        SimpleNamespace(
            incident_id=f"i{n:03d}",
            city_iri=chosen.choice(["a", "b", None]),
            date=dt.date(2016, 1, 1) + dt.timedelta(days=chosen.randrange(40)),
            doc_ids=["d"] * chosen.randint(1, 3),
        )
        for n in range(300)
    ]
    families = [chosen.choice(["gun", "fire_burning"]) for _ in incidents]

    def every_pair(n: int) -> list[str]:
        here = incidents[n]
        gaps = [
            abs((other.date - here.date).days)
            for m, other in enumerate(incidents)
            if m != n
            and here.city_iri
            and (families[m], other.city_iri) == (families[n], here.city_iri)
            and (len(other.doc_ids), other.incident_id) > (len(here.doc_ids), here.incident_id)
        ]
        day, week = any(g <= 1 for g in gaps), any(g <= 7 for g in gaps)
        return ["twin:larger_within_day"] if day else ["twin:larger_within_week"] if week else []

    found = twin_features(incidents, families)
    assert found == [every_pair(n) for n in range(len(incidents))]
    assert {tuple(f) for f in found} == {(), ("twin:larger_within_day",), ("twin:larger_within_week",)}
