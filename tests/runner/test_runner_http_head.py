"""The adapter's own checks on a finished header block (pure functions; h11 builds the events)."""

from __future__ import annotations

import h11
import pytest

from phonewire.protocol import errors as e
from phonewire.protocol.commands import MAX_REQUEST_BYTES
from phonewire.runner.http import MAX_HEADER_BYTES, FramingError, check_head, is_loopback_host

TOKEN = b"s3cret-token_value"
AUTH = ("Authorization", "Bearer s3cret-token_value")


def head(*headers: tuple[str, str], method: str = "POST", auth: bool = True) -> h11.Request:
    return h11.Request(method=method, target="/", headers=[AUTH, *headers] if auth else list(headers))


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.0.0.1:1", "127.8.9.10", "localhost", "LocalHost:9", "localhost.", "[::1]", "[::1]:5"]
)
def test_loopback_names_are_loopback(host: str) -> None:
    assert is_loopback_host(host.encode())


@pytest.mark.parametrize(
    "host",
    ["", "0.0.0.0", "10.0.0.1", "evil.example", "localhost.evil", "127.0.0.1:x", "[::1", "[::1]x", "::1", "é", "[::2]"],
)
def test_other_names_are_not_loopback(host: str) -> None:
    assert not is_loopback_host(host.encode("utf-8"))


def test_a_good_head_yields_its_content_length() -> None:
    assert check_head(head(("Host", "127.0.0.1"), ("Content-Length", "20")), TOKEN) == 20


@pytest.mark.parametrize(
    ("headers", "method", "status"),
    [
        ([("Host", "127.0.0.1")], "POST", 400),
        ([("Host", "127.0.0.1"), ("Transfer-Encoding", "chunked")], "POST", 400),
        ([("Host", "127.0.0.1"), ("Content-Length", str(MAX_REQUEST_BYTES + 1))], "POST", 413),
        ([("Host", "example.org"), ("Content-Length", "2")], "POST", 403),
        ([("Host", "127.0.0.1"), ("Origin", "null"), ("Content-Length", "2")], "POST", 403),
        ([("Host", "127.0.0.1"), ("Content-Length", "2")], "GET", 405),
        ([("Host", "127.0.0.1"), ("Content-Length", "2"), ("X-Pad", "p" * MAX_HEADER_BYTES)], "POST", 431),
    ],
)
def test_refusals_are_invalid_request_envelopes_with_their_status(
    headers: list[tuple[str, str]], method: str, status: int
) -> None:
    with pytest.raises(FramingError) as caught:
        check_head(head(*headers, method=method), TOKEN)
    assert caught.value.status == status
    assert caught.value.reply.status == status
    assert caught.value.reply.body.startswith(b'{"ok":false,"error":{"code":"INVALID_REQUEST"')


@pytest.mark.parametrize(
    "auth",
    [
        None,
        "Bearer",
        "Bearer s3cret-token_valuE",
        "Bearer s3cret-token_value-and-more",
        "Basic s3cret-token_value",
        "s3cret-token_value",
        "Bearer s3cret-token_valu\u00e9",
    ],
)
def test_a_missing_or_wrong_bearer_token_is_401_unauthorized_before_any_other_check(auth: str | None) -> None:
    headers: list[tuple[bytes, bytes]] = [(b"Content-Length", b"20")]
    if auth is not None:
        headers.append((b"Authorization", auth.encode("latin-1")))
    request = h11.Request(method="GET", target="/", headers=[(b"Host", b"evil.example"), *headers])  # 405 and 403 too
    with pytest.raises(FramingError) as caught:
        check_head(request, TOKEN)
    assert caught.value.status == 401
    body = caught.value.reply.body
    assert body.startswith(b'{"ok":false,"error":{"code":"UNAUTHORIZED"')
    assert b"Nothing ran" in body and b"Authorization: Bearer" in body
    assert e.UNAUTHORIZED in e.RUNNER_CODES


def test_two_authorization_headers_are_refused_even_if_one_is_right() -> None:
    twice = head(("Authorization", "Bearer other"), ("Host", "127.0.0.1"), ("Content-Length", "2"))
    with pytest.raises(FramingError) as caught:
        check_head(twice, TOKEN)
    # its own refusal (issue 28): not "a wrong bearer token", which sends the client looking for another token
    assert caught.value.status == 400
    assert b"carries 2 Authorization headers; exactly one is taken" in caught.value.reply.body


def test_the_bearer_scheme_is_case_insensitive() -> None:
    request = h11.Request(
        method="POST",
        target="/",
        headers=[("Authorization", "bearer s3cret-token_value"), ("Host", "127.0.0.1"), ("Content-Length", "2")],
    )
    assert check_head(request, TOKEN) == 2


def test_exactly_2mb_declared_is_accepted() -> None:
    declared = check_head(head(("Host", "localhost"), ("Content-Length", str(MAX_REQUEST_BYTES))), TOKEN)
    assert declared == MAX_REQUEST_BYTES


def test_deadlines_follow_the_time_scale_down_to_a_floor() -> None:
    from phonewire.runner.http import Limits

    assert (Limits.scaled(1.0).read_deadline, Limits.scaled(1.0).write_deadline) == (10.0, 30.0)
    assert (Limits.scaled(0.5).read_deadline, Limits.scaled(0.5).write_deadline) == (5.0, 15.0)
    assert (Limits.scaled(0.01).read_deadline, Limits.scaled(0.01).write_deadline) == (1.0, 5.0)
