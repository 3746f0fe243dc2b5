"""Settings: one readable defaults file, typed sections, overrides, and fingerprints that follow them."""

import re
from importlib.resources import files
from pathlib import Path

import pytest

from kg_count.cli import main
from kg_count.errors import SetupError
from kg_count.incidents.reports.comparison import compare
from kg_count.incidents.update.materialise import settings_fingerprint
from kg_count.nlp.version import pipeline_version
from kg_count.settings import SETTINGS_ENV, Settings, held_settings, load_settings, settings
from tests.helpers import report


def use(monkeypatch, tmp_path, text: str):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    monkeypatch.setenv(SETTINGS_ENV, str(path))
    return path


def test_the_defaults_file_gives_every_section_and_setting():
    import tomllib
    from dataclasses import fields

    tables = tomllib.loads(files("kg_count").joinpath("default_settings.toml").read_text())
    current = load_settings()
    assert set(tables) == {f.name for f in fields(Settings)}
    for section in fields(Settings):
        assert set(tables[section.name]) == {f.name for f in fields(getattr(current, section.name))}
    assert current.clustering.same_city == 2.0 and isinstance(current.batch.documents, int)


def read_names(source: str) -> tuple[set[str], list[re.Pattern]]:
    """The attribute names and string constants ``source`` reads, and its f-strings as patterns of the keys they
    can make (``f"{name}_l2"`` -> ``\\w+_l2``)."""
    import ast

    names, templates = set(), []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
        elif isinstance(node, ast.JoinedStr):
            parts = [re.escape(v.value) if isinstance(v, ast.Constant) else r"\w+" for v in node.values]
            templates.append(re.compile("".join(parts)))
    return names, templates


def test_every_setting_is_read_by_the_package():
    from dataclasses import fields

    sources = [p for p in Path(files("kg_count")).rglob("*.py") if p.name not in ("settings.py", "settings_doc.py")]
    names, templates = set(), []
    for path in sources:
        found, made = read_names(path.read_text(encoding="utf-8"))
        names |= found
        templates += made
    current = load_settings()
    unread = [
        f"[{section.name}] {setting.name}"
        for section in fields(Settings)
        for setting in fields(getattr(current, section.name))
        if setting.name not in names and not any(t.fullmatch(setting.name) for t in templates)
    ]
    assert unread == []


def test_an_override_changes_only_the_keys_it_names(monkeypatch, tmp_path):
    default_score = compare(report("a"), report("b")).score
    use(monkeypatch, tmp_path, "[clustering]\nsame_city = 100\n")
    assert settings().clustering.same_city == 100.0
    assert settings().clustering.same_day == load_settings().clustering.same_day
    assert compare(report("a"), report("b")).score == default_score - load_settings().clustering.same_city + 100


def test_held_settings_stay_in_force_for_their_block_only(monkeypatch, tmp_path):
    use(monkeypatch, tmp_path, "[clustering]\nsame_day = 100\n")
    with held_settings() as held:
        use(monkeypatch, tmp_path, "[clustering]\nsame_day = 7\n")
        assert settings() is held and settings().clustering.same_day == 100.0
    assert settings().clustering.same_day == 7.0


def test_a_changed_setting_changes_only_the_fingerprint_of_its_stage(monkeypatch, tmp_path):
    version, incidents = pipeline_version(), settings_fingerprint()
    use(monkeypatch, tmp_path, "[clustering]\nsame_day = 3.5\n")
    assert settings_fingerprint() != incidents and pipeline_version() == version
    use(monkeypatch, tmp_path, "[extraction]\nmax_age = 120\n")
    assert pipeline_version() != version and settings_fingerprint() == incidents
    use(monkeypatch, tmp_path, "[batch]\ndocuments = 8\n[answering]\nnear_km = 10.0\n")
    assert pipeline_version() == version and settings_fingerprint() == incidents
    monkeypatch.delenv(SETTINGS_ENV)
    assert (pipeline_version(), settings_fingerprint()) == (version, incidents)


@pytest.mark.parametrize(
    "text, named",
    [
        ("[clustering]\nmerge_treshold = 3\n", "'merge_treshold'"),
        ("[clusters]\nsame_day = 3\n", "[clusters]"),
        ("[batch]\ndocuments = 'many'\n", "'documents' must be an int"),
        ("[answering]\nnear_km = true\n", "'near_km' must be a number"),
        ("[batch\n", "not valid TOML"),
    ],
)
def test_a_bad_settings_file_is_an_error_naming_the_file_and_key(monkeypatch, tmp_path, text, named):
    path = use(monkeypatch, tmp_path, text)
    with pytest.raises(SetupError) as error:
        settings()
    assert str(path) in str(error.value) and named in str(error.value)


def test_the_cli_reports_a_bad_settings_file_without_a_traceback(monkeypatch, tmp_path, capsys):
    path = use(monkeypatch, tmp_path, "[clustering]\nmerge_treshold = 3\n")
    from kg_count.io.conll import iter_documents, write_documents
    from tests.helpers import SAMPLE

    write_documents(tmp_path / "docs.conll", [next(iter(iter_documents(SAMPLE / "docs.conll")))])
    try:
        code = main(["build", "--docs", str(tmp_path / "docs.conll"), "--store", str(tmp_path / "store")])
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code != 0 and str(path) in err and "merge_treshold" in err and "Traceback" not in err
    assert not (tmp_path / "store").exists()


def test_the_incident_model_records_its_settings_and_warns_when_others_are_in_force(monkeypatch, tmp_path, caplog):
    from kg_count.incidents.grouping.incident_match import shipped_model

    assert shipped_model().trained_with["clustering"]["same_day"] == load_settings().clustering.same_day
    with caplog.at_level("WARNING", logger="kg_count"):
        shipped_model()
        assert not caplog.records
        use(monkeypatch, tmp_path, "[clustering]\nsame_city = 2.5\n")
        shipped_model()
    assert any("trained with other [clustering] settings" in r.getMessage() for r in caplog.records)


def test_the_qa_models_record_their_settings_and_thresholds_and_warn_when_others_are_in_force(
    monkeypatch, tmp_path, caplog
):
    from kg_count.qa.learned.model_set import SCORERS, shipped_qa_models

    trained = load_settings().qa_training
    models = shipped_qa_models()
    assert all(
        getattr(models, name).trained_with["qa_training"]["status_vector_l2"] == trained.status_vector_l2
        for name in SCORERS
    )
    assert models.triggers.threshold_for("torque") == trained.torque_trigger_threshold
    assert models.triggers.threshold_for("ester") == trained.ester_trigger_threshold
    from kg_count.qa.passage_graph.analysis import STATUSES, TEMPORAL_RELATIONS

    # TORQUE's decision thresholds are chosen by training and live in the model files only
    assert not [key for key in vars(trained) if key.split("_")[0] in (*TEMPORAL_RELATIONS, *STATUSES)]
    assert set(models.temporal.thresholds) == set(TEMPORAL_RELATIONS)
    assert set(models.status.thresholds) == set(STATUSES)
    with caplog.at_level("WARNING", logger="kg_count"):
        shipped_qa_models()
        assert not caplog.records
        use(monkeypatch, tmp_path, "[qa_training]\nsemantic_l2 = 3.0\n")
        shipped_qa_models()
    assert any("trained with other [qa_training] settings" in r.getMessage() for r in caplog.records)


def test_a_model_file_keeps_its_thresholds_by_kind_and_its_settings(tmp_path):
    from kg_count.learning.linear_model import LinearModel

    model = LinearModel({"a": 1.0}, -0.5, 0.6, thresholds={"ester": 0.3}, trained_with={"qa_training": {"x": 1}})
    model.save(tmp_path / "m.json")
    again = LinearModel.load(tmp_path / "m.json")
    assert again == model
    assert (again.threshold_for("ester"), again.threshold_for("torque")) == (0.3, 0.6)


def test_every_setting_has_a_meaning_on_the_settings_page():
    from dataclasses import fields

    import kg_count.settings as settings_module
    from kg_count.settings_doc import documented_settings

    documented = {(s.section, s.key): s.meaning for s in documented_settings().settings}
    known = {
        (section.name, key.name)
        for section in fields(settings_module.Settings)
        for key in fields(getattr(settings_module, section.type))
    }
    assert set(documented) == known
    assert [key for key, meaning in documented.items() if not meaning.strip()] == []


def test_a_comment_line_continues_its_key_and_a_block_names_the_keys_below_it():
    from kg_count.settings_doc import read_settings_doc

    doc = read_settings_doc(
        "# the header\n\n[stage]\n# both weights\nfirst = 1.0\nsecond = 2\nnear = 3   # how near\n"
        "far = 4    #   and how far\n"
    )
    assert doc.header == "the header"
    assert [(s.key, s.meaning) for s in doc.settings] == [
        ("first", "both weights"),
        ("second", "both weights"),
        ("near", "how near"),
        ("far", "and how far"),
    ]


def test_editing_only_comments_and_docstrings_keeps_a_module_fingerprint():
    from kg_count.settings import code_fingerprint

    plain = "def f(x):\n    return x + 1\n"
    documented = '"""A module."""\n\n\ndef f(x):\n    """Add one."""\n    # one more\n    return x + 1  # so\n'
    assert code_fingerprint(plain) == code_fingerprint(documented)
    assert code_fingerprint(plain) != code_fingerprint(plain.replace("1", "2"))
