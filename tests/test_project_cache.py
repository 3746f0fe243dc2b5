"""Values kept in the project cache (the gazetteer, WordNet's index) read back the same as built; a broken copy
is rebuilt."""

from __future__ import annotations

from kg_count import geography


def test_the_cached_gazetteer_is_the_built_one_and_a_broken_copy_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_COUNT_CACHE", str(tmp_path))
    geography.gazetteer.cache_clear()
    try:
        built = geography.gazetteer()
        [saved] = tmp_path.glob("gazetteer-*.pickle")
        geography.gazetteer.cache_clear()
        assert vars(geography.gazetteer()) == vars(built)
        saved.write_bytes(b"not a pickle")
        geography.gazetteer.cache_clear()
        assert vars(geography.gazetteer()) == vars(built)
        assert saved.stat().st_size > 1000 and list(tmp_path.iterdir()) == [saved]
    finally:
        geography.gazetteer.cache_clear()


def test_wordnets_index_read_from_the_cache_is_the_parsed_one_and_a_broken_copy_is_rebuilt(tmp_path, monkeypatch):
    import nltk

    from kg_count.resources.wordnet import english_wordnet_reader, wordnet

    root = wordnet().root  # provisions WordNet (and puts its folder on NLTK's path) when needed
    assert nltk.data.find("corpora/wordnet").path == root.path
    monkeypatch.setenv("KG_COUNT_CACHE", str(tmp_path))
    parsed = english_wordnet_reader(root)
    [saved] = tmp_path.glob("wordnet-index-*.pickle")
    for content in (None, b"not a pickle"):
        if content is not None:
            saved.write_bytes(content)
        read = english_wordnet_reader(root)
        assert read._lemma_pos_offset_map == parsed._lemma_pos_offset_map
        assert read.satellite_offsets == parsed.satellite_offsets and len(parsed.satellite_offsets) > 10000
        assert read.synsets("auburn") == parsed.synsets("auburn")
        assert read.synsets("slay", "v")[0].name() == "murder.v.01"
    assert list(tmp_path.iterdir()) == [saved] and saved.stat().st_size > 1_000_000


def test_wordnet_loads_without_scipys_statistics_and_leaves_them_importable():
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from kg_count.resources.wordnet import wordnet\n"
        "assert wordnet().synsets('gunshot')\n"
        "assert 'scipy.stats' not in sys.modules, 'NLTK loaded SciPy statistics'\n"
        "from scipy.stats import fisher_exact\n"
        "print(round(fisher_exact([[1, 9], [11, 3]]).pvalue, 4))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0.0028"
