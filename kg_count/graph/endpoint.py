"""A SPARQL 1.1 protocol client for a server store: queries at ``URL/query``, updates at ``URL/update``.

rdflib's own client sends ``CREATE GRAPH`` whenever a named graph is touched, has no network
timeout and reports every failure in one sentence; this one sends only the requests the store
asks for, stops waiting after a timeout, and says what went wrong.
"""

from __future__ import annotations

import io
import os
import socket
import urllib.error
import urllib.parse
import urllib.request

from rdflib import Graph
from rdflib.query import Result

from kg_count.errors import StoreError
from kg_count.graph.credentials import credentials_for

DEFAULT_TIMEOUT = 60.0
RESULT_TYPES = "application/sparql-results+json, application/n-triples;q=0.9, text/turtle;q=0.8"
GRAPH_FORMATS = {"application/n-triples": "nt", "text/turtle": "turtle", "application/rdf+xml": "xml"}
SOLUTION_FORMATS = {"application/sparql-results+json": "json", "application/sparql-results+xml": "xml"}


def default_timeout() -> float:
    """Seconds to wait for a server's answer: ``$KG_COUNT_TIMEOUT``, else 60."""
    text = os.environ.get("KG_COUNT_TIMEOUT")
    if not text:
        return DEFAULT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise StoreError(f"KG_COUNT_TIMEOUT must be a positive number of seconds, not {text!r}")
    return value


class SparqlEndpoint:
    """The query and update services of one SPARQL server at ``url`` (no trailing slash), with the credentials
    the environment or a netrc file gives for it (kg_count.graph.credentials)."""

    def __init__(self, url: str, timeout: float | None = None) -> None:
        self.credentials = credentials_for(url)
        self.url = url
        self.timeout = default_timeout() if timeout is None else timeout
        parts = urllib.parse.urlsplit(url)
        self.host = parts.hostname or url
        self.address = f"{self.host}:{parts.port}" if parts.port else self.host

    def query(self, sparql: str) -> Result:
        """Run a query; return its rdflib Result (rows for SELECT, a boolean for ASK, a graph otherwise)."""
        body, content_type = self._post("query", sparql, "application/sparql-query", RESULT_TYPES)
        if content_type in SOLUTION_FORMATS:
            try:
                return Result.parse(io.BytesIO(body), format=SOLUTION_FORMATS[content_type])
            except Exception as error:  # the result parsers raise unrelated types
                raise StoreError(f"the server's answer is not valid SPARQL results: {error}", self.url) from None
        if content_type in GRAPH_FORMATS:
            result = Result("CONSTRUCT")
            result.graph = Graph()
            try:
                result.graph.parse(data=body, format=GRAPH_FORMATS[content_type])
            except Exception as error:  # rdflib's parsers raise unrelated types
                raise StoreError(f"the server's answer is not valid RDF: {error}", self.url) from None
            return result
        raise StoreError(
            f"not a SPARQL endpoint: {self.url}/query answered {content_type or 'no content type'}", self.url
        )

    def update(self, sparql: str) -> None:
        """Run a SPARQL update."""
        self._post("update", sparql, "application/sparql-update; charset=UTF-8", "*/*")

    def _post(self, service: str, text: str, content_type: str, accept: str) -> tuple[bytes, str]:
        url = f"{self.url}/{service}"
        headers = {"Content-Type": content_type, "Accept": accept}
        if self.credentials.header:
            headers["Authorization"] = self.credentials.header
        request = urllib.request.Request(url, data=text.encode("utf-8"), method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
                return response.read(), kind
        except urllib.error.HTTPError as error:
            raise StoreError(self._http_message(url, error), self.url) from None
        except urllib.error.URLError as error:
            raise StoreError(self._network_message(error.reason), self.url) from None
        except (TimeoutError, socket.timeout):
            raise StoreError(self._network_message(TimeoutError()), self.url) from None
        except (ConnectionError, OSError) as error:
            raise StoreError(self._network_message(error), self.url) from None

    def _http_message(self, url: str, error: urllib.error.HTTPError) -> str:
        if error.code in (404, 405):
            return f"not a SPARQL endpoint: {url} answered HTTP {error.code} {error.reason}"
        if error.code in (401, 403):
            given = f"the credentials from {self.credentials.source}" if self.credentials.source else "no credentials"
            return (
                f"the SPARQL server refused {given} (HTTP {error.code} {error.reason}); set $KG_COUNT_STORE_TOKEN, "
                "$KG_COUNT_STORE_USER and $KG_COUNT_STORE_PASSWORD, or a netrc entry for its host"
            )
        detail = error.read(500).decode("utf-8", "replace").strip().splitlines()
        return f"the SPARQL server answered HTTP {error.code} {error.reason}" + (f": {detail[0]}" if detail else "")

    def _network_message(self, reason: object) -> str:
        if isinstance(reason, (TimeoutError, socket.timeout)):
            return f"no answer from the SPARQL server within {self.timeout:g} s (set KG_COUNT_TIMEOUT to wait longer)"
        if isinstance(reason, ConnectionRefusedError):
            return f"connection refused by {self.address}: is the SPARQL server running?"
        if isinstance(reason, socket.gaierror):
            return f"unknown host {self.host!r}"
        return f"cannot reach the SPARQL server: {reason}"
