"""An update reads twin features again only where they can change, and gets those reading all incidents gives."""

import datetime as dt
import random

from kg_count.incidents.confidence import twin_features
from kg_count.incidents.regroup import changed_twins
from kg_count.incidents.stored_incidents import StoredIncident

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
