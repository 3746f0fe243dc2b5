"""Credentials for a SPARQL server behind HTTP authentication, from the environment or a netrc file.

Looked up in this order for a store URL:

1. ``$KG_COUNT_STORE_TOKEN``: a bearer token (``Authorization: Bearer ...``);
2. ``$KG_COUNT_STORE_USER`` and ``$KG_COUNT_STORE_PASSWORD``: HTTP basic;
3. the netrc file (``$NETRC``, else ``~/.netrc``): the ``machine`` entry of the URL's host, HTTP basic.

Never from the command line: a URL holding ``user:password@`` is refused (command lines are visible to every
user of the machine and kept in shell histories). Credentials are never printed, logged or put in an error
message; errors name where they came from, not what they are.
"""

from __future__ import annotations

import base64
import netrc
import os
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from kg_count.errors import StoreError

TOKEN_ENV = "KG_COUNT_STORE_TOKEN"
USER_ENV = "KG_COUNT_STORE_USER"
PASSWORD_ENV = "KG_COUNT_STORE_PASSWORD"


@dataclass(frozen=True)
class Credentials:
    """An Authorization header's value and where it came from (for messages: never the secret itself)."""

    header: str = ""
    source: str = ""

    def __repr__(self) -> str:
        return f"Credentials(from {self.source})" if self.source else "Credentials(none)"


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode("utf-8")).decode("ascii")


def _netrc_path() -> Path:
    return Path(os.environ.get("NETRC") or Path.home() / ".netrc")


def refuse_url_credentials(url: str) -> None:
    """StoreError when ``url`` carries a user or password (the message does not repeat the URL)."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is not None or parts.password is not None:
        raise StoreError(
            f"credentials in a store URL are refused; give them in ${TOKEN_ENV}, ${USER_ENV} and ${PASSWORD_ENV}, "
            f"or a netrc file, and the URL as {parts.scheme}://{parts.hostname}"
            + (f":{parts.port}" if parts.port else "")
            + parts.path
        )


def credentials_for(url: str) -> Credentials:
    """The credentials to send to the server at ``url`` (none when nothing is configured); StoreError when the
    environment holds half of a user and password, or the netrc file cannot be read."""
    refuse_url_credentials(url)
    token = os.environ.get(TOKEN_ENV)
    if token:
        return Credentials(f"Bearer {token}", f"${TOKEN_ENV}")
    user, password = os.environ.get(USER_ENV), os.environ.get(PASSWORD_ENV)
    if user or password:
        if not (user and password):
            missing = PASSWORD_ENV if user else USER_ENV
            raise StoreError(f"${USER_ENV} and ${PASSWORD_ENV} go together: ${missing} is not set")
        return Credentials(_basic(user, password), f"${USER_ENV}")
    path = _netrc_path()
    if not path.is_file():
        return Credentials()
    try:
        entry = netrc.netrc(str(path)).authenticators(urllib.parse.urlsplit(url).hostname or "")
    except (netrc.NetrcParseError, OSError) as error:
        line = getattr(error, "lineno", None)
        raise StoreError("cannot read the netrc file" + (f" (line {line})" if line else ""), path) from None
    if entry is None:
        return Credentials()
    login, _, password = entry
    return Credentials(_basic(login or "", password or ""), f"netrc file {path}")
