"""The project's own promises: every declared test marker is used, every `make` target the docs name exists,
and the README stays a user's page."""

import configparser
import re
import subprocess
import sys

from tests.conftest import ROOT

DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _declared_markers() -> set[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    lines = config["tool:pytest"]["markers"].strip().splitlines()
    return {line.split(":")[0].strip() for line in lines if line.strip()}


def test_every_declared_marker_marks_some_test():
    for marker in _declared_markers():
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "--collect-only",
                "-p",
                "no:cacheprovider",
                "-m",
                marker,
                str(ROOT / "tests"),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert result.returncode == 0, (
            marker,
            "no test carries it" if result.returncode == 5 else result.stdout[-300:],
        )


def test_every_make_target_the_docs_name_exists():
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.M))
    named = {target for path in DOC_FILES for target in re.findall(r"`make ([a-z][a-z-]*)`", path.read_text())}
    assert named and named <= targets, named - targets


def test_the_readme_is_short_and_names_no_commit_or_issue():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 200
    short_hashes = re.findall(r"(?<![\w/:#])[0-9a-f]{7,12}(?![\w/])", text)
    assert [h for h in short_hashes if re.search("[a-f]", h) and re.search("[0-9]", h)] == []
    assert not re.search(r"\bissue \d+|#\d+\b", text, re.I)
