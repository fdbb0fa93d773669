"""The bridge and MCP processes' lifecycle with a real runner process (``--device double``, no browser needed):
ready line, bad input over a real socket, and every way of stopping them stops the runner they started."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from procs import children, stop_process, wait_gone

pytestmark = pytest.mark.e2e


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL, by PID; then close our ends of its pipes."""
    stop_process(proc, 15)


@dataclass
class Bridge:
    proc: subprocess.Popen[bytes]
    port: int
    runner_pid: int


def env() -> dict[str, str]:
    out = dict(os.environ)
    for name in ("PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_RUNNER_PORT", "PHONEWIRE_TIME_SCALE"):
        out.pop(name, None)
    return out


def start_bridge(*extra: str) -> Bridge:
    argv = [sys.executable, "-m", "phonewire", "bridge", "--port", "0", "--device", "double", *extra]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env())
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith(b"PHONEWIRE_BRIDGE_READY port="):
        stop(proc)
        raise AssertionError(f"bridge did not come up: {line!r}")
    runners = children(proc.pid)
    assert len(runners) == 1, runners
    return Bridge(proc, int(line.split(b"=")[1]), runners[0])


@pytest.fixture
def bridge() -> Iterator[Bridge]:
    b = start_bridge("--app", "app.one")
    try:
        yield b
    finally:
        stop(b.proc)
        if not wait_gone(b.runner_pid, 5):
            os.kill(b.runner_pid, signal.SIGKILL)


class Conn:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.stream = self.sock.makefile("rwb")

    def raw(self, data: bytes) -> dict[str, Any]:
        self.stream.write(data)
        self.stream.flush()
        reply: dict[str, Any] = json.loads(self.stream.readline())
        return reply

    def call(self, method: str, req_id: object = 1, **params: Any) -> dict[str, Any]:
        return self.raw(json.dumps({"id": req_id, "method": method, "params": params}).encode() + b"\n")

    def close(self) -> None:
        self.stream.close()
        self.sock.close()


def test_bridge_process_answers_bad_lines_with_errors_and_keeps_serving_the_connection(bridge: Bridge) -> None:
    conn = Conn(bridge.port)
    try:
        replies = [
            conn.raw(b'{"id": 1, "method": "warp"}\n'),  # a JSON object first: the connection is JSON-RPC
            conn.raw(b"this is not json\n"),
            conn.raw(b'{"id": 2, "method": "warp"}\n'),
            conn.raw(b'{"id": 3, "method": "tap_element", "params": {}}\n'),
            conn.raw(b'{"id": 4, "method": "tap", "params": {"x": "1", "y": 2}}\n'),
            conn.raw(b'{"id": 5, "method": "tap_element", "params": {"coordinate": "{{1, 2}, {3}}"}}\n'),
        ]
        assert [r["id"] for r in replies] == [1, None, 2, 3, 4, 5]
        assert {r["error"]["code"] for r in replies} == {"INVALID_REQUEST"}
        assert all(r["error"]["hint"] for r in replies)
        tapped = conn.call("tap", 6, x=10, y=20)
        assert "taps=1" in tapped["result"]["tree"]  # the double counts taps per app: exactly one landed
    finally:
        conn.close()


def test_sigterm_stops_the_bridge_and_the_runner_it_started(bridge: Bridge) -> None:
    bridge.proc.send_signal(signal.SIGTERM)
    assert bridge.proc.wait(15) == 0
    assert wait_gone(bridge.runner_pid)


def test_the_stop_method_ends_the_bridge_and_its_runner(bridge: Bridge) -> None:
    conn = Conn(bridge.port)
    try:
        assert conn.call("stop") == {"id": 1, "result": {"stopping": True}}
    finally:
        conn.close()
    assert bridge.proc.wait(15) == 0
    assert wait_gone(bridge.runner_pid)


def test_a_bridge_whose_app_cannot_open_exits_1_with_the_code_on_stderr_and_no_ready_line() -> None:
    argv = [sys.executable, "-m", "phonewire", "bridge", "--port", "0", "--device", "double", "--app", "unknown.x"]
    proc = subprocess.run(argv, check=False, capture_output=True, env=env(), timeout=60)
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert b"APP_UNKNOWN" in proc.stderr


def test_a_bridge_for_an_unknown_web_profile_exits_1_naming_the_known_profiles() -> None:
    argv = [sys.executable, "-m", "phonewire", "bridge", "--port", "0", "--device", "web:nope"]
    proc = subprocess.run(argv, check=False, capture_output=True, env=env(), timeout=60)
    assert proc.returncode == 1
    assert proc.stdout == b""
    assert b"INVALID_REQUEST: unknown web device profile 'nope'" in proc.stderr
    assert b"Use one of: iphone-15" in proc.stderr and b"Chromium" not in proc.stderr


def _mcp(*extra: str) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "phonewire", "mcp", "--device", "double", *extra]
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env())


def _runner_of(proc: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        kids = children(proc.pid)
        if kids:
            return kids[0]
        assert proc.poll() is None
        time.sleep(0.05)
    raise AssertionError("no runner child appeared")


def _initialize(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}  # fmt: skip
    proc.stdin.write(json.dumps(hello).encode() + b"\n")
    proc.stdin.flush()
    reply: dict[str, Any] = json.loads(proc.stdout.readline())
    return reply


def test_mcp_process_writes_only_protocol_to_stdout_and_eof_stops_it_and_its_runner() -> None:
    proc = _mcp("--app", "app.one")
    try:
        runner = _runner_of(proc)
        reply = _initialize(proc)
        assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "phonewire"
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.close()  # EOF
        assert proc.wait(15) == 0
        assert proc.stdout.read() == b""  # nothing but the one reply was ever written
        assert wait_gone(runner)
    finally:
        stop(proc)


def test_sigterm_stops_the_mcp_server_and_its_runner() -> None:
    proc = _mcp()
    try:
        runner = _runner_of(proc)
        assert _initialize(proc)["id"] == 1
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 143
        assert wait_gone(runner)
    finally:
        stop(proc)


def test_mcp_process_keeps_serving_after_a_malformed_line_an_unknown_method_and_bad_params() -> None:
    proc = _mcp("--app", "app.one")
    try:
        _runner_of(proc)
        assert _initialize(proc)["id"] == 1
        assert proc.stdin is not None and proc.stdout is not None

        def send(message: bytes | dict[str, Any]) -> None:
            assert proc.stdin is not None
            proc.stdin.write((message if isinstance(message, bytes) else json.dumps(message).encode()) + b"\n")
            proc.stdin.flush()

        def reply() -> dict[str, Any]:
            assert proc.stdout is not None
            out: dict[str, Any] = json.loads(proc.stdout.readline())
            return out

        def tools_call(req_id: int, params: dict[str, Any]) -> dict[str, Any]:
            return {"jsonrpc": "2.0", "id": req_id, "method": "tools/call", "params": params}

        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(b"{ this is not json")  # answered as JSON-RPC wants: Parse error, id null (the SDK alone answered nothing)
        parse_error = reply()
        assert (parse_error["id"], parse_error["error"]["code"]) == (None, -32700)
        assert parse_error["error"]["data"]["hint"]
        deep = b"[" * 50_000 + b"]" * 50_000  # deeper than the SDK parses: Invalid Request, by its id
        send(
            b'{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"tap","arguments":{"target":%s}}}'
            % deep
        )
        too_deep = reply()
        assert (too_deep["id"], too_deep["error"]["code"]) == ("deep", -32600)
        assert "50003 levels deep" in too_deep["error"]["message"]
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/teleport", "params": {}})
        assert reply()["error"]["code"] == -32601  # method not found: a protocol error
        send(tools_call(3, {"name": 5}))
        assert reply()["error"]["code"] == -32602  # malformed tools/call params: a protocol error
        send(tools_call(4, {"name": "tap", "arguments": {"target": 5}}))
        bad_argument = reply()["result"]  # a tool's bad argument: a tool result with isError and the hint
        assert bad_argument["isError"] is True
        assert bad_argument["structuredContent"]["error"]["code"] == "INVALID_REQUEST"
        assert bad_argument["structuredContent"]["error"]["hint"]
        send(tools_call(5, {"name": "tap", "arguments": {"target": "10 20"}}))
        tapped = reply()
        assert tapped["id"] == 5 and tapped["result"]["isError"] is False
        send(tools_call(6, {"name": "snapshot", "arguments": {}}))
        assert "taps=1" in reply()["result"]["content"][0]["text"]  # exactly the one good tap landed
    finally:
        stop(proc)


def test_a_tap_smuggled_in_the_body_of_an_http_post_never_runs_and_the_connection_is_closed(bridge: Bridge) -> None:
    """issue 15 item 2: a web page can POST to the bridge port; the JSON line in its body must not run."""
    tap = b'{"id": 9, "method": "tap", "params": {"x": 10, "y": 20}}\n'
    http = (
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n"
        b"Content-Type: text/plain\r\nContent-Length: " + str(len(tap)).encode() + b"\r\n\r\n" + tap
    )
    with socket.create_connection(("127.0.0.1", bridge.port), timeout=30) as sock:
        sock.sendall(http)
        received = b""
        while chunk := sock.recv(65536):  # the bridge closes the connection: this ends
            received += chunk
    lines = received.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["error"]["code"] == "UNAUTHORIZED"
    conn = Conn(bridge.port)
    try:
        tree = conn.call("get_tree")["result"]["tree"]
        assert "taps=0" in tree  # the double counts taps per app: none landed
        assert "taps=1" in conn.call("tap", 2, x=10, y=20)["result"]["tree"]  # and a real one is counted
    finally:
        conn.close()


# -- --trace DIR: tracing bound to the server's session from its start -------------------------------------------------
def _trace_steps(directory: Path) -> list[dict[str, Any]]:
    from phonewire.agent.trace import read_steps

    return read_steps(directory)


def test_bridge_trace_records_the_app_it_opened_and_each_call_in_a_private_directory(tmp_path: Path) -> None:
    directory = tmp_path / "bridge-trace"
    b = start_bridge("--app", "app.one", "--trace", str(directory))
    try:
        conn = Conn(b.port)
        try:
            assert "result" in conn.call("tap", 1, target="10 20")
            assert conn.call("tap", 2, target="label=Nothing")["error"]["code"] == "NOT_FOUND"
        finally:
            conn.close()
    finally:
        stop(b.proc)
        if not wait_gone(b.runner_pid, 5):
            os.kill(b.runner_pid, signal.SIGKILL)
    # the bridge's settled view after each action is a snapshot of its own, recorded as such
    steps = [s for s in _trace_steps(directory) if s["op"] != "snapshot"]
    assert [s["op"] for s in steps] == ["open_app", "tap", "tap"]
    assert steps[0]["args"] == {"app_id": "app.one", "clear_state": False}  # (the operation records its option)
    assert steps[1]["args"]["target"] == "10 20" and "result" in steps[1]
    assert steps[2]["error"]["code"] == "NOT_FOUND"
    assert directory.stat().st_mode & 0o777 == 0o700
    assert (directory / "trace.jsonl").stat().st_mode & 0o777 == 0o600


def test_mcp_trace_given_before_the_verb_records_the_tools_called(tmp_path: Path) -> None:
    directory = tmp_path / "mcp-trace"
    argv = [sys.executable, "-m", "phonewire", "--trace", str(directory), "mcp", "--device", "double", "--app"]
    argv.append("app.one")
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env())
    try:
        runner = _runner_of(proc)
        assert _initialize(proc)["id"] == 1
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode() + b"\n")
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "tap", "arguments": {"target": "10 20", "count": 2}}}  # fmt: skip
        proc.stdin.write(json.dumps(call).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["result"]["isError"] is False
        proc.stdin.close()
        assert proc.wait(15) == 0
        assert wait_gone(runner)
    finally:
        stop(proc)
    steps = _trace_steps(directory)
    taps = [s for s in steps if s["op"] == "tap"]
    assert steps[0]["op"] == "open_app"
    assert len(taps) == 1 and taps[0]["args"] == {"target": "10 20", "count": 2}
