"""Pages of the docs site generated from the code (run by mkdocs-gen-files on every ``mkdocs build``).

Writes the CLI page from the argument parser, the settings page from ``default_settings.toml``, the
vocabulary page from ``ontology/kg_count.ttl``, the changelog from ``CHANGELOG.md`` and one API page per
module from its docstrings. A public module, class or function without a docstring is logged as a
warning, so ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path

import griffe
import mkdocs_gen_files
from rdflib import OWL, RDF, RDFS, Graph, Namespace

from kg_count.cli import build_parser
from kg_count.settings_doc import documented_settings

ROOT = Path(__file__).resolve().parents[1]
KGC = Namespace("http://kg-count.org/ontology#")
log = logging.getLogger("mkdocs.plugins.kg_count_pages")
os.environ.setdefault("COLUMNS", "110")


def _subcommands(parser: argparse.ArgumentParser, path: list[str]):
    """Yield (command words, parser) for the parser and every subcommand below it, depth first."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subcommands(sub, [*path, name])


def cli_page() -> str:
    """The CLI reference: each subcommand's ``--help`` as argparse prints it."""
    lines = [
        "# CLI reference",
        "",
        "Generated from the argument parser (`kg_count/cli.py`); `kg-count COMMAND --help` prints the same.",
        "See [Using kg_count](usage.md) for exit codes, stores and progress output.",
        "",
    ]
    for words, parser in _subcommands(build_parser(), ["kg-count"]):
        lines += [f"## `{' '.join(words)}`", "", "```text", parser.format_help().rstrip(), "```", ""]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def settings_page() -> str:
    """The settings page: the file's own header, then one table per section with each key's meaning."""
    doc = documented_settings()
    lines = [
        "# Settings",
        "",
        "Generated from `kg_count/default_settings.toml`, the one file of tunable numbers. Its header says:",
        "",
        *[f"> {line}" for line in doc.header.splitlines()],
        "",
        "To change some, write a TOML file with just those sections and keys and name it in `$KG_COUNT_SETTINGS`:",
        "",
        "```bash",
        "printf '[clustering]\\nsame_city = 2.5\\n' > city.toml",
        "KG_COUNT_SETTINGS=city.toml .venv/bin/kg-count answer --docs ... --questions ... --out ...",
        "```",
        "",
        "An unknown section or key, or a value of the wrong type, stops every command before it writes",
        "anything, naming the file and the key.",
        "",
    ]
    section = None
    for setting in doc.settings:
        if setting.section != section:
            section = setting.section
            lines += ["", f"## `[{section}]`", ""]
            if section in doc.section_notes:
                lines += [doc.section_notes[section], ""]
            lines += ["| key | default | meaning |", "|---|---|---|"]
        lines.append(f"| `{setting.key}` | `{_cell(setting.value)}` | {_cell(setting.meaning)} |")
    return "\n".join(lines) + "\n"


def _short(graph: Graph, node) -> str:
    """An IRI as prefix:name where the graph binds its namespace."""
    return graph.namespace_manager.normalizeUri(node)


def vocabulary_page() -> str:
    """The vocabulary page: the project ontology's classes, properties and named individuals."""
    graph = Graph().parse(ROOT / "ontology" / "kg_count.ttl")
    lines = [
        "# Vocabulary",
        "",
        "Generated from `ontology/kg_count.ttl`. kg_count reuses SEM, GAF, NIF, OWL-Time, PROV-O and DBpedia;",
        "these are the project's own terms (prefix `kgc:` = `http://kg-count.org/ontology#`). Every document",
        "graph satisfies the SHACL shapes in `ontology/shapes.ttl`.",
        "",
    ]

    def terms(kind):
        return sorted(s for s in graph.subjects(RDF.type, kind) if str(s).startswith(str(KGC)))

    def comment(term) -> str:
        return _cell(" ".join(str(graph.value(term, RDFS.comment) or "").split()))

    lines += ["## Classes", "", "| class | subclass of | meaning |", "|---|---|---|"]
    for term in terms(OWL.Class):
        parents = ", ".join(f"`{_short(graph, p)}`" for p in sorted(graph.objects(term, RDFS.subClassOf)))
        lines.append(f"| `{_short(graph, term)}` | {parents} | {comment(term)} |")
    lines += ["", "## Properties", "", "| property | kind | domain | range | meaning |", "|---|---|---|---|---|"]
    for kind in (OWL.ObjectProperty, OWL.DatatypeProperty):
        for term in terms(kind):
            domain = ", ".join(f"`{_short(graph, d)}`" for d in sorted(graph.objects(term, RDFS.domain)))
            range_ = ", ".join(f"`{_short(graph, r)}`" for r in sorted(graph.objects(term, RDFS.range)))
            lines.append(f"| `{_short(graph, term)}` | {_short(graph, kind)} | {domain} | {range_} | {comment(term)} |")
    lines += ["", "## Named values", "", "| value | type | meaning |", "|---|---|---|"]
    classes = set(terms(OWL.Class))
    for term in sorted(s for s, o in graph.subject_objects(RDF.type) if o in classes):
        kind = graph.value(term, RDF.type)
        lines.append(f"| `{_short(graph, term)}` | `{_short(graph, kind)}` | {comment(term)} |")
    return "\n".join(lines) + "\n"


def _missing_docstrings(obj) -> list[str]:
    """Paths of the public modules, classes and functions under ``obj`` that have no docstring."""
    missing = [] if obj.docstring else [obj.path]
    for name, member in obj.members.items():
        if member.is_alias or (name.startswith("_") and name != "__init__") or name == "__init__":
            continue
        if member.is_module or member.is_class or member.is_function:
            missing += _missing_docstrings(member)
    return missing


def api_pages() -> None:
    """One page per module of the package (``reference/...``) and the navigation that lists them."""
    package = griffe.load("kg_count", search_paths=[str(ROOT)])
    for path in _missing_docstrings(package):
        log.warning("no docstring: %s", path)
    nav = mkdocs_gen_files.Nav()
    for module in sorted(ROOT.joinpath("kg_count").rglob("*.py")):
        parts = list(module.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
            page = Path("reference", *parts, "index.md")
        else:
            page = Path("reference", *parts).with_suffix(".md")
        if any(part.startswith("_") for part in parts):
            continue
        nav[tuple(parts)] = page.relative_to("reference").as_posix()
        with mkdocs_gen_files.open(page, "w") as out:
            out.write(f"# `{'.'.join(parts)}`\n\n::: {'.'.join(parts)}\n")
    with mkdocs_gen_files.open("reference/SUMMARY.md", "w") as out:
        out.writelines(nav.build_literate_nav())


def main() -> None:
    """Write every generated page into the docs being built."""
    pages = {
        "cli.md": cli_page(),
        "settings.md": settings_page(),
        "vocabulary.md": vocabulary_page(),
        "changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
    }
    for name, text in pages.items():
        with mkdocs_gen_files.open(name, "w") as out:
            out.write(text)
    api_pages()


main()
