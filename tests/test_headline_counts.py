"""Counts a headline states in a list of counted people, a share of the shot who died or a number before a harm word."""

import pytest

from kg_count.nlp.events import find_event_mentions
from kg_count.nlp.headline_counts import headline_counts
from kg_count.nlp.participants import find_participants, stated_counts
from tests.helpers import annotated


def title_end(doc) -> int:
    return sum(1 for p in doc.positions if doc.document.tokens[p].part == "TITLE")


@pytest.mark.parametrize(
    "title, killed, injured",
    [
        ("UPDATE : 3 women , 1 man shot on Fairfield Road", 0, 4),
        ("1 child , 4 adults shot in Boynton Beach", 0, 5),
        ("2 Girls , 2 Men Shot At Birthday Party In Compton", 0, 4),
        ("Man , 2 women shot in Chicago", 0, 3),
        ("Teen , 2 men wounded in shooting", 0, 3),
        ("2 shot , 1 dead , in Russell neighborhood", 1, 1),
        ("4 shot , 2 fatally , in gas station shooting", 2, 2),
        ("2 teens shot in Phoenix , 1 killed", 1, 1),
        ("Five people shot , one dead in Pike County", 1, 4),
        ("3 Dead , 1 Critical in Possible Domestic Murder - Suicide in Waldorf", 3, 1),
        ("1 Dies , 4 Hurt in Atlantic County Shooting", 1, 4),
        ("Two Men Critical Following Compton Shooting", 0, 2),
        ("Five Shot Dead In South Shore : 4 Men At Restaurant , Pregnant Woman In Apartment", 5, 0),
        ("3 Shot To Death In Memphis Home", 3, 0),
        ("4-year - old girl , mother fatally shot near home in Long Beach", 2, 0),
        ("Man , 17-month - old child dead in apparent murder - suicide", 2, 0),
        ("Mother , Teen Daughter Found Dead After Suspect Surrenders", 2, 0),
        ("Boy , 2 , and man killed in shooting", 2, 0),
    ],
)
def test_a_headlines_list_or_fatal_share_counts_whole(title, killed, injured):
    doc = annotated("Police said the shooting happened Saturday night .", title=title)
    events = find_event_mentions(doc)
    counts = stated_counts(doc.doc, events, find_participants(doc.doc, events), title_end=title_end(doc))
    assert (counts.killed, counts.injured) == (killed, injured)


def test_more_dead_than_shot_is_no_share_but_two_counts():
    doc = annotated("Police said the shooting happened Saturday night .", title="2 shot , 3 dead in separate incidents")
    counts = headline_counts(doc.doc, title_end(doc))
    assert [(c.status, c.value) for c in counts] == [("injured", 2), ("killed", 3)]


@pytest.mark.parametrize(
    "title",
    [
        "Man shot in Chicago",  # one item is no list
        "Police , fire crews respond to shooting",  # no word for a person counted
        "Men shot at party",  # a plural without a number says no count
        "A man shot on Route 9",  # "a" before a word for a person is one of it, not a number
    ],
)
def test_no_headline_count_without_a_number_a_list_or_a_share(title):
    doc = annotated("Police said the shooting happened Saturday night .", title=title)
    assert headline_counts(doc.doc, title_end(doc)) == []


@pytest.mark.parametrize(
    "title, injured",
    [
        ("Convicted felon arrested after accidentally shooting himself in - KSLA News 12 Shreveport , Louisiana", 1),
        ("Police say small child accidentally shot herself - WAFB 9 News Baton Rouge , Louisiana News , Weather", 1),
        ("Police search for suspects after 4 teens shot - WALB.com , South Georgia News , Weather , Sports", 4),
    ],
)
def test_the_publishers_byline_counts_no_one(title, injured):
    # a station's number or its list of sections is no count; the title's own count before the byline stands
    doc = annotated("The victim was taken to a hospital , police said .", title=title)
    events = find_event_mentions(doc)
    counts = stated_counts(doc.doc, events, find_participants(doc.doc, events), title_end=title_end(doc))
    assert counts.injured == injured
