"""Property: whatever bytes or JSON arrive, the runner answers one well-formed envelope (or closes cleanly) and keeps
serving."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runner_wire import AUTH_LINE, RunnerProcess, exchange, parse_response, post, request_bytes

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import decode_envelope

FUZZ = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], database=None
)


def assert_envelope_or_clean_close(raw: bytes, *, expect_code: str | tuple[str, ...] | None) -> dict[str, Any] | None:
    if raw == b"":
        return None
    response = parse_response(raw)
    assert response.headers["connection"] == "close"
    envelope = response.envelope
    decoded = decode_envelope(envelope)  # well-formed: boolean ok, data object or error code + message
    assert response.status == (200 if decoded.ok else response.status)
    if not decoded.ok:
        assert decoded.error is not None
        assert decoded.error.code in e.RUNNER_CODES
        assert response.status in (400, 401, 403, 405, 408, 413, 431, 500)
        assert (decoded.error.code == e.UNAUTHORIZED) == (response.status == 401)
        if expect_code is not None:
            assert decoded.error.code in ((expect_code,) if isinstance(expect_code, str) else expect_code)
    return envelope


def assert_still_serving(port: int) -> None:
    assert post(port, "uptime").envelope["ok"] is True


# Random bytes on the socket: garbage, or something that starts like HTTP.
http_prefixes = st.sampled_from(
    [
        b"",
        b"POST / HTTP/1.1\r\n",
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        b"GET ",
        b"POST / HTTP/1.1\r\n" + AUTH_LINE.encode(),
    ]
)


@FUZZ
@given(prefix=http_prefixes, noise=st.binary(max_size=600))
def test_random_bytes_get_invalid_request_or_a_clean_close(runner: RunnerProcess, prefix: bytes, noise: bytes) -> None:
    raw = exchange(runner.port, prefix + noise)
    assert_envelope_or_clean_close(raw, expect_code=(e.INVALID_REQUEST, e.UNAUTHORIZED))
    assert_still_serving(runner.port)


@FUZZ
@given(body=st.binary(max_size=400))
def test_random_bodies_with_valid_framing_get_invalid_request(runner: RunnerProcess, body: bytes) -> None:
    try:
        is_object = isinstance(json.loads(body), dict)
    except (ValueError, RecursionError):
        is_object = False
    expected = None if is_object else e.INVALID_REQUEST  # (a JSON object by chance: any well-formed envelope)
    envelope = assert_envelope_or_clean_close(exchange(runner.port, request_bytes(body)), expect_code=expected)
    assert envelope is not None
    assert_still_serving(runner.port)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(value=json_values)
def test_random_json_values_get_a_well_formed_envelope(runner: RunnerProcess, value: object) -> None:
    raw = exchange(runner.port, request_bytes(json.dumps(value).encode()))
    envelope = assert_envelope_or_clean_close(raw, expect_code=None if isinstance(value, dict) else e.INVALID_REQUEST)
    assert envelope is not None
    assert_still_serving(runner.port)


SAFE_COMMANDS = sorted(set(c.ALL_COMMANDS) - {c.SHUTDOWN})
field_names = st.sampled_from(
    ["commandId", "statusCommandId", "appBundleId", "x", "y", "numberOfTaps", "fromX", "fromY", "toX", "toY",
     "durationMs", "holdMs", "settle", "text", "button", "url", "format", "scale", "quality", "extra"]
)  # fmt: skip
# App ids never script a hang or a lost device: the fuzz checks validation and envelopes, not timing.
app_ids = st.sampled_from(["app.fuzz", "crash", "noisy", "unknown.fuzz", "fail.COMMAND_FAILED", "big.3"])


@FUZZ
@given(
    command=st.sampled_from(SAFE_COMMANDS),
    fields=st.dictionaries(field_names, json_values, max_size=6),
    app_id=st.none() | app_ids,
)
def test_random_requests_for_real_commands_get_a_well_formed_envelope(
    runner: RunnerProcess, command: str, fields: dict[str, object], app_id: str | None
) -> None:
    body: dict[str, object] = {**fields, "command": command}
    if app_id is not None:
        body["appBundleId"] = app_id
    elif isinstance(body.get("appBundleId"), str) and str(body["appBundleId"]).startswith(("hang", "device.lost")):
        body.pop("appBundleId")
    if isinstance(body.get("url"), str) and command == c.OPEN_URL:
        body["url"] = "https://fuzz.example/"
    raw = exchange(runner.port, request_bytes(json.dumps(body).encode()))
    assert assert_envelope_or_clean_close(raw, expect_code=None) is not None
    assert_still_serving(runner.port)


header_lines = st.one_of(
    st.sampled_from(["Host: 127.0.0.1", "Host: localhost:1", "Host: evil.example", "Host:", "Origin: null"]),
    st.sampled_from(["Transfer-Encoding: chunked", "Expect: 100-continue", "Connection: keep-alive"]),
    st.integers(min_value=-5, max_value=3 * 1024 * 1024).map(lambda n: f"Content-Length: {n}"),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
)


@FUZZ
@given(
    method=st.sampled_from(["POST", "GET", "PUT", "OPTIONS", "CONNECT", "post", "P OST", ""]),
    target=st.sampled_from(["/", "*", "/x?y=1", "http://127.0.0.1/", ""]),
    version=st.sampled_from(["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1 extra", ""]),
    headers=st.lists(header_lines, max_size=6),
    body=st.binary(max_size=200) | st.just(b'{"command":"status"}'),
)
def test_random_request_heads_get_a_well_formed_envelope_or_a_clean_close(
    runner: RunnerProcess, *, method: str, target: str, version: str, headers: list[str], body: bytes
) -> None:
    head = "\r\n".join([f"{method} {target} {version}", AUTH_LINE.strip(), *headers]) + "\r\n\r\n"
    raw = exchange(runner.port, head.encode() + body)
    assert_envelope_or_clean_close(raw, expect_code=None)
    assert_still_serving(runner.port)
