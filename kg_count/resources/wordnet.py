"""Find or provision WordNet 3.0 for NLTK without any download.

Order of preference: NLTK data already installed (``nltk.data.find``), then a cache folder
this project owns, filled by copying Debian's ``wordnet-base`` and ``wordnet-sense-index``
files (installing those packages with apt when they are missing and apt is usable).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

from kg_count.errors import SetupError
from kg_count.resources.project_cache import cached_pickle, file_identity, project_cache, source_key

DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
DEBIAN_PACKAGES = ("wordnet-base", "wordnet-sense-index")
FIX_COMMAND = "apt-get install -y " + " ".join(DEBIAN_PACKAGES) + " && make setup"
LEXNAMES_FILE = Path(__file__).with_name("lexnames")
REQUIRED_FILES = (
    "data.noun",
    "data.verb",
    "data.adj",
    "data.adv",
    "index.noun",
    "index.verb",
    "index.adj",
    "index.adv",
    "index.sense",
    "noun.exc",
    "verb.exc",
    "adj.exc",
    "adv.exc",
)


def cache_dir() -> Path:
    """Return the folder this project keeps its NLTK data in (``nltk_data`` in the project cache)."""
    return project_cache() / "nltk_data"


def _nltk():
    """The ``nltk`` package, imported without the SciPy statistics its collocation measures load at start-up (0.72 s
    of its 0.88 s on this project's machine; kg_count reads WordNet alone and never scores collocations: NLTK then
    stubs its Fisher exact test). A process that has SciPy's statistics already imports NLTK as it is."""
    if "nltk" in sys.modules or "scipy.stats" in sys.modules:
        import nltk

        return nltk
    sys.modules["scipy.stats"] = None  # type: ignore[assignment]  # an import of it raises ImportError meanwhile
    try:
        import nltk
    finally:
        if sys.modules.get("scipy.stats", "") is None:
            del sys.modules["scipy.stats"]
    return nltk


def _nltk_has_wordnet() -> bool:
    nltk = _nltk()

    try:
        nltk.data.find("corpora/wordnet")
    except LookupError:
        return False
    return True


def _apt_install() -> None:
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return
    subprocess.run(
        ["apt-get", "install", "-y", "-q", *DEBIAN_PACKAGES],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _debian_files_present() -> bool:
    return all((DEBIAN_WORDNET_DIR / name).is_file() for name in REQUIRED_FILES)


def _copy_debian_wordnet(target: Path) -> None:
    """Copy Debian's WordNet 3.0 files into ``target`` (an NLTK ``corpora/wordnet`` folder), atomically."""
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for source in DEBIAN_WORDNET_DIR.iterdir():
        if source.is_file():
            shutil.copyfile(source, staging / source.name)
    shutil.copyfile(LEXNAMES_FILE, staging / "lexnames")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)


def provision_wordnet() -> Path | None:
    """Make WordNet 3.0 readable by NLTK; return the cache folder used, or None when NLTK already had it.

    Raises SetupError naming the command that fixes it when no source of WordNet is available.
    """
    target = cache_dir() / "corpora" / "wordnet"
    if (target / "lexnames").is_file():
        return cache_dir()
    if _nltk_has_wordnet():
        return None
    if not _debian_files_present():
        _apt_install()
    if not _debian_files_present():
        raise SetupError(f"WordNet 3.0 was not found (no NLTK data, no {DEBIAN_WORDNET_DIR}); run: {FIX_COMMAND}")
    _copy_debian_wordnet(target)
    return cache_dir()


@lru_cache(maxsize=1)
def wordnet():
    """Return NLTK's WordNet 3.0 reader (``english_wordnet_reader``), provisioning the data first when needed."""
    nltk = _nltk()
    folder = provision_wordnet()
    if folder is not None and str(folder) not in nltk.data.path:
        nltk.data.path.insert(0, str(folder))
    return english_wordnet_reader(nltk.data.find("corpora/wordnet"))


INDEX_FILES = ("index.noun", "index.verb", "index.adj", "index.adv", "data.adj")  # what the index is read from


def english_wordnet_reader(root):
    """NLTK's WordNet reader of the WordNet at ``root`` without the map from the WordNet of the Open Multilingual
    Wordnet's offsets to this one, which NLTK builds at start-up (about 2.6 s of its 5.9 s on this machine) and
    reads only for other languages than English. Its index (lemma -> part of speech -> synset offsets, and the
    adjective satellites), which NLTK parses from the index files at start-up (the reader starts in about 2.2 s
    then, 0.6 s without), is read from the project cache when an earlier process saved it for the same files and
    NLTK version."""
    _nltk()  # imported as wordnet() imports it, for a caller that reads a WordNet folder directly
    from nltk.corpus.reader import CorpusReader, WordNetCorpusReader
    from nltk.corpus.util import LazyCorpusLoader

    class EnglishWordNetReader(WordNetCorpusReader):
        def map_wn(self, version="wordnet"):
            """No map: the project reads English synsets only."""
            return None

        def _scan_satellites(self):
            """The satellites and the lemma index, from the project cache when saved there (see above)."""
            key = _index_key(self.root)
            if key is None:
                super()._scan_satellites()
                return

            def parsed() -> tuple:
                WordNetCorpusReader._scan_satellites(self)
                WordNetCorpusReader._load_lemma_pos_offset_map(self)
                return self.satellite_offsets, dict(self._lemma_pos_offset_map)

            self.satellite_offsets, lemmas = cached_pickle("wordnet-index", key, parsed, tuple)
            self._lemma_pos_offset_map.update(lemmas)
            self._index_loaded = True

        def _load_lemma_pos_offset_map(self):
            if not getattr(self, "_index_loaded", False):
                super()._load_lemma_pos_offset_map()

    multilingual = LazyCorpusLoader("omw-2.0", CorpusReader, r".*/wn-data-.*\.tab", encoding="utf8")
    return EnglishWordNetReader(root, multilingual)


def _index_key(root) -> str | None:
    """The cache key of the WordNet index at ``root`` (an NLTK path pointer): its files' identity and NLTK's
    version; None for WordNet inside a zip file, whose index is parsed each time."""
    import importlib.metadata

    folder = getattr(root, "path", None)
    if folder is None or not Path(folder).is_dir():
        return None
    paths = [Path(folder) / name for name in INDEX_FILES]
    if not all(path.is_file() for path in paths):
        return None
    return source_key(f"nltk=={importlib.metadata.version('nltk')}", file_identity(paths))


if __name__ == "__main__":
    used = provision_wordnet()
    print(f"WordNet 3.0 ready ({used or 'NLTK data'}): {wordnet().get_version()}")
