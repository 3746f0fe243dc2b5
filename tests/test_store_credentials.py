"""Server stores behind HTTP authentication: credentials from the environment or a netrc file, never leaked.

The server is a real `oxigraph serve` behind a small authenticating proxy that answers 401 to any request
without the expected Authorization header and forwards the others."""

from __future__ import annotations

import base64
import http.server
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kg_count.cli import main
from kg_count.io.conll import iter_documents, write_documents
from tests.helpers import SAMPLE

USER, PASSWORD, TOKEN = "analyst", "s3cret-Pa55", "tok-9f8e7d"
SECRETS = (PASSWORD, TOKEN, base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode())
ACCEPTED = {"Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode(), f"Bearer {TOKEN}"}


@pytest.fixture
def guarded_server(oxigraph_server):
    """The URL of an authenticating proxy in front of ``oxigraph_server``."""

    class Proxy(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the http.server API)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.headers.get("Authorization") not in ACCEPTED:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="store"')
                self.end_headers()
                return
            upstream = urllib.request.Request(
                oxigraph_server + self.path,
                data=body,
                method="POST",
                headers={k: self.headers[k] for k in ("Content-Type", "Accept") if self.headers.get(k)},
            )
            try:
                with urllib.request.urlopen(upstream, timeout=60) as answer:
                    code, kind, payload = answer.status, answer.headers.get("Content-Type", ""), answer.read()
            except urllib.error.HTTPError as error:
                code, kind, payload = error.code, error.headers.get("Content-Type", ""), error.read()
            self.send_response(code)
            if kind:
                self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def two_docs(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("two") / "docs.conll"
    write_documents(path, [d for _, d in zip(range(2), iter_documents(SAMPLE / "docs.conll"))])
    return path


@pytest.fixture
def clean_environment(monkeypatch, tmp_path):
    for name in ("KG_COUNT_STORE_TOKEN", "KG_COUNT_STORE_USER", "KG_COUNT_STORE_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NETRC", str(tmp_path / "no-netrc"))
    return monkeypatch


def run(args, capsys) -> tuple[int, str]:
    try:
        code = main([str(a) for a in args])
    except SystemExit as stop:
        code = stop.code
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert not any(secret in text for secret in SECRETS), "a credential was printed"
    return code, text


COUNT = "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"


def build_and_count(server: str, docs: Path, capsys) -> tuple[int, str]:
    code, text = run(["build", "--docs", docs, "--store", server], capsys)
    if code != 0:
        return code, text
    return run(["sparql", "--store", server, COUNT], capsys)


def test_user_and_password_from_the_environment(guarded_server, two_docs, clean_environment, capsys):
    clean_environment.setenv("KG_COUNT_STORE_USER", USER)
    clean_environment.setenv("KG_COUNT_STORE_PASSWORD", PASSWORD)
    code, text = build_and_count(guarded_server, two_docs, capsys)
    assert code == 0, text


def test_a_bearer_token_from_the_environment(guarded_server, two_docs, clean_environment, capsys):
    clean_environment.setenv("KG_COUNT_STORE_TOKEN", TOKEN)
    code, text = build_and_count(guarded_server, two_docs, capsys)
    assert code == 0, text


def test_a_netrc_entry_for_the_host(guarded_server, two_docs, clean_environment, tmp_path, capsys):
    netrc = tmp_path / "netrc"
    netrc.write_text(f"machine 127.0.0.1\n  login {USER}\n  password {PASSWORD}\n", encoding="utf-8")
    netrc.chmod(0o600)
    clean_environment.setenv("NETRC", str(netrc))
    code, text = build_and_count(guarded_server, two_docs, capsys)
    assert code == 0, text


def test_no_or_wrong_credentials_are_refused_clearly_without_showing_them(
    guarded_server, two_docs, clean_environment, capsys
):
    code, text = run(["sparql", "--store", guarded_server, COUNT], capsys)
    assert code == 1 and "refused no credentials" in text and "HTTP 401" in text
    clean_environment.setenv("KG_COUNT_STORE_USER", USER)
    clean_environment.setenv("KG_COUNT_STORE_PASSWORD", PASSWORD + "-wrong")
    code, text = run(["sparql", "--store", guarded_server, COUNT], capsys)
    assert code == 1 and "$KG_COUNT_STORE_USER" in text and PASSWORD + "-wrong" not in text
    clean_environment.delenv("KG_COUNT_STORE_PASSWORD")
    code, text = run(["sparql", "--store", guarded_server, COUNT], capsys)
    assert code == 1 and "KG_COUNT_STORE_PASSWORD is not set" in text


def test_credentials_in_the_url_are_refused_and_not_repeated(guarded_server, clean_environment, capsys):
    with_password = guarded_server.replace("http://", f"http://{USER}:{PASSWORD}@")
    code, text = run(["sparql", "--store", with_password, COUNT], capsys)
    assert code == 1 and "credentials in a store URL are refused" in text
    assert guarded_server in text  # the URL to use instead, without them
