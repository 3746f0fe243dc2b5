"""The package as users install it: a wheel built from this checkout, installed into a fresh
virtualenv, answers questions from outside the checkout (queries and ontology come with it)."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from kg_count.io.conll import iter_documents, write_documents

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DOCUMENTS = 6


def _run(*command, cwd, env=None):
    result = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.slow
def test_a_built_wheel_in_a_fresh_virtualenv_answers_outside_the_checkout(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "out", "build", "*.egg-info", "__pycache__"))
    wheels = tmp_path / "wheels"
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-q",
        "-w",
        wheels,
        source,
        cwd=tmp_path,
    )
    (wheel,) = wheels.glob("kg_count-*.whl")

    fresh = tmp_path / "venv"
    venv.create(fresh, with_pip=False)
    python = fresh / "bin" / "python"
    _run(
        sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel, cwd=tmp_path
    )
    # the pinned dependencies come from the project's environment, read as a plain path (its .pth
    # files, among them the editable install of this checkout, are not run)
    site = Path(
        _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).stdout.strip()
    )
    (site / "project_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    work = tmp_path / "elsewhere"
    work.mkdir()
    located = _run(python, "-c", "import kg_count; print(kg_count.__file__)", cwd=work).stdout.strip()
    assert Path(located).is_relative_to(fresh), located

    documents = list(iter_documents(ROOT / "data/sample/docs.conll"))[:SAMPLE_DOCUMENTS]
    write_documents(work / "docs.conll", documents)
    questions = json.loads((ROOT / "data/sample/s2/questions.json").read_text())
    (work / "questions.json").write_text(json.dumps(dict(list(questions.items())[:5])))
    env = {**os.environ, "KG_COUNT_RECORD_CACHE": str(tmp_path / "records.sqlite"), "KG_COUNT_PROGRESS": "0"}
    _run(
        fresh / "bin" / "kg-count",
        "answer",
        "--docs",
        "docs.conll",
        "--questions",
        "questions.json",
        "--out",
        "answers.json",
        "--store",
        "store",
        cwd=work,
        env=env,
    )
    answers = json.loads((work / "answers.json").read_text())
    assert set(answers) == set(list(questions)[:5])
    assert all("numerical_answer" in answer for answer in answers.values())
    listed = _run(fresh / "bin" / "kg-count", "incidents", "--store", "store", cwd=work, env=env).stdout
    assert "incidents shown" in listed
    _run(
        python,
        "-c",
        "from kg_count.qa.learned.model_set import shipped_qa_models; shipped_qa_models()",
        cwd=work,
        env=env,
    )
    _run(
        python,
        "-c",
        "from kg_count.nlp.extraction_models import shipped_extraction_models; shipped_extraction_models()",
        cwd=work,
        env=env,
    )
