"""A key-value cache in one table of a SQLite file, shared by the processes of a machine.

The file is in write-ahead-log mode; each value is written in its own short transaction and a
writer waits for another's (up to BUSY_TIMEOUT seconds), so jobs running side by side share it.
Each thread that uses a cache reads and writes it through a connection of its own (SQLite's
connections belong to the thread that opened them).
The record cache (``kg_count.nlp.record_cache``) and the title vectors of document coreference
(``kg_count.incidents.reports.title_vectors``) keep their values in one each.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

from kg_count.errors import InputError

BUSY_TIMEOUT = 60.0


class SqliteCache:
    """Values (text or bytes) by key in ``table`` of the SQLite file at ``path`` (created when missing);
    the value column is named ``column``. A file that cannot be used is an InputError naming it and
    ``what`` the cache is, followed by ``hint`` (how to do without it)."""

    def __init__(
        self, path: str | os.PathLike, table: str, column: str, kind: str = "TEXT", what: str = "cache", hint: str = ""
    ) -> None:
        self.path = Path(path)
        self.select = f"SELECT {column} FROM {table} WHERE key = ?"
        self.insert = f"INSERT OR REPLACE INTO {table} VALUES (?, ?)"
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._set_up(table, column, kind)
        except (OSError, sqlite3.Error) as error:
            raise InputError(f"cannot use the {what}: {error}{f' ({hint})' if hint else ''}", self.path) from None

    @property
    def connection(self) -> sqlite3.Connection:
        """This thread's connection to the file, opened on its first use."""
        connection = getattr(self._local, "connection", None)
        if connection is None:
            # not checked for its thread: close() closes every thread's connection from the caller's
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
            self._local.connection = connection
            self._connections.append(connection)
        return connection

    def _set_up(self, table: str, column: str, kind: str) -> None:
        """Switch the file to write-ahead logging and create the table. SQLite does not wait on a busy
        file while it changes the journal mode, so two processes opening a new file at once are
        retried here, up to BUSY_TIMEOUT."""
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                self.connection.execute("PRAGMA journal_mode=WAL")
                self.connection.execute("PRAGMA synchronous=NORMAL")
                self.connection.execute(
                    f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, {column} {kind} NOT NULL)"
                )
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def get(self, key: str) -> str | bytes | None:
        """The value stored under ``key``, or None."""
        row = self.connection.execute(self.select, (key,)).fetchone()
        return row[0] if row else None

    def put(self, key: str, value: str | bytes) -> None:
        """Store ``value`` under ``key`` (replacing any)."""
        self.connection.execute(self.insert, (key, value))

    def close(self) -> None:
        """Close every thread's connection."""
        for connection in self._connections:
            connection.close()
        self._connections.clear()
        self._local = threading.local()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
