"""Which of kg_count's modules a stage runs: the modules its entry modules import, directly or through others.

Fingerprints of stored work (a document's record, its graph, the incidents) hash the source of these modules, so
an edit to any module a stage can run invalidates what that stage stored, and no hand-kept list can leave one
out. Imports are read from the source (at the top, inside functions and under ``TYPE_CHECKING`` alike); nothing
is imported. ``from package import module`` counts the module, not the package's ``__init__``; the package's top
level (``kg_count/__init__.py``, which offers ``kg_count.api``'s names on demand) is hashed when imported but its
imports are not followed.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

PACKAGE_NAME = "kg_count"
PACKAGE_DIR = Path(__file__).resolve().parent


def module_file(name: str, package_dir: Path | None = None) -> Path | None:
    """The source file of the kg_count module ``name`` (dotted) under ``package_dir`` (default: the installed
    package's folder); None when there is none."""
    parts = name.split(".")[1:]
    base = (package_dir or PACKAGE_DIR).joinpath(*parts)
    for path in (base.with_suffix(".py") if parts else None, base / "__init__.py"):
        if path is not None and path.is_file():
            return path
    return None


IMPORT_STATEMENT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+([^\n#]*))", re.M
)


def _resolved(level: int, module: str, importer: str, is_package: bool) -> str:
    """The absolute module name a ``from`` statement of ``level`` dots and ``module`` in ``importer`` reads from."""
    if not level:
        return module
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _names(text: str) -> list[str]:
    """The names of an import list (``a, b as c`` or ``(a,\n b)``), aliases dropped."""
    return [part.split()[0] for part in text.strip("()").replace("\\", " ").split(",") if part.split()]


def direct_imports(name: str, package_dir: Path | None = None) -> set[str]:
    """The kg_count modules that the module ``name`` imports anywhere in its source (a name imported from a
    package counts as its submodule when it is one). Import statements are found by a pattern over the source,
    not by parsing it (a fingerprint is taken by every command; an import-like line in a string at most adds a
    module)."""
    path = module_file(name, package_dir)
    found: set[str] = set()
    for dots, module, imported, plain in IMPORT_STATEMENT.findall(path.read_text(encoding="utf-8")):
        if plain:
            found |= set(_names(plain))
            continue
        module = _resolved(len(dots), module, name, path.name == "__init__.py")
        names = _names(imported)
        submodules = {f"{module}.{n}" for n in names if module_file(f"{module}.{n}", package_dir) is not None}
        found |= submodules if len(submodules) == len(names) else submodules | {module}
    return {
        module
        for module in found
        if module and module.split(".")[0] == PACKAGE_NAME and module_file(module, package_dir) is not None
    }


@lru_cache(maxsize=16)
def imported_modules(roots: tuple[str, ...], package_dir: Path | None = None) -> tuple[str, ...]:
    """The names of ``roots`` and of every kg_count module they import, directly or through others, sorted."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if module_file(name, package_dir) is None:
            raise ValueError(f"{name} is not a module of {package_dir or PACKAGE_DIR}")
        seen.add(name)
        if name != PACKAGE_NAME:  # the top level offers the API's names on demand: hashed, not followed
            todo.extend(direct_imports(name, package_dir) - seen)
    return tuple(sorted(seen))
