"""SPARQL answering: each query shape on a small hand-written incident graph, and the batch command."""

import json
from pathlib import Path

import pytest
from rdflib import Dataset, Literal, URIRef

from kg_count.answer.graph_answer import (
    answer_task_question,
    candidate_match_features,
    incidents_of_plan,
    query_plan,
    values_rows,
)
from kg_count.graph.store import GraphStore
from kg_count.io.questions import parse_question
from tests.helpers import SAMPLE

FIXTURE = Path(__file__).parent / "fixtures" / "incidents.trig"
DBR = "http://dbpedia.org/resource/"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    data = Dataset()
    data.parse(FIXTURE, format="trig")
    with GraphStore(tmp_path_factory.mktemp("answering") / "store") as store:
        store.dataset.addN(quad for quad in data.quads() if quad[3] is not None)
        yield store


def ask(store, subtask, event_type, **properties):
    question = parse_question("q", {"subtask": subtask, "event_type": event_type, **properties})
    answer = answer_task_question(store, question, answer_prior=False)  # the query shapes, not the prior
    return answer.numerical_answer, sorted(answer.documents)


def test_city_and_day(store):
    assert ask(store, 2, "killing", location={"city": DBR + "Memphis,_Tennessee"}, time={"day": "14/03/2016"}) == (
        1,
        ["d1", "d2"],
    )


def test_state_and_month_count_incidents_not_documents(store):
    assert ask(store, 2, "injuring", location={"state": DBR + "Tennessee"}, time={"month": "03/2016"}) == (
        2,
        ["d1", "d2", "d3"],
    )


def test_year_and_each_name_part(store):
    for participant in ({"first": "Marcus"}, {"last": "deering"}, {"full_name": "Marcus Deering"}):
        assert ask(store, 2, "killing", participant=participant, time={"year": "2016"}) == (1, ["d1", "d2"])
    assert ask(store, 2, "killing", participant={"last": "Walker"}, time={"year": "2016"}) == (0, [])


def test_location_and_participant(store):
    assert ask(store, 2, "killing", participant={"last": "Deering"}, location={"state": DBR + "Tennessee"})[0] == 1
    assert ask(store, 2, "killing", participant={"last": "Deering"}, location={"state": DBR + "Ohio"})[0] == 0


def test_event_type_is_asked(store):
    assert ask(store, 2, "fire_burning", location={"state": DBR + "Tennessee"}, time={"year": "2016"}) == (0, [])
    assert ask(store, 2, "fire_burning", location={"state": DBR + "Ohio"}, time={"year": "2016"}) == (1, ["d5"])


def test_s3_sums_people_of_the_asked_status(store):
    assert ask(store, 3, "killing", location={"state": DBR + "Tennessee"}, time={"year": "2016"}) == (
        3,
        ["d1", "d2", "d4"],
    )
    assert ask(store, 3, "injuring", location={"state": DBR + "Tennessee"}, time={"month": "03/2016"})[0] == 3


def test_nothing_fits_gives_zero_and_no_documents(store):
    assert ask(store, 2, "killing", location={"city": DBR + "Memphis,_Tennessee"}, time={"year": "2015"}) == (0, [])
    assert ask(store, 3, "injuring", location={"state": DBR + "Ohio"}, time={"year": "2016"}) == (0, [])


def test_queries_read_the_project_prefixes(store):
    # rdflib binds "geo" to GeoSPARQL by default; the queries mean WGS84 positions
    rows = list(store.query("SELECT ?lat WHERE { <http://dbpedia.org/resource/Dayton,_Ohio> geo:lat ?lat }"))
    assert [float(row.lat) for row in rows] == [39.7589]


def test_s1_picks_one_incident_and_relaxes_when_nothing_fits(store):
    # exact: one incident
    assert ask(store, 1, "killing", location={"city": DBR + "Memphis,_Tennessee"}, time={"day": "14/03/2016"}) == (
        None,
        ["d1", "d2"],
    )
    # two days off and a neighbouring city: the relaxed query finds the Germantown incident
    assert ask(store, 1, "killing", location={"city": DBR + "Memphis,_Tennessee"}, time={"day": "04/04/2016"}) == (
        None,
        ["d4"],
    )
    # far off in time: at last the asked time is dropped, and the incident nearest to it near Memphis is taken
    assert ask(store, 1, "killing", location={"city": DBR + "Memphis,_Tennessee"}, time={"day": "04/09/2016"}) == (
        None,
        ["d4"],
    )
    assert ask(store, 1, "killing", location={"city": DBR + "Memphis,_Tennessee"}, time={"day": "04/01/2016"}) == (
        None,
        ["d1", "d2"],
    )
    # nothing of the type near the asked place at any time: the place is dropped, the nearest in time is taken
    assert ask(store, 1, "fire_burning", location={"state": DBR + "Tennessee"}, time={"day": "16/03/2016"}) == (
        None,
        ["d5"],
    )


def test_s1_relaxed_lets_an_incident_dated_by_publication_lie_a_week_later(store):
    dayton = {"city": DBR + "Dayton,_Ohio"}
    assert ask(store, 2, "killing", location=dayton, time={"day": "04/05/2016"}) == (0, [])
    assert ask(store, 1, "killing", location=dayton, time={"day": "04/05/2016"}) == (None, ["d6"])
    # nine days before publication is beyond the week the first relaxation allows
    too_early = parse_question(
        "q", {"subtask": 1, "event_type": "killing", "location": dayton, "time": {"day": "01/05/2016"}}
    )
    assert incidents_of_plan(store, query_plan(too_early, 1)) == []


def test_s1_prefers_an_incident_where_a_victim_or_suspect_carries_the_asked_name(store):
    moss = {"participant": {"last": "Moss"}, "location": {"state": DBR + "Tennessee"}}
    assert ask(store, 2, "injuring", **moss) == (2, ["d1", "d2", "d3"])
    assert ask(store, 1, "injuring", **moss) == (None, ["d3"])


def test_s1_relaxed_lets_a_bystander_carry_the_asked_name(store):
    franklin = {"participant": {"last": "Franklin"}, "time": {"year": "2015"}}
    assert ask(store, 2, "killing", **franklin) == (0, [])
    assert ask(store, 1, "killing", **franklin) == (None, ["d7"])


def test_s1_relaxed_takes_the_last_name_of_an_asked_full_name(store):
    assert ask(store, 2, "killing", participant={"full_name": "Jim Deering"}, time={"year": "2016"}) == (0, [])
    assert ask(store, 1, "killing", participant={"full_name": "Jim Deering"}, time={"year": "2016"}) == (
        None,
        ["d1", "d2"],
    )


def test_s1_relaxed_takes_a_city_of_the_asked_name_in_another_state(store):
    shelton = {"location": {"city": DBR + "Shelton,_Washington"}, "time": {"month": "07/2015"}}
    assert ask(store, 2, "killing", **shelton) == (0, [])
    assert ask(store, 1, "killing", **shelton) == (None, ["d7"])


def test_a_part_of_a_city_reads_as_the_city(store):
    for part in ("Uptown_Oakland", "Chinatown,_Oakland"):
        asked = {"location": {"city": DBR + part}, "time": {"month": "04/2016"}}
        question = parse_question("q", {"subtask": 2, "event_type": "injuring", **asked})
        found = incidents_of_plan(store, query_plan(question))
        assert [i.doc_ids for i in found] == [["d8"]]
        assert "q:place=part_of_city" in candidate_match_features(question, found)[0]
        assert ask(store, 1, "injuring", **asked) == (None, ["d8"])
    other_month = parse_question(
        "q",
        {
            "subtask": 2,
            "event_type": "injuring",
            "location": {"city": DBR + "Uptown_Oakland"},
            "time": {"month": "05/2016"},
        },
    )
    assert incidents_of_plan(store, query_plan(other_month)) == []


def test_a_part_of_a_city_in_the_text_must_be_named_by_a_report(store):
    asked = {"location": {"city": DBR + "Memphis,_Tennessee"}, "time": {"month": "03/2016"}}
    assert ask(store, 2, "injuring", **asked) == (2, ["d1", "d2", "d3"])
    in_part = "How many ['injuring'] events happened in 03/2016 in ('Tennessee', 'Memphis (Orange Mound)') (city)"
    assert ask(store, 2, "injuring", **asked, verbose_question=in_part) == (1, ["d3"])
    elsewhere = in_part.replace("Orange Mound", "Frayser")
    assert ask(store, 2, "injuring", **asked, verbose_question=elsewhere) == (0, [])


def test_a_part_of_a_city_that_is_a_place_of_its_own_finds_its_incidents(store):
    asked = {"location": {"city": DBR + "Memphis,_Tennessee"}, "time": {"month": "04/2016"}}
    assert ask(store, 2, "killing", **asked) == (0, [])
    in_part = "How many ['killing'] events happened in 04/2016 in ('Tennessee', 'Memphis (Germantown)') (city)"
    assert ask(store, 2, "killing", **asked, verbose_question=in_part) == (1, ["d4"])


def test_a_variable_bound_to_alternatives_gives_a_values_row_for_each():
    block = values_rows({"a": Literal(1), "b": (URIRef("http://x/1"), URIRef("http://x/2"))})
    one = Literal(1).n3()
    assert block == f"VALUES (?a ?b) {{ ({one} <http://x/1>) ({one} <http://x/2>) }}"


def test_no_state_in_the_text_counts_incidents_outside_the_states(store):
    asked = {"location": {"state": DBR + "Tennessee"}, "time": {"month": "03/2016"}}
    assert ask(store, 2, "killing", **asked) == (1, ["d1", "d2"])
    no_state = "How many ['killing'] events happened in 03/2016 (month) in (None,) (state) ?"
    assert ask(store, 2, "killing", **asked, verbose_question=no_state) == (1, ["d9"])
    assert ask(store, 1, "killing", **asked, verbose_question=no_state) == (None, ["d9"])


def test_a_contradicting_state_in_the_text_is_answered(store):
    asked = {"location": {"state": DBR + "Ohio"}, "time": {"month": "03/2016"}}
    assert ask(store, 2, "injuring", **asked) == (0, [])
    text = "How many ['injuring'] events happened in 03/2016 (month) in ('Tennessee',) (state) ?"
    assert ask(store, 2, "injuring", **asked, verbose_question=text) == (2, ["d1", "d2", "d3"])


def test_an_incident_is_one_candidate_with_all_its_documents_in_the_order_of_the_iris(store):
    named = parse_question(
        "q", {"subtask": 2, "event_type": "killing", "participant": {"last": "Deering"}, "time": {"year": "2016"}}
    )
    (found,) = incidents_of_plan(store, query_plan(named))
    assert sorted(found.doc_ids) == ["d1", "d2"]
    assert found.rows == len(found.doc_ids) * len(found.named)
    asked = {"location": {"state": DBR + "Tennessee"}, "time": {"month": "03/2016"}}
    several = incidents_of_plan(
        store, query_plan(parse_question("q", {"subtask": 2, "event_type": "injuring", **asked}))
    )
    assert len(several) == 2 and [i.iri for i in several] == sorted(i.iri for i in several)


def test_question_values_are_bound_not_pasted(store):
    hostile = 'x" } } DELETE WHERE { ?s ?p ?o } #'
    assert ask(store, 2, "killing", participant={"last": hostile}, time={"year": "2016"}) == (0, [])
    assert len(store) > 0


def test_answer_command_writes_answers_chains_and_explains_incidents(tmp_path, capsys):
    from kg_count.cli import main
    from kg_count.io.conll import iter_documents, read_chains, write_documents

    documents = [d for _, d in zip(range(15), iter_documents(SAMPLE / "docs.conll"))]
    docs = tmp_path / "docs.conll"
    write_documents(docs, documents)
    questions = json.loads((SAMPLE / "s2" / "questions.json").read_text())
    store, out, conll = tmp_path / "store", tmp_path / "answers.json", tmp_path / "chains.conll"
    assert (
        main(
            [
                "answer",
                "--docs",
                str(docs),
                "--questions",
                str(SAMPLE / "s2" / "questions.json"),
                "--out",
                str(out),
                "--store",
                str(store),
                "--conll-out",
                str(conll),
            ]
        )
        == 0
    )
    answers = json.loads(out.read_text())
    assert set(answers) == set(questions)
    assert all(isinstance(a["numerical_answer"], int) for a in answers.values())
    chains = read_chains(conll)
    assert set(chains) == {d.doc_id for d in documents}
    assert any(chains.values())

    capsys.readouterr()
    assert main(["incidents", "--store", str(store), "--limit", "0"]) == 0
    listing = capsys.readouterr().out.splitlines()
    first_id = listing[1].split("\t")[0]
    assert main(["incidents", "--store", str(store), "--id", first_id]) == 0
    assert f"incident {first_id}" in capsys.readouterr().out
    assert main(["dump", "--store", str(store), "--incident", first_id]) == 0
    assert "kgc:Incident" in capsys.readouterr().out
    assert main(["incidents", "--store", str(store), "--id", "no-such-incident"]) == 1

    some_question = next(iter(questions))
    asked = ["incidents", "--store", str(store), "--questions", str(SAMPLE / "s2" / "questions.json")]
    assert main([*asked, "--question", some_question]) == 0
    explained = capsys.readouterr().out.splitlines()
    assert explained[0].startswith(f"{some_question}: How many") and "place" in explained[1]
    assert any(line.startswith("query fragments: ") for line in explained)
    assert main([*asked, "--question", "no-such-question"]) == 1
    with pytest.raises(SystemExit):  # --question without --questions is bad usage
        main(["incidents", "--store", str(store), "--question", some_question])


def test_every_query_of_incidents_reads_the_current_incident_graph():
    """A query that reads incidents names their graph by the slot incident_sparql fills with the current version
    (the union of all graphs would also read the version before it)."""
    from importlib.resources import files

    from kg_count.incidents.store.incident_versions import INCIDENTS_SLOT

    queries = [path for path in files("kg_count.queries").rglob("*.rq") if "kgc:Incident" in path.read_text()]
    assert len(queries) >= 5
    assert [path.name for path in queries if f"GRAPH {INCIDENTS_SLOT} {{" not in path.read_text()] == []


def test_incidents_grouped_before_answer_facts_are_refused_with_the_store_named(tmp_path):
    from kg_count.errors import StoreError
    from kg_count.graph.namespaces import KGC
    from kg_count.incidents.update.materialise import (
        incidents_for_reading,
        incidents_answerable,
        require_answerable_incidents,
    )

    data = Dataset()
    data.parse(FIXTURE, format="trig")
    with GraphStore(tmp_path / "store") as store:
        store.dataset.addN(quad for quad in data.quads() if quad[3] is not None and quad[1] != KGC.answerFacts)
        assert not incidents_answerable(store)
        with pytest.raises(StoreError, match="kgc:answerFacts") as refused:
            require_answerable_incidents(store)
        assert str(tmp_path / "store") in str(refused.value)
        version = URIRef("http://kg-count.org/incidents/version/1")
        store.dataset.add((version, KGC.builtFrom, Literal("an earlier grouping"), version))
    with GraphStore(tmp_path / "store", create=False) as reader:
        assert reader.read_only
        with pytest.raises(StoreError, match="kgc:answerFacts"):
            incidents_for_reading(reader)
    with GraphStore(tmp_path / "store") as store:
        facts = [quad for quad in data.quads() if quad[1] == KGC.answerFacts]
        before_ids = [(s, p, Literal(" ".join(str(o).split(" ")[:7])), g) for s, p, o, g in facts]
        store.dataset.addN(before_ids)  # the form before the documents' ids came in it
        assert not incidents_answerable(store)
        with pytest.raises(StoreError, match="kgc:answerFacts in the form answering reads"):
            require_answerable_incidents(store)
        store.dataset.remove((None, KGC.answerFacts, None, None))
        store.dataset.addN(facts)
        require_answerable_incidents(store)
