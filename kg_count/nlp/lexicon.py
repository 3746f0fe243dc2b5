"""The event lexicon: FrameNet lexical units from ``ontology/frames.ttl`` and WordNet 3.0 lemmas.

A lexical unit ``lemma.pos`` belongs to a frame, and a frame may evoke an event type. WordNet
adds, for each event type, the lemmas of its task synsets, their hyponyms and their derived
forms, so that "slay", "behead" or "furlough" are typed although no frame lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

from kg_count.settings import settings
from kg_count.task import KGC_NAMESPACE as KGC, event_synsets

POS_TAGS = {"v": "VERB", "n": "NOUN", "a": "ADJ"}
WORDNET_POS = {"v": "VERB", "n": "NOUN", "a": "ADJ", "s": "ADJ"}
EVENT_NOUN_FILES = {"noun.act", "noun.event", "noun.state", "noun.person", "noun.phenomenon", "noun.process"}


@dataclass(frozen=True)
class LexicalEntry:
    """What a lemma with a part of speech evokes: a frame (may be None), an event type (may be None), a synset."""

    frame: str | None
    event_type: str | None
    synset: str | None


def _frame_units(turtle: str) -> dict[tuple[str, str], LexicalEntry]:
    from rdflib import Graph, Namespace
    from rdflib.namespace import RDFS

    ns = Namespace(KGC)
    graph = Graph().parse(data=turtle, format="turtle")
    units = {}
    for frame in graph.subjects(ns.lexicalUnit, None):
        label = str(graph.value(frame, RDFS.label))
        evokes = graph.value(frame, ns.evokes)
        event_type = str(evokes).removeprefix(KGC) if evokes is not None else None
        for unit in graph.objects(frame, ns.lexicalUnit):
            lemma, pos = str(unit).rsplit(".", 1)
            units[(lemma.replace("_", " "), POS_TAGS[pos])] = LexicalEntry(label, event_type, None)
    return units


def _wordnet_units() -> dict[tuple[str, str], LexicalEntry]:
    """Lemmas whose most frequent WordNet sense is a task synset, a hyponym of one, or derived from one."""
    from kg_count.resources.wordnet import wordnet

    reader = wordnet()
    units = {}
    for event_type, names in event_synsets().items():
        for name in names:
            root = reader.synset(name)
            synsets = {root} | set(root.closure(lambda s: s.hyponyms(), depth=settings().extraction.hyponym_depth))
            for synset in sorted(synsets, key=lambda s: s.name()):
                for lemma in synset.lemmas():
                    for form in [lemma, *lemma.derivationally_related_forms()]:
                        senses = reader.synsets(form.name(), pos=form.synset().pos())
                        if not senses or (senses[0] not in synsets and senses[0] != form.synset()):
                            continue
                        if form.synset().pos() == "n" and form.synset().lexname() not in EVENT_NOUN_FILES:
                            continue
                        key = (form.name().replace("_", " ").lower(), WORDNET_POS[form.synset().pos()])
                        units.setdefault(key, LexicalEntry(None, event_type, form.synset().name()))
    return units


@lru_cache(maxsize=1)
def event_lexicon() -> dict[tuple[str, str], LexicalEntry]:
    """Return ``{(lemma, POS): LexicalEntry}``: frame lexical units first, WordNet lemmas where no frame lists them.

    A frame entry gets the synset of the WordNet entry for the same lemma when there is one.
    """
    words = _wordnet_units()
    lexicon = dict(words)
    frames = files("kg_count.ontology").joinpath("frames.ttl").read_text(encoding="utf-8")
    for key, entry in _frame_units(frames).items():
        synset = words[key].synset if key in words else None
        lexicon[key] = LexicalEntry(entry.frame, entry.event_type, synset)
    return lexicon
