"""A title's publisher byline: where it begins, and that its places are not read as the incident's."""

from kg_count.nlp.bylines import byline_start, names_a_publisher


def split(title):
    words = title.split()
    return words, byline_start(words, len(words))


def test_a_station_byline_begins_at_its_separator():
    words, start = split("Juvenile dies in Montgomery shooting - WTVM.com - Columbus , GA News Weather & Sports")
    assert " ".join(words[:start]) == "Juvenile dies in Montgomery shooting"
    words, start = split("Teen girl shot in Mosby Court - NBC12 - WWBT - Richmond , VA News On Your Side")
    assert words[start + 1] == "NBC12"
    words, start = split("Masked men shoot teen in Garner apartment : : WRAL.com")
    assert words[start:] == [":", ":", "WRAL.com"]


def test_hyphens_and_story_words_are_no_byline():
    for title in (
        "Police : 16-year - old dies after being shot multiple times in Miami",
        "Four Injured in NE Miami - Dade Drive - By Shooting : Police",
        "Man shot - police say suspect fled",
    ):
        words, start = split(title)
        assert start == len(words), title


def test_what_names_a_publisher():
    assert names_a_publisher(["KVVU"]) and names_a_publisher(["FOX6", "News"]) and names_a_publisher(["wave3.com"])
    assert names_a_publisher(["7News", "Boston"])
    assert not names_a_publisher(["old", "shot", "multiple", "times"]) and not names_a_publisher(["Kinloch", "man"])
    assert not names_a_publisher([])
