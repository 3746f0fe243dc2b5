"""Fingerprints of stored work hash every module the stage can run, found from the imports, not from a list:
an edit to the code of any of them changes the fingerprint, an edit to its comments does not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg_count import source_closure
from kg_count.incidents.update.materialise import settings_fingerprint
from kg_count.nlp.version import EXTRACTION_ROOTS
from kg_count.settings import stage_fingerprint

PACKAGE = Path(source_closure.__file__).resolve().parent


@pytest.fixture
def package_copy(tmp_path, monkeypatch) -> Path:
    """A copy of kg_count's Python files that fingerprints read in place of the package."""
    copy = tmp_path / "kg_count"
    shutil.copytree(
        PACKAGE,
        copy,
        ignore=lambda folder, names: [n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()],
    )
    monkeypatch.setattr(source_closure, "PACKAGE_DIR", copy)
    source_closure.imported_modules.cache_clear()
    yield copy
    source_closure.imported_modules.cache_clear()


def edited(path: Path, addition: str) -> str:
    """Append ``addition`` to ``path``; return its old text."""
    old = path.read_text(encoding="utf-8")
    path.write_text(old + addition, encoding="utf-8")
    return old


@pytest.mark.parametrize(
    "module", ["incidents/reports/word_rarity.py", "incidents/grouping/cluster.py", "geography.py", "learning/bins.py"]
)
def test_the_incident_fingerprint_changes_when_a_module_grouping_runs_changes(package_copy, module):
    before = settings_fingerprint()
    path = package_copy / module
    old = edited(path, "\n# only a comment\n")
    assert settings_fingerprint() == before
    path.write_text(old + "\nEDITED = 1\n", encoding="utf-8")
    assert settings_fingerprint() != before


def test_the_extraction_fingerprint_changes_when_a_module_reading_runs_changes(package_copy):
    before = stage_fingerprint((), EXTRACTION_ROOTS)
    edited(package_copy / "nlp" / "numbers.py", "\nEDITED = 1\n")
    assert stage_fingerprint((), EXTRACTION_ROOTS) != before


def test_a_module_only_views_import_is_not_in_the_incident_fingerprint(package_copy):
    before = settings_fingerprint()
    edited(package_copy / "incidents" / "views" / "explain.py", "\nEDITED = 1\n")
    assert settings_fingerprint() == before


def test_imports_are_followed_relative_inside_functions_and_through_packages(tmp_path, monkeypatch):
    package = tmp_path / "kg_count"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "inner" / "__init__.py").write_text("")
    (package / "root.py").write_text("def f():\n    from kg_count.inner import leaf\n")
    (package / "inner" / "leaf.py").write_text("from . import other\nimport json\n")
    (package / "inner" / "other.py").write_text("")
    (package / "alone.py").write_text("")
    found = source_closure.imported_modules(("kg_count.root",), package)
    assert found == ("kg_count.inner.leaf", "kg_count.inner.other", "kg_count.root")
    (package / "__init__.py").write_text("def __getattr__(name):\n    from kg_count import alone\n")
    (package / "root.py").write_text("from kg_count import __version__\n")
    source_closure.imported_modules.cache_clear()
    assert source_closure.imported_modules(("kg_count.root",), package) == ("kg_count", "kg_count.root")
    with pytest.raises(ValueError, match="kg_count.missing"):
        source_closure.imported_modules(("kg_count.missing",), package)
