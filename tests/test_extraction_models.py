"""The learned extraction: the shipped models on small hand-made documents, the model file, and
training and cross-validation on a hand-made gva-train folder."""

import datetime as dt
import json

import pytest

from kg_count.errors import SetupError
from kg_count.graph.document_graph import document_graph
from kg_count.graph.namespaces import KGC
from kg_count.nlp.pipeline import extract
from kg_count.learning.model_files import load_shipped_model
from kg_count.nlp.extraction_models import TRAINED_WITH, ExtractionModels, shipped_extraction_models
from kg_count.settings import settings
from kg_count.training.extraction_fitting import cross_validate, fit, load_items
from kg_count.training.gva import read_gold
from tests.helpers import annotated

DCT = "2017-01-25"  # a Wednesday


def record(body: str, title: str = ""):
    return extract(annotated(body, title, DCT))


def test_a_trial_story_does_not_take_its_own_date_for_the_incident():
    trial = record(
        "A Memphis man was sentenced Tuesday to 20 years in prison for the shooting death of John Smith . | "
        "Smith , 24 , was shot and killed on Dec. 3 outside a bar on Main Street .",
        title="Man sentenced to 20 years in fatal shooting",
    )
    assert trial.incident_date == dt.date(2016, 12, 3)
    assert trial.follow_up > 0.5


def test_an_incident_report_is_not_a_follow_up_and_keeps_its_date():
    report = record(
        "A man was shot and killed Monday night outside a bar on Main Street , police said . | "
        "Officers found him on the sidewalk .",
        title="Man shot dead outside bar",
    )
    assert report.incident_date == dt.date(2017, 1, 23)
    assert report.follow_up < 0.5


def test_the_dateline_city_beats_a_city_named_later():
    report = record(
        "SPRINGFIELD , Ill. — A man was shot dead Friday night on the east side . | "
        "His family drove from Peoria , Ill. , to the hospital .",
        title="Man shot dead",
    )
    assert (report.city, report.state) == ("Springfield", "IL")
    assert report.city_iri == "http://dbpedia.org/resource/Springfield,_Illinois"


@pytest.mark.parametrize(
    "body, killed, injured",
    [
        ("Two men were killed and three others were wounded in a shooting on Friday .", 2, 3),
        ("A woman was shot in the arm on Saturday , police said .", 0, 1),
        ("A man was shot and killed Sunday night .", 1, 0),
    ],
)
def test_counts(body, killed, injured):
    report = record(body)
    assert (report.killed, report.injured) == (killed, injured)


CRITICAL = (
    "A Silver City man is in critical condition with major head trauma after accidentally shooting himself in the "
    "head with his loaded pistol . | Police found the victim lying on the couch with an open wound to his head ."
)


def test_someone_shot_whose_death_is_not_told_is_injured(monkeypatch, tmp_path):
    """Each count model alone reads this story as no one killed and no one injured; chosen together, the
    stated shooting makes one injured. With [extraction] someone_harmed off the slots are chosen alone."""
    report = record(CRITICAL, "Man in critical condition after accidental shooting")
    assert (report.killed, report.injured) == (0, 1)
    from kg_count.settings import SETTINGS_ENV

    path = tmp_path / "settings.toml"
    path.write_text("[extraction]\nsomeone_harmed = false\n", encoding="utf-8")
    monkeypatch.setenv(SETTINGS_ENV, str(path))
    alone = record(CRITICAL, "Man in critical condition after accidental shooting")
    assert (alone.killed, alone.injured) == (0, 0)


def test_the_follow_up_probability_is_in_the_document_graph():
    report = record("A man was shot and killed Monday night .")
    graph = document_graph(report)
    values = [float(o) for o in graph.objects(None, KGC.followUpProbability)]
    assert values == [pytest.approx(report.follow_up, abs=1e-3)]


def test_the_shipped_models_say_how_they_were_trained():
    trained_with = shipped_extraction_models().trained_with
    assert trained_with["articles"] > 1000
    extraction = settings().extraction
    assert {key: trained_with[key] for key in TRAINED_WITH} == {key: getattr(extraction, key) for key in TRAINED_WITH}


def test_a_broken_model_file_is_a_setup_error_naming_it(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(SetupError, match="broken.json.*kg-count train extraction"):
        load_shipped_model("extraction", ExtractionModels.from_json, broken)
    broken.write_text(json.dumps({"models": {}}))
    with pytest.raises(SetupError, match="broken.json"):
        load_shipped_model("extraction", ExtractionModels.from_json, broken)


INCIDENTS = [
    ("1", "March 4, 2016", "Ohio", "Dayton", 1, 0, "Dayton , Ohio — A man was shot and killed Friday night ."),
    ("2", "June 11, 2016", "Texas", "Waco", 0, 2, "WACO , Texas — Two women were wounded in a shooting Saturday ."),
    (
        "3",
        "May 2, 2016",
        "Iowa",
        "Ames",
        2,
        1,
        "AMES , Iowa — Two men were killed and a third was wounded Monday in a shooting .",
    ),
    ("4", "April 5, 2016", "Utah", "Provo", 0, 1, "PROVO , Utah — A teen was shot in the leg on Tuesday ."),
]


def incident_record(incident_id: str, date: str, state: str, city: str, killed: int, injured: int, **more) -> dict:
    """An incident record in the Gun Violence Archive's fields, with ``more`` fields beside them."""
    return {
        "incident_uri": incident_id,
        "date": date,
        "state": state,
        "city_or_county": city,
        "num_killed": killed,
        "num_injured": injured,
        **more,
    }


@pytest.fixture(scope="module")
def gva(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gva")
    incidents, articles = [], []
    for incident_id, date, state, city, killed, injured, text in INCIDENTS:
        incidents.append(incident_record(incident_id, date, state, city, killed, injured, participants=[]))
        day = dt.datetime.strptime(date, "%B %d, %Y").date()
        for n in range(2):
            articles.append(
                {
                    "incident_id": incident_id,
                    "doc_id": f"a{incident_id}-{n}",
                    "title": "Shooting",
                    "dct": (day + dt.timedelta(days=1 + n)).isoformat(),
                    "content": text,
                }
            )
    (folder / "incidents.jsonl").write_text("".join(json.dumps(i) + "\n" for i in incidents))
    (folder / "articles.jsonl").write_text("".join(json.dumps(a) + "\n" for a in articles))
    return folder


def test_training_on_a_gva_folder_learns_its_values(gva, tmp_path):
    items = load_items(gva, tmp_path / "parses.spacy")
    assert (tmp_path / "parses.spacy").exists()
    assert [i.doc_id for i in load_items(gva, tmp_path / "parses.spacy")] == [i.doc_id for i in items]
    models = fit(items, l2=0.1, follow_up_days=3)
    from kg_count.nlp.extraction_models import choose

    for item in items:
        choice = choose(models, item.candidates)
        assert (choice.date.date, choice.place.city, choice.killed, choice.injured) == (
            item.gold.date,
            item.gold.city,
            item.gold.killed,
            item.gold.injured,
        )


def test_cross_validation_keeps_each_incident_in_one_fold(gva):
    items = load_items(gva)
    result = cross_validate(items, l2=1.0, follow_up_days=3, folds=2)
    assert result["articles"] == 8 and result["incidents"] == 4 and len(result["folds"]) == 2
    assert set(result["learned"]) == {"state", "city", "day", "month", "killed", "injured", "counts"}


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    """A task folder: the INCIDENTS' texts as CoNLL documents, with incidents.jsonl naming them (Dayton's record
    as "Dayton (Belmont)", a city with a part), and one document without a record."""
    from kg_count.io.conll import write_documents
    from tests.helpers import document

    folder = tmp_path_factory.mktemp("task")
    documents, records = [], []
    for incident_id, date, state, city, killed, injured, text in INCIDENTS:
        day = dt.datetime.strptime(date, "%B %d, %Y").date()
        doc_ids = [f"t{incident_id}-{n}" for n in range(2)]
        documents += [document(text, "Shooting", (day + dt.timedelta(days=1)).isoformat(), d) for d in doc_ids]
        city = "Dayton (Belmont)" if city == "Dayton" else city
        records.append(incident_record(incident_id, date, state, city, killed, injured, doc_ids=doc_ids))
    documents.append(document("A man was shot .", "Shooting", "2016-01-01", "no-record"))
    write_documents(folder / "docs.conll", documents)
    (folder / "incidents.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def test_the_tasks_own_documents_are_items_with_their_records(task_dir):
    from kg_count.training.extraction_fitting import folds_by_state, load_task_items

    items = load_task_items(task_dir)
    assert len(items) == 8 and "no-record" not in {i.doc_id for i in items}
    assert {i.gold.city for i in items} == {"Dayton", "Waco", "Ames", "Provo"}
    folds = folds_by_state(items, 2)
    for state in {i.gold.state for i in items}:
        assert len({f for i, f in zip(items, folds) if i.gold.state == state}) == 1
    result = cross_validate(items, l2=1.0, follow_up_days=3, folds=2, by_state=True)
    assert result["articles"] == 8 and len(result["folds"]) == 2


def test_a_broken_task_record_names_its_file_and_line(tmp_path):
    from kg_count.errors import InputError
    from kg_count.training.task_records import read_task_gold

    (tmp_path / "incidents.jsonl").write_text('{"incident_uri": "1"}\n')
    with pytest.raises(InputError, match=r"incidents.jsonl, line 1: not an incident record"):
        read_task_gold(tmp_path)
    with pytest.raises(InputError, match="cannot read"):
        read_task_gold(tmp_path / "missing")


def test_a_folder_without_the_records_is_an_input_error(tmp_path):
    from kg_count.errors import InputError

    with pytest.raises(InputError, match="not a gva-train folder"):
        read_gold(tmp_path)


def test_models_trained_with_other_settings_are_used_with_a_warning(monkeypatch, tmp_path, caplog):
    from kg_count.settings import SETTINGS_ENV

    path = tmp_path / "settings.toml"
    path.write_text("[extraction]\nranker_l2 = 2.5\n")
    monkeypatch.setenv(SETTINGS_ENV, str(path))
    with caplog.at_level("WARNING", logger="kg_count"):
        assert shipped_extraction_models().models["date"].weights
    assert "extraction model was trained with other [extraction] settings" in caplog.text


def test_refitting_some_slots_keeps_the_others():
    from kg_count.training.train_command import with_slots_refitted

    current = shipped_extraction_models()
    data = current.to_json()
    for slot in data["models"]:
        data["models"][slot]["bias"] = 42.0
    data["trained_with"]["schemes"]["city"] = "refitted scheme"
    fitted = ExtractionModels.from_json(data)
    merged = with_slots_refitted(current, fitted, ["city"])
    assert merged.models["city"].to_json() == fitted.models["city"].to_json()
    for slot in ("follow_up", "date", "state", "killed", "injured"):
        assert merged.models[slot].to_json() == current.models[slot].to_json()
    assert merged.trained_with["schemes"]["city"] == "refitted scheme"
    assert merged.trained_with["schemes"]["date"] == current.trained_with["schemes"]["date"]


@pytest.mark.parametrize("arguments", [["coreference", "--slots", "city"], ["extraction", "--slots", "town"]])
def test_slots_outside_the_extraction_models_are_a_usage_error(arguments, capsys):
    from kg_count.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["train", *arguments])
    assert stopped.value.code == 2 and "slot" in capsys.readouterr().err


def test_a_records_city_reads_as_the_extraction_writes_places():
    from kg_count.training.gva import record_city

    # the archive brackets a neighbourhood after its city and writes a county as "Name (county)"
    assert record_city("Chicago (Englewood)") == "Chicago"
    assert record_city("Brazos (county)") == "Brazos County"
    assert record_city("Lunenburg County (county)") == "Lunenburg County"
    assert record_city("Orleans (parish)") == "Orleans Parish"
    assert record_city("Dallas") == "Dallas"


def test_a_named_victim_who_died_is_not_counted_injured_too():
    died = record(
        "Kendal Pinkerton , 2 , was critically injured in a shooting inside a Madison apartment on Tuesday . | "
        "Pinkerton was pronounced dead at the hospital on Wednesday , police said .",
        title="2-year-old dies after being shot inside Madison apartment",
    )
    assert (died.killed, died.injured) == (1, 0)
    lived = record(
        "Kendal Pinkerton , 2 , was critically injured in a shooting inside a Madison apartment on Tuesday . | "
        "Pinkerton remained in critical condition on Wednesday , police said .",
        title="2-year-old critically injured in shooting inside Madison apartment",
    )
    assert (lived.killed, lived.injured) == (0, 1)


def injured_statements_of_the_living(body: str, title: str) -> list:
    from kg_count.nlp.pipeline import analyse
    from kg_count.nlp.participants import count_statements, of_the_living

    doc = annotated(body, title, DCT)
    analysis = analyse(doc)
    statements = count_statements(doc.doc, analysis.events, len(title.split()))
    return [s for s in of_the_living(doc.doc, statements, analysis.people) if s.status == "injured"]


def test_an_unnamed_victim_who_died_states_no_injured_but_another_does():
    died = injured_statements_of_the_living(
        "A 12-year - old girl was injured in a hunting accident on Saturday , deputies said . | "
        "The 12-year - old girl was killed by a shot from her father 's rifle .",
        "12-year-old girl killed in weekend hunting accident",
    )
    assert died == []
    another = injured_statements_of_the_living(
        "A man was killed and another man was wounded in a shooting on Saturday , police said .",
        "One man killed , another wounded in shooting",
    )
    assert [s.value for s in another if s.value is not None] == [1]


def test_one_who_succumbed_states_no_injured():
    succumbed = injured_statements_of_the_living(
        "Deputies found Gina Williams on the porch . Mrs. Williams had suffered a gunshot wound to the neck . "
        "EMS personnel arrived on the scene but Mrs. Williams succumbed to her injuries .",
        "Deputies investigate a shooting",
    )
    assert [s.value for s in succumbed if s.value is not None] == []


def test_a_phrase_naming_the_killed_beside_another_counts_the_other():
    statements = injured_statements_of_the_living(
        "Vernon Houston is charged with killing Terrance Maxwell at a home . | "
        "Maxwell and another teenager were shot . | Both were taken to the hospital where Maxwell died .",
        "Suspect charged in killing of teen",
    )
    assert [(s.value, s.another) for s in statements if s.value is not None] == [(1, True)]


def test_a_patient_told_apart_from_another_harmed_is_marked():
    statements = injured_statements_of_the_living(
        "A man was killed on Friday . | The young girl was also shot and she is still in the hospital .",
        "Man killed in shooting",
    )
    assert [s.another for s in statements if s.value == 1] == [True]


def test_a_harmed_person_whose_clause_goes_on_to_the_death_states_no_injured():
    died = injured_statements_of_the_living(
        "Paramedics transported the injured teen to Harborview Medical Center in Seattle where he later died .",
        "Police investigate Kent shooting",
    )
    assert [s.value for s in died if s.value is not None] == []
    lived = injured_statements_of_the_living(
        "A man was killed . | Paramedics transported the injured teen to Harborview Medical Center in Seattle .",
        "Man killed in Kent",
    )
    assert [s.value for s in lived if s.value is not None] == [1]


def test_a_fire_told_in_passing_does_not_type_a_shooting_story_but_a_titled_fire_does():
    shooting = record(
        "Two men were shot and killed outside a bar on Main Street Monday night , police said . | "
        "A third man was wounded in the shooting and taken to a hospital . | "
        "Officers found the victims on the sidewalk . | "
        "Neighbors said the gunman fled in a car that was later found burning in an alley .",
        title="Two killed , one wounded in Main Street shooting",
    )
    assert {"killing", "injuring"} <= set(shooting.event_types) and "fire_burning" not in shooting.event_types
    report = record(
        "Firefighters responded to a reported cardiac arrest and found a man deceased inside the home . | "
        "He had succumbed to his injuries before help arrived . | The cause of the fire is under investigation .",
        title="Civilian Fatality Fire",
    )
    assert "fire_burning" in report.event_types
