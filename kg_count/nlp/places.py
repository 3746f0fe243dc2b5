"""Where an incident happened: US city and state from datelines, "City, State" phrases and NER.

Same-named places (Columbus MS/GA/OH) are told apart by the states the text names, the
dateline, and population. Places are written as DBpedia resources the way the task writes them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from kg_count.nlp.bylines import byline_start
from kg_count.settings import settings
from kg_count.geography import city_iri, gazetteer, is_county, resolve_state, sole_city, state_iri

DATELINE_END = {"(", "—", "-", "–", "--", ":", "_", "―"}


@dataclass(frozen=True)
class Place:
    """A place found for a document: city (may be None), state postal code (may be None), how it was found."""

    city: str | None
    state: str | None
    found_by: str

    @property
    def state_iri(self) -> str | None:
        return state_iri(self.state) if self.state else None

    @property
    def city_iri(self) -> str | None:
        return city_iri(self.city, self.state) if self.city and self.state else None


@lru_cache(maxsize=1)
def _state_first_words() -> frozenset[str]:
    """The first words (lower case) of every way a state can be written: a word not among them starts none."""
    g = gazetteer()
    written = [*g.ap_abbreviations, *g.state_by_name, *g.state_names]
    return frozenset(text.split()[0].lower() for text in written if text.split())


@lru_cache(maxsize=1)
def _place_first_words() -> frozenset[str]:
    """The first words (lower case) of every place the gazetteer knows."""
    return frozenset(name.split()[0] for name in gazetteer().places if name.split())


def _state_at(words: list[str], i: int) -> tuple[str | None, int]:
    """A state written at words[i:] (one to three words); returns (postal code, words used)."""
    g = gazetteer()
    if i >= len(words) or words[i].lower() not in _state_first_words():
        return None, 0
    for length in (3, 2, 1):
        if i + length <= len(words):
            code = g.state_code(" ".join(words[i : i + length]))
            if code and (
                length > 1
                or not words[i].isupper()
                or len(words[i]) != 2
                or i + 1 >= len(words)
                or words[i + 1] in DATELINE_END | {",", ".", ")", "(", "—"}
            ):
                return code, length
    return None, 0


def city_before(words: list[str], comma: int, state: str) -> str | None:
    """The longest run of one to four capitalised words before ``comma`` that is a place in ``state``."""
    g = gazetteer()
    for length in (4, 3, 2, 1):
        start = comma - length
        if start < 0:
            continue
        candidate = words[start:comma]
        if not all(w[:1].isupper() for w in candidate):
            continue
        name = " ".join(candidate)
        if state in g.states_of(name):
            return name.title() if name.isupper() else name
    return None


def _is_caps(word: str) -> bool:
    return word.isupper() and any(c.isalpha() for c in word)


def _bare_ap_state(words: list[str], i: int) -> str | None:
    """The state of an AP abbreviation written without its period before a dateline's end ("JACKSON , Tenn —",
    "LEXINGTON , Ky ( LEX18 )"), else None: elsewhere "Miss", "Ill" or "Wash" are words."""
    if i + 1 >= len(words) or words[i + 1] not in DATELINE_END:
        return None
    return gazetteer().ap_abbreviations.get(words[i] + ".")


def dateline(words: list[str]) -> Place | None:
    """A dateline near the start of the body: "GAINESVILLE , Fla. —", "PITTSBURGH ( KDKA ) —", as a Place.

    The city is a run of capitalised words (all capitals when no state follows) that the gazetteer
    knows; without a state the Place has city and no state, for the caller to resolve.
    """
    g = gazetteer()
    for begin in range(len(words)):
        if not words[begin][:1].isupper():
            continue
        for end in range(begin + 1, min(begin + 5, len(words))):
            following = words[end]
            run = words[begin:end]
            if following == ",":
                state, _ = _state_at(words, end + 1)
                if state is None and all(_is_caps(w) for w in run) and end + 1 < len(words):
                    state = g.state_code(words[end + 1]) if words[end + 1].isupper() else _bare_ap_state(words, end + 1)
                    if state is None and (end + 3 < len(words) and words[end + 2] in ("County", "Parish")):
                        name = " ".join(run).title()
                        if g.states_of(name):
                            return Place(name, None, "dateline")
                if state and (_is_caps(run[0]) or begin == 0):
                    city = city_before(words, end, state)
                    if city:
                        return Place(city, state, "dateline")
            elif following in DATELINE_END and all(_is_caps(w) for w in run):
                name = " ".join(run)
                if g.states_of(name) or name.lower() in {c for c, _ in g.bare_titles}:
                    return Place(name.title(), None, "dateline")
            if not words[end][:1].isupper() and following not in DATELINE_END | {","}:
                break
    return None


def unknown_town_dateline(words: list[str]) -> tuple[str, str] | None:
    """A dateline whose town the gazetteer does not know in the state it names ("HOWLAND , Ohio ( WKBN ) –",
    "HARRISON TOWNSHIP , Ohio —"): (the town in title case, the state's postal code), else None. The run before the
    comma is in capitals and the state is followed by a dateline's end."""
    for comma, word in enumerate(words):
        if word != "," or comma == 0:
            continue
        state, used = _state_at(words, comma + 1)
        after = comma + 1 + used
        if state is None or after >= len(words) or words[after] not in DATELINE_END:
            continue
        run = []
        for w in reversed(words[max(0, comma - 4) : comma]):
            if not _is_caps(w):
                break
            run.insert(0, w)
        if run and not city_before(words, comma, state):
            return " ".join(run).title(), state
    return None


def city_state_mentions(words: list[str]) -> list[tuple[str, str, int]]:
    """Every "City , State" phrase of the text whose city is a place in that state: (city, state, comma index)."""
    found = []
    for comma, word in enumerate(words):
        if word != "," or comma == 0:
            continue
        state, _ = _state_at(words, comma + 1)
        if state:
            city = city_before(words, comma, state)
            if city:
                found.append((city, state, comma))
    return found


def city_state_pairs(words: list[str]) -> list[tuple[str, str]]:
    """Every "City , State" phrase of the text whose city is a place in that state."""
    return [(city, state) for city, state, _ in city_state_mentions(words)]


def state_mentions(words: list[str]) -> list[tuple[str, int]]:
    """Each state the text names and where: full names and AP abbreviations (postal codes only after a
    comma), as (postal code, word index). A state's name that begins the name of a place with the next word
    ("Kansas City", "Washington County", "Virginia Beach") names that place, not the state, one followed by a
    street word names a street ("Pennsylvania Avenue") and one followed by a word for a neighbourhood, park or
    school a place named after it ("Washington Park", "Washington Heights", "Washington Elementary")."""
    g = gazetteer()
    found = []
    i = 0
    while i < len(words):
        code, used = _state_at(words, i)
        if code == "WA" and used == 1 and _names_the_district(words, i):
            code = "DC"  # "Washington , D.C.", "Northeast Washington": the city, not the state
        if code and _starts_place_name(words, i, used):
            i += used + 1
        elif code and i + used < len(words) and is_street_word(words[i + used]):
            i += used + 1  # "Indiana Avenue", "Maryland Drive": a street
        elif code and _after_an_address(words, i):
            i += used  # "the 2400 block of South Pennsylvania", "at 1200 Virginia": a street
        elif code and i + used < len(words) and _names_a_place_in_it(words[i + used]):
            i += used + 1  # "Washington Park", "Virginia Heights", "Washington Elementary": a place named after it
        elif code and (
            used > 1
            or words[i] in g.ap_abbreviations
            or words[i].lower() in g.state_by_name
            or (i and words[i - 1] == ",")
        ):
            found.append((code, i))
            i += used
        else:
            i += 1
    return found


def _after_an_address(words: list[str], i: int) -> bool:
    """Whether the word before ``words[i]`` (a compass word before it skipped) is a house number or the "of" of "the
    2400 block of": an address, whose name is a street's."""
    before = i - 1
    if before >= 0 and words[before].lower() in COMPASS_WORDS:
        before -= 1
    if before < 0:
        return False
    if words[before].isdigit():
        year = 1900 <= int(words[before]) <= 2100 and before > 0 and words[before - 1].lower() in ("in", "since", "by")
        return not year  # not "In 2016 Texas passed"
    return words[before].lower() == "of" and before > 0 and words[before - 1].lower() in ("block", "blocks")


NAMED_PLACE_WORDS = {"park", "heights", "square", "township", "elementary", "middle", "village", "gardens", "terrace"}


def _names_a_place_in_it(word: str) -> bool:
    """Whether ``word``, capitalised after a state's name, makes the two a place's name ("Washington Park")."""
    return word[:1].isupper() and word.lower() in NAMED_PLACE_WORDS


DC_WORDS = {"d.c.", "dc", "d.c"}
DC_QUADRANTS = {"northeast", "northwest", "southeast", "southwest"}


def _names_the_district(words: list[str], i: int) -> bool:
    """Whether "Washington" at words[i] is the city of the District of Columbia: followed by "D.C." (a comma
    between or not) or after one of the District's quadrants ("Northeast Washington")."""
    after = [w.lower() for w in words[i + 1 : i + 3] if w != ","][:1]
    return bool(after and after[0] in DC_WORDS) or (i > 0 and words[i - 1].lower() in DC_QUADRANTS)


def _starts_place_name(words: list[str], i: int, used: int) -> bool:
    """Whether the state written at words[i:i + used] and the word after it form a place the gazetteer knows."""
    end = i + used
    return end < len(words) and " ".join(words[i : end + 1]).lower() in gazetteer().places


def state_votes(words: list[str]) -> Counter:
    """How often each state is named (``state_mentions``)."""
    return Counter(code for code, _ in state_mentions(words))


AGENCY_WORDS = {"police", "fire", "sheriff", "county", "department", "pd", "city"}
PLACE_PREPOSITIONS = {"in", "at", "near", "of", "outside", "from"}
# a district of the city named after it ("Southwest Baltimore", "East Oakland"), never a town of that name
COMPASS_WORDS = {
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "northern",
    "southern",
    "eastern",
    "western",
    "central",
    "downtown",
    "uptown",
}
# a word that begins a place's name with the word after it ("St. Paul", "Fort Worth"): the next word alone is none
NAME_STARTS = {"st.", "st", "saint", "ste.", "fort", "ft.", "mount", "mt.", "port", "new", "san", "santa", "los", "las"}
INCIDENT_NOUNS = {
    "shooting",
    "shootings",
    "fire",
    "blaze",
    "homicide",
    "murder",
    "police",
    "man",
    "woman",
    "teen",
    "boy",
    "girl",
    "home",
    "house",
    "family",
    "officer",
    "officers",
    "crash",
    "stabbing",
}


def known_place(name: str) -> bool:
    """Whether the gazetteer knows ``name`` as a place that is not a state."""
    g = gazetteer()
    words = name.lower().split()
    return bool(words) and words[0] in _place_first_words() and g.state_code(name) is None and bool(g.states_of(name))


@lru_cache(maxsize=None)
def is_common_word(word: str) -> bool:
    """True when WordNet knows ``word`` but never as a place ("Brush", "Standard"; not "Memphis", "Mobile"); a word
    it knows only as a person's name is no common word ("Compton")."""
    from kg_count.resources.wordnet import wordnet

    synsets = [s for s in wordnet().synsets(word.lower()) if s.lexname() != "noun.person"]
    return bool(synsets) and all(s.lexname() != "noun.location" for s in synsets)


COMMON_USE_TAGS = 5  # a sense tagged this often in WordNet's sense-tagged corpus is in common use


@lru_cache(maxsize=None)
def in_common_use(word: str) -> bool:
    """True when WordNet's sense-tagged corpus uses ``word`` at least ``COMMON_USE_TAGS`` times in senses that are
    neither a place nor a person ("Man", "Union"; not "Charlotte", "Mobile" or "Memphis")."""
    from kg_count.resources.wordnet import wordnet

    tags = sum(
        lemma.count()
        for synset in wordnet().synsets(word.lower())
        if synset.lexname() not in ("noun.location", "noun.person")
        for lemma in synset.lemmas()
        if lemma.name().lower() == word.lower()
    )
    return tags >= COMMON_USE_TAGS


def full_saint(name: str) -> str:
    """``St. Paul`` as the gazetteer's main name, ``Saint Paul`` (its DBpedia title; St. Louis keeps its own)."""
    return "Saint " + name[4:] if name.lower().startswith("st. ") else name


STREET_WORDS = {
    "avenue",
    "ave",
    "ave.",
    "street",
    "st",
    "st.",
    "road",
    "rd",
    "rd.",
    "boulevard",
    "blvd",
    "blvd.",
    "drive",
    "dr.",
    "lane",
    "ln",
    "way",
    "parkway",
    "pkwy",
    "highway",
    "hwy",
    "pike",
    "court",
    "ct.",
    "place",
    "terrace",
    "circle",
    "expressway",
    "freeway",
    "turnpike",
    "trail",
    "alley",
}  # "on Baltimore Avenue" names a street, not Baltimore


def is_street_word(word: str) -> bool:
    """Whether ``word``, after a name, makes it a street's: a capitalised street word ("Avenue", "Drive")."""
    return word.lower() in STREET_WORDS and word[:1].isupper()


PLURAL_STREET_WORDS = {f"{word}s" for word in STREET_WORDS if word.isalpha() and len(word) > 3}  # "avenues"
STREET_PAIR_WORDS = 3  # capitalised words of the second street's name a pair ("X and McHenry avenues") may hold


def shares_a_street_word(words: list[str], end: int) -> bool:
    """Whether the words from ``end`` (just after a name) make the name one of two streets written with one plural
    street word: "Baltimore" in "Baltimore and McHenry avenues", "McHenry" in "... McHenry avenues"."""
    if end < len(words) and words[end].lower() in PLURAL_STREET_WORDS:
        return True
    if end >= len(words) or words[end].lower() not in ("and", "&"):
        return False
    for k in range(end + 1, min(end + 2 + STREET_PAIR_WORDS, len(words))):
        if words[k].lower() in PLURAL_STREET_WORDS:
            return k > end + 1
        if not words[k][:1].isupper():
            return False
    return False


def names_a_street(doc, end: int) -> bool:
    """Whether the tokens from ``end`` (just after a place name) make the name a street's ("Baltimore Avenue",
    "Baltimore and McHenry avenues": ``shares_a_street_word``)."""
    if end < len(doc) and is_street_word(doc[end].text):
        return True
    return shares_a_street_word([t.text for t in doc[end : end + 2 + STREET_PAIR_WORDS]], 0)


NEIGHBOURHOOD_WORDS = {"neighborhood", "neighbourhood", "section"}  # "the Lawndale neighborhood"
NEIGHBOURHOOD_OWNERS = {"the", "'s", "’s"}  # "the Juniata section", "Chicago 's Austin neighborhood"


def neighbourhood_names(words: list[str]) -> set[str]:
    """The names the text writes as a neighbourhood, one to three capitalised words between "the" or a possessive
    and a word for a neighbourhood ("the Lawndale neighborhood", "Chicago 's Austin neighborhood", "the Juniata
    section") that the gazetteer knows as a town of its own somewhere: a part of the story's city, not the namesake
    town ("Lawndale", Illinois, in a Chicago story). A name the gazetteer knows only as a part of a city ("Brighton
    Park", Chicago), or files under a city the text names, is left to be read as that city."""
    found = set()
    for end, word in enumerate(words):
        if word.lower() not in NEIGHBOURHOOD_WORDS:
            continue
        for length in (1, 2, 3):
            start = end - length
            if start < 1 or not words[start][:1].isupper():
                break
            if words[start - 1].lower() in NEIGHBOURHOOD_OWNERS:
                found.add(" ".join(words[start:end]))
                break
    if not found:
        return found
    text = f" {' '.join(words).lower()} "
    parts = gazetteer().part_of
    return {
        name
        for name in found
        if any((name.lower(), state) not in parts for state in gazetteer().states_of(name))
        and not any(f" {city} " in text for city in _filing_cities().get(name.lower(), ()))
    }


@lru_cache(maxsize=1)
def _filing_cities() -> dict[str, set[str]]:
    """Each lower-case place name the gazetteer files under another city (``Gazetteer.part_of``) -> those cities."""
    cities: dict[str, set[str]] = {}
    for (name, _), city in gazetteer().part_of.items():
        cities.setdefault(name, set()).add(city)
    return cities


def place_names(doc, neighbourhoods: set[str] | None = None) -> list[tuple[str, int]]:
    """Known place names and where they start: GPE/LOC/FAC entities, the place part of agency names ("Austin Police
    Department"), and capitalised names after a preposition or before an incident noun (one-word ones only when
    WordNet does not know them as common words: "Brush fire" is no place). A compass word before a capitalised name
    is a district of that place ("Southwest Baltimore" is in Baltimore, not Southwest, Pennsylvania) unless the
    whole is a place ("South Bend", "North Charleston"), a word after "St." or "Fort" is no place alone ("St. Paul"
    is not Paul, Idaho), and a name followed by a street word names a street ("on Baltimore Avenue"). A name spaCy
    takes for a person's is a place before an agency word ("Twin Falls police"), or, of two or three words, before
    an incident noun ("Broken Arrow teen"). A name the text writes as a neighbourhood (``neighbourhood_names``) is
    none of them; ``neighbourhoods`` are those names when the caller has them."""
    found = []
    for ent in doc.ents:
        text, start = ent.text, ent.start
        first, *rest = text.split() or [""]
        if first.lower() in COMPASS_WORDS and rest and known_place(" ".join(rest)) and not known_place(text):
            text, start = " ".join(rest), start + 1
        if names_a_street(doc, ent.end) or is_street_word((text.split() or [""])[-1]):
            continue  # "on Baltimore Avenue"; "near West Street" (not Street, Maryland)
        if ent.label_ in ("GPE", "LOC", "FAC") and known_place(text):
            found.append((full_saint(text), start))
        elif ent.label_ == "ORG":
            ent_words = ent.text.split()
            cut = next((i for i, w in enumerate(ent_words) if w.lower() in AGENCY_WORDS), None)
            if cut and known_place(" ".join(ent_words[:cut])):
                found.append((" ".join(ent_words[:cut]), ent.start))
    tokens = list(doc)
    for i, token in enumerate(tokens):
        if not token.text[:1].isupper() or token.ent_type_ in ("GPE", "ORG"):
            continue
        tagged_person = token.ent_type_ == "PERSON"
        before = tokens[i - 1].lower_ if i else ""
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.lower_ in COMPASS_WORDS and following is not None and following.text[:1].isupper():
            continue
        if before in NAME_STARTS:
            continue
        for length in (3, 2, 1):
            span = tokens[i : i + length]
            if len(span) < length or not all(t.text[:1].isupper() for t in span):
                continue
            after = tokens[i + length].lower_ if i + length < len(tokens) else ""
            name = " ".join(t.text for t in span)
            if tagged_person and not (after in AGENCY_WORDS or (length > 1 and after in INCIDENT_NOUNS)):
                continue
            if (
                (before in PLACE_PREPOSITIONS or after in INCIDENT_NOUNS)
                and known_place(name)
                and not names_a_street(doc, i + length)
                and not (length == 1 and is_common_word(name))
            ):
                found.append((full_saint(name), i))
                break
    if neighbourhoods is None:
        neighbourhoods = neighbourhood_names(place_words(doc))
    return [(name, start) for name, start in found if name not in neighbourhoods]


def mentioned_places(doc) -> list[str]:
    """Every place name the document mentions, as spaCy's GPE, LOC and FAC entities, in lower case, each once in
    the order of first mention, "the" left off: the neighbourhoods and districts a question may ask about
    ("Englewood", "Boyle Heights"), whether or not the gazetteer knows them."""
    names: dict[str, None] = {}
    for ent in doc.ents:
        if ent.label_ in ("GPE", "LOC", "FAC"):
            name = " ".join(ent.text.split()).lower().removeprefix("the ")
            if name:
                names.setdefault(name)
    return list(names)


def place_words(doc) -> list[str]:
    """The texts of a spaCy doc's tokens as the place readers take them: a dash glued to a word ("Tenn.–",
    "Ark.--", a tokenizer's miss in "JACKSON , Tenn.– Police ...") left off, so the word reads as a state or a
    place."""
    return [t.text.rstrip("-–—") or t.text for t in doc]


def find_place(
    doc,
    body_start: int,
    votes: Counter | None = None,
    names: list[tuple[str, int]] | None = None,
    byline: int | None = None,
    words: list[str] | None = None,
) -> Place | None:
    """Choose the incident's place in an annotated spaCy doc; ``body_start`` is the first body token;
    ``votes`` (``state_votes``), ``names`` (``place_names``), ``byline`` (``bylines.byline_start``: the token
    where the title's publisher byline begins) and ``words`` (``place_words``) are computed when not given. The
    byline names no place of the incident.

    Order of preference: a dateline, "City , State" phrases, then place names of the title and text
    (title ones weigh more, towns before counties) with the state the text names.
    """
    words = place_words(doc) if words is None else words
    byline = byline_start(words, body_start) if byline is None else byline
    votes = state_votes(words) if votes is None else votes
    found = dateline(words[body_start : body_start + settings().extraction.dateline_words])
    if found and found.city and found.state:
        return found
    if found and found.city:
        state = resolve_state(found.city, votes)
        if state:
            return Place(found.city, state, "dateline")
    pairs = Counter((city, state) for city, state, at in city_state_mentions(words) if not byline <= at < body_start)
    if pairs:
        (city, state), _ = max(pairs.items(), key=lambda item: (not is_county(item[0][0]), item[1]))
        return Place(city, state, "city, state")
    candidates: Counter = Counter()
    for name, start in place_names(doc) if names is None else names:
        if byline <= start < body_start:
            continue
        candidates[name.title() if name.isupper() else name] += 3 if start < body_start else 1
    ranked = sorted(candidates.items(), key=lambda item: (is_county(item[0]), -item[1]))
    for city, _ in ranked:
        state = resolve_state(city, votes)
        if state:
            return Place(city, state, "named place")
    if votes:
        state = votes.most_common(1)[0][0]
        return Place(sole_city(state), state, "named state")
    return None
