"""The admission rules of ``phonewire mcp --http`` (:class:`phonewire.frontends.mcp_http.Guard`), request by request:
path, then Host (DNS rebinding), then Origin (web pages), then the bearer token."""

from __future__ import annotations

import json

import pytest

from phonewire.frontends.mcp_http import Guard
from phonewire.protocol import errors as e

PORT = 8790
GOOD = [(b"host", b"127.0.0.1:8790"), (b"authorization", b"Bearer s3cret")]


def check(headers: list[tuple[bytes, bytes]], path: str = "/mcp", *, remote: bool = False) -> tuple[int, str] | None:
    refusal = Guard("s3cret", PORT, allow_remote=remote).check(path, headers)
    return None if refusal is None else (refusal.status, refusal.code)


@pytest.mark.parametrize("host", [b"127.0.0.1:8790", b"localhost:8790", b"[::1]:8790", b"LOCALHOST:8790"])
def test_a_loopback_host_with_the_servers_port_and_the_token_is_served(host: bytes) -> None:
    assert check([(b"host", host), (b"authorization", b"Bearer s3cret")]) is None
    assert check([(b"host", host), (b"authorization", b"bearer s3cret")]) is None  # the scheme is case-insensitive


def test_the_endpoint_is_mcp_only() -> None:
    assert check(GOOD, "/mcp/") is None
    assert check(GOOD, "/") == (404, e.NOT_FOUND)
    assert check(GOOD, "/sse") == (404, e.NOT_FOUND)


@pytest.mark.parametrize(
    "host", [b"evil.example:8790", b"127.0.0.1:8791", b"127.0.0.1", b"localhost", b"[::1]", b"10.0.0.2:8790", b""]
)
def test_a_host_that_is_not_this_servers_loopback_address_is_refused_even_with_the_token(host: bytes) -> None:
    assert check([(b"host", host), (b"authorization", b"Bearer s3cret")]) == (403, e.INVALID_REQUEST)


def test_no_host_or_two_hosts_are_refused() -> None:
    assert check([(b"authorization", b"Bearer s3cret")]) == (403, e.INVALID_REQUEST)
    assert check([*GOOD, (b"host", b"127.0.0.1:8790")]) == (403, e.INVALID_REQUEST)


@pytest.mark.parametrize(
    "origin", [b"http://evil.example", b"null", b"http://127.0.0.1:8791", b"https://127.0.0.1:8790", b"file://"]
)
def test_a_foreign_origin_is_refused_even_with_the_token(origin: bytes) -> None:
    assert check([*GOOD, (b"origin", origin)]) == (403, e.INVALID_REQUEST)


def test_the_servers_own_origin_is_served() -> None:
    assert check([*GOOD, (b"origin", b"http://127.0.0.1:8790")]) is None


@pytest.mark.parametrize(
    "auth",
    [[], [b"Bearer wrong"], [b"Basic czNjcmV0"], [b"s3cret"], [b"Bearer s3cret", b"Bearer s3cret"], [b"Bearer s3cre"]],
)
def test_a_missing_or_wrong_token_is_401(auth: list[bytes]) -> None:
    headers = [(b"host", b"127.0.0.1:8790"), *((b"authorization", a) for a in auth)]
    assert check(headers) == (401, e.UNAUTHORIZED)


def test_host_and_origin_are_checked_before_the_token() -> None:
    """A web page learns nothing about the token: it is refused as a web page."""
    assert check([(b"host", b"evil.example:8790")]) == (403, e.INVALID_REQUEST)
    assert check([(b"host", b"127.0.0.1:8790"), (b"origin", b"http://evil.example")]) == (403, e.INVALID_REQUEST)


def test_allow_remote_serves_any_host_with_the_token_and_still_refuses_web_pages() -> None:
    remote = [(b"host", b"phone-lab.local:8790"), (b"authorization", b"Bearer s3cret")]
    assert check(remote, remote=True) is None
    assert check(remote[:1], remote=True) == (401, e.UNAUTHORIZED)
    assert check([*remote, (b"origin", b"http://evil.example")], remote=True) == (403, e.INVALID_REQUEST)


def test_a_refusal_body_is_a_json_rpc_error_with_the_code_and_a_hint() -> None:
    refusal = Guard("s3cret", PORT).check("/mcp", [(b"host", b"127.0.0.1:8790")])
    assert refusal is not None
    body = json.loads(refusal.body())
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    assert body["error"]["data"]["code"] == e.UNAUTHORIZED
    assert body["error"]["message"].startswith("UNAUTHORIZED: ")
    assert "Bearer" in body["error"]["data"]["hint"]


def test_docs_mcp_md_describes_the_http_server_as_the_code_runs_it() -> None:
    from pathlib import Path

    from phonewire.frontends.mcp_http import DEFAULT_PORT, ENDPOINT, READY_LINE, TOKEN_ENV
    from phonewire.frontends.mcp_server import build_parser

    doc = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    assert f"http://127.0.0.1:{DEFAULT_PORT}{ENDPOINT}" in doc
    assert READY_LINE.format(url=f"http://127.0.0.1:PORT{ENDPOINT}") in doc
    assert TOKEN_ENV in doc and "`mcp-PORT.token`" in doc and "0600" in doc
    options = {o for a in build_parser()._actions for o in a.option_strings if o.startswith("--")} - {"--help"}
    usage = next(line for line in doc.splitlines() if line.startswith("phonewire mcp --http"))
    assert options <= set(usage.replace("[", " ").replace("]", " ").split()), (options, usage)
    for status, code in ((404, e.NOT_FOUND), (403, e.INVALID_REQUEST), (401, e.UNAUTHORIZED)):
        assert f"| {status} `{code}` |" in doc
