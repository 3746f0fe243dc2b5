import datetime as dt

import pytest

from kg_count.errors import InputError
from kg_count.io.conll import chain_column, read_chains, read_documents, write_documents
from tests.helpers import write

VALID_HEAD = "#begin document (d1);\nd1.DCT\t2017-01-25\tDCT\t-\n"


def test_reads_documents_with_ids_dct_parts_and_layout_tokens(fixtures):
    docs = read_documents(fixtures / "two_docs.conll")
    assert list(docs) == ["d1", "d2"]
    d1 = docs["d1"]
    assert d1.dct == dt.date(2017, 1, 25)
    assert d1.tokens[0].token_id == "d1.t1.1" and d1.tokens[0].part == "TITLE"
    assert d1.title == "Man killed"
    assert [t.sentence for t in d1.tokens][:4] == ["t1", "t1", "b1", "b1"]
    assert d1.tokens[6].index == 0 and d1.tokens[6].sentence == "b2"
    assert "EMPTY" not in d1.words() and "NEWLINE" not in d1.words()
    assert "OH \n A man" in d1.text
    assert len(d1.sentences()) == 3


@pytest.mark.parametrize(
    "body, message, line",
    [
        ("d1.t1.1\tMan\tTITLE\n#end document\n", "expected 4 tab-separated columns, found 3", 3),
        ("d1.t1.1\tMan\tBODY\t-\n#end document\n", "is in 'BODY', its id says TITLE", 3),
        ("d9.t1.1\tMan\tTITLE\t-\n#end document\n", "is not of the form d1.(t|b)SENT.TOK", 3),
        ("#end document\n", "document has no tokens", 1),
        ("d1.t1.1\tMan\tTITLE\t-\n", "file ends inside document d1", None),
        ("d1.t1.1\tMan\tTITLE\t-\n#begin document (d2);\n", "document d1 (line 1) has no '#end document'", 4),
    ],
)
def test_malformed_documents_name_file_and_line(tmp_path, body, message, line):
    path = write(tmp_path / "bad.conll", VALID_HEAD + body)
    with pytest.raises(InputError) as error:
        read_documents(path)
    assert message in str(error.value)
    assert str(path) in str(error.value)
    assert error.value.line == line


def test_document_without_dct_is_an_error(tmp_path):
    path = write(tmp_path / "nodct.conll", "#begin document (d1);\nd1.t1.1\tMan\tTITLE\t-\n#end document\n")
    with pytest.raises(InputError, match="line 1, document d1: document has no DCT line"):
        read_documents(path)


def test_bad_dct_and_stray_lines(tmp_path):
    with pytest.raises(InputError, match="DCT '2017-13-01' is not a YYYY-MM-DD date"):
        read_documents(write(tmp_path / "a.conll", "#begin document (d1);\nd1.DCT\t2017-13-01\tDCT\t-\n"))
    with pytest.raises(InputError, match="line 1: token line outside a document"):
        read_documents(write(tmp_path / "b.conll", "d1.t1.1\tMan\tTITLE\t-\n"))
    with pytest.raises(InputError, match="file not found"):
        read_documents(tmp_path / "missing.conll")


def test_duplicate_document_id(tmp_path, fixtures):
    text = (fixtures / "two_docs.conll").read_text()
    with pytest.raises(InputError, match="document d1: document id appears twice"):
        read_documents(write(tmp_path / "dup.conll", text + text))


def test_chain_column_formats():
    assert chain_column(5, {12: [(0, 0), (2, 4)], 3: [(2, 2)]}) == ["(12)", "-", "(12|(3)", "-", "12)"]
    with pytest.raises(ValueError):
        chain_column(2, {1: [(1, 2)]})


def test_write_then_read_round_trip_with_chains(tmp_path, fixtures):
    docs = read_documents(fixtures / "two_docs.conll")
    out = tmp_path / "out.conll"
    chains = {"d1": {7: [(1, 1), (10, 11)]}, "d2": {7: [(2, 2)]}}
    write_documents(out, list(docs.values()), chains)
    again = read_documents(out)
    assert [t.token_id for t in again["d1"].tokens] == [t.token_id for t in docs["d1"].tokens]
    assert read_chains(out) == chains
    assert not list(tmp_path.glob("*.partial"))


def test_chain_closed_without_opening(tmp_path):
    path = write(tmp_path / "c.conll", VALID_HEAD + "d1.t1.1\tMan\tTITLE\t4)\n#end document\n")
    with pytest.raises(InputError, match="line 3: chain 4 closed but never opened"):
        read_chains(path)
