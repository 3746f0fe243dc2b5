"""Cross-document coreference: report comparison, clustering decisions and reconciliation on hand-made reports."""

import random
import datetime as dt

import numpy as np
import pytest

from kg_count.incidents.grouping.cluster import ReportCluster, cluster_reports, candidate_pair_features
from kg_count.incidents.pairs.coreference_model import CoreferenceModel, shipped_coreference_model
from kg_count.incidents.reports.comparison import compare, date_interval, same_person
from kg_count.incidents.pairs.pair_features import Similarity, hard_conflict
from kg_count.incidents.reports.word_rarity import WordRarity
from kg_count.incidents.grouping.reconcile import reconcile
from tests.helpers import DBR, GERMANTOWN, MEMPHIS, NASHVILLE, OHIO, TENNESSEE, person, report


def test_same_city_and_day_merge_with_reasons():
    comparison = compare(report("a"), report("b"))
    assert not comparison.conflicts and comparison.score >= 3.5
    assert any("same city" in r for r in comparison.reasons) and any("same day" in r for r in comparison.reasons)


def test_other_state_or_distant_city_is_a_conflict():
    assert compare(report("a"), report("b", city=DBR + "Columbus,_Ohio", state=OHIO)).conflicts == ["states differ"]
    assert compare(report("a"), report("b", city=NASHVILLE)).conflicts == ["cities differ"]


def test_nearby_city_is_not_a_conflict():
    comparison = compare(report("a"), report("b", city=GERMANTOWN))
    assert not comparison.conflicts and any("km apart" in r for r in comparison.reasons)


def test_dates_apart_conflict_but_a_dct_estimate_reaches_back_a_week():
    assert compare(report("a"), report("b", date="2016-03-20")).conflicts
    late = report("b", date="2016-03-19", certainty="dct")
    assert date_interval(late) == (dt.date(2016, 3, 12), dt.date(2016, 3, 19))
    assert not compare(report("a"), late).conflicts


def test_gun_fire_and_job_reports_never_merge():
    assert compare(report("a"), report("b", types=("fire_burning",))).conflicts


def test_different_victims_named_keep_incidents_apart():
    a = report("a", people=[person("Marcus Deering")])
    b = report("b", people=[person("Tyrone Walker")])
    comparison = compare(a, b)
    assert any("different victims" in r for r in comparison.reasons)
    assert comparison.score < compare(report("a"), report("b")).score


def test_shared_name_merges_without_a_city():
    a = report("a", city=None, people=[person("Marcus Deering")])
    b = report("b", city=None, date="2016-03-16", certainty="dct", people=[person("M. Deering")])
    comparison = compare(a, b)
    assert not comparison.conflicts and any("names" in r for r in comparison.reasons)


def test_name_variants():
    assert same_person(person("Marcus Deering"), person("Deering"))
    assert same_person(person("Marcus Deering"), person("M. Deering"))
    assert not same_person(person("Marcus Deering"), person("John Deering"))
    assert not same_person(person("Marcus Deering"), person("Marcus Dennis"))


def test_clusters_are_consistent_as_a_whole():
    # b is near a and c in time, but a and c are six days apart: single links must not chain them.
    a = report("a", date="2016-03-10", certainty="dct")
    b = report("b", date="2016-03-13", certainty="dct")
    c = report("c", date="2016-03-19")
    clusters = cluster_reports([a, b, c])
    for cluster in clusters:
        ids = {r.doc_id for r in cluster.reports}
        assert not {"a", "c"} <= ids


def test_two_incidents_same_city_same_week_stay_apart():
    reports = [
        report("a1", people=[person("Marcus Deering")]),
        report("a2", people=[person("Marcus Deering")]),
        report("b1", date="2016-03-16", people=[person("Tyrone Walker")]),
        report("b2", date="2016-03-16", people=[person("T. Walker")]),
    ]
    groups = sorted(sorted(r.doc_id for r in c.reports) for c in cluster_reports(reports))
    assert groups == [["a1", "a2"], ["b1", "b2"]]


def test_reconcile_takes_the_count_most_reports_give_not_a_sum():
    first = report("a", killed=1, injured=2, dct="2016-03-14")
    second = report("b", killed=1, injured=3, dct="2016-03-15")
    latest = report("c", killed=1, injured=0, dct="2016-03-16")
    [cluster] = cluster_reports([first, second, latest])
    incident = reconcile(cluster, "a")
    assert (incident.killed, incident.injured) == (1, 3)  # injured: one report each, the largest
    assert incident.types == ["killing", "injuring"]
    assert incident.doc_ids == ["a", "b", "c"] and incident.merges


def test_a_later_report_of_a_death_wins_over_earlier_injury_reports():
    # two stories of a man in critical condition, then one of his death: one killed, nobody injured
    critical = [report(d, killed=0, injured=1, types=("injuring",), dct=f"2016-03-1{n}") for n, d in enumerate("ab")]
    died = report("c", killed=1, injured=0, dct="2016-03-16")
    incident = reconcile(ReportCluster([*critical, died]), "a")
    assert (incident.killed, incident.injured, incident.types) == (1, 0, ["killing"])
    # a later report of more dead than the wounded can hold is not taken over the others
    wounded_none = [report(d, killed=1, injured=0, dct=f"2016-03-1{n}") for n, d in enumerate("de")]
    incident = reconcile(ReportCluster([*wounded_none, report("f", killed=3, dct="2016-03-16")]), "d")
    assert (incident.killed, incident.injured) == (1, 0)


@pytest.mark.parametrize(
    "roles, kept",
    [(("bystander", "victim"), "victim"), (("suspect", "bystander"), "suspect"), (("other", "bystander"), "bystander")],
)
def test_reconcile_keeps_the_highest_ranked_role(roles, kept):
    from kg_count.incidents.grouping.cluster import ReportCluster

    a = report("a", people=[person("Marcus Deering", role=roles[0], status="unharmed")])
    b = report("b", people=[person("Marcus Deering", role=roles[1], status="unharmed")])
    incident = reconcile(ReportCluster([a, b]), "a")
    assert [p.role for p in incident.people] == [kept]


def test_reconcile_merges_people_and_keeps_the_worst_status():
    a = report("a", killed=0, injured=1, people=[person("M. Deering", status="injured")])
    b = report("b", killed=1, people=[person("Marcus Deering", status="killed", age=23)], dct="2016-03-15")
    [cluster] = cluster_reports([a, b])
    incident = reconcile(cluster, "a")
    assert [(p.full_name, p.status, p.age) for p in incident.people] == [("Marcus Deering", "killed", 23)]


def test_a_shooting_without_deaths_is_an_injuring_incident():
    incident = reconcile(cluster_reports([report("a", killed=0, injured=0, types=("injuring",))])[0], "a")
    assert incident.types == ["injuring"]
    incident = reconcile(cluster_reports([report("a", killed=2, injured=0)])[0], "a")
    assert incident.types == ["killing"]


def test_reconciled_date_and_place_follow_the_majority():
    reports = [report("a"), report("b"), report("c", date="2016-03-15", city=GERMANTOWN)]
    incident = reconcile(cluster_reports(reports)[0], "a")
    assert incident.date == dt.date(2016, 3, 14) and incident.city_iri == MEMPHIS and incident.state_iri == TENNESSEE


def test_incident_graph_satisfies_the_shacl_shapes():
    from pathlib import Path

    import pyshacl
    from rdflib import Graph

    from kg_count.incidents.store.incident_graph import incidents_as_triples
    from kg_count.incidents.grouping.scored_incidents import incidents_of

    ontology = Path(__file__).resolve().parents[1] / "ontology"
    reports = [
        report("a", people=[person("Marcus Deering")]),
        report("b", people=[person("M. Deering")]),
        report("c", city=None, state=None, types=("fire_burning",)),
    ]
    graph = Graph()
    graph += incidents_as_triples(incidents_of(reports))
    conforms, _, text = pyshacl.validate(
        graph,
        shacl_graph=Graph().parse(ontology / "shapes.ttl"),
        ont_graph=Graph().parse(ontology / "kg_count.ttl"),
        inference="rdfs",
    )
    assert conforms, text


def test_answer_facts_repeat_the_incident_and_person_triples():
    from rdflib import Graph

    from kg_count.graph.document_graph import document_id
    from kg_count.graph.namespaces import KGC, PROV, SEM, TIME
    from kg_count.incidents.store.answer_facts import IncidentFacts, PersonFacts
    from kg_count.incidents.store.incident_graph import incidents_as_triples
    from kg_count.incidents.grouping.scored_incidents import incidents_of

    reports = [
        report("a", people=[person("Marcus Deering")]),
        report("b", people=[person("Lena Moss")], date="2016-03-15"),
        report("c", city=None, state=None, types=("fire_burning",)),
    ]
    graph = Graph()
    graph += incidents_as_triples(incidents_of(reports))
    incidents = list(graph.subjects(KGC.incidentId, None))
    assert len(incidents) == 3
    for node in incidents:
        facts = IncidentFacts.read(str(graph.value(node, KGC.answerFacts)))
        time_node = graph.value(node, SEM.hasTime)
        assert facts.date == graph.value(time_node, TIME.inXSDDate).toPython()
        assert facts.certainty == str(graph.value(time_node, KGC.certainty))
        assert TIME[f"unit{facts.granularity.title()}"] == graph.value(time_node, KGC.granularity)
        counts = [int(graph.value(node, KGC[f"{kind}Count"])) for kind in ("killed", "injured", "fired")]
        assert [facts.killed, facts.injured, facts.fired] == counts
        assert facts.confidence == float(graph.value(node, KGC.confidence))
        derived = {document_id(iri) for iri in graph.objects(node, PROV.wasDerivedFrom)}
        assert len(facts.doc_ids) == len(derived) and set(facts.doc_ids) == derived
        for actor in graph.objects(node, SEM.hasActor):
            said = PersonFacts.read(str(graph.value(actor, KGC.answerFacts)))
            assert KGC[said.role] == graph.value(actor, KGC.role)
            for status, probability in said.probabilities().items():
                assert probability == float(graph.value(actor, KGC[f"{status}Probability"]))
    assert sum(1 for _ in graph.triples((None, KGC.answerFacts, None))) == 3 + 2


def test_a_group_never_takes_a_report_that_conflicts_with_any_member():
    # a-b and b-c each merge (one day, a shared victim, b states no place); a and c are in other states
    # and name no one in common, so joining b's group to c must be refused even though b-c alone would merge.
    a = report("a", city=MEMPHIS, people=[person("Marcus Deering")], title="Memphis man killed")
    victims = [person("Marcus Deering"), person("Tyrone Walker")]
    b = report("b", city=None, state=None, people=victims, title="Memphis man killed", killed=2)
    c = report("c", city=DBR + "Columbus,_Ohio", state=OHIO, people=[person("Tyrone Walker")])
    assert hard_conflict(a, c) == "states differ" and hard_conflict(a, b) is None and hard_conflict(b, c) is None
    model = shipped_coreference_model()
    scored = candidate_pair_features([a, b, c])
    assert set(scored.features) == {(0, 1), (1, 2)}
    assert all(model.probability(f) >= model.threshold for f in scored.features.values())
    groups = sorted(sorted(r.doc_id for r in cluster.reports) for cluster in cluster_reports([a, b, c]))
    assert groups == [["a", "b"], ["c"]]


def test_a_follow_up_story_joins_its_incident_through_a_shared_victim_name():
    shooting = report(
        "shooting",
        date="2016-03-14",
        people=[person("Marcus Deering")],
        title="Marcus Deering shot dead outside Memphis store",
    )
    trial = report(
        "trial",
        date="2016-05-02",
        dct="2016-05-02",
        title="Trial opens in killing of Marcus Deering",
        people=[person("Marcus Deering"), person("Carl Jones", "suspect", "unharmed")],
    )
    assert hard_conflict(shooting, trial) is None  # seven weeks apart, bridged by the shared name
    [cluster] = cluster_reports([shooting, trial])
    assert [r.doc_id for r in cluster.reports] == ["shooting", "trial"]
    assert any("names:shared" in reason for reason in cluster.merges[0].reasons)
    stranger = report("stranger", date="2016-05-02", people=[person("Tyrone Walker")])
    assert hard_conflict(shooting, stranger).startswith("dates apart")


def test_two_reports_of_one_shooting_in_other_words_merge_by_the_learned_model():
    a = report(
        "a", killed=2, injured=1, title="Two killed, one hurt in shooting at Riverside Park cookout", dct="2016-03-14"
    )
    b = report(
        "b",
        killed=2,
        injured=1,
        date="2016-03-13",
        certainty="dct",
        dct="2016-03-15",
        title="Gunfire erupts at Riverside Park family gathering, leaving 2 dead",
    )
    [cluster] = cluster_reports([a, b])
    [merge] = cluster.merges
    model = shipped_coreference_model()
    assert merge.score >= model.threshold and merge.reasons and all("(" in r for r in merge.reasons)
    # the decision is the model's: without its weights the pair stays apart
    unweighed = CoreferenceModel({}, -5.0, model.threshold, group_threshold=model.group_threshold)
    assert len(cluster_reports([a, b], unweighed)) == 2


def test_reports_of_other_states_never_merge_whatever_else_agrees():
    a = report("a", title="Man shot dead outside store", people=[person("Marcus Deering")])
    b = report(
        "b",
        title="Man killed in shooting, police say",
        people=[person("Tyrone Walker")],
        city=DBR + "Columbus,_Ohio",
        state=OHIO,
    )
    strong = CoreferenceModel({}, 20.0, 0.5, group_threshold=0.5)  # would merge any pair it is asked about
    assert hard_conflict(a, b) == "states differ"
    assert len(cluster_reports([a, b], strong)) == 2
    # a victim or suspect both name lets the model weigh the pair (one state misread)
    named = report("b", title=b.title, people=[person("Marcus Deering")], city=b.city_iri, state=OHIO)
    assert hard_conflict(a, named) is None
    # a witness or official both name does not
    spokesman = [person("Marcus Deering", "bystander", "unharmed")]
    quoted = report("b", title=b.title, people=spokesman, city=b.city_iri, state=OHIO)
    assert hard_conflict(quoted, report("a", title=a.title, people=spokesman)) == "states differ"
    # only titles sharing a rare word (a place name: one state misread) let the model weigh the pair
    here = report("a", title="Riverside Park shooting")
    there = report("b", title="Man killed at Riverside Park", city=DBR + "Columbus,_Ohio", state=OHIO)
    assert hard_conflict(here, there, Similarity(rarity=WordRarity.of_texts([here.title, there.title]))) is None


def test_merge_reasons_reach_the_incident_graph():
    from kg_count.incidents.store.incident_graph import incidents_as_triples
    from kg_count.incidents.grouping.scored_incidents import incidents_of
    from kg_count.graph.namespaces import KGC

    reports = [
        report("a", people=[person("Marcus Deering")], title="Marcus Deering killed in Memphis"),
        report("b", people=[person("M. Deering")], title="Police name Memphis shooting victim Marcus Deering"),
    ]
    [incident] = incidents_of(reports)
    reasons = [str(o) for _, p, o in incidents_as_triples([incident]) if p == KGC.mergeReason]
    assert len(reasons) == 1 and reasons[0].startswith("a + b (") and "names:shared" in reasons[0]


def test_the_coreference_model_file_is_in_the_incident_fingerprint(tmp_path, monkeypatch):
    import json

    from kg_count.graph.store import GraphStore
    from kg_count.incidents.update import materialise

    with GraphStore(tmp_path / "store") as store:
        before = materialise.fingerprint(store)
        changed = json.loads(materialise.COREFERENCE_MODEL_PATH.read_text())
        changed["threshold"] = changed["threshold"] + 0.1
        (tmp_path / "coreference.json").write_text(json.dumps(changed))
        monkeypatch.setattr(materialise, "COREFERENCE_MODEL_PATH", tmp_path / "coreference.json")
        assert materialise.fingerprint(store) != before


def test_a_tie_between_two_reports_states_goes_to_the_state_their_texts_name():
    # one report put Smyrna in Georgia, the other in Tennessee; the dateline names Tennessee
    georgia = report("a", city=DBR + "Smyrna,_Georgia", state=DBR + "Georgia_(U.S._state)", title="Girl shoots herself")
    tennessee = report("b", city=DBR + "Smyrna,_Tennessee", state=DBR + "Tennessee", title="Girl shoots herself")
    tennessee.lead = "SMYRNA , Tenn. -- A 2-year-old in Smyrna is in hospital after accidentally shooting herself ."
    incident = reconcile(ReportCluster([georgia, tennessee]), "a")
    assert incident.state_iri == DBR + "Tennessee" and incident.city_iri == DBR + "Smyrna,_Tennessee"


def test_candidate_pairs_are_every_pair_the_blocking_rules_allow():
    """The swept, blocked pairs equal the pairs found by testing every pair against the rules' definition."""
    import random
    from itertools import combinations

    from kg_count.incidents.pairs.candidate_pairs import candidate_pair_array
    from kg_count.incidents.reports.comparison import days_between
    from kg_count.incidents.reports.word_rarity import content_words
    from kg_count.settings import settings

    chosen = random.Random(7)
    states = [TENNESSEE, OHIO, None]
    names = ["Ann Smith", "Bo Jones", "Cy Smith", "Di Park"]
    words = ["Riverside", "Oakland", "downtown", "tavern"]
    reports = [
        report(
            f"d{n}",
            date=(dt.date(2016, 3, 1) + dt.timedelta(days=chosen.randrange(40))).isoformat(),
            granularity=chosen.choice(["day", "day", "month"]),
            city=None,
            state=chosen.choice(states),
            people=[person(chosen.choice(names))] if chosen.random() < 0.3 else [],
            types=chosen.choice([("killing",), ("fire_burning",)]),
            title=f"Shooting near {chosen.choice(words)}",
        )
        for n in range(120)
    ]
    rarity = WordRarity.of_texts(r.title for r in reports)
    clustering = settings().clustering

    def allowed(a, b):
        if a.family != b.family:
            return False
        last_names = {p.last_name.lower() for p in a.named_participants}
        if last_names & {p.last_name.lower() for p in b.named_participants}:
            return True
        if days_between(a, b) > clustering.date_slack_days:
            return False
        if a.state_iri is None or b.state_iri is None or a.state_iri == b.state_iri:
            return True
        shared = set(content_words(a.title)) & set(content_words(b.title))
        return any(rarity.of(w) >= clustering.state_bridge_rarity for w in shared)

    expected = [(i, j) for i, j in combinations(range(len(reports)), 2) if allowed(reports[i], reports[j])]
    assert expected and [tuple(row) for row in candidate_pair_array(reports, rarity).tolist()] == expected
    marked = np.array([chosen.random() < 0.1 for _ in reports])
    touching = [(i, j) for i, j in expected if marked[i] or marked[j]]
    assert touching and [tuple(row) for row in candidate_pair_array(reports, rarity, marked).tolist()] == touching


def test_grouping_in_several_processes_gives_the_clusters_of_one(monkeypatch, tmp_path):
    """Scoring the pairs in forked processes (forced here on a few reports) changes no probability."""
    import os

    from kg_count.incidents.grouping import cluster as cluster_module
    from kg_count.incidents.grouping.cluster import component_pair_scores
    from kg_count.incidents.pairs.pair_context import PairContext
    from kg_count.settings import SETTINGS_ENV

    reports = [
        report(f"d{n}", date=f"2016-03-{10 + n % 5:02d}", killed=n % 3, people=[person(f"Al Doe{n % 4}")])
        for n in range(24)
    ]
    model = shipped_coreference_model()
    alone = component_pair_scores(PairContext.of(reports), model)
    path = tmp_path / "settings.toml"
    path.write_text("[batch]\ngrouping_processes = 2\ngrouping_parallel_pairs = 1\n")
    monkeypatch.setenv(SETTINGS_ENV, str(path))
    scorers = tmp_path / "scorers"
    score = cluster_module._scored_rows

    def noting_scorer(*args):
        with open(scorers, "a") as noted:
            noted.write(f"{os.getpid()}\n")
        return score(*args)

    monkeypatch.setattr(cluster_module, "_scored_rows", noting_scorer)
    forked = component_pair_scores(PairContext.of(reports), model)
    assert forked[0].known == alone[0].known and forked[1] == alone[1]
    assert len(alone[0].known) > 20
    scored_in = set(scorers.read_text().split())
    assert len(scored_in) >= 2 and str(os.getpid()) not in scored_in


def test_word_rarity_without_some_texts_is_the_rarity_of_the_others():
    texts = ["Man shot on Elm Street", "Elm Street shooting leaves two hurt", "Fire on Oak Avenue", "Oak Avenue fire"]
    whole = WordRarity.of_texts(texts)
    assert whole.without(texts[1::2]) == WordRarity.of_texts(texts[::2])
    assert whole.without(texts) == WordRarity.of_texts([])


def test_merging_scores_only_the_pairs_it_compares_and_groups_as_with_every_pair_scored():
    """Reports of one city over a week make one link component; merging scores only the pairs it compares
    (``PairProbabilities``) and groups them as merging over every pair scored beforehand does."""
    from kg_count.incidents.grouping.cluster import component_pair_scores, group_reports, candidate_pair_features
    from kg_count.incidents.pairs.pair_context import PairContext

    chosen = random.Random(0)
    words = "Elm Oak Main Pine Lake Hill Park Mill teen store bar home wounded dies police arrest night car".split()
    incidents = [
        (chosen.randrange(8), chosen.randrange(4), chosen.randrange(4), chosen.sample(words, 3)) for _ in range(30)
    ]
    reports = []
    for n in range(72):
        day, killed, injured, incident_words = incidents[chosen.randrange(len(incidents))]
        title = " ".join(chosen.sample(incident_words, 2) + [chosen.choice(words)])
        reports.append(report(f"d{n:02d}", date=f"2016-03-{1 + day:02d}", killed=killed, injured=injured, title=title))
    model = shipped_coreference_model()
    scores, components = component_pair_scores(PairContext.of(reports), model)
    every = group_reports(reports, model, pair_features=candidate_pair_features(reports))
    read_as_needed = group_reports(reports, model)
    assert [[r.doc_id for r in c.reports] for c in read_as_needed.clusters] == [
        [r.doc_id for r in c.reports] for c in every.clusters
    ]
    assert len(read_as_needed.clusters) > 3 and len(set(components)) == 1
    assert all(p >= model.threshold for p in scores.known.values())  # before merging: the pairs that link
    assert set(read_as_needed.pairs.codes.tolist()) < set(every.pairs.codes.tolist())
    explained_later = group_reports(reports, model, explain_later=True)
    merges = [[(m.doc_a, m.doc_b, m.score, m.reasons) for m in c.merges] for c in read_as_needed.clusters]
    assert merges == [[(m.doc_a, m.doc_b, m.score, m.reasons) for m in c.merges] for c in explained_later.clusters]
    assert any(m.reasons for c in explained_later.clusters for m in c.merges)


def test_a_report_stating_a_death_and_an_injury_keeps_the_injuring_type_however_the_counts_vote():
    # two stories give the death alone, one also the wounded: one killed, injured 0 by vote, still an injuring
    alone = [report(d, killed=1, injured=0, dct=f"2016-03-1{n}") for n, d in enumerate("ab")]
    both = report("c", killed=1, injured=2, dct="2016-03-12")
    incident = reconcile(ReportCluster([*alone, both]), "a")
    assert (incident.killed, incident.injured, incident.types) == (1, 0, ["killing", "injuring"])
    incident = reconcile(ReportCluster(alone), "a")
    assert incident.types == ["killing"]
