"""Framing rules of the runner's HTTP adapter, over real sockets, headers fed whole and byte by byte."""

from __future__ import annotations

import json
import socket
import time

import pytest
from runner_wire import (
    AUTH_LINE,
    RunnerProcess,
    connect,
    exchange,
    parse_response,
    post,
    post_raw,
    read_all,
    request_bytes,
    running,
    status,
)

from phonewire.protocol.commands import MAX_REQUEST_BYTES

FEEDS = [pytest.param(False, id="whole"), pytest.param(True, id="byte-by-byte")]
STATUS_BODY = b'{"command":"status"}'


_PORT = [0]


def invalid(raw: bytes, *, byte_by_byte: bool = False) -> tuple[int, dict[str, object]]:
    response = parse_response(exchange(_PORT[0], raw, byte_by_byte=byte_by_byte))
    envelope = response.envelope
    assert envelope["ok"] is False
    error = envelope["error"]
    assert isinstance(error, dict)
    assert error["code"] == "INVALID_REQUEST"
    assert error["message"]
    return response.status, error


@pytest.fixture(autouse=True)
def _port(runner: RunnerProcess) -> None:
    _PORT[0] = runner.port


@pytest.mark.parametrize("byte_by_byte", FEEDS)
def test_ok_envelope_is_http_200_with_connection_close(runner: RunnerProcess, byte_by_byte: bool) -> None:
    response = parse_response(exchange(runner.port, request_bytes(STATUS_BODY), byte_by_byte=byte_by_byte))
    assert response.status == 200
    assert response.headers["connection"] == "close"
    assert response.headers["content-type"] == "application/json"
    assert response.envelope["ok"] is True
    assert response.data["state"] == "idle"


def test_error_envelope_is_http_500(runner: RunnerProcess) -> None:
    response = post(runner.port, "tap", appBundleId="app.never-launched", x=1, y=1)
    assert response.status == 500
    assert response.code == "APP_NOT_AVAILABLE"


def test_one_request_per_connection_a_pipelined_second_request_is_not_answered(runner: RunnerProcess) -> None:
    raw = exchange(runner.port, request_bytes(STATUS_BODY) * 2)
    assert raw.count(b"HTTP/1.1 ") == 1
    assert parse_response(raw).status == 200


def test_reply_without_half_close_the_runner_closes_first(runner: RunnerProcess) -> None:
    raw = exchange(runner.port, request_bytes(STATUS_BODY), half_close=False)
    assert parse_response(raw).status == 200


@pytest.mark.parametrize("byte_by_byte", FEEDS)
def test_missing_content_length_is_400(runner: RunnerProcess, byte_by_byte: bool) -> None:
    raw = request_bytes(STATUS_BODY, headers=[])
    code, error = invalid(raw, byte_by_byte=byte_by_byte)
    assert code == 400
    assert "Content-Length" in str(error["message"])


@pytest.mark.parametrize("byte_by_byte", FEEDS)
@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "0x10", "99999999999999999999999"])
def test_unusable_content_length_is_400(runner: RunnerProcess, value: str, byte_by_byte: bool) -> None:
    code, _ = invalid(request_bytes(STATUS_BODY, headers=[("Content-Length", value)]), byte_by_byte=byte_by_byte)
    assert code in (400, 413)  # an absurdly large number is a usable length that is too large
    if value != "99999999999999999999999":
        assert code == 400


def test_conflicting_content_lengths_are_400(runner: RunnerProcess) -> None:
    code, _ = invalid(request_bytes(STATUS_BODY, headers=[("Content-Length", "20"), ("Content-Length", "21")]))
    assert code == 400


@pytest.mark.parametrize("byte_by_byte", FEEDS)
def test_chunked_body_without_content_length_is_400(runner: RunnerProcess, byte_by_byte: bool) -> None:
    chunked = b"14\r\n" + STATUS_BODY + b"\r\n0\r\n\r\n"
    code, error = invalid(request_bytes(chunked, headers=[("Transfer-Encoding", "chunked")]), byte_by_byte=byte_by_byte)
    assert code == 400
    assert "chunked" in str(error["message"])


@pytest.mark.parametrize("byte_by_byte", FEEDS)
def test_declared_body_over_2mb_is_413_before_the_body_is_sent(runner: RunnerProcess, byte_by_byte: bool) -> None:
    head = request_bytes(b"", headers=[("Content-Length", str(MAX_REQUEST_BYTES + 1))])
    # No body byte is sent and the socket is not half-closed: the verdict comes from the header block alone.
    raw = exchange(runner.port, head, byte_by_byte=byte_by_byte, half_close=False)
    response = parse_response(raw)
    assert response.status == 413
    assert response.code == "INVALID_REQUEST"


def test_declared_body_over_2mb_is_413_while_the_client_keeps_sending(runner: RunnerProcess) -> None:
    body = b"x" * (MAX_REQUEST_BYTES + 1)
    response = parse_response(exchange(runner.port, request_bytes(body)))
    assert response.status == 413
    assert response.code == "INVALID_REQUEST"
    assert status(runner.port)["state"] == "idle"


def test_body_of_exactly_2mb_is_accepted(runner: RunnerProcess) -> None:
    prefix, suffix = b'{"command":"status","pad":"', b'"}'
    body = prefix + b"x" * (MAX_REQUEST_BYTES - len(prefix) - len(suffix)) + suffix
    assert len(body) == MAX_REQUEST_BYTES
    response = post_raw(runner.port, body)
    assert response.status == 200
    assert response.data["state"] == "idle"


@pytest.mark.parametrize("byte_by_byte", FEEDS)
def test_garbage_request_line_is_400(runner: RunnerProcess, byte_by_byte: bool) -> None:
    code, _ = invalid(b"HELLO THERE\r\n\r\n", byte_by_byte=byte_by_byte)
    assert code == 400


@pytest.mark.parametrize("byte_by_byte", FEEDS)
def test_header_block_over_16kb_is_431(runner: RunnerProcess, byte_by_byte: bool) -> None:
    headers = [("Content-Length", "20"), ("X-Pad", "p" * 20_000)]
    code, _ = invalid(request_bytes(STATUS_BODY, headers=headers), byte_by_byte=byte_by_byte)
    assert code == 431


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "BREW"])
def test_methods_other_than_post_are_405(runner: RunnerProcess, method: str) -> None:
    code, _ = invalid(request_bytes(b"", method=method))
    assert code == 405


def test_head_is_405_with_the_header_block_only(runner: RunnerProcess) -> None:
    raw = exchange(runner.port, request_bytes(b"", method="HEAD"))
    assert raw.startswith(b"HTTP/1.1 405 ")
    assert raw.endswith(b"\r\n\r\n")  # a reply to HEAD has no body
    assert b"connection: close" in raw.lower()
    assert status(runner.port)["state"] == "idle"


def test_expect_100_continue_is_honoured(runner: RunnerProcess) -> None:
    head = request_bytes(b"", headers=[("Content-Length", str(len(STATUS_BODY))), ("Expect", "100-continue")])
    with connect(runner.port) as sock:
        sock.sendall(head)
        interim = sock.recv(65536)
        assert interim.startswith(b"HTTP/1.1 100 ")
        sock.sendall(STATUS_BODY)
        raw = read_all(sock)
    assert parse_response(raw).data["state"] == "idle"


def test_client_that_leaves_without_a_byte_gets_a_clean_close(runner: RunnerProcess) -> None:
    assert exchange(runner.port, b"") == b""
    assert status(runner.port)["state"] == "idle"


def test_client_that_leaves_mid_body_gets_a_clean_close_and_nothing_runs(runner: RunnerProcess) -> None:
    body = json.dumps({"command": "launchApp", "commandId": "mid-body", "appBundleId": "app.mid"}).encode()
    raw = exchange(runner.port, request_bytes(body)[:-5])
    assert raw == b"" or parse_response(raw).code == "INVALID_REQUEST"
    assert post(runner.port, "status", statusCommandId="mid-body").data["state"] == "notAccepted"


# -- Host / Origin refusal ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8080", "localhost", "LOCALHOST:1", "[::1]", "[::1]:80"])
def test_loopback_host_names_are_served(runner: RunnerProcess, host: str) -> None:
    raw = f"POST / HTTP/1.1\r\nHost: {host}\r\n{AUTH_LINE}Content-Length: {len(STATUS_BODY)}\r\n\r\n".encode()
    raw += STATUS_BODY
    assert parse_response(exchange(runner.port, raw)).status == 200


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:80", "192.168.1.10", "localhost.evil.example", "127.0.0.1.nip.io", "[::2]"]
)
def test_non_loopback_host_is_refused_403(runner: RunnerProcess, host: str) -> None:
    command_id = "host-" + "".join(ch if ch.isalnum() or ch in "._:-" else "_" for ch in host)
    body = json.dumps({"command": "launchApp", "commandId": command_id, "appBundleId": "app.host"}).encode()
    raw = f"POST / HTTP/1.1\r\nHost: {host}\r\n{AUTH_LINE}Content-Length: {len(body)}\r\n\r\n".encode() + body
    code, error = invalid(raw)
    assert code == 403
    assert "Host" in str(error["message"])
    assert post(runner.port, "status", statusCommandId=command_id).data["state"] == "notAccepted"


def test_missing_host_is_refused_403(runner: RunnerProcess) -> None:
    raw = f"POST / HTTP/1.0\r\n{AUTH_LINE}Content-Length: {len(STATUS_BODY)}\r\n\r\n".encode() + STATUS_BODY
    code, _ = invalid(raw)
    assert code == 403


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:3000"])
def test_any_origin_header_is_refused_403(runner: RunnerProcess, origin: str) -> None:
    headers = [("Content-Length", str(len(STATUS_BODY))), ("Origin", origin)]
    code, error = invalid(request_bytes(STATUS_BODY, headers=headers))
    assert code == 403
    assert "Origin" in str(error["message"])


# -- read deadline and connection cap ------------------------------------------------------------------------------
def test_client_sending_half_a_request_then_stopping_is_cut_off() -> None:
    with running(scale=0.02) as scaled:  # read deadline max(10 s * 0.02, 1 s)
        body = json.dumps({"command": "launchApp", "commandId": "half", "appBundleId": "app.half"}).encode()
        raw = request_bytes(body)
        with connect(scaled.port) as sock:
            sock.sendall(raw[: len(raw) // 2])
            reply = read_all(sock)  # no half-close: only the runner's deadline can end this
        response = parse_response(reply)
        assert response.status == 408
        assert response.code == "INVALID_REQUEST"
        assert post(scaled.port, "status", statusCommandId="half").data["state"] == "notAccepted"


def test_silent_client_is_cut_off() -> None:
    with running(scale=0.02) as scaled, connect(scaled.port) as sock:
        response = parse_response(read_all(sock))
        assert response.status == 408
        assert status(scaled.port)["state"] == "idle"


def test_connections_over_the_cap_whose_requests_are_all_being_answered_get_runner_busy() -> None:
    """Only connections still reading make way at the cap; with every slot held by a command in the queue, a
    newcomer is refused with RUNNER_BUSY (nothing ran), and serving resumes once the queue is answered."""
    from phonewire.runner.http import MAX_CONNECTIONS

    with running(scale=0.04) as scaled:  # tap budget 3 s: the queue below is answered within it
        assert post(scaled.port, "launchApp", appBundleId="hang.8000").status == 200
        held: list[socket.socket] = []

        def hold(i: int) -> None:
            body = json.dumps({"command": "tap", "commandId": f"held-{i}", "appBundleId": "hang.8000", "x": 1, "y": 1})
            sock = connect(scaled.port)
            sock.sendall(request_bytes(body.encode()))
            held.append(sock)

        try:
            for i in range(MAX_CONNECTIONS - 1):
                hold(i)
            give_up = time.monotonic() + 30  # until all of them are read and accepted (a liveness bound)
            while (now := status(scaled.port))["queued"] + (now["running"] is not None) < MAX_CONNECTIONS - 1:
                assert time.monotonic() < give_up, now
                time.sleep(0.01)
            busy = None
            for attempt in range(20):  # the last slot: a newcomer that comes before it is read makes it give way
                hold(MAX_CONNECTIONS - 1 + attempt)
                time.sleep(0.02 * (attempt + 1))  # give the runner a moment to read it (retried if it did not)
                response = parse_response(exchange(scaled.port, request_bytes(STATUS_BODY)))
                if response.status == 503:
                    busy = response
                    break
            assert busy is not None and busy.code == "RUNNER_BUSY"
        finally:
            for sock in held:
                sock.close()
        give_up = time.monotonic() + 60  # the queue is answered at its budget; then status is served again
        while parse_response(exchange(scaled.port, request_bytes(STATUS_BODY))).status != 200:
            assert time.monotonic() < give_up, "the runner never served again"
            time.sleep(0.05)


def test_port_is_pinned_by_phonewire_runner_port() -> None:
    from runner_wire import start_runner

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    pinned = start_runner(port=free)
    try:
        assert pinned.port == free
        assert status(free)["state"] == "idle"
    finally:
        pinned.stop()
        pinned.stderr_path.unlink(missing_ok=True)


REFUSALS = {
    "400 no Content-Length": request_bytes(STATUS_BODY, headers=[]),
    "400 chunked": request_bytes(b"0\r\n\r\n", headers=[("Transfer-Encoding", "chunked")]),
    "400 garbage": b"HELLO THERE\r\n\r\n",
    "403 Host": f"POST / HTTP/1.1\r\nHost: evil.example\r\n{AUTH_LINE}Content-Length: 20\r\n\r\n".encode()
    + STATUS_BODY,
    "403 Origin": request_bytes(STATUS_BODY, headers=[("Content-Length", "20"), ("Origin", "null")]),
    "405": request_bytes(b"", method="GET"),
    "413": request_bytes(b"", headers=[("Content-Length", str(MAX_REQUEST_BYTES + 1))]),
    "431": request_bytes(STATUS_BODY, headers=[("Content-Length", "20"), ("X-Pad", "p" * 20_000)]),
}


@pytest.mark.parametrize("byte_by_byte", FEEDS)
@pytest.mark.parametrize("raw", list(REFUSALS.values()), ids=list(REFUSALS))
def test_every_framing_refusal_carries_a_hint_for_the_agent(raw: bytes, byte_by_byte: bool) -> None:
    """brief: bad input gets a specific error code and a hint phrased for the agent."""
    _, error = invalid(raw, byte_by_byte=byte_by_byte)
    assert isinstance(error.get("hint"), str) and error["hint"]
