"""The gazetteer is built once and read back from the project cache, the same as built; a broken copy is rebuilt."""

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
