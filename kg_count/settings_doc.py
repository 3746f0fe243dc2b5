"""What each setting means, read from the comments of ``default_settings.toml``.

The settings file is its own documentation: a key's meaning is the comment on its line (with the
comment lines that continue it), or else the comment block above a group of keys. The docs site's
settings page is generated from ``documented_settings()``, and a test checks that every key the
typed settings know has a meaning here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

from kg_count.settings import DEFAULTS

_SECTION = re.compile(r"^\[(?P<name>[a-z_]+)\]\s*$")
_KEY = re.compile(r"^(?P<key>[a-z_0-9]+)\s*=\s*(?P<value>[^#]+?)\s*(?:#\s?(?P<comment>.*))?$")


@dataclass(frozen=True)
class DocumentedSetting:
    """One key of the settings file: its section, name, default value (as written) and meaning."""

    section: str
    key: str
    value: str
    meaning: str


@dataclass(frozen=True)
class SettingsFileDoc:
    """The settings file read as documentation: its header, each section's note and each key."""

    header: str
    section_notes: dict[str, str]
    settings: list[DocumentedSetting]


def _comment(line: str) -> str | None:
    stripped = line.strip()
    return stripped[1:].strip() if stripped.startswith("#") else None


def read_settings_doc(text: str) -> SettingsFileDoc:
    """Parse a settings file's text into its header comment, section notes and documented keys.

    A comment block before the first section is the header. Inside a section, a comment block is the
    note of the keys that follow it (a key without a comment of its own takes the block as its meaning);
    a comment line right after a key's line continues that key's comment.
    """
    header: list[str] = []
    notes: dict[str, str] = {}
    settings: list[DocumentedSetting] = []
    section = ""
    block: list[str] = []
    last: DocumentedSetting | None = None
    for line in text.splitlines():
        comment = _comment(line)
        if not section and comment is not None:
            header.append(comment)
            continue
        if match := _SECTION.match(line.strip()):
            section, block, last = match["name"], [], None
            continue
        if comment is not None:
            if last is not None and not block and line.startswith("#   "):
                settings[-1] = last = DocumentedSetting(last.section, last.key, last.value, f"{last.meaning} {comment}")
            else:
                block.append(comment)
                last = None
            continue
        if not line.strip():
            last = None
            continue
        if match := _KEY.match(line.strip()):
            own = (match["comment"] or "").strip()
            if block and section not in notes:
                notes[section] = " ".join(block)
            meaning = own or " ".join(block)
            last = DocumentedSetting(section, match["key"], match["value"], meaning)
            settings.append(last)
            if own:
                block = []
    return SettingsFileDoc("\n".join(header), notes, settings)


def documented_settings() -> SettingsFileDoc:
    """The shipped defaults file (``kg_count/default_settings.toml``) read as documentation."""
    return read_settings_doc(files("kg_count").joinpath(DEFAULTS).read_text(encoding="utf-8"))
