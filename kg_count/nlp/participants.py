"""People in a document (names, ages, roles, statuses) and the killed, injured and fired counts it states."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Sequence

from kg_count.geography import gazetteer
from kg_count.nlp.bylines import byline_start
from kg_count.nlp.events import EventMention
from kg_count.nlp.numbers import (
    RELATIVE_PRONOUNS,
    count_people,
    is_person_noun,
    multipliers_of,
    of_objects,
    parse_number,
)
from kg_count.nlp.headline_counts import HeadlineCount, headline_counts
from kg_count.nlp.places import COMPASS_WORDS, STREET_WORDS, is_common_word, known_place, names_a_street
from kg_count.settings import settings

INJURY_LEMMAS = {"injure", "wound", "hurt", "hospitalize", "injured", "wounded"}
INJURED_EXPLICITLY = "injured explicitly"
HARM_NOUNS = {"wound", "injury"}
# verbs whose subject a harm noun happens to: "suffered gunshot wounds" (object), "taken to a hospital with
# gunshot wounds" (with); "found with gunshot wounds" is not among them (said of the dead as often)
HARM_OBJECT_VERBS = {"suffer", "sustain", "receive", "treat"}
FATAL_WORDS = {"fatal", "mortal", "deadly", "lethal", "fatally"}
SHOOTING_LEMMAS = {"shoot", "shooting", "shot", "gunshot", "gunfire"}  # the stories a hospital condition is read in
CONDITION_WORDS = {"stable", "critical", "serious", "fair", "good", "grave", "guarded"}
DEATH_LEMMAS = {"die", "succumb", "pronounce", "dead", "death"}
DYING_VERBS = {"die", "succumb"}  # verbs whose subject is the dead ("who died", "where he later died")
SHARE_DEATH_VERBS = {"die", "kill", "succumb"}  # "two of them died", "one of them was killed"
DECLARING_VERBS = {"pronounce", "declare"}  # "the coroner pronounced John Smith dead", the parser's "dead" an advcl
FINDING_VERBS = {"find", "discover", "leave", "see"}  # "found a man shot": the clause's subject is the one shot
NUMBER_AFTER_DEPS = {"npadvmod", "advmod", "attr", "oprd", "nummod"}  # "wounded 7": a number after a verb, no object
HARM_WITH_VERBS = {"take", "transport", "rush", "hospitalize", "treat", "admit", "airlift", "fly", "arrive", "list"}
HARM_PREPOSITION_VERBS = {  # "taken to a hospital with gunshot wounds", "is recovering from his injuries"
    "with": HARM_WITH_VERBS,
    "from": {"recover"},
    "for": {"treat", "hospitalize"},
}
STATUS_OF_TYPE = {"killing": "killed", "injuring": "injured", "job_firing": "fired"}
SUSPECT_CUES = {
    "arrest",
    "charge",
    "suspect",
    "custody",
    "book",
    "jail",
    "accuse",
    "indict",
    "plead",
    "convict",
    "sentence",
    "wanted",
    "gunman",
    "shooter",
    "surrender",
    "detain",
}
SPEECH_VERBS = {"say", "tell", "add", "state", "confirm", "announce", "explain"}
BYSTANDER_WORDS = {
    "reporter",
    "correspondent",
    "editor",
    "writer",
    "anchor",
    "photographer",
    "journalist",
    "columnist",
    "officer",
    "spokesman",
    "spokeswoman",
    "spokesperson",
    "sergeant",
    "sgt",
    "lieutenant",
    "lt",
    "detective",
    "chief",
    "sheriff",
    "captain",
    "capt",
    "deputy",
    "trooper",
    "corporal",
    "cpl",
    "investigator",
    "agent",
    "commissioner",
    "superintendent",
    "mayor",
    "attorney",
    "prosecutor",
    "lawyer",
    "judge",
    "coroner",
    "examiner",
    "councilman",
    "councilwoman",
    "senator",
    "governor",
    "pastor",
    "reverend",
    "rev",
    "neighbor",
    "witness",
    "mother",
    "father",
    "mom",
    "dad",
    "sister",
    "brother",
    "aunt",
    "uncle",
    "cousin",
    "grandmother",
    "grandfather",
    "wife",
    "husband",
    "girlfriend",
    "boyfriend",
    "fiancee",
    "friend",
    "relative",
    "parent",
}
PARTICIPATING_ROLES = ("victim", "suspect")  # the roles of people who take part, not those who tell of it
NAME_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}
PATIENT_DEPS = ("nsubjpass", "nsubj:pass", "dobj", "obj")
IDENTIFYING_VERBS = {"identify", "name"}
DEAD_WORDS = {"deceased", "dead"}  # the dead, as the ones identified: "the deceased were identified as X"
FACILITY_WORDS = {
    "hospital",
    "center",
    "centre",
    "clinic",
    "school",
    "church",
    "county",
    "police",
    "department",
    "university",
    "college",
    "station",
    "mall",
    "apartments",
    "hotel",
    "motel",
    "restaurant",
    "news",
    "tv",
    "radio",
    "township",
    "prison",
    "memorial",
}  # a name holding one of these (or ending in a street word) names a place, not a person: "Stroger Hospital"
SURNAME_STREET_WORDS = {"lane", "way", "court", "place", "circle", "trail", "pike", "terrace"}  # "Jamie Lane"
STREET_ENDINGS = STREET_WORDS - SURNAME_STREET_WORDS  # the last words that make a name a street's
STATISTICS_CUES = re.compile(
    r"\b(this year|last year|so far|since|per year|a year|each year|annually|in 20\d\d|"
    r"statistics|average|nationwide|records show)\b"
)
# a round-up of several incidents: its totals are no one incident's counts ("4 killed, 11 wounded in city shootings
# Tuesday", "in weekend shootings across Chicago", "were wounded in two shootings")
ROUND_UP_CUES = re.compile(
    r"\b((separate|several|multiple|weekend|overnight|citywide|city|unrelated|"
    r"two|three|four|five|six|seven|eight|nine|ten|\d+) shootings|shootings (across|around|throughout|citywide))\b"
)


@dataclass
class Participant:
    """A person: names, age, role (victim, suspect, bystander: one who reports or tells, other: not known),
    status (killed, injured, fired, unharmed), mentions."""

    full_name: str
    first_name: str
    last_name: str
    age: int | None = None
    role: str = "other"
    status: str = "unharmed"
    mentions: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Counts:
    """How many people a document reports killed, injured and fired."""

    killed: int
    injured: int
    fired: int


def normalised_name(text: str) -> str:
    """A person's name as written, with tokenised hyphens joined ("Rojo - Rivas" -> "Rojo-Rivas") and typographic
    apostrophes made plain ("O’Neal" -> "O'Neal")."""
    return re.sub(r"\s*-\s*", "-", text.replace("’", "'").replace("‘", "'"))


def _name_words(name: str) -> list[str]:
    """The words of a name that hold a letter, without commas and suffixes ("Jr.", "III")."""
    return [w for w in name.replace(",", " ").split() if any(c.isalpha() for c in w) and w.lower() not in NAME_SUFFIXES]


def _name_parts(name: str) -> tuple[str, str]:
    words = _name_words(name)
    return (words[0], words[-1]) if words else ("", "")


def _given_names(name: str) -> set[str]:
    """The words of a name before its last name, lower-cased and without a trailing full stop ("Superintendent
    Bruce Thomas": superintendent, bruce)."""
    return {w.lower().rstrip(".") for w in _name_words(name)[:-1]}


def _person_key(people: dict, name: str, last: str) -> str:
    """The key in ``people`` of the person ``name`` names: the first one of that last name whose given names agree
    with it (a lone surname agrees with anyone; "Josh" agrees with "Joshua", "R." with "Russell"), or a new key when
    the given names differ ("Kevin Johnson" beside "Edward Johnson": two people of one family)."""
    given = _given_names(name)
    keys = [k for k, person in people.items() if person.last_name.lower() == last.lower()]
    for key in keys:
        theirs = _given_names(people[key].full_name)
        if not given or not theirs or any(a.startswith(b) or b.startswith(a) for a in given for b in theirs):
            return key
    return last.lower() if not keys else f"{last.lower()} {len(keys)}"


def _age_near(doc, start: int, end: int) -> int | None:
    """An age written "NAME , 23 ," after a name or "23-year-old NAME" before it."""
    after = doc[end : end + 3]
    if len(after) >= 2 and after[0].text == "," and after[1].like_num:
        value = parse_number(after[1].text)
        if value is not None and 0 < value < settings().extraction.max_age:
            return value
    before = doc[max(0, start - 7) : start].text.replace(" - ", "-").replace(" ", "-")
    match = re.search(r"(\d{1,3})-years?-old", before)
    if match and 0 < int(match[1]) < settings().extraction.max_age:
        return int(match[1])
    return None


def _typed(token, events_by_token: dict[int, EventMention]) -> EventMention | None:
    event = events_by_token.get(token.i)
    return event if event is not None and event.event_type in STATUS_OF_TYPE else None


def _event_said_of_subject(verb, events_by_token: dict[int, EventMention]) -> EventMention | None:
    """The typed event a verb says of its subject or object without being one: its complement ("was found dead",
    "were pronounced dead", "is dead"), "among the dead", or a verb joined to it that has no subject of its own
    ("was taken to a hospital but died")."""
    for child in verb.children:
        if (
            child.dep_ in ("oprd", "acomp", "xcomp", "attr")
            or verb.lemma_ == "be"
            or (child.dep_ == "ccomp" and child.pos_ == "ADJ")  # "found his stepfather , James Willcoxson , dead"
            or (child.dep_ == "advcl" and child.pos_ == "ADJ" and verb.lemma_.lower() in DECLARING_VERBS)
        ):
            event = _typed(child, events_by_token)
            if event is not None:
                return event
        if child.dep_ == "prep" and child.lower_ == "among":
            event = next((_typed(c, events_by_token) for c in child.children if c.dep_ == "pobj"), None)
            if event is not None:
                return event
        if (
            child.dep_ == "conj"
            and child.pos_ == "VERB"
            and not any(c.dep_.startswith("nsubj") for c in child.children)
        ):
            event = _typed(child, events_by_token)
            if event is not None:
                return event
    return None


def _one_of(token):
    """The group a subject is said to be one of ("X was one of four teenagers shot": "teenagers"), or None."""
    if token.dep_ != "nsubj" or token.head.lemma_ != "be":
        return None
    for one in token.head.children:
        if one.dep_ == "attr" and one.lower_ == "one":
            return next(iter(of_objects(one)), None)
    return None


def _relative_clause_event(token, events_by_token: dict[int, EventMention]) -> EventMention | None:
    """The typed event a relative clause on ``token`` says happened to it: its relative pronoun is the passive
    subject ("who was shot", "who was pronounced dead") or the subject of "die" ("who died"); never the active
    subject of a harm ("who shot the man" did it) or of "be" ("who was distraught after a boy was shot")."""
    for clause in (c for c in token.children if c.dep_ == "relcl"):
        subject = next(
            (c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in RELATIVE_PRONOUNS), None
        )
        if subject is None or (subject.dep_ == "nsubj" and clause.lemma_ not in DYING_VERBS):
            continue
        event = _typed(clause, events_by_token) or _event_said_of_subject(clause, events_by_token)
        if event is not None:
            return event
    return None


def _patient_event(token, events_by_token: dict[int, EventMention]) -> EventMention | None:
    """The typed event whose patient the token is, following the head chain twice: the passive subject or object
    of the event ("was shot", "killed him"), the subject of "die" or of a verb that says the event of it ("was
    found dead"), or the object of "of" after an event noun ("the fatal slaying of Jaevelle Swift"); or what a
    relative clause says of the token ("Smith , who was pronounced dead": ``_relative_clause_event``)."""
    if (event := _relative_clause_event(token, events_by_token)) is not None:
        return event
    node = token
    for _ in range(3):
        if node.dep_ in PATIENT_DEPS or (node.dep_ == "nsubj" and node.head.lemma_ in ("die", "be")):
            event = _typed(node.head, events_by_token) or _event_said_of_subject(node.head, events_by_token)
            if event is not None:
                return event
        if node.dep_ == "pobj" and node.head.lower_ == "of" and node.head.head.pos_ == "NOUN":
            event = _typed(node.head.head, events_by_token)
            if event is not None:
                return event
        if (group := _one_of(node)) is not None:  # "X , 18 , was one of four teenagers shot"
            event = next((_typed(c, events_by_token) for c in group.children if c.dep_ in ("acl", "relcl")), None)
            if event is not None:
                return event
        if node.head is node:
            break
        node = node.head
    return None


def is_bystander(ent) -> bool:
    """True when a PERSON mention names someone who tells or reports rather than takes part: a title or
    kinship word just before it or in apposition ("spokesman John Smith", "his mother , Jane Smith"),
    a byline ("By John Smith") or "according to John Smith"."""
    doc = ent.doc
    before = [
        t.lemma_.lower().rstrip(".") for t in doc[max(ent.sent.start, ent.start - 3) : ent.start] if not t.is_punct
    ]
    if before and (
        before[-1] in BYSTANDER_WORDS
        or (ent.start == ent.sent.start + 1 and before[-1] == "by")
        or " ".join(before).startswith("accord to")
        or "according to" in ent.sent.text.lower()
        and ent.start - ent.sent.start < 5
    ):
        return True
    root = ent.root
    if root.dep_ == "appos" and root.head.lemma_.lower() in BYSTANDER_WORDS:
        return True
    return any(c.dep_ == "appos" and c.lemma_.lower() in BYSTANDER_WORDS for c in root.children)


MISREAD_NAME_LABELS = ("ORG", "GPE", "FAC", "PRODUCT", "NORP", "LOC", "WORK_OF_ART")
PERSON_NOUNS = {
    "man",
    "woman",
    "boy",
    "girl",
    "teen",
    "teenager",
    "child",
    "toddler",
    "victim",
    "suspect",
    "son",
    "daughter",
    "father",
    "mother",
    "husband",
    "wife",
    "brother",
    "sister",
    "student",
    "resident",
}


def is_person_mention(doc, ent, events_by_token: dict[int, EventMention] | None = None) -> bool:
    """Whether an entity names a person: a PERSON entity, or two or three capitalised words the small
    model labelled otherwise ("17-year-old Dontay Jordan" as a facility, "Mowayne McKay , 33 ," as a
    place, "a Tullahoma boy , Jakob Weeks ," as an organisation) that an age sits right beside, that
    stands in apposition to a word for a person, that identifies someone ("the victim was identified as X") or
    that is the patient of a typed event of ``events_by_token`` ("Ronnie Daniels had been shot"), and the gazetteer
    does not know as a place."""
    if not ent.text[:1].isupper():
        return False
    if ent.label_ == "PERSON":
        return True
    words = ent.text.split()
    if ent.label_ not in MISREAD_NAME_LABELS or not 2 <= len(words) <= 3:
        return False
    if not all(w[:1].isupper() and w.replace("’", "").replace("'", "").replace("-", "").isalpha() for w in words):
        return False
    after = doc[ent.end : ent.end + 2]
    aged_after = len(after) == 2 and after[0].text == "," and after[1].like_num
    aged_before = ent.start > 0 and doc[ent.start - 1].lower_ == "old"
    aged = (aged_after or aged_before) and _age_near(doc, ent.start, ent.end) is not None
    person_apposition = ent.root.dep_ == "appos" and ent.root.head.lemma_.lower() in PERSON_NOUNS
    patient = (
        events_by_token is not None
        and _patient_event(ent.root, events_by_token) is not None
        and _reads_as_a_name(words)
    )
    if not (aged or person_apposition or patient or _identified_as(ent.root) is not None):
        return False

    return not known_place(ent.text)


def unlabelled_person_names(doc, events_by_token: dict[int, EventMention]) -> list:
    """Two or three capitalised proper nouns that no entity covers (or only a one-word entity not a person's: "Daneka
    Lotts" with "Lotts" labelled an organisation) and that are the patient of a typed event ("Jatarius Tolbert was
    shot and killed", which the small model does not mark as a name), identify someone ("police identified the
    boy as Melky Rodriguez") or have an age right after them ("Heaven Mayo , 24 , Justin King , 24 , ... were
    transported"), unless the gazetteer knows them as a place."""

    covered = {i for ent in doc.ents if ent.label_ == "PERSON" or len(ent) > 1 for i in range(ent.start, ent.end)}
    spans = []
    for token in doc:
        if token.pos_ != "PROPN" or token.dep_ == "compound" or not token.text[:1].isupper():
            continue
        parts = [c for c in token.lefts if c.dep_ == "compound" and c.pos_ == "PROPN" and c.text[:1].isupper()]
        start = min((c.i for c in parts), default=token.i)
        span = doc[start : token.i + 1]
        if not 2 <= len(span) <= 3 or any(i in covered for i in range(span.start, span.end)):
            continue
        if not all(t.text[:1].isupper() and t.is_alpha for t in span):
            continue
        if known_place(span.text):
            continue
        if _patient_event(token, events_by_token) is not None:
            spans.append(span)
            continue
        after = doc[span.end : span.end + 2]
        aged = len(after) == 2 and after[0].text == "," and after[1].like_num
        named = (aged and _age_near(doc, span.start, span.end) is not None) or _identified_as(token) is not None
        if named and _reads_as_a_name([t.text for t in span]):
            spans.append(span)
    return spans


def _reads_as_a_name(words: list[str]) -> bool:
    """Whether capitalised words the parser did not take for a person's can be one's: the first no common English
    word ("Aggravated Robbery", "Club Dew Drop"; ``places.is_common_word``), none a state ("Las Vegas Nevada") or
    "Co" ("Wagoner Co"). Facilities' names are left off later, with every mention's (``_names_no_person``)."""
    g = gazetteer()
    if is_common_word(words[0]):
        return False
    return not any(g.state_code(w) or w.lower().rstrip(".") == "co" for w in words)


def _names_a_facility(name: str) -> bool:
    """Whether a name the parser took for a person's names a building, a street, a news outlet or a district
    ("Vanderbilt Hospital", "W. William Cannon Dr.", "Toledo News", "West Duluth")."""
    words = [w.lower() for w in name.split()]
    return (
        bool(set(words) & FACILITY_WORDS) or words[-1] in STREET_ENDINGS or "st." in words or words[0] in COMPASS_WORDS
    )


def _names_no_person(doc, name: str, end: int) -> bool:
    """Whether a name ending before token ``end`` names a place rather than a person: by its own words
    (``_names_a_facility``) or the word after it, a street's ("Baltimore Avenue") or a building's ("Ben Taub
    Hospital")."""
    return _names_a_facility(name) or names_a_street(doc, end) or (end < len(doc) and doc[end].lower_ in FACILITY_WORDS)


def _identified_one(token):
    """The word for the one a name identifies ("identified the man as X", "the victims were identified as X and Y":
    "man", "victims"), or None when the name does not stand in such a phrase."""
    node = token
    while node.dep_ in ("conj", "appos") and node.head is not node:
        node = node.head
    if node.dep_ != "pobj" or node.head.lower_ != "as":
        return None
    verb = node.head.head
    for _ in range(4):  # "identified the man killed in a shooting as X", "as" parsed under "shooting"
        if verb.lemma_ in IDENTIFYING_VERBS or verb.head is verb:
            break
        verb = verb.head
    if verb.lemma_ not in IDENTIFYING_VERBS:
        return None
    if verb.dep_ == "acl":
        return verb.head  # "the child , identified as X , was taken to a hospital"
    return next((c for c in verb.children if c.dep_ in ("dobj", "obj", "nsubjpass", "nsubj:pass")), None)


def _identified_as(token) -> str | None:
    """The role of a name that identifies someone (``_identified_one``, ``_identified_role``), or None."""
    return _identified_role(_identified_one(token))


def _identified_role(identified) -> str | None:
    """The role the word for the one a name identifies gives the name: suspect when a suspect, victim when a person,
    a pronoun or the dead ("the deceased were identified as X"); None otherwise or when there is no such word."""
    if identified is None:
        return None
    word = identified.lemma_.lower()
    if word in SUSPECT_CUES:
        return "suspect"
    person = identified.pos_ == "PRON" or word in PERSON_NOUNS or word in ("victim", "old")  # "the 15-year-old"
    return "victim" if person or word in DEAD_WORDS else None


def _identified_event(identified, events_by_token: dict[int, EventMention]) -> EventMention | None:
    """The typed event said of the one a name identifies (``_identified_one``): the word itself ("the deceased were
    identified as X") or what describes it ("the slain man", "the man killed Saturday", "the boy who was shot"), or
    None."""
    described = [c for c in identified.children if c.dep_ in ("amod", "acl", "relcl")]
    for word in (identified, *described):
        if (event := _typed(word, events_by_token)) is not None:
            return event
    return None


def _resolve_pronoun_patients(doc, events_by_token: dict[int, EventMention], people: dict, bystanders: set) -> None:
    """Give "he" or "she", the patient of a typed event ("He died from his injuries"), to the person named last
    before it, within the two sentences before: a victim with that status. Nothing when that person tells rather
    than takes part (a bystander), is a suspect, or is named by one word only or by a place's name."""
    mentions = sorted((start, key) for key, person in people.items() for start, _ in person.mentions)
    sentence_of: dict[int, int] = {}  # numbered when a pronoun is first a patient: most documents have none
    for token in doc:
        if token.lower_ not in ("he", "she", "him") or not mentions or token.i < mentions[0][0]:
            continue
        event = _patient_event(token, events_by_token)
        if event is None or event.event_type not in ("killing", "injuring"):
            continue
        start, key = max(m for m in mentions if m[0] < token.i)
        person = people[key]
        sentence_of = sentence_of or {t.i: n for n, sent in enumerate(doc.sents) for t in sent}
        if sentence_of[token.i] - sentence_of[start] > 2 or key in bystanders or person.role == "suspect":
            continue
        if len(person.full_name.split()) < 2 or known_place(person.full_name):
            continue  # a lone word or a place's name the parser took for a person ("Lawton", "Wichita Falls")
        person.role = "victim"
        if person.status != "killed":
            person.status = STATUS_OF_TYPE[event.event_type]


def _before_of(doc, ent):
    """A misread entity cut before its "of" ("Colby Fouch of West Point", labelled an organisation, as "Colby
    Fouch"); the entity itself when it is a PERSON's or holds no "of"."""
    from spacy.tokens import Span

    if ent.label_ == "PERSON":
        return ent
    cut = next((t.i for t in ent[1:] if t.lower_ == "of"), None)
    return ent if cut is None else Span(doc, ent.start, cut, label=ent.label_)


def _surname_mentions(doc, people: dict, taken: set[int]) -> list:
    """One-word mentions of a named person's last name that no person mention covers: the parser labels a lone
    surname otherwise often ("Fire officials pronounced Lynch dead", "Lynch" as an organisation)."""
    return [
        doc[t.i : t.i + 1]
        for t in doc
        if t.i not in taken and t.pos_ == "PROPN" and t.dep_ != "compound" and t.text[:1].isupper()
        if t.lower_ in people and len(people[t.lower_].full_name.split()) >= 2
    ]


def _read_mention(ent, person: Participant, events_by_token: dict[int, EventMention]) -> bool:
    """Read a person's role and status from one mention: the patient of a typed event is its victim (or was
    fired), a name identifying someone takes their role ("the deceased were identified as X": a killed victim),
    and a sentence with a suspect's or victim's word gives those roles to one not yet known. Return whether the
    mention names a reporter or official (``is_bystander``)."""
    event = _patient_event(ent.root, events_by_token)
    identified = _identified_one(ent.root) if event is None else None
    role = _identified_role(identified)
    if role is not None:
        event = _identified_event(identified, events_by_token) if role == "victim" else None
        if event is None:
            if person.role == "other":
                person.role = role
            return False
    lemmas = {t.lemma_.lower() for t in ent.sent}
    if event is not None:
        status = STATUS_OF_TYPE[event.event_type]
        if person.status != "killed":
            person.status = status
        if status != "fired":
            person.role = "victim"
    elif is_bystander(ent):
        return True
    elif person.role == "other" and lemmas & SUSPECT_CUES and ent.root.head.lemma_ not in SPEECH_VERBS:
        person.role = "suspect"
    elif person.role == "other" and "victim" in lemmas and ent.root.head.lemma_ not in SPEECH_VERBS:
        person.role = "victim"
    return False


def find_participants(doc, events: Sequence[EventMention]) -> list[Participant]:
    """Group PERSON mentions by last name into participants and read their age, role and status.

    A person whose mentions are never the patient of a typed event and who is named as a reporter,
    official or relative somewhere (``is_bystander``) gets the role "bystander"."""
    events_by_token = {e.start: e for e in events if e.event_type}
    people: dict[str, Participant] = {}
    bystanders: set[str] = set()
    spans = (_before_of(doc, ent) for ent in doc.ents)
    mentions = [span for span in spans if is_person_mention(doc, span, events_by_token)]
    for ent in sorted(mentions + unlabelled_person_names(doc, events_by_token), key=lambda span: span.start):
        name = normalised_name(ent.text)
        first, last = _name_parts(name)
        if not last or _names_no_person(doc, name, ent.end):
            continue
        key = _person_key(people, name, last)
        person = people.get(key)
        if person is None and known_place(name):
            continue  # "Bluefield", "Wichita Falls": a place the parser took for a person
        if person is None:
            person = people[key] = Participant(name, first, last)
        elif len(name.split()) > len(person.full_name.split()):
            person.full_name, person.first_name = name, first
        person.mentions.append((ent.start, ent.end))
        person.age = person.age or _age_near(doc, ent.start, ent.end)
        if _read_mention(ent, person, events_by_token):
            bystanders.add(key)
    taken = {i for person in people.values() for start, end in person.mentions for i in range(start, end)}
    for ent in _surname_mentions(doc, people, taken):
        person = people[ent.text.lower()]
        person.mentions.append((ent.start, ent.end))
        if _read_mention(ent, person, events_by_token):
            bystanders.add(ent.text.lower())
    for person in people.values():
        person.mentions.sort()
    _resolve_pronoun_patients(doc, events_by_token, people, bystanders)
    for key in bystanders:
        if people[key].status == "unharmed":
            people[key].role = "bystander"
    return [p for p in people.values() if len(p.full_name.split()) >= 2 or p.role in PARTICIPATING_ROLES]


def _patients(token, skip: range = range(0)) -> list:
    """The noun phrases an event token says something happened to: for a noun, the people it is a compound of
    ("four shooting victims") or its multiplier ("a quadruple shooting"); a relative pronoun stands for the noun
    its clause describes ("seven men who were shot"); a headline's bare participle has its subject as patient
    ("7 men shot at house"). An object at a token of ``skip`` (a title's byline: "4 teens shot - WALB.com") is
    none."""
    if token.pos_ in ("NOUN", "PROPN"):
        if (holder := _harm_holder(token)) is not None:  # "two others sustained injuries"
            return _subjects(holder)
        if token.lower_ == "shot":  # a headline's "Five shot" read as a noun: a number above one before "shot"
            numbers = [c for c in token.children if c.dep_ == "nummod" and (parse_number(c.text) or 0) > 1]
            if numbers:
                return numbers
        multiplier = multipliers_of(token)
        if multiplier:
            return multiplier
        of_whom = [
            o
            for o in of_objects(token)
            if o.dep_ == "pobj" and o.ent_type_ not in ("DATE", "TIME") and _names_people(o) and _whole(o, token)
        ]
        if of_whom:
            return of_whom  # "the shooting of two brothers", "Fresno shooting of 5"
        if token.dep_ == "compound" and token.head.pos_ == "NOUN" and is_person_noun(token.head.lemma_.lower()):
            return [token.head]
        return []
    if token.pos_ == "ADJ":
        if (token.dep_ == "oprd" or token.dep_ == "advcl" and token.head.lemma_.lower() in DECLARING_VERBS) and any(
            c.dep_ in ("dobj", "obj") for c in token.head.children
        ):
            return [c for c in token.head.children if c.dep_ in ("dobj", "obj")]  # "left two people dead"
        if token.dep_ in ("acomp", "attr", "oprd") or token.head.lemma_ == "be":
            return [_antecedent(c) for c in token.head.children if c.dep_ in ("nsubj", "nsubjpass")]
        if token.dep_ == "amod":
            return [token.head]
        number = [c for c in token.children if c.dep_ in ("nummod", "npadvmod", "nsubj")]
        if number:
            return number
        previous = token.doc[token.i - 1] if token.i else None
        return [previous] if previous is not None and previous.like_num else []
    if token.pos_ in ("VERB", "AUX"):
        return _verb_patients(token, skip)
    return []


def _names_people(noun) -> bool:
    """Whether a noun phrase's head names people: a number, a person's name or a person noun."""
    if noun.like_num:
        return noun.ent_type_ not in ("DATE", "TIME", "MONEY", "CARDINAL") or (parse_number(noun.text) or 1000) < 100
    return noun.ent_type_ == "PERSON" or noun.pos_ == "NOUN" and is_person_noun(noun.lemma_.lower())


def _whole(noun, event) -> bool:
    """Whether the parse holds all of the people a noun phrase after an event noun names: not a coordination it
    lost the second half of ("deaths of Long Beach woman and 4-year - old daughter", the daughter parsed apart), nor a
    lone person after a plural event ("the deaths of woman")."""
    if any(c.dep_ == "cc" for c in noun.children) and not any(c.dep_ == "conj" for c in noun.children):
        return False
    return not (event.tag_ == "NNS" and count_people(noun) == 1)


def _antecedent(subject):
    """The noun a relative pronoun subject stands for ("Smith , who was pronounced dead": Smith); any other
    subject itself."""
    verb = subject.head
    if subject.lower_ in RELATIVE_PRONOUNS and verb.dep_ == "relcl" and verb.head.pos_ in ("NOUN", "PROPN"):
        return verb.head
    return subject


def _verb_patients(token, skip: range) -> list:
    """The patients of a verb of harm (``_patients``): its passive subject, the subject of "die" or "succumb", its
    objects (not at ``skip``), a bare participle's counted subject ("7 men shot at house") or its subject where a
    "by" or a verb of finding makes it passive ("Teen shot by uncle", "found a man shot to death"), a relative
    clause's noun, a number before it. A verb joined to one of arrest or charge does not take its patients: those
    are the suspects."""
    passive = [c for c in token.children if c.dep_ in ("nsubjpass", "nsubj:pass")]
    if passive and token.dep_ == "relcl" and token.head.pos_ in ("NOUN", "PROPN"):
        passive = [token.head if c.lower_ in RELATIVE_PRONOUNS else c for c in passive]
    if passive:
        return passive
    if token.lemma_ in ("die", "perish", "succumb"):
        return [c for c in token.children if c.dep_ == "nsubj"]
    objects = [c for c in token.children if c.dep_ in ("dobj", "obj") and c.i not in skip]
    if objects:
        return objects
    if token.tag_ in ("VBN", "VBD") and not any(c.dep_ in ("aux", "auxpass") for c in token.children):
        counted = [c for c in token.children if c.dep_ == "nsubj" and any(n.dep_ == "nummod" for n in c.children)]
        if counted:  # "7 men shot at house", "... and three others wounded"
            return counted
        if any(c.dep_ == "agent" for c in token.children) or (
            token.dep_ in ("ccomp", "xcomp") and token.head.lemma_.lower() in FINDING_VERBS
        ):  # "Teen shot by uncle", "they found a man shot to death"
            subjects = [c for c in token.children if c.dep_ == "nsubj" and c.pos_ in ("NOUN", "PROPN")]
            if subjects:
                return subjects
    if token.dep_ == "conj" and token.head.pos_ == "VERB" and token.head.lemma_.lower() not in SUSPECT_CUES:
        own = [c for c in _subjects(token) if c.like_num or c.pos_ in ("NOUN", "PROPN")]
        if own and token.tag_ == "VBN" and not any(c.dep_ in ("aux", "auxpass") for c in token.children):
            return own  # "Four people were killed and one injured": the one, not the four
        before = [c for c in token.children if c.i == token.i - 1 and c.like_num and c.dep_ in NUMBER_AFTER_DEPS]
        if before and token.tag_ == "VBN":
            return before  # "left one person dead and six injured": the six
        return _patients(token.head, skip)  # not "2 women arrested after student shot and killed", misparsed
    if (
        token.dep_ in ("acl", "relcl")
        and token.head.pos_ in ("NOUN", "PROPN", "PRON")
        and not any(c.dep_ == "nsubj" for c in token.children)
    ):
        return [token.head]  # "a man shot on Friday"; not "two officers who shot a man", who did it
    subjects = [c for c in token.children if c.dep_ == "nsubj" and c.like_num]
    if subjects:
        return subjects
    following = [c for c in token.children if c.i == token.i + 1 and c.like_num and c.dep_ in NUMBER_AFTER_DEPS]
    if following:
        return following  # a headline's "killed 1 , wounded 7"
    previous = token.doc[token.i - 1] if token.i else None
    if previous is not None and previous.like_num:
        return [previous]
    return []


def _subjects(verb) -> list:
    """The subjects of ``verb`` that stand for people: not a relative pronoun ("a woman who was in critical
    condition has now died" says nothing of who lived) and not an age after a name ("Tobiasz Cudnik , 32 were
    all transported")."""
    return [
        c
        for c in verb.children
        if c.dep_ in ("nsubj", "nsubjpass")
        and c.lower_ not in RELATIVE_PRONOUNS
        and not (c.like_num and c.i >= 2 and c.nbor(-1).text == "," and c.nbor(-2).pos_ == "PROPN")
    ]


def _harm_holder(token):
    """The verb whose subject the harm noun ``token`` ("wounds", "injuries") happened to, when that subject lived:
    its object's verb when that verb is one of suffering (``HARM_OBJECT_VERBS``), or the verb of care, transport or
    recovery its "with", "for" or "from" depends on (``HARM_PREPOSITION_VERBS``). None otherwise, and where the wound
    is fatal, the verb's words tell of a death ("... and died", "where he died") or its subject is a pronoun ("He
    suffered a gunshot wound" is said of the dead as often as of the living)."""
    if token.lemma_.lower() not in HARM_NOUNS or any(c.lower_ in FATAL_WORDS for c in token.children):
        return None
    if token.dep_ in ("dobj", "obj") and token.head.lemma_.lower() in HARM_OBJECT_VERBS:
        holder = token.head
    elif token.dep_ == "pobj" and token.head.head.lemma_.lower() in HARM_PREPOSITION_VERBS.get(token.head.lower_, ()):
        holder = token.head.head
    else:
        return None
    subjects = _subjects(holder)
    if not subjects or any(c.pos_ == "PRON" for c in subjects):
        return None
    if _tells_of_death(holder):
        return None
    return holder


def _tells_of_death(verb) -> bool:
    """Whether the words of ``verb``'s phrase tell of a death ("... and died", "where he succumbed")."""
    return any(word.lemma_.lower() in DEATH_LEMMAS for word in verb.subtree)


@dataclass(frozen=True)
class CountStatement:
    """A number of people a typed event mention says something happened to: the status ("killed",
    "injured", "fired" or INJURED_EXPLICITLY), the count (None: a typed event without a number), the
    sentence, the event's lemma, whether the sentence is about statistics, the token index of the patient it
    counts (None for a headline's count) and whether the text tells that patient apart from another one harmed
    ("another man was wounded", "two others", "was also shot")."""

    status: str
    value: int | None
    sentence: int
    lemma: str
    statistics: bool
    patient: int | None = None
    another: bool = False


def _fatal_share(token) -> int | None:
    """The number of a shooting's victims it says died: a number after the verb, in its sentence, that
    ``fatally`` depends on ("were shot, one fatally"; "two of them fatally"), that is "N of them" who died
    ("four men were shot and two of them died") or that a killing participle the verb governs counts ("shot four
    people, killing one"); None when it says none."""
    if token.lemma_.lower() not in ("shoot", "wound", "injure", "stab"):
        return None
    for clause in (c for c in token.children if c.dep_ == "advcl" and c.tag_ == "VBG"):
        if clause.lemma_.lower() in SHARE_DEATH_VERBS:
            number = next((c for c in clause.children if c.dep_ in ("dobj", "nummod") and c.like_num), None)
            if number is not None:
                return parse_number(number.text)
    for number in token.doc[token.i + 1 : token.sent.end]:
        if number.like_num and (any(c.lower_ == "fatally" for c in number.subtree) or _died_of_them(number)):
            return parse_number(number.text)
    return None


def _died_of_them(number) -> bool:
    """Whether ``number`` is the subject of a verb of death and has an "of" after it ("two of them died")."""
    return (
        number.dep_ in ("nsubj", "nsubjpass")
        and number.head.lemma_.lower() in SHARE_DEATH_VERBS
        and any(c.dep_ == "prep" and c.lower_ == "of" for c in number.children)
    )


def _totals(sentence: str) -> bool:
    """Whether ``sentence`` states totals rather than one incident's counts: statistics ("so far this year") or a
    round-up of several incidents ("in weekend shootings across Chicago")."""
    lowered = sentence.lower()
    return bool(STATISTICS_CUES.search(lowered) or ROUND_UP_CUES.search(lowered))


def count_statements(doc, events: Sequence[EventMention], title_end: int = 0) -> list[CountStatement]:
    """Every count statement of the typed event mentions of a spaCy doc, one per status and patient
    (one with value None when an event states no number), and those the title (``doc[:title_end]``) states in a
    list or a fatal share (``headline_counts``). A patient in the title's publisher byline (``bylines.byline_start``:
    "… shot himself - KSLA News 12 Shreveport", "… | Columbus News , Weather & Sports") counts no one."""
    headline = headline_counts(doc, title_end) if title_end else []
    statements = _headline_statements(doc, headline)
    read_whole = {count.index for count in headline}
    byline = range(byline_start([t.text for t in doc[:title_end]], title_end), title_end) if title_end else range(0)
    for event in events:
        status = STATUS_OF_TYPE.get(event.event_type or "")
        if status is None:
            continue
        token = doc[event.start]
        if token.i in read_whole:
            continue  # the headline's list or fatal share, read whole above
        statuses = [status]
        if status == "injured" and (
            token.lemma_.lower() in INJURY_LEMMAS and token.pos_ != "NOUN" or _harm_holder(token) is not None
        ):
            statuses.append(INJURED_EXPLICITLY)
        statistics = _totals(token.sent.text)
        patients = [patient for patient in _patients(token, byline) if patient.i not in byline]
        values = [count_people(patient) for patient in patients]
        fatal = _fatal_share(token)
        if fatal is not None and values and values[0] is not None and values[0] > fatal:
            # "five people were shot, one fatally": one killed, four injured
            for name, value in (
                ("killed", fatal),
                ("injured", values[0] - fatal),
                (INJURED_EXPLICITLY, values[0] - fatal),
            ):
                statements.append(CountStatement(name, value, event.sentence, token.lemma_.lower(), statistics))
            continue
        counted = [(v, patient.i) for v, patient in zip(values, patients) if v is not None] or [(None, None)]
        for name in statuses:
            for value, patient in counted:
                another = patient is not None and _tells_of_another(token, doc[patient])
                statements.append(
                    CountStatement(name, value, event.sentence, token.lemma_.lower(), statistics, patient, another)
                )
    if any(event.lemma in SHOOTING_LEMMAS and event.event_type in ("killing", "injuring") for event in events):
        statements.extend(_condition_statements(doc))
    return statements


OTHER_WORDS = {"another", "other", "second", "third", "fourth", "others"}


def _tells_of_another(verb, patient) -> bool:
    """Whether the text tells ``patient`` of the harm ``verb`` apart from someone else harmed: its phrase has a
    word of ``OTHER_WORDS`` ("another teenager", "two others") or the verb has "also" ("was also shot")."""
    return any(w.lower_ in OTHER_WORDS for w in patient.subtree) or any(
        c.lower_ == "also" and c.dep_ == "advmod" for c in verb.children
    )


def _one_person_key(token) -> tuple[str, ...] | None:
    """What names the one person a patient token stands for: its lemma and the numbers (an age) in its phrase ("a
    2-year - old boy": ("boy", "2-year")); None for a pronoun or a phrase that tells of someone else ("another
    man", "a second victim")."""
    if token.pos_ == "PRON" or any(w.lower_ in OTHER_WORDS for w in token.subtree):
        return None
    numbers = tuple(sorted(w.lower_ for w in token.subtree if any(c.isdigit() for c in w.text)))
    return (token.lemma_.lower(), *numbers)


def of_the_living(doc, statements: Sequence[CountStatement], people: Sequence[Participant]) -> list[CountStatement]:
    """``statements`` without the injured ones whose patient is a named person the text says was killed
    ("Kendal Pinkerton was critically injured", then "has died"), or one person written as a killed one is ("the
    2-year - old was critically injured", "the 2-year - old has died"): one person is not both. A phrase naming the
    killed and others counts the others (``_less_the_dead``)."""
    dead = {
        i for person in people if person.status == "killed" for start, end in person.mentions for i in range(start, end)
    }
    killed_one = {
        _one_person_key(doc[s.patient])
        for s in statements
        if s.status == "killed" and s.value == 1 and s.patient is not None
    } - {None}

    def living(statement: CountStatement) -> CountStatement | None:
        if statement.status in ("killed", "fired") or statement.patient is None:
            return statement
        if statement.patient in dead:
            return _less_the_dead(doc, statement, people)
        if statement.value == 1 and _one_person_key(doc[statement.patient]) in killed_one:
            return None
        if statement.value == 1 and _died_after(doc[statement.patient]):
            return None
        return statement

    return [kept for kept in map(living, statements) if kept is not None]


def _died_after(patient) -> bool:
    """Whether the clause of a harmed person goes on to say that person died: a verb of death under the patient's verb
    whose subject is a personal pronoun ("the injured teen was taken to Harborview , where he later died")."""
    verb = patient.head
    return any(
        word.lemma_.lower() in DYING_VERBS
        and word.dep_ in ("relcl", "advcl", "conj")
        and any(c.dep_ == "nsubj" and c.lower_ in ("he", "she") for c in word.children)
        for word in verb.subtree
        if word.i > patient.i
    )


def _less_the_dead(doc, statement: CountStatement, people: Sequence[Participant]) -> CountStatement | None:
    """An injured ``statement`` whose patient is a killed person's name, less the killed people its phrase names
    ("Maxwell and another teenager were shot", Maxwell died: one injured); None when no one is left."""
    phrase = doc[statement.patient].subtree
    indexes = {token.i for token in phrase}
    named_dead = sum(
        1 for person in people if person.status == "killed" and any(start in indexes for start, _ in person.mentions)
    )
    if statement.value is None or statement.value <= named_dead:
        return None
    return replace(statement, value=statement.value - named_dead, another=True)


def _headline_statements(doc, headline: Sequence[HeadlineCount]) -> list[CountStatement]:
    """The title's ``headline_counts`` as count statements, explicit injuries also as INJURED_EXPLICITLY."""
    if not headline:
        return []
    sentence_index = {sent.start: n for n, sent in enumerate(doc.sents)}
    statements = []
    for count in headline:
        sentence = doc[count.index].sent
        names = [count.status] + ([INJURED_EXPLICITLY] if count.explicit else [])
        for name in names:
            statements.append(
                CountStatement(name, count.value, sentence_index[sentence.start], count.lemma, _totals(sentence.text))
            )
    return statements


def _condition_statements(doc) -> list[CountStatement]:
    """Injured counts of the people a shooting's story (not a fire's or a crash's) says are alive in a hospital's
    terms ("was taken to a hospital in stable condition", "two others are in critical condition"): explicit
    injuries, one statement each for the subject of the verb the condition depends on (a number when it says one),
    unless that verb's words tell of a death."""
    sentence_index: dict[int, int] = {}  # numbered at the first condition: most documents have none
    statements = []
    for token in doc:
        if not (
            token.lemma_.lower() == "condition"
            and token.dep_ == "pobj"
            and token.head.lower_ == "in"
            and any(c.lower_ in CONDITION_WORDS for c in token.children)
        ):
            continue
        holder = token.head.head
        while holder.dep_ == "pobj" and holder.head.dep_ == "prep":  # "taken to a hospital in stable condition"
            holder = holder.head.head
        subjects = _subjects(holder)
        if not subjects and holder.dep_ == "conj":  # "was shot and is in critical condition"
            subjects = _subjects(holder.head)
        if not subjects or _tells_of_death(holder):
            continue  # "... in critical condition, where he succumbed to his injuries"
        statistics = _totals(token.sent.text)
        sentence_index = sentence_index or {sent.start: n for n, sent in enumerate(doc.sents)}
        sentence = sentence_index[token.sent.start]
        for subject in subjects:
            value = count_people(subject)
            for name in ("injured", INJURED_EXPLICITLY):
                statements.append(CountStatement(name, value, sentence, "condition", statistics, subject.i))
    return statements


def stated_counts(
    doc,
    events: Sequence[EventMention],
    participants: Sequence[Participant],
    lead_sentences: int = 6,
    title_end: int = 0,
    statements: Sequence[CountStatement] | None = None,
) -> Counts:
    """Killed, injured and fired counts: the largest number stated for each, at least the named people with
    that status, and one when a typed event is mentioned but no number is stated. Never a sum of statements.

    ``title_end`` (the first body token) lets the title's lists and fatal shares count (``count_statements``);
    ``statements``, the document's ``count_statements`` when the caller has them, are read instead of found again.
    Statements in the title and the lead (the first ``lead_sentences`` sentences) speak of the reported
    incident; later ones count only when the lead states none. Sentences of statistics ("since January",
    "this year") never count.
    """
    best = {"killed": None, "injured": None, "fired": None, INJURED_EXPLICITLY: None}
    later = dict(best)
    seen_type = {status: False for status in best}
    for statement in count_statements(doc, events, title_end) if statements is None else statements:
        seen_type[statement.status] = True
        target = best if statement.sentence < lead_sentences else later
        value = statement.value
        if (
            not statement.statistics
            and value is not None
            and (target[statement.status] is None or value > target[statement.status])
        ):
            target[statement.status] = value
    best = {status: value if value is not None else later[status] for status, value in best.items()}
    named = {status: sum(1 for p in participants if p.status == status) for status in best}
    result = {}
    for status in ("killed", "fired", "injured"):
        # people "shot" in a story of a killing are mostly the dead: count only explicit injuries
        key = INJURED_EXPLICITLY if status == "injured" and result["killed"] else status
        value = best[key]
        result[status] = max(value if value is not None else int(seen_type[key]), named[status])
    return Counts(result["killed"], result["injured"], result["fired"])
