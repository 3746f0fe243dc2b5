"""The one model contract and loader: every shipped model is in the manifest as it is on disk, saving records
it, loading warns once when the settings or the file are not those recorded, and a broken file is an error
naming it and the command that retrains it."""

import json
import shutil

import pytest

from kg_count.errors import SetupError
from kg_count.learning.linear_model import LinearModel
from kg_count.learning.model_files import (
    MANIFEST,
    SHIPPED,
    file_sha256,
    load_shipped_model,
    model_path,
    read_manifest,
    save_shipped_model,
)
from kg_count.settings import SETTINGS_ENV
from tests.helpers import ROOT, SHARED_DATA


def test_every_shipped_model_is_in_the_manifest_as_it_is_on_disk():
    manifest = read_manifest()["models"]
    assert set(manifest) == set(SHIPPED)
    for name in SHIPPED:
        assert manifest[name]["sha256"] == file_sha256(model_path(name)), name
        assert set(manifest[name]["settings"]) == set(SHIPPED[name].sections)


def test_saving_records_the_model_and_loading_gives_it_back(tmp_path):
    model = LinearModel({"a": 1.5}, -0.25)
    path = save_shipped_model("qa_status", model, tmp_path, data={"qa": "abc"}, scores={"f1": 50.0})
    entry = read_manifest(tmp_path)["models"]["qa_status"]
    assert entry["sha256"] == file_sha256(path) and entry["data"] == {"qa": "abc"} and entry["scores"] == {"f1": 50.0}
    assert entry["trained_by"] == "kg-count train qa" and "qa_training" in entry["settings"]
    assert load_shipped_model("qa_status", LinearModel.from_json, path) == model


def test_a_model_trained_with_other_settings_or_edited_by_hand_warns_once(tmp_path, monkeypatch, caplog):
    path = save_shipped_model("coreference", LinearModel({"a": 1.0}, 0.0), tmp_path)
    with caplog.at_level("WARNING", logger="kg_count"):
        load_shipped_model("coreference", LinearModel.from_json, path)
        assert not caplog.records
        settings_file = tmp_path / "other.toml"
        settings_file.write_text("[clustering]\nsame_city = 2.5\n")
        monkeypatch.setenv(SETTINGS_ENV, str(settings_file))
        load_shipped_model("coreference", LinearModel.from_json, path)
        load_shipped_model("coreference", LinearModel.from_json, path)
    warnings = [r.getMessage() for r in caplog.records]
    assert warnings == [
        "the coreference model was trained with other [clustering] settings; retrain it with "
        "`kg-count train coreference`"
    ]
    monkeypatch.delenv(SETTINGS_ENV)
    caplog.clear()
    edited = json.loads(path.read_text())
    edited["bias"] = 0.5
    path.write_text(json.dumps(edited))
    with caplog.at_level("WARNING", logger="kg_count"):
        assert load_shipped_model("coreference", LinearModel.from_json, path).bias == 0.5
    assert "not the one the manifest records" in caplog.text


def test_a_missing_or_broken_model_names_the_file_and_the_command_that_retrains_it(tmp_path):
    with pytest.raises(SetupError, match="person_status.json.*missing.*kg-count train person-status"):
        load_shipped_model("person_status", dict, tmp_path / "person_status.json")
    (tmp_path / "qa_triggers.json").write_text("{")
    with pytest.raises(SetupError, match="qa_triggers.json.*kg-count train qa"):
        load_shipped_model("qa_triggers", LinearModel.from_json, tmp_path / "qa_triggers.json")


def test_a_broken_manifest_is_a_setup_error(tmp_path):
    (tmp_path / MANIFEST).write_text("[]")
    with pytest.raises(SetupError, match="manifest"):
        read_manifest(tmp_path)


GVA = SHARED_DATA / "gva-train"


@pytest.mark.slow
@pytest.mark.skipif(not GVA.is_dir(), reason="shared gva-train data not found")
def test_training_twice_from_the_same_slice_gives_the_same_model_and_records_it(tmp_path):
    from kg_count.cli import main

    articles = (GVA / "articles.jsonl").read_text().splitlines()[:40]
    incidents = {json.loads(line)["incident_id"] for line in articles}
    data = tmp_path / "data" / "gva-train"
    data.mkdir(parents=True)
    (data / "articles.jsonl").write_text("\n".join(articles) + "\n")
    records = [line for line in (GVA / "incidents.jsonl").read_text().splitlines() if line.strip()]
    (data / "incidents.jsonl").write_text(
        "\n".join(r for r in records if json.loads(r)["incident_uri"] in incidents) + "\n"
    )
    written = []
    for run in ("first", "second"):
        models = tmp_path / run
        shutil.copy(ROOT / "kg_count" / "models" / MANIFEST, models.mkdir() or models / MANIFEST)
        args = ["train", "extraction", "--data", str(data.parent), "--work", str(tmp_path / "work"), "--models-dir"]
        assert main([*args, str(models)]) == 0
        written.append((models / "extraction.json").read_bytes())
        entry = read_manifest(models)["models"]["extraction"]
        assert entry["trained_by"] == "kg-count train extraction" and entry["data"]["gva-train"]
        assert entry["scores"]["cross_validated_by_incident"]["articles"] == 40
    assert written[0] == written[1]
