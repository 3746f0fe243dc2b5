"""The project's own promises: every declared test marker is used, every `make` target the docs name exists,
and the README stays a user's page."""

import configparser
import re
import subprocess
import sys

from tests.helpers import ROOT

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


def test_no_function_is_over_sixty_lines():
    import ast

    long = set()
    for path in sorted((ROOT / "kg_count").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 60:
                long.add(f"{path.relative_to(ROOT).as_posix()}:{node.name}")
    assert long == set()


def test_no_two_public_functions_or_classes_of_one_name_but_the_per_model_contract():
    import ast
    from collections import defaultdict

    # each model's fitting module offers fit/cross_validate, each dataset module its question_anchor and
    # training_examples: one contract, several implementations
    contract = {"fit", "cross_validate", "question_anchor", "training_examples"}
    defined = defaultdict(list)
    for path in sorted((ROOT / "kg_count").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                defined[node.name].append(path.name)
    assert {name: where for name, where in defined.items() if len(where) > 1 and name not in contract} == {}
    modules = [p.name for p in (ROOT / "kg_count").rglob("*.py") if p.name != "__init__.py"]
    assert sorted({m for m in modules if modules.count(m) > 1}) == []


def test_test_modules_share_helpers_only_through_the_helpers_module():
    import ast

    borrowed = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests."):
                if node.module not in ("tests.helpers", "tests.conftest"):
                    borrowed.append(f"{path.name} imports {node.module}")
    assert borrowed == []


def test_the_docs_pages_say_what_is_true_now_and_history_lives_on_its_own_page():
    """User pages carry no release-relative wording ("this release" means another release on each reading);
    dated measurements go to docs/benchmark-history.md."""
    history = {"benchmark-history.md", "changelog.md"}
    dated = [p.name for p in DOC_FILES if p.name not in history and "this release" in p.read_text(encoding="utf-8")]
    assert dated == []
    assert len((ROOT / "docs" / "scaling.md").read_text(encoding="utf-8").splitlines()) <= 160
