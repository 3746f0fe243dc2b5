"""Imports between kg_count's packages run one way: bottom -> io -> learning -> nlp -> graph -> incidents ->
answer -> evaluate -> training -> cli, with qa beside incidents (it reads passages, not the store's incidents),
and the public API (api, offered by the package's top level) between answer and cli."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "kg_count"
BOTTOM = {
    "task",
    "errors",
    "settings",
    "settings_doc",
    "progress",
    "interrupts",
    "geography",
    "memory",
    "background",
    "process_guard",
    "source_closure",
    "arrays",
    "resources",
    "blas_threads",
}
BELOW = {
    "bottom": set(),
    "io": {"bottom"},
    "learning": {"bottom", "io"},
    "nlp": {"bottom", "io", "learning"},
    "graph": {"bottom", "io", "learning", "nlp"},
    "qa": {"bottom", "io", "learning", "nlp", "graph"},
    "incidents": {"bottom", "io", "learning", "nlp", "graph"},
    "answer": {"bottom", "io", "learning", "nlp", "graph", "incidents"},
    "evaluate": {"bottom", "io", "learning", "nlp", "graph", "incidents"},
    "training": {"bottom", "io", "learning", "nlp", "graph", "qa", "incidents", "answer", "evaluate"},
    "api": {"bottom", "io", "learning", "nlp", "graph", "incidents", "answer"},
    "cli": {"bottom", "io", "learning", "nlp", "graph", "qa", "incidents", "answer", "evaluate", "training", "api"},
    "__init__": {"bottom", "api"},  # the package's top level offers the API's names, imported on first use
}


def layer(module: str) -> str:
    """The layer of a dotted module name inside kg_count (``kg_count.nlp.places`` -> ``nlp``)."""
    parts = module.split(".")
    first = parts[1] if len(parts) > 1 else "__init__"
    is_module = (PACKAGE / first).is_dir() or (PACKAGE / f"{first}.py").exists()
    return "bottom" if first in BOTTOM or not is_module else first


def imported_modules(path: Path) -> set[str]:
    """Every kg_count module ``path`` imports, at the top or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kg_count"):
            found |= {
                f"{node.module}.{alias.name}" if node.module == "kg_count" else node.module for alias in node.names
            }
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("kg_count")}
    return found


def test_every_package_has_a_layer():
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    assert packages - BOTTOM <= set(BELOW) and modules - BOTTOM == {"cli", "api", "__init__"}


def test_imports_run_one_way():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        own = layer(module)
        for target in imported_modules(path):
            other = layer(target)
            if other != own and other not in BELOW[own]:
                upward.append(f"{module} imports {target}")
    assert upward == []


def test_the_check_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from kg_count.answer.graph_answer import answer_task_question\n")
    assert layer(imported_modules(source).pop()) == "answer"


INCIDENT_ROOMS = ("reports", "pairs", "grouping", "store", "update", "views")  # each imports only rooms before it


def incident_room(module: str) -> str | None:
    """The room of ``kg_count.incidents.ROOM.module`` (None outside incidents/ or for the package itself)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["kg_count", "incidents"] else None


def test_the_rooms_of_incidents_import_one_way_with_nothing_hidden():
    upward, hidden = [], []
    for path in sorted((PACKAGE / "incidents").rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        own = incident_room(module)
        for target in imported_modules(path):
            other = incident_room(target)
            if own and other and INCIDENT_ROOMS.index(other) > INCIDENT_ROOMS.index(own):
                upward.append(f"{module} imports {target}")
        tree = ast.parse(path.read_text())
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kg_count.incidents"):
                if id(node) not in top:
                    hidden.append(f"{module}:{node.lineno} imports {node.module} inside a block")
    assert upward == [] and hidden == []
    assert {p.name for p in (PACKAGE / "incidents").iterdir() if p.is_dir() and p.name != "__pycache__"} == set(
        INCIDENT_ROOMS
    )
