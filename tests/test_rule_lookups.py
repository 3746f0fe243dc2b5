"""The attribute ruler and lemmatizer applied by lookup, and the matrix products made by NumPy, give exactly the
annotations of spaCy's own pipeline."""

from itertools import islice

import numpy as np
import pytest

from kg_count.io.conll import iter_documents
from kg_count.nlp.annotate import to_spacy_doc
from kg_count.nlp.model import load_model
from kg_count.nlp.rule_lookups import IndexedAttributeRuler, compile_token
from tests.helpers import ANNOTATIONS, SAMPLE

# Sentences meeting the model's rarer rules: two-token patterns, expressions, negated sets, spaces, pronoun cases.
RULE_SENTENCES = [
    "Y'all gonna see it, and I ain't nothin' if not honest.",
    "Let's go: c'mon, we gotta leave because there is a fire and there were two shots.",
    "I told you it was him; he gave it to me, but you didn't have it.",
    "Whether or not police find the suspect ,  the   case is open.",
    "They'd have had to do it, and it does not matter that he has.",
    "Which car hit whom? That one, which was stolen, since it had been parked there.",
]


def parsed_pairs(texts_or_docs):
    """(stock annotation, lookup annotation) arrays of each text, both pipelines fed the same words."""
    stock, lookup = load_model(stock=True), load_model()
    for stock_doc, lookup_doc in zip(stock.pipe(texts_or_docs), lookup.pipe(texts_or_docs)):
        yield stock_doc.to_array(ANNOTATIONS), lookup_doc.to_array(ANNOTATIONS)


def test_the_loaded_model_applies_the_rules_by_lookup():
    nlp = load_model()
    assert "attribute_lookup" in nlp.pipe_names and "attribute_ruler" not in nlp.pipe_names
    assert "lemma_lookup" in nlp.pipe_names and "lemmatizer" not in nlp.pipe_names
    assert "attribute_ruler" in load_model(stock=True).pipe_names


def test_rule_sentences_are_annotated_as_spacy_annotates_them():
    for stock, lookup in parsed_pairs(RULE_SENTENCES):
        assert np.array_equal(stock, lookup)


def test_the_sample_documents_are_annotated_as_spacy_annotates_them():
    vocab = load_model().vocab
    documents = list(islice(iter_documents(SAMPLE / "docs.conll"), 40))
    spacy_docs = [to_spacy_doc(document, vocab)[0] for document in documents]
    copies = [doc.copy() for doc in spacy_docs]
    stock, lookup = load_model(stock=True), load_model()
    for stock_doc, lookup_doc in zip(stock.pipe(spacy_docs), lookup.pipe(copies)):
        assert np.array_equal(stock_doc.to_array(ANNOTATIONS), lookup_doc.to_array(ANNOTATIONS))


def test_matches_are_spacys_in_spacys_order():
    nlp = load_model(stock=True)
    ruler = nlp.get_pipe("attribute_ruler")
    indexed = IndexedAttributeRuler(ruler)
    for text in RULE_SENTENCES:
        doc = nlp.make_doc(text)
        for name in ("tok2vec", "tagger", "parser"):
            doc = nlp.get_pipe(name)(doc)
        expected = []
        for rule, _, start, end in ruler.match(doc):
            index = ruler.indices[rule]
            position = start + index if index >= 0 else end + index
            if (rule, position) not in expected:
                expected.append((rule, position))
        assert indexed.matches(doc) == expected


def test_an_unknown_predicate_is_refused_by_name():
    with pytest.raises(ValueError, match="FUZZY on LOWER"):
        compile_token({"LOWER": {"FUZZY": "gonna"}}, ["TAG", "LOWER", "DEP", "IS_SPACE"])
    with pytest.raises(ValueError, match="ENT_TYPE"):
        compile_token({"ENT_TYPE": "GPE"}, ["TAG", "LOWER", "DEP", "IS_SPACE"])
