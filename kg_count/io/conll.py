"""The task's CoNLL documents: reading with validation, and writing with event coreference chains.

A document is ``#begin document (ID);`` then a DCT line ``ID.DCT<TAB>YYYY-MM-DD<TAB>DCT<TAB>-``,
then token lines ``ID.{t|b}SENT.TOK<TAB>word<TAB>TITLE|BODY<TAB>chain``, then ``#end document``.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, Sequence

from kg_count.errors import InputError
from kg_count.io.atomic import atomic_writer

BEGIN_RE = re.compile(r"^#begin document \((?P<doc>[^)]+)\);?\s*$")
END_LINE = "#end document"
TOKEN_ID_RE = re.compile(r"^(?P<doc>.+)\.(?P<part>[tb])(?P<sent>\d+)\.(?P<tok>\d+)$")
PARTS = {"t": "TITLE", "b": "BODY"}
NEWLINE_TOKEN = "NEWLINE"
EMPTY_TOKEN = "EMPTY"
DCT_YEARS = (1900, 2099)


@dataclass(frozen=True)
class Token:
    """One CoNLL token: its id kept exactly, its word, TITLE or BODY, and its sentence key (``t1``, ``b3``)."""

    token_id: str
    text: str
    part: str
    sentence: str
    index: int

    @property
    def is_layout(self) -> bool:
        """True for the NEWLINE and EMPTY placeholder tokens, which carry no word."""
        return self.text in (NEWLINE_TOKEN, EMPTY_TOKEN)


@dataclass
class Document:
    """A news document: id, creation date (DCT) and tokens in file order."""

    doc_id: str
    dct: dt.date
    tokens: list[Token] = field(default_factory=list)

    def sentences(self) -> list[list[Token]]:
        """Return the tokens grouped by sentence key, in file order."""
        groups: dict[str, list[Token]] = {}
        for token in self.tokens:
            groups.setdefault(token.sentence, []).append(token)
        return list(groups.values())

    def words(self, part: str | None = None) -> list[str]:
        """Return the token words (NEWLINE and EMPTY left out), optionally of one part (TITLE or BODY)."""
        return [t.text for t in self.tokens if not t.is_layout and (part is None or t.part == part)]

    @property
    def title(self) -> str:
        return " ".join(self.words("TITLE"))

    def lead(self, words: int = 60) -> str:
        """The first ``words`` words of the body (NEWLINE and EMPTY left out), joined by spaces."""
        return " ".join(self.words("BODY")[:words])

    @property
    def text(self) -> str:
        """The words of title and body joined by spaces, NEWLINE tokens as line breaks."""
        pieces = []
        for token in self.tokens:
            if token.text == NEWLINE_TOKEN:
                pieces.append("\n")
            elif token.text != EMPTY_TOKEN:
                pieces.append(token.text)
        return " ".join(pieces)


def parse_dct(value: str, path: object, line: int, doc_id: str) -> dt.date:
    """A document creation date ``YYYY-MM-DD`` within DCT_YEARS; InputError names the file, line and document."""
    try:
        date = dt.date.fromisoformat(value)
    except ValueError:
        raise InputError(f"DCT {value!r} is not a YYYY-MM-DD date", path, line, f"document {doc_id}") from None
    if not DCT_YEARS[0] <= date.year <= DCT_YEARS[1]:
        raise InputError(
            f"DCT {value} is outside the years {DCT_YEARS[0]}-{DCT_YEARS[1]}", path, line, f"document {doc_id}"
        )
    return date


def _parse_token(fields: list[str], doc_id: str, path: object, line: int) -> Token:
    match = TOKEN_ID_RE.match(fields[0])
    if match is None or match["doc"] != doc_id:
        raise InputError(f"token id {fields[0]!r} is not of the form {doc_id}.(t|b)SENT.TOK", path, line)
    part = PARTS[match["part"]]
    if fields[2] != part:
        raise InputError(f"token {fields[0]} is in {fields[2]!r}, its id says {part}", path, line)
    if not fields[1]:
        raise InputError(f"token {fields[0]} has an empty word (write {EMPTY_TOKEN} for a blank token)", path, line)
    return Token(fields[0], fields[1], part, match["part"] + match["sent"], int(match["tok"]))


def text_lines(path: str | os.PathLike) -> Iterator[tuple[int, str]]:
    """Yield (line number, line without its line break) of a UTF-8 text file (a byte-order mark is
    dropped); InputError names the file and line when the file is missing, a folder, or not UTF-8."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(
                    f"not UTF-8 text (byte {raw[error.start]:#04x} at column {error.start + 1})", path, number
                ) from None
            if number == 1:
                line = line.removeprefix("\ufeff")
            yield number, line.rstrip("\n").rstrip("\r")


def iter_documents(path: str | os.PathLike) -> Iterator[Document]:
    """Yield the documents of a CoNLL file one at a time.

    Raises InputError naming the file and line for a truncated or malformed line, a token outside
    a document, a document without DCT or without tokens, or a file that ends inside a document.
    """
    doc: Document | None = None
    doc_line = 0
    has_dct = False
    for number, line in text_lines(path):
        if not line.strip():
            continue
        if line.startswith("#begin"):
            if doc is not None:
                raise InputError(f"document {doc.doc_id} (line {doc_line}) has no '{END_LINE}'", path, number)
            match = BEGIN_RE.match(line)
            if match is None:
                raise InputError("malformed '#begin document (ID);' line", path, number)
            doc, doc_line, has_dct = Document(match["doc"], dt.date.min), number, False
            continue
        if line.startswith(END_LINE):
            if doc is None:
                raise InputError(f"'{END_LINE}' without '#begin document'", path, number)
            if not has_dct:
                raise InputError("document has no DCT line", path, doc_line, f"document {doc.doc_id}")
            if not doc.tokens:
                raise InputError("document has no tokens", path, doc_line, f"document {doc.doc_id}")
            yield doc
            doc = None
            continue
        if doc is None:
            raise InputError("token line outside a document", path, number)
        fields = line.split("\t")
        if len(fields) != 4:
            raise InputError(f"expected 4 tab-separated columns, found {len(fields)}", path, number)
        if fields[2] == "DCT":
            if fields[0] != f"{doc.doc_id}.DCT":
                raise InputError(f"DCT id {fields[0]!r} does not match document {doc.doc_id}", path, number)
            doc.dct, has_dct = parse_dct(fields[1], path, number, doc.doc_id), True
        else:
            doc.tokens.append(_parse_token(fields, doc.doc_id, path, number))
    if doc is not None:
        raise InputError(f"file ends inside document {doc.doc_id} (begun on line {doc_line})", path)


def read_documents(path: str | os.PathLike) -> dict[str, Document]:
    """Read every document of a CoNLL file into a dict keyed by document id (file order kept)."""
    return keyed_documents(iter_documents(path), path)


def keyed_documents(read: Iterable[Document], path: str | os.PathLike) -> dict[str, Document]:
    """The documents ``read`` from ``path``, keyed by document id (file order kept); InputError naming a
    document id that appears twice."""
    documents: dict[str, Document] = {}
    for doc in read:
        if doc.doc_id in documents:
            raise InputError("document id appears twice", path, item=f"document {doc.doc_id}")
        documents[doc.doc_id] = doc
    return documents


Mention = tuple[int, int]
"""A mention: the first and last position (0-based, in the document's token list) it covers."""


def chain_column(n_tokens: int, chains: Mapping[int, Iterable[Mention]]) -> list[str]:
    """Return the fourth column for a document: ``(12)``, ``(12``, ``12)`` or ``-`` per token.

    ``chains`` maps a chain id to the mentions in it.
    """
    opens: list[list[int]] = [[] for _ in range(n_tokens)]
    closes: list[list[int]] = [[] for _ in range(n_tokens)]
    singles: list[list[int]] = [[] for _ in range(n_tokens)]
    for chain_id, mentions in sorted(chains.items()):
        for start, end in mentions:
            if not 0 <= start <= end < n_tokens:
                raise ValueError(f"mention {(start, end)} of chain {chain_id} lies outside 0..{n_tokens - 1}")
            if start == end:
                singles[start].append(chain_id)
            else:
                opens[start].append(chain_id)
                closes[end].append(chain_id)
    column = []
    for i in range(n_tokens):
        parts = [f"({c}" for c in opens[i]] + [f"({c})" for c in singles[i]] + [f"{c})" for c in closes[i]]
        column.append("|".join(parts) if parts else "-")
    return column


def write_documents(
    path: str | os.PathLike,
    documents: Sequence[Document],
    chains: Mapping[str, Mapping[int, Iterable[Mention]]] | None = None,
) -> None:
    """Write documents in the task's CoNLL format, atomically; ``chains[doc_id]`` fills the fourth column."""
    chains = chains or {}
    with atomic_writer(path) as out:
        for doc in documents:
            out.write(f"#begin document ({doc.doc_id});\n")
            out.write(f"{doc.doc_id}.DCT\t{doc.dct.isoformat()}\tDCT\t-\n")
            column = chain_column(len(doc.tokens), chains.get(doc.doc_id, {}))
            for token, tag in zip(doc.tokens, column):
                out.write(f"{token.token_id}\t{token.text}\t{token.part}\t{tag}\n")
            out.write(f"{END_LINE}\n")


def read_chains(path: str | os.PathLike) -> dict[str, dict[int, list[Mention]]]:
    """Read the event coreference chains of a CoNLL file's fourth column.

    Returns ``{doc_id: {chain_id: [(start, end), ...]}}`` with token positions in each document.
    A chain closed without being opened raises InputError naming the file and line.
    """
    result: dict[str, dict[int, list[Mention]]] = {}
    open_at: dict[int, list[int]] = {}
    doc_id, position, start_line, inside = None, -1, 0, False
    for number, line in text_lines(path):
        match = BEGIN_RE.match(line)
        if match:
            if inside:
                raise InputError(f"document {doc_id} (line {start_line}) has no '{END_LINE}'", path, number)
            doc_id, position, open_at, start_line, inside = match["doc"], -1, {}, number, True
            result.setdefault(doc_id, {})
            continue
        if line.startswith(END_LINE):
            if any(open_at.values()):
                raise InputError(
                    f"chain(s) {sorted(c for c, s in open_at.items() if s)} never closed",
                    path,
                    start_line,
                    f"document {doc_id}",
                )
            inside = False
            continue
        fields = line.split("\t")
        if doc_id is None or len(fields) < 4 or fields[2] == "DCT":
            continue
        position += 1
        tag = fields[-1].strip()
        if tag in ("-", "_", ""):
            continue
        for piece in tag.split("|"):
            chain_match = re.fullmatch(r"(\()?(\d+)(\))?", piece)
            if chain_match is None:
                raise InputError(f"malformed chain tag {piece!r}", path, number)
            chain = int(chain_match[2])
            if chain_match[1] and chain_match[3]:
                result[doc_id].setdefault(chain, []).append((position, position))
            elif chain_match[1]:
                open_at.setdefault(chain, []).append(position)
            else:
                if not open_at.get(chain):
                    raise InputError(f"chain {chain} closed but never opened", path, number)
                result[doc_id].setdefault(chain, []).append((open_at[chain].pop(), position))
    if inside:
        raise InputError(f"file ends inside document {doc_id} (begun on line {start_line})", path)
    if not result:
        raise InputError("no '#begin document' line: not a CoNLL file", path)
    return result
