"""Packages of kg_count: the ``kg_count`` tree, plus the top-level ``ontology/`` and ``queries/`` folders
shipped inside it as ``kg_count.ontology`` and ``kg_count.queries`` (read with importlib.resources),
and the data files of the package. Everything else is in setup.cfg."""

from pathlib import Path

from setuptools import find_namespace_packages, setup

DATA_FOLDERS = {"kg_count.ontology": "ontology", "kg_count.queries": "queries"}
PACKAGE_DATA = {
    "kg_count": ["default_settings.toml", "models/*.json"],
    "kg_count.resources": ["lexnames", "*.tsv", "*.txt"],
}


def data_packages() -> dict[str, str]:
    """Each data folder and its subfolders, as package name -> folder."""
    packages = {}
    for name, folder in DATA_FOLDERS.items():
        for path in [Path(folder), *sorted(p for p in Path(folder).rglob("*") if p.is_dir())]:
            packages[".".join([name, *path.relative_to(folder).parts])] = path.as_posix()
    return packages


setup(
    packages=find_namespace_packages(include=["kg_count*"], exclude=["kg_count.models"]) + list(data_packages()),
    package_dir=data_packages(),
    package_data={**PACKAGE_DATA, **{name: ["*.rq", "*.ttl"] for name in data_packages()}},
)
