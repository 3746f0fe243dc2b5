"""Event mentions typed killing, injuring, fire_burning or job_firing, disambiguated in context.

A token is looked up by lemma and part of speech (phrasal verbs with their particle) in the event
lexicon; context then decides the ambiguous ones: "fired a gun" is Shoot_projectiles, "fired the
coach" is Firing, "the fire spread" is Fire_burning; "shot" is injuring unless its sentence says
someone died ("shot dead", "fatally shot", "died at the hospital").
"""

from __future__ import annotations

from dataclasses import dataclass

from kg_count.nlp.annotate import AnnotatedDocument
from kg_count.nlp.lexicon import LexicalEntry, event_lexicon
from kg_count.nlp.numbers import multipliers_of

FATAL_CUES = {
    "dead",
    "fatally",
    "fatal",
    "kill",
    "die",
    "death",
    "deadly",
    "murder",
    "homicide",
    "slay",
    "lethal",
    "succumb",
}
WEAPON_WORDS = {
    "shot",
    "round",
    "gun",
    "weapon",
    "bullet",
    "shotgun",
    "rifle",
    "pistol",
    "handgun",
    "volley",
    "warning",
    "firearm",
    "revolver",
    "cannon",
    "missile",
    "gunshot",
    "salvo",
}
PERSON_WORDS = {
    "coach",
    "employee",
    "worker",
    "officer",
    "teacher",
    "manager",
    "staff",
    "executive",
    "ceo",
    "director",
    "president",
    "chief",
    "principal",
    "player",
    "host",
    "anchor",
    "clerk",
    "nurse",
    "deputy",
    "trooper",
    "superintendent",
    "administrator",
    "aide",
    "agent",
    "pastor",
    "editor",
    "guard",
    "cashier",
    "supervisor",
    "secretary",
    "official",
    "employer",
    "people",
    "man",
    "woman",
    "he",
    "she",
    "him",
    "her",
    "they",
    "them",
    "who",
    "i",
    "we",
    "me",
    "us",
    "you",
}
JOB_WORDS = {
    "job",
    "position",
    "post",
    "company",
    "team",
    "school",
    "department",
    "firm",
    "club",
    "network",
    "employment",
    "contract",
    "role",
    "office",
    "station",
    "store",
}
NOT_DISMISSED = {
    "case",
    "charge",
    "lawsuit",
    "suit",
    "claim",
    "complaint",
    "appeal",
    "motion",
    "count",
    "indictment",
    "juror",
    "jury",
    "idea",
    "concern",
    "report",
    "allegation",
    "notion",
    "petition",
}
SHOOTING_HEADS = {"open", "return", "exchange", "hold", "cease", "draw", "trade"}
# what makes a noun "fire" shots: "rifle fire", "rapid fire"
SHOOTING_FIRE_MODIFIERS = WEAPON_WORDS | {"gunfire", "cross", "return", "friendly", "rapid", "automatic"}
SHOTS_HEARD_HEADS = {"fire", "hear", "ring", "exchange", "report", "sound"}
SHOOT_LEMMAS = {"shoot", "shooting", "shot", "gunshot", "gunfire", "open fire"}
ATTEMPT_LEMMAS = {"attempt", "attempted", "try"}  # "attempted murder", "a suicide attempt", "tried to kill"
WEAPON_OR_FORCE = WEAPON_WORDS | {"force"}  # what "deadly" and "lethal" describe without a death
DISPOSITION_WORDS = {"suicidal", "homicidal", "murderous"}  # "the suicidal man": a state of mind, no event
HARM_LEMMAS = {"injure", "wound", "injury", "injured", "wounded", "hurt", "stab"}
FATAL_MODIFIERS = {"fatally", "mortally", "fatal", "mortal"}  # "fatally injured", "a mortal wound": a death
POSSIBILITY_MODALS = {"could", "might", "should"}  # "he could die", "I could have been killed": no harm told


@dataclass(frozen=True)
class EventMention:
    """An event mention: spaCy token span [start, end), its sentence, lemma, frame, type and synset."""

    start: int
    end: int
    sentence: int
    lemma: str
    frame: str | None
    event_type: str | None
    synset: str | None


def _is_person(token) -> bool:
    return token.ent_type_ == "PERSON" or token.lemma_.lower() in PERSON_WORDS or token.pos_ == "PROPN"


def _arguments(token) -> tuple[list, list, list]:
    objects = [c for c in token.children if c.dep_ in ("dobj", "obj")]
    passive_subjects = [c for c in token.children if c.dep_ in ("nsubjpass", "nsubj:pass")]
    preps = [c for c in token.children if c.dep_ == "prep"]
    return objects, passive_subjects, preps


def _fire_verb(token) -> tuple[str | None, str | None]:
    """Decide a verb 'fire': (frame, event type)."""
    objects, passive_subjects, preps = _arguments(token)
    arguments = objects + passive_subjects
    if any(a.lemma_.lower() in WEAPON_WORDS for a in arguments):
        return "Shoot_projectiles", None
    if any(p.lemma_.lower() == "from" and any(o.lemma_.lower() in JOB_WORDS for o in p.children) for p in preps):
        return "Firing", "job_firing"
    if any(_is_person(a) for a in arguments):
        return "Firing", "job_firing"
    return "Shoot_projectiles", None


def _fire_noun(token) -> tuple[str | None, str | None]:
    """Decide a noun 'fire': shooting ("open fire", "gun fire", "rifle fire", "heard rapid fire"), a modifier
    ("fire department"), or a fire."""
    head = token.head
    if (head.lemma_.lower() in SHOOTING_HEADS or head.lemma_.lower() == "hear") and token.dep_ in ("dobj", "obj"):
        return "Shoot_projectiles", None
    if any(c.lemma_.lower() in SHOOTING_FIRE_MODIFIERS for c in token.children):
        return "Shoot_projectiles", None
    if any(c.dep_ == "prep" and c.lemma_.lower() == "at" for c in token.children):
        return "Shoot_projectiles", None
    if token.dep_ == "compound":
        return "Fire_burning", None
    return "Fire_burning", "fire_burning"


def _object_check(token, entry: LexicalEntry) -> tuple[str | None, str | None]:
    objects, passive_subjects, _ = _arguments(token)
    if any(a.lemma_.lower() in NOT_DISMISSED for a in objects + passive_subjects):
        return None, None
    return entry.frame, entry.event_type


NEGATIVE_PATIENTS = {"nobody", "none", "noone"}


def is_negated(token) -> bool:
    """True for "not injured", "no one was hurt", "nobody was killed", "no injuries"."""
    if any(c.dep_ == "neg" for c in token.children) or any(
        c.dep_ == "neg" for c in token.head.children if token.dep_ in ("acomp", "xcomp", "attr")
    ):
        return True
    for child in token.children:
        if child.dep_ in ("nsubj", "nsubjpass", "dobj", "det") and (
            child.lower_ in NEGATIVE_PATIENTS or child.lower_ == "no" or any(g.lower_ == "no" for g in child.children)
        ):
            return True
    subjects = [c for c in token.head.children if c.dep_ in ("nsubj", "nsubjpass")] if token.pos_ == "ADJ" else []
    return any(s.lower_ in NEGATIVE_PATIENTS or any(g.lower_ == "no" for g in s.children) for s in subjects)


def is_attempted(token) -> bool:
    """True for a killing only attempted: "attempted murder", "attempted suicide", "a suicide attempt", "tried to
    kill"."""
    if any(c.dep_ in ("amod", "compound") and c.lemma_.lower() in ATTEMPT_LEMMAS for c in token.children):
        return True
    return token.dep_ in ("compound", "xcomp") and token.head.lemma_.lower() in ATTEMPT_LEMMAS


def is_hypothetical(token) -> bool:
    """True for a harm the sentence only supposes: a verb under "could", "might" or "should" ("he could die", "it
    could have killed someone", "I could've died"), or under "would have" ("she would have died"); not "would"
    alone, which tells of a later harm ("who would later die")."""
    verb = token.head if token.pos_ == "ADJ" and token.dep_ in ("acomp", "attr") else token
    auxiliaries = [c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if any(a in POSSIBILITY_MODALS for a in auxiliaries):
        return True
    return "would" in auxiliaries and any(a in ("have", "'ve") for a in auxiliaries)


def _describes_a_weapon(token) -> bool:
    """True for "deadly" or "lethal" said of a weapon or of force ("assault with a deadly weapon", "lethal force"):
    a charge's or a policy's words, no death."""
    return token.dep_ == "amod" and token.head.lemma_.lower() in WEAPON_OR_FORCE


def _counts_the_shot(token) -> bool:
    """True for a shooting whose multiplier counts the people shot and whose own words tell of no death ("one dead
    after a double shooting": the dead are counted apart; not "a fatal double shooting")."""
    return (
        token.pos_ == "NOUN"
        and bool(multipliers_of(token))
        and not any(t.lemma_.lower() in FATAL_CUES for t in token.subtree)
    )


def _fatal_sentence(token) -> bool:
    return any(t.lemma_.lower() in FATAL_CUES for t in token.sent)


def _fatal_harm(token, lemma: str) -> bool:
    """True for a harm its own modifier says was fatal: "was fatally injured", "mortally wounded", "a fatal
    wound"."""
    return lemma in HARM_LEMMAS and any(c.lower_ in FATAL_MODIFIERS for c in token.children)


def _headline_verb(token, lexicon) -> str | None:
    """The lemma of a capitalised verb the tagger took for a plural noun or a name ("Man Shot In Head Dies"), when
    the word less its "s" or "es" is a verb of ``lexicon`` and no noun of it; None otherwise."""
    if token.tag_ not in ("NNS", "NNPS") or not token.text[:1].isupper():
        return None
    word = token.lower_
    for stem in (word[:-1], word[:-2]) if word.endswith("s") else ():
        if (stem, "VERB") in lexicon and (stem, "NOUN") not in lexicon and (word, "NOUN") not in lexicon:
            return stem
    return None


def _survived_not(token) -> bool:
    """True for a survival denied: "the victim did not survive", "he didn't survive his injuries"."""
    return token.lemma_.lower() == "survive" and token.pos_ == "VERB" and is_negated(token)


def _lookup(token, lexicon) -> tuple[str, LexicalEntry | None, int]:
    """The lexicon entry of a token, trying the phrasal form (verb + particle) first; returns (lemma, entry, end).
    A capitalised verb tagged as a noun is read as the verb (``_headline_verb``); a denied survival as a death."""
    lemma = token.lemma_.lower()
    pos = "VERB" if token.pos_ == "AUX" else token.pos_
    if _survived_not(token):
        return "die", lexicon.get(("die", "VERB")), token.i + 1
    if (verb := _headline_verb(token, lexicon)) is not None:
        return verb, lexicon.get((verb, "VERB")), token.i + 1
    particles = [c for c in token.children if c.dep_ == "prt"]
    if particles:
        phrase = f"{lemma} {particles[0].lemma_.lower()}"
        if (phrase, pos) in lexicon:
            return phrase, lexicon[(phrase, pos)], max(token.i, particles[0].i) + 1
    if pos == "VERB" and lemma == "open" and any(c.lemma_.lower() == "fire" for c in token.children):
        return "open fire", lexicon.get(("open fire", "VERB")), token.i + 1
    return lemma, lexicon.get((lemma, pos)), token.i + 1


def find_event_mentions(annotated: AnnotatedDocument) -> list[EventMention]:
    """Return the typed and untyped event mentions of an annotated document, in text order."""
    lexicon = event_lexicon()
    doc = annotated.doc
    sentence_index = {sent.start: n for n, sent in enumerate(doc.sents)}
    mentions = []
    for token in doc:
        if token.pos_ not in ("VERB", "NOUN", "ADJ", "AUX") and token.tag_ != "NNPS":  # NNPS: a headline's verb
            continue
        lemma, entry, end = _lookup(token, lexicon)
        if entry is None:
            continue
        frame, event_type = entry.frame, entry.event_type
        if lemma == "fire" and token.pos_ == "VERB":
            frame, event_type = _fire_verb(token)
        elif lemma == "fire" and token.pos_ == "NOUN":
            frame, event_type = _fire_noun(token)
        elif lemma in ("dismiss", "terminate"):
            frame, event_type = _object_check(token, entry)
        elif lemma in SHOOT_LEMMAS:
            frame = "Shoot_projectiles"
            if token.pos_ == "NOUN" and token.head.lemma_.lower() in SHOTS_HEARD_HEADS and token.head is not token:
                event_type = None
            else:
                event_type = "killing" if _fatal_sentence(token) and not _counts_the_shot(token) else "injuring"
        elif event_type == "injuring" and _fatal_harm(token, lemma):
            event_type = "killing"
        if frame is None and event_type is None:
            continue
        denied = event_type is not None and is_negated(token) and not _survived_not(token)
        if denied or (event_type is not None and is_hypothetical(token)) or token.lower_ in DISPOSITION_WORDS:
            event_type = None
        if event_type == "killing" and (is_attempted(token) or _describes_a_weapon(token)):
            event_type = None
        mentions.append(
            EventMention(token.i, end, sentence_index[token.sent.start], lemma, frame, event_type, entry.synset)
        )
    return mentions
