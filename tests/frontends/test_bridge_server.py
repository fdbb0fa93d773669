"""The bridge's framing (pure) and its TCP server with a real loopback client (agent session on a fake sender)."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Mapping
from typing import Any

import pytest

from agent_fakes import FakeSender, row, screen
from phonewire.agent.core import AgentSession
from phonewire.frontends.bridge.methods import Dispatcher
from phonewire.frontends.bridge.server import (
    READY_LINE,
    BridgeServer,
    LineFramer,
    LineTooLong,
    first_line_is_object,
    is_loopback,
    peer_uid,
    serve,
)
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope


# --- framing ------------------------------------------------------------------------------------------------------
def test_framer_yields_complete_lines_fed_whole_or_one_byte_at_a_time() -> None:
    stream = b'{"id":1}\n\r\n  \n{"id":2}\r\n{"id":'
    whole = list(LineFramer().feed(stream))
    framer = LineFramer()
    bytewise = [ev for i in range(len(stream)) for ev in framer.feed(stream[i : i + 1])]
    assert whole == bytewise == [b'{"id":1}', b'{"id":2}']
    assert framer.pending


def test_an_overlong_line_becomes_one_error_event_and_the_next_line_is_read_normally() -> None:
    framer = LineFramer(max_line=10)
    events = list(framer.feed(b"x" * 8)) + list(framer.feed(b"y" * 8)) + list(framer.feed(b"z" * 30))
    assert events == []  # still inside the long line: nothing buffered beyond the cap
    events = list(framer.feed(b'zz\n{"a":1}\n'))
    assert events == [LineTooLong(48), b'{"a":1}']
    assert list(LineFramer(max_line=4).feed(b"12345\nok\n")) == [LineTooLong(5), b"ok"]


@pytest.mark.parametrize(
    ("peer", "allowed"),
    [(("127.0.0.1", 5), True), (("127.8.9.1", 5), True), (("::1", 5, 0, 0), True), (("10.0.0.2", 5), False),
     (("192.168.1.4", 5), False), (("fe80::1%eth0", 5, 0, 2), False), (None, False), (("not-an-ip", 1), False)],
)  # fmt: skip
def test_only_loopback_peers_are_served(peer: object, allowed: bool) -> None:
    assert is_loopback(peer) is allowed


# --- the TCP server -----------------------------------------------------------------------------------------------
# --- owner-only admission (pure) -----------------------------------------------------------------------------------
# A client 127.0.0.1:41000 (uid 1001) connected to a server on 127.0.0.1:45678 (uid 0): the kernel lists both ends.
TCP = """  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:B26E 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
   1: 0100007F:B26E 0100007F:A028 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0 20 4 30 10 -1
   2: 0100007F:A028 0100007F:B26E 01 00000000:00000000 00:00000000 00000000  1001        0 3 1 0 20 4 30 10 -1
"""
# The same over IPv6 loopback ([::1]:41000 → [::1]:45678), and an IPv4-mapped peer (::ffff:127.0.0.1:41001).
TCP6 = """  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:B26E 00000000000000000000000001000000:A028 01 00000000:00000000 00:00000000 00000000     0        0 4 1
   1: 00000000000000000000000001000000:A028 00000000000000000000000001000000:B26E 01 00000000:00000000 00:00000000 00000000  1002        0 5 1
   2: 0000000000000000FFFF00000100007F:A029 0000000000000000FFFF00000100007F:B26E 01 00000000:00000000 00:00000000 00000000  1003        0 6 1
"""  # noqa: E501


def test_peer_uid_reads_the_owner_of_the_peers_own_socket_not_of_ours() -> None:
    assert peer_uid(TCP, ("127.0.0.1", 41000), ("127.0.0.1", 45678)) == 1001
    assert peer_uid(TCP, ("127.0.0.1", 45678), ("127.0.0.1", 41000)) == 0  # the other end: our own socket


def test_peer_uid_reads_ipv6_rows_and_ipv4_mapped_peers() -> None:
    assert peer_uid(TCP6, ("::1", 41000), ("::1", 45678)) == 1002
    assert peer_uid(TCP6, ("::ffff:127.0.0.1", 41001), ("127.0.0.1", 45678)) == 1003
    assert peer_uid(TCP6, ("127.0.0.1", 41001), ("::ffff:127.0.0.1", 45678)) == 1003


@pytest.mark.parametrize(
    ("table", "peer"),
    [(TCP, ("127.0.0.1", 41999)), (TCP, ("127.0.0.2", 41000)), ("", ("127.0.0.1", 41000)),
     ("header\n   0: garbage\n   1: 0100007F:ZZZZ 0100007F:A028 01 0 0 0 x\n", ("127.0.0.1", 41000)),
     (TCP, ("not-an-ip", 41000))],
)  # fmt: skip
def test_peer_uid_is_none_when_no_row_matches(table: str, peer: tuple[str, int]) -> None:
    assert peer_uid(table, peer, ("127.0.0.1", 45678)) is None


@pytest.mark.parametrize(
    ("line", "ok"),
    [(b'{"id": 1, "method": "tap"}', True), (b"{}", True), (b"POST / HTTP/1.1", False), (b"GET / HTTP/1.0", False),
     (b'[{"id": 1}]', False), (b'{"id": 1', False), (b'"text"', False), (b"{" * 100_000, False)],
)  # fmt: skip
def test_only_a_json_object_may_open_a_connection(line: bytes, ok: bool) -> None:
    assert first_line_is_object(line) is ok


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def reply(self) -> dict[str, Any]:
        line = await asyncio.wait_for(self.reader.readline(), 10)
        assert line.endswith(b"\n")
        out: dict[str, Any] = json.loads(line)
        return out

    async def call(self, method: str, params: dict[str, Any] | None = None, req_id: object = 1) -> dict[str, Any]:
        await self.send_raw(json.dumps({"id": req_id, "method": method, "params": params or {}}).encode() + b"\n")
        return await self.reply()


class YieldingSender(FakeSender):
    """Every command suspends, as a real round trip does, so concurrent calls could interleave if allowed."""

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        await asyncio.sleep(0.002)
        return await super().send(command, fields)


async def _with_server(body: Any, max_line: int = 2 * 1024 * 1024) -> tuple[Any, FakeSender]:
    sender = YieldingSender(screen(row(1, 100, 0)))
    agent = AgentSession(sender, app_id="dev.phonewire.demo")
    server = BridgeServer(Dispatcher(agent), max_line=max_line)
    await server.start(0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            return await body(Client(reader, writer), server), sender
        finally:
            writer.close()
    finally:
        await server.aclose()


def test_bad_lines_get_error_replies_and_the_same_connection_keeps_serving() -> None:
    async def body(client: Client, server: BridgeServer) -> list[dict[str, Any]]:
        replies = []
        replies.append(await client.call("viewport", req_id=1))  # a JSON object first: the connection is JSON-RPC
        for raw in (b"{oops\n", b'{"id": 2, "method": "fly"}\n', b'{"id": 3, "method": "tap", "params": {"x": 1}}\n',
                    b'{"id": 4, "method": "tap", "params": {"x": "1", "y": 1}}\n'):  # fmt: skip
            await client.send_raw(raw)
            replies.append(await client.reply())
        replies.append(await client.call("get_tree", req_id=5))
        return replies

    replies, _ = asyncio.run(_with_server(body))
    assert [r["id"] for r in replies] == [1, None, 2, 3, 4, 5]
    assert [r["error"]["code"] for r in replies[1:5]] == [e.INVALID_REQUEST] * 4
    assert "@e1" in replies[5]["result"]["tree"]


def test_requests_split_across_writes_and_pipelined_in_one_write_are_answered_in_order() -> None:
    async def body(client: Client, server: BridgeServer) -> list[dict[str, Any]]:
        await client.send_raw(b'{"id": 1, "method": "vie')
        await asyncio.sleep(0.01)
        await client.send_raw(b'wport"}\n{"id": 2, "method": "list_apps"}\n{"id": 3, "method": "viewport"}\n')
        return [await client.reply() for _ in range(3)]

    replies, sender = asyncio.run(_with_server(body))
    assert [r["id"] for r in replies] == [1, 2, 3]
    assert replies[0]["result"]["width"] == 390 and "apps" in replies[1]["result"]
    assert [c for c, _ in sender.sent] == ["viewport", "listApps", "viewport"]


def test_an_overlong_line_is_answered_with_an_error_and_the_connection_survives() -> None:
    async def body(client: Client, server: BridgeServer) -> list[dict[str, Any]]:
        opening = await client.call("viewport", req_id=0)
        await client.send_raw(b'{"id": 1, "method": "type", "params": {"text": "' + b"a" * 5000 + b'"}}\n')
        first = await client.reply()
        return [opening, first, await client.call("viewport", req_id=2)]

    replies, sender = asyncio.run(_with_server(body, max_line=1024))
    assert replies[1]["error"]["code"] == e.INVALID_REQUEST and "exceeds" in replies[1]["error"]["message"]
    assert replies[2]["id"] == 2 and "width" in replies[2]["result"]
    assert [c for c, _ in sender.sent] == ["viewport", "viewport"]


def test_an_overlong_first_line_is_refused_like_any_first_line_that_is_not_a_json_object() -> None:
    """Adversarial re-run: a first line past the limit did not count as the first line, so a request line after
    it ran (`'A' * 3 MB`, newline, a tap)."""

    async def body(client: Client, server: BridgeServer) -> list[dict[str, Any]]:
        await client.send_raw(b"A" * 5000 + b"\n" + b'{"id": 1, "method": "tap", "params": {"x": 1, "y": 2}}\n')
        refusal = await client.reply()
        rest = await client.reader.read()
        return [refusal, {"rest": rest.decode()}]

    replies, sender = asyncio.run(_with_server(body, max_line=1024))
    assert replies[0]["error"]["code"] == e.UNAUTHORIZED
    assert replies[1] == {"rest": ""} and sender.sent == []


def test_two_connections_are_served_and_their_calls_do_not_interleave() -> None:
    async def body(client: Client, server: BridgeServer) -> list[dict[str, Any]]:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        other = Client(reader, writer)
        try:
            params = {"coordinate": "{{0, 0}, {10, 10}}", "text": "hi"}
            both = await asyncio.gather(client.call("enter_text", params, "a"), other.call("enter_text", params, "b"))
        finally:
            writer.close()
        return list(both)

    replies, sender = asyncio.run(_with_server(body))
    assert {r["id"] for r in replies} == {"a", "b"}
    assert all("tree" in r["result"] for r in replies)
    one_call = ["snapshot", "tap", "snapshot", "snapshot", "type", "snapshot", "snapshot", "snapshot"]
    assert [c for c, _ in sender.sent] == one_call * 2


def test_serve_prints_the_ready_line_and_the_stop_method_ends_it(capsys: pytest.CaptureFixture[str]) -> None:
    async def run() -> dict[str, Any]:
        agent = AgentSession(FakeSender(screen(row(1, 100, 0))), app_id="dev.phonewire.demo")
        task = asyncio.ensure_future(serve(agent, 0))
        for _ in range(200):
            out = capsys.readouterr().out
            if out:
                break
            await asyncio.sleep(0.01)
        port = int(out.strip().split("port=")[1])
        assert out.strip() == READY_LINE.format(port=port)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        reply = await Client(reader, writer).call("stop")
        writer.close()
        await asyncio.wait_for(task, 10)
        return reply

    assert asyncio.run(run()) == {"id": 1, "result": {"stopping": True}}


def test_a_busy_port_fails_fast_before_any_runner_starts(capsys: pytest.CaptureFixture[str]) -> None:
    from phonewire.frontends.bridge.server import main

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        # an unreachable runner address: reaching it would be a different error, so exit 1 proves the bind failed
        code = main(["--port", str(port), "--runner", "127.0.0.1:1"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert f"cannot listen on 127.0.0.1:{port}" in captured.err


def test_a_port_out_of_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from phonewire.frontends.bridge.server import main

    assert main(["--port", "70000"]) == 2
    assert "--port must be 0..65535" in capsys.readouterr().err


def test_the_bridge_module_public_names_are_exactly_its_all_list() -> None:
    from phonewire.frontends.bridge import server as bridge

    defined_here = {
        name
        for name, value in vars(bridge).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == bridge.__name__
    }
    assert defined_here | {"DEFAULT_PORT", "READY_LINE"} == set(bridge.__all__)


def test_a_tap_smuggled_in_an_http_post_body_never_runs_and_the_connection_is_closed() -> None:
    """issue 15 item 2: the header lines are not JSON-RPC, so nothing after them runs, not even the body line."""
    tap = b'{"id": 9, "method": "tap", "params": {"x": 10, "y": 20}}\n'
    http = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n%s" % (len(tap), tap)

    async def body(client: Client, server: BridgeServer) -> list[bytes]:
        await client.send_raw(http)
        return (await asyncio.wait_for(client.reader.read(), 10)).splitlines()  # until the bridge closes

    lines, sender = asyncio.run(_with_server(body))
    assert len(lines) == 1 and json.loads(lines[0])["error"]["code"] == e.UNAUTHORIZED
    assert sender.sent == []  # nothing reached the device, not even a snapshot


def test_a_second_unix_account_is_refused_by_the_bridge_and_nothing_runs() -> None:
    """issue 15 item 2: only the bridge's own uid may drive it (run as root; skipped otherwise)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runner"))
    from other_user import other_user

    script = (
        "import json, socket, sys\n"
        "with socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=30) as s:\n"
        "    s.sendall(b'" + b'{"id": 1, "method": "tap", "params": {"x": 10, "y": 20}}'.decode() + "\\n')\n"
        "    data = b''\n"
        "    while chunk := s.recv(65536):\n"
        "        data += chunk\n"
        "print(json.dumps(data.decode()))\n"
    )

    async def body(client: Client, server: BridgeServer) -> tuple[str, dict[str, Any]]:
        with other_user() as intruder:
            seen = await asyncio.to_thread(intruder.python, script, str(server.port))
        return seen, await client.call("viewport", req_id=2)  # the owner's own connection is served

    (seen, own), sender = asyncio.run(_with_server(body))
    lines = seen.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["error"]["code"] == e.UNAUTHORIZED
    assert own["id"] == 2 and "width" in own["result"]
    assert [c for c, _ in sender.sent] == ["viewport"]  # the intruder's tap never ran
