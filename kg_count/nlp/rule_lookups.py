"""spaCy's two rule components, applied by lookup: the same rules, the same annotations, a fraction of the time.

``en_core_web_sm``'s attribute ruler tries each of its 180 token patterns at every token (a sixth of the
pipeline's time); ``IndexedAttributeRuler`` files the patterns by the values their first token must have and
tries only those a token's values select. Its lemmatizer builds a morphological analysis of every token to key
its cache; ``ArrayLemmatizer`` keys its own cache by the token's orth, part of speech and morphology hashes and
asks spaCy's lemmatizer only on a miss. Both read and write the ``Doc`` through the same attributes as spaCy's
components, in the same order, so the annotations are identical (tests/test_rule_lookups.py compares them).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import product

from spacy.attrs import DEP, IS_SPACE, LEMMA, LOWER, MORPH, ORTH, POS, TAG
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc
from spacy.tokens._retokenize import set_token_attrs

COLUMNS = {"TAG": TAG, "LOWER": LOWER, "DEP": DEP, "IS_SPACE": IS_SPACE}
STRING_COLUMNS = {"TAG", "LOWER", "DEP"}
SELECTIVITY = ("LOWER", "DEP", "TAG", "IS_SPACE")
MEMO_SIZE = 200_000  # distinct words (or lemma keys) remembered before a memo starts again


@dataclass(frozen=True)
class TokenTest:
    """One attribute test of one pattern token: ``column`` of the attribute array, ``kind`` (``eq``, ``in``,
    ``not_in``, ``regex``) and the value(s) as the array holds them (string hashes, or 0/1 for a flag)."""

    column: int
    kind: str
    value: object

    def passes(self, row: tuple, strings) -> bool:
        """Whether the token whose attribute values are ``row`` passes; ``strings`` turns hashes to text."""
        return self.passes_value(row[self.column], strings)

    def passes_value(self, value: int, strings) -> bool:
        """Whether a token whose value in this test's column is ``value`` passes."""
        if self.kind == "eq":
            return value == self.value
        if self.kind == "in":
            return value in self.value
        if self.kind == "not_in":
            return value not in self.value
        return self.value.search(strings[value]) is not None


def _value_id(name: str, value) -> int:
    """The array value of an attribute equal to ``value``: a string's hash, a flag's 0 or 1."""
    return get_string_id(value) if name in STRING_COLUMNS else int(value)


def compile_token(spec: dict, columns: list[str]) -> list[TokenTest]:
    """The tests of one Matcher token pattern (``{"TAG": "VB", "LOWER": {"IN": [...]}}``); ValueError on a key
    or predicate this module does not reproduce."""
    tests = []
    for name, value in spec.items():
        if name not in COLUMNS:
            raise ValueError(f"attribute ruler pattern tests {name}, which rule_lookups does not reproduce")
        column = columns.index(name)
        if not isinstance(value, dict):
            tests.append(TokenTest(column, "eq", _value_id(name, value)))
            continue
        for predicate, argument in value.items():
            if predicate in ("IN", "NOT_IN"):
                kind = "in" if predicate == "IN" else "not_in"
                tests.append(TokenTest(column, kind, frozenset(_value_id(name, item) for item in argument)))
            elif predicate == "REGEX" and name in STRING_COLUMNS:
                tests.append(TokenTest(column, "regex", re.compile(argument)))
            else:
                raise ValueError(f"attribute ruler pattern uses {predicate} on {name}, not reproduced by rule_lookups")
    return tests


@dataclass(frozen=True)
class CompiledPattern:
    """One pattern of rule ``rule``: the tests of each of its tokens and the index of the token it sets."""

    rule: int
    tokens: tuple[tuple[TokenTest, ...], ...]
    index: int

    def target(self, rows: list[tuple], start: int, strings) -> int | None:
        """The position of the token this pattern sets when it matches at ``start``, else None."""
        if start + len(self.tokens) > len(rows):
            return None
        for offset, tests in enumerate(self.tokens):
            row = rows[start + offset]
            if not all(test.passes(row, strings) for test in tests):
                return None
        position = start + (self.index if self.index >= 0 else len(self.tokens) + self.index)
        if not start <= position < start + len(self.tokens):
            raise ValueError(f"attribute ruler rule {self.rule}: index {self.index} outside its pattern")
        return position


class IndexedAttributeRuler:
    """spaCy's ``AttributeRuler`` with its patterns filed by the values their tokens must have.

    Reads the rules (patterns, attributes, indices) of ``ruler``. A one-token pattern of equalities and
    memberships is a key of its attributes' values; any other is filed by a value its first token must have (or
    tried everywhere) and tested in full. Called on a ``Doc``, it finds every match on the unchanged document,
    then sets each matched token's attributes in rule order, later rules over earlier ones, as
    ``AttributeRuler.set_annotations`` does."""

    def __init__(self, ruler) -> None:
        self.attrs = list(ruler.attrs)
        self.columns = list(COLUMNS)
        self.array_columns = [COLUMNS[name] for name in self.columns]
        self.keyed: dict[tuple[int, ...], dict[tuple, list[int]]] = defaultdict(lambda: defaultdict(list))
        self.by_value: dict[int, dict[int, list[CompiledPattern]]] = defaultdict(lambda: defaultdict(list))
        self.by_search: dict[int, list[tuple[TokenTest, CompiledPattern]]] = defaultdict(list)
        self.searched: dict[int, dict[int, tuple[CompiledPattern, ...]]] = defaultdict(dict)
        self.everywhere: list[CompiledPattern] = []
        for rule, described in enumerate(ruler.patterns):
            for pattern in described["patterns"]:
                compiled = CompiledPattern(
                    rule, tuple(tuple(compile_token(spec, self.columns)) for spec in pattern), described["index"]
                )
                if not self._key(compiled):
                    self._file(compiled)
        self.single_keyed = [(columns[0], dict(table)) for columns, table in self.keyed.items() if len(columns) == 1]
        self.multi_keyed = [(columns, dict(table)) for columns, table in self.keyed.items() if len(columns) > 1]

    def _key(self, pattern: CompiledPattern) -> bool:
        """Key a one-token pattern of equalities and memberships by its values; whether it was one."""
        if len(pattern.tokens) != 1 or pattern.index not in (0, -1):
            return False
        tests = sorted(pattern.tokens[0], key=lambda test: test.column)
        if not tests or any(test.kind not in ("eq", "in") for test in tests):
            return False
        columns = tuple(test.column for test in tests)
        choices = [[test.value] if test.kind == "eq" else sorted(test.value) for test in tests]
        for values in product(*choices):
            self.keyed[columns][values if len(values) > 1 else values[0]].append(pattern.rule)
        return True

    def _file(self, pattern: CompiledPattern) -> None:
        """File ``pattern`` under an equality or membership test of its first token (of the most selective
        attribute: the word before the dependency before the tag), else try it everywhere."""
        for test in sorted(pattern.tokens[0], key=lambda test: SELECTIVITY.index(self.columns[test.column])):
            if test.kind == "eq":
                self.by_value[test.column][test.value].append(pattern)
                return
            if test.kind == "in":
                for value in test.value:
                    self.by_value[test.column][value].append(pattern)
                return
        for test in pattern.tokens[0]:
            if test.kind == "regex":
                self.by_search[test.column].append((test, pattern))
                return
        self.everywhere.append(pattern)

    def _searched(self, column: int, value: int, strings) -> tuple[CompiledPattern, ...]:
        """The patterns filed by a regular expression on ``column`` whose expression finds ``value``'s text."""
        seen = self.searched[column]
        if value not in seen:
            if len(seen) >= MEMO_SIZE:
                seen.clear()
            seen[value] = tuple(
                pattern for test, pattern in self.by_search[column] if test.passes_value(value, strings)
            )
        return seen[value]

    def matches(self, doc: Doc) -> list[tuple[int, int]]:
        """(rule, position of the token it sets) of every match in ``doc``, in the order they are applied."""
        rows = [tuple(row) for row in doc.to_array(self.array_columns).tolist()] if len(doc) else []
        strings = doc.vocab.strings
        found = set()
        for start, row in enumerate(rows):
            for column, table in self.single_keyed:
                for rule in table.get(row[column], ()):
                    found.add((rule, start, start))
            for columns, table in self.multi_keyed:
                for rule in table.get(tuple(row[column] for column in columns), ()):
                    found.add((rule, start, start))
            candidates = list(self.everywhere)
            for column, filed in self.by_value.items():
                candidates.extend(filed.get(row[column], ()))
            for column in self.by_search:
                candidates.extend(self._searched(column, row[column], strings))
            for pattern in candidates:
                position = pattern.target(rows, start, strings)
                if position is not None:
                    found.add((pattern.rule, start, position))
        return [(rule, position) for rule, _, position in sorted(found)]

    def __call__(self, doc: Doc) -> Doc:
        """Set the rules' attributes on ``doc``; return it."""
        for rule, position in self.matches(doc):
            set_token_attrs(doc[position], self.attrs[rule])
        return doc


class MemberList(list):
    """A list whose membership test is a set's: spaCy's rule lemmatizer asks whether a form is among the 57,000
    words of its index list for a part of speech, which a plain list answers by reading them all."""

    def __init__(self, items) -> None:
        super().__init__(items)
        self.members = frozenset(self)

    def __contains__(self, item) -> bool:
        return item in self.members


class ArrayLemmatizer:
    """spaCy's rule lemmatizer with a cache keyed by hashes: a token without a lemma gets the lemma spaCy's
    ``lemmatizer`` gives a token of the same orth, part of speech and morphology (asked once per key), its index
    lists answering membership as sets (``MemberList``: the same words, in the same order)."""

    def __init__(self, lemmatizer) -> None:
        self.lemmatizer = lemmatizer
        self.lemmas: dict[tuple[int, int, int], int] = {}
        if lemmatizer.lookups.has_table("lemma_index"):
            index = lemmatizer.lookups.get_table("lemma_index")
            for key, words in list(index.items()):
                if isinstance(words, list) and not isinstance(words, MemberList):
                    index[key] = MemberList(words)

    def __call__(self, doc: Doc) -> Doc:
        """Set the lemma of every token of ``doc`` that has none; return it."""
        if self.lemmatizer.overwrite:
            return self.lemmatizer(doc)
        strings = doc.vocab.strings
        for position, (orth, pos, morph, lemma) in enumerate(doc.to_array([ORTH, POS, MORPH, LEMMA]).tolist()):
            if lemma:
                continue
            key = (orth, pos, morph)
            found = self.lemmas.get(key)
            token = doc[position]
            if found is None:
                if len(self.lemmas) >= MEMO_SIZE:
                    self.lemmas.clear()
                found = self.lemmas[key] = strings.add(self.lemmatizer.lemmatize(token)[0])
            token.lemma = found
        return doc


@Language.factory("attribute_lookup")
def make_attribute_lookup(nlp: Language, name: str) -> IndexedAttributeRuler:
    """The lookup version of ``nlp``'s ``attribute_ruler``."""
    return IndexedAttributeRuler(nlp.get_pipe("attribute_ruler"))


@Language.factory("lemma_lookup")
def make_lemma_lookup(nlp: Language, name: str) -> ArrayLemmatizer:
    """The lookup version of ``nlp``'s ``lemmatizer``."""
    return ArrayLemmatizer(nlp.get_pipe("lemmatizer"))


REPLACEMENTS = {"attribute_ruler": "attribute_lookup", "lemmatizer": "lemma_lookup"}


def use_rule_lookups(nlp: Language) -> Language:
    """Put the lookup versions of ``nlp``'s ``attribute_ruler`` and ``lemmatizer`` (where present) in their
    places and disable the originals, in place; return ``nlp``."""
    for original, lookup in REPLACEMENTS.items():
        if original in nlp.pipe_names and lookup not in nlp.component_names:
            nlp.add_pipe(lookup, before=original)
            nlp.disable_pipe(original)
    return nlp
