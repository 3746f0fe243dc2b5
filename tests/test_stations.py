"""Broadcast stations: their call letters in a text, the table of the states they report on, and the state
candidates a story's stations give."""

import json

import pytest

from kg_count.geography import gazetteer
from kg_count.nlp import place_candidates as place_candidates_module
from kg_count.nlp import stations
from kg_count.nlp.place_candidates import place_candidates
from kg_count.nlp.stations import StationTable, call_letters, call_signs
from kg_count.training.station_fitting import byline_home, station_table, stated_state
from tests.helpers import annotated


@pytest.mark.parametrize(
    "word, letters",
    [
        ("WSMV", "WSMV"),
        ("WKRN-TV", "WKRN"),
        ("KCTV5", "KCTV"),
        ("KMOV.com", "KMOV"),
        ("WMC", "WMC"),
        ("Wave", None),  # a word, not call letters in capitals
        ("WATCH", None),
        ("NBC12", None),
        ("Police", None),
    ],
)
def test_call_letters(word, letters):
    assert call_letters(word) == letters


def test_a_text_names_each_station_once():
    assert call_signs("NASHVILLE , Tenn. ( WKRN ) — WKRN-TV reported , KMOV.com said".split()) == {"WKRN", "KMOV"}


def test_the_stated_state_is_the_one_named_most_and_none_on_a_tie():
    assert stated_state("NASHVILLE , Tenn. — A Tennessee man , of Bowling Green , Ky.".split()) == "TN"
    assert stated_state("A man from Bowling Green , Ky. was shot in Nashville , Tenn.".split()) is None
    assert stated_state("A man was shot .".split()) is None


@pytest.mark.parametrize(
    "title, home",
    [
        ("Juvenile dies in Montgomery shooting - WTVM.com - Columbus , GA News Weather & Sports", ("Columbus", "GA")),
        ("Teen shot in Mosby Court - NBC12 - WWBT - Richmond , VA News On Your Side", ("Richmond", "VA")),
        ("Shooting on Abercorn St. - WTOC - TV : Savannah , Beaufort , SC , News", None),  # a market of two states
        ("Man shot in Columbus , GA - a story with no byline", None),
    ],
)
def test_the_byline_writes_the_station_home(title, home):
    assert byline_home(title.split()) == home


def test_a_station_whose_byline_writes_its_home_is_placed_there_whatever_its_stories_name():
    stories = [
        f"Man shot in Phenix City , Ala. - WTVM.com - Columbus , GA News A man in Phenix City , Ala. was shot . {n}"
        for n in range(3)
    ]
    table = station_table(((story.split(), story.split()) for story in stories), min_documents=3, min_share=0.75)
    assert table.states == {"WTVM": "GA"}


def test_a_station_is_placed_where_most_of_its_stories_are_set():
    stories = [
        "NASHVILLE , Tenn. ( WKRN ) — A man was shot .",
        "MURFREESBORO , Tenn. ( WKRN ) — A woman was hurt .",
        "A shooting in Louisville , Ky. ( WKRN )",
        "A WKRN story that names no state .",
        "NASHVILLE , Tenn. ( WSMV ) — One story only .",
        "MEMPHIS , Tenn. ( WREG ) — A man .",
        "JACKSON , Miss. ( WREG ) — A woman .",
        "TUPELO , Miss. ( WREG ) — A child .",
    ]
    table = station_table(((story.split(), story.split()) for story in stories), min_documents=3, min_share=0.6)
    assert table.states == {"WKRN": "TN", "WREG": "MS"}
    assert table.documents == {"WKRN": 3, "WREG": 3}
    strict = station_table(((story.split(), story.split()) for story in stories), min_documents=3, min_share=0.75)
    assert strict.states == {}  # 2 of 3 stories is under three quarters
    assert StationTable.from_json(json.loads(json.dumps(table.to_json()))) == table


def test_a_stations_state_is_a_state_candidate_of_a_story_that_names_none(monkeypatch):
    monkeypatch.setattr(
        place_candidates_module, "shipped_station_table", lambda: StationTable({"WKRN": "TN", "KCRA": "CA"})
    )
    title = "Man shot in Antioch - WKRN"
    doc = annotated("A man was shot in Antioch on Friday , police said .", title=title)
    candidates = place_candidates(doc.doc, len(title.split()))
    features = {c.value: c.features for c in candidates.states}
    assert {"station", "station:top"} <= features["TN"]
    assert "CA" not in features or "station" not in features["CA"]


def test_two_stations_of_two_states_give_neither_the_lead():
    table = StationTable({"WKRN": "TN", "KCRA": "CA"})
    found = stations.station_state_features(table, call_signs("WKRN and KCRA reported".split()))
    assert found == {"TN": {"station"}, "CA": {"station"}}


def test_the_shipped_table_places_stations_in_states():
    table = stations.shipped_station_table()
    assert table.states and set(table.states.values()) <= set(gazetteer().state_names)


def test_a_town_near_the_publishing_station_and_its_state_are_near_station(monkeypatch):
    table = StationTable({}, {"WKRN": (36.1659, -86.7844)})  # Nashville
    monkeypatch.setattr(place_candidates_module, "shipped_station_table", lambda: table)
    title = "Teen shot in Antioch - WKRN"
    doc = annotated("A teen was shot in Antioch on Friday , police said .", title=title)
    candidates = place_candidates(doc.doc, len(title.split()))
    states = {c.value: c.features for c in candidates.states}
    assert "near_station" in states["TN"] and "near_station" not in states.get("CA", set())
    assert "near_station" in next(c for c in candidates.cities if c.value == "Antioch").features


def test_a_station_named_only_deep_in_the_body_is_not_the_publisher(monkeypatch):
    monkeypatch.setattr(place_candidates_module, "shipped_station_table", lambda: StationTable({"WKRN": "TN"}))
    filler = " ".join(["The family said they were grateful for the help of neighbours ."] * 6)
    doc = annotated(f"A man was shot in Antioch on Friday . {filler} He told WKRN he was fine .", title="Man shot")
    candidates = place_candidates(doc.doc, 2)
    assert not any("station" in c.features for c in candidates.states)


def test_training_the_stations_reads_the_task_documents_and_records_the_table(tmp_path):
    from kg_count.io.conll import write_documents
    from kg_count.learning.model_files import read_manifest
    from kg_count.training.train_command import TrainingPlace, run_targets
    from tests.helpers import document

    bodies = [
        "NASHVILLE , Tenn. ( WKRN ) — A man was shot .",
        "MURFREESBORO , Tenn. ( WKRN ) — A woman was hurt .",
        "FRANKLIN , Tenn. ( WKRN ) — A boy was shot .",
    ]
    for name in ("trial", "test-dev"):
        folder = tmp_path / "semeval2018-task5" / name
        folder.mkdir(parents=True)
        documents = [document(body, "Shooting", doc_id=f"{name}{n}") for n, body in enumerate(bodies)]
        write_documents(folder / "docs.conll", documents)
    models = tmp_path / "models"
    place = TrainingPlace(data=tmp_path, work=tmp_path / "work", models_dir=models)
    run_targets("stations", place)
    table = StationTable.from_json(json.loads((models / "stations.json").read_text()))
    assert table.states == {"WKRN": "TN"} and "WKRN" in table.points
    assert read_manifest(models)["models"]["stations"]["scores"]["states"] == 1
