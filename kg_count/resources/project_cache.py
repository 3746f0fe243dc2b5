"""The project cache folder, and values costly to build kept there as pickles, keyed by what they are built from."""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")


def project_cache() -> Path:
    """Return the folder this project keeps its data in (``$KG_COUNT_CACHE`` or ``~/.cache/kg_count``)."""
    return Path(os.environ.get("KG_COUNT_CACHE") or Path.home() / ".cache" / "kg_count")


def source_key(*parts: bytes | str) -> str:
    """A short SHA-256 key of ``parts`` (file contents, versions, settings), in order."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:16]


def file_identity(paths: Iterable[Path]) -> str:
    """The paths, sizes and modification times of ``paths``: a key part for data files too large to hash."""
    return "\n".join(f"{path.resolve()} {path.stat().st_size} {path.stat().st_mtime_ns}" for path in paths)


def cached_pickle(name: str, key: str, build: Callable[[], T], kind: type) -> T:
    """The ``kind`` value saved as ``<project cache>/<name>-<key>.pickle`` by an earlier call, else ``build()``'s,
    saved there (atomically) for the next process. A missing, partial or foreign file is built again; a cache
    folder that cannot be written leaves the value unsaved."""
    path = project_cache() / f"{name}-{key}.pickle"
    try:
        with path.open("rb") as handle:
            value = pickle.load(handle)
        if isinstance(value, kind):
            return value
    except Exception:  # a missing, partial or foreign file: build it again
        pass
    value = build()
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=path.name, delete=False) as handle:
            temporary = Path(handle.name)
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:  # a read-only cache folder: the next process builds it too
        if temporary is not None:
            temporary.unlink(missing_ok=True)
    return value
