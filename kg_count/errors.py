"""Errors the user can act on. Each says what is wrong and where (file, line, id)."""

from __future__ import annotations


class KgCountError(Exception):
    """Base class of the errors the CLI reports without a traceback."""

    exit_code = 1


class InputError(KgCountError):
    """Bad input data: names the file and, where known, the line or the id that is wrong."""

    def __init__(self, message: str, path: object = None, line: int | None = None, item: str | None = None):
        where = []
        if path is not None:
            where.append(str(path))
        if line is not None:
            where.append(f"line {line}")
        if item is not None:
            where.append(item)
        super().__init__(f"{': '.join([', '.join(where), message]) if where else message}")
        self.path, self.line, self.item = path, line, item


class SetupError(KgCountError):
    """A missing resource (model, WordNet data) with the command that provides it."""


class StoreError(KgCountError):
    """A store that cannot be opened or used: a foreign folder, an unreachable or failing SPARQL server."""

    def __init__(self, message: str, location: object = None):
        super().__init__(f"{location}: {message}" if location is not None else message)
        self.location = location


class StoreHeld(StoreError):
    """An embedded store that another process holds for writing (a reader can still open it read-only)."""


class UsageError(KgCountError):
    """Bad command-line usage (exit code 2)."""

    exit_code = 2
