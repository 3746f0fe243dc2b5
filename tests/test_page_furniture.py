"""A page's video playlist (other stories' clips) is not the story: its events, times and counts are left out."""

from kg_count.nlp.pipeline import extract
from kg_count.nlp.page_furniture import playlist_sentences
from tests.helpers import annotated, document

PLAYLIST = (
    "2:03 Video Graphic : Wind turbines , how they are built Pause 1:52 Houston barbecue restaurant owner shoots , "
    "kills suspected robber 0:50 Grand Champion Steer Sale 1:08 Man opens fire at DC pizzeria"
)


def furniture_words(body: str) -> list[str]:
    doc = document(body, title="Four shot in Allen")
    keys = playlist_sentences(doc)
    return [t.text for t in doc.tokens if t.sentence in keys and not t.is_layout]


def test_a_sentence_of_clip_running_times_is_a_playlist():
    assert furniture_words(f"Four people were shot . | {PLAYLIST}") == PLAYLIST.split()


def test_the_sentence_after_a_playlist_ending_with_a_running_time_is_the_last_clip_title():
    words = furniture_words(
        "2:10 Flamboyant pot retailer doubles down 1:04 | What it looks like in Olympia | A man was shot ."
    )
    assert words == "2:10 Flamboyant pot retailer doubles down 1:04 What it looks like in Olympia".split()


def test_clock_times_are_no_playlist():
    assert furniture_words("We will have updates at 9:00 & 10:00 .") == []
    assert furniture_words("About 5:30 p.m. Sunday a man was shot about 5:30 p.m. on Main Street .") == []
    assert furniture_words("Date : Friday , March 31 , 2017 , 10:24 PM -Saturday , April 01 , 2017 , 12:18 AM") == []


def test_a_playlist_gives_the_story_no_events_or_counts():
    story = "Four people were shot and wounded in Allen , Texas , on Sunday after an argument on Facebook ."
    title = "Update : 4 people shot in Allen after argument on Facebook escalates"
    alone = extract(annotated(story, title, "2017-01-25"))
    with_clips = extract(annotated(f"{PLAYLIST} | {story}", title, "2017-01-25"))
    assert (with_clips.killed, with_clips.injured) == (alone.killed, alone.injured) == (0, 4)
    assert with_clips.event_types == alone.event_types
    assert not any(m.text in ("kills", "fire") for m in with_clips.event_mentions)
