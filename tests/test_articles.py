"""The JSON-lines article reader: documents with CoNLL-style token ids, and clear errors."""

import json

import pytest

from kg_count.errors import InputError
from kg_count.io.articles import iter_any, iter_articles
from tests.helpers import write


def test_articles_become_documents(tmp_path):
    path = write(
        tmp_path / "a.jsonl",
        json.dumps(
            {
                "doc_id": "x1",
                "title": "Man shot",
                "dct": "2016-07-28",
                "content": "GAINESVILLE, Fla. - A man was shot.\nHe died.",
            }
        )
        + "\n",
    )
    (doc,) = list(iter_any(path))
    assert doc.doc_id == "x1" and doc.title == "Man shot" and str(doc.dct) == "2016-07-28"
    assert doc.tokens[0].token_id == "x1.t1.1" and doc.tokens[2].token_id == "x1.b1.1"
    assert {t.sentence for t in doc.tokens} == {"t1", "b1", "b2"}


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", "line 1: invalid JSON"),
        (json.dumps({"doc_id": "x", "title": "t", "content": "c"}), "line 1: article lacks dct"),
        (
            json.dumps({"doc_id": "x", "title": "t", "dct": "yesterday", "content": "c"}),
            "DCT 'yesterday' is not a YYYY-MM-DD date",
        ),
        (json.dumps({"doc_id": "x", "title": "", "dct": "2016-01-01", "content": "  "}), "article has no text"),
    ],
)
def test_bad_articles(tmp_path, line, message):
    with pytest.raises(InputError, match=message):
        list(iter_articles(write(tmp_path / "bad.jsonl", line + "\n")))
