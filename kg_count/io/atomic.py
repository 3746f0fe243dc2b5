"""Atomic file output: write to a temporary file beside the target, then rename over it."""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator, TextIO


@contextmanager
def atomic_writer(path: str | os.PathLike, binary: bool = False) -> Iterator[TextIO | BinaryIO]:
    """Yield a text handle (a bytes handle when ``binary``); on success the file appears at ``path`` whole, on
    error nothing is left."""
    from kg_count.errors import InputError

    target = Path(path)
    if target.is_dir():
        raise InputError("is a folder; give a file name to write", target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise InputError("cannot write here: a part of the path is a file, not a folder", target) from None
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_json_atomic(path: str | os.PathLike, data: object) -> None:
    """Write ``data`` as indented JSON to ``path`` atomically."""
    with atomic_writer(path) as handle:
        json.dump(data, handle, indent=2, sort_keys=True)
        handle.write("\n")


def read_json(path: str | os.PathLike) -> object:
    """Read a JSON file; a missing file or invalid JSON raises InputError naming the file and line."""
    from kg_count.errors import InputError

    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path) from None
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON: {error.msg} (column {error.colno})", path, error.lineno) from None
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text: {error.reason}", path) from None
