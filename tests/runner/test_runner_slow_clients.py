"""Slow clients cannot deny service (issue 15, item 6): stalled request heads are cut off after the head deadline,
and at the connection cap the oldest connection still reading its request makes way for a new one."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Iterator

from runner_wire import TOKEN, RunnerProcess, connect, parse_response, post, read_all, status, taps

from phonewire.host import HostSession
from phonewire.runner.http import HEAD_DEADLINE_S, Limits

STALLED = 200  # bounded: well over the cap of 64
HALF_HEAD = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
APP = "app.slow"


@contextlib.contextmanager
def stalled(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections that each sent half a request head and then nothing; all closed on the way out."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = connect(port, timeout=30)  # the timeout bounds each later read: a liveness bound, not a timing
            sock.sendall(HALF_HEAD)
            socks.append(sock)
        yield socks
    finally:
        for sock in socks:
            sock.close()


def closed_by_the_runner(sock: socket.socket) -> bool:
    """The runner ended this connection: a reset, a clean close, or a 408 reply followed by the close."""
    try:
        raw = read_all(sock)
    except TimeoutError:
        return False
    return raw == b"" or parse_response(raw).status == 408


def test_two_hundred_stalled_heads_neither_block_a_host_tap_nor_make_status_busy(runner: RunnerProcess) -> None:
    post(runner.port, "launchApp", appBundleId=APP)
    before = taps(runner.port, APP)
    with stalled(runner.port, STALLED) as socks:
        assert status(runner.port)["state"] == "idle"  # status is served, not 503 RUNNER_BUSY

        async def host_tap() -> bool:
            env = dict(os.environ, PHONEWIRE_RUNNER_TOKEN=TOKEN)
            async with HostSession(runner_addr=f"127.0.0.1:{runner.port}", env=env, write_diagnostics=False) as host:
                reply = await host.send("tap", {"appBundleId": APP, "x": 5, "y": 5})
                retries = host.diagnostics(event="retry")
            return reply.ok and not retries  # first try: no RUNNER_BUSY backoff

        assert asyncio.run(host_tap())
        assert all(closed_by_the_runner(sock) for sock in socks)
    assert taps(runner.port, APP) == before + 1


def test_a_connection_that_never_finishes_its_head_is_closed_with_408_naming_the_head_deadline(
    runner: RunnerProcess,
) -> None:
    with stalled(runner.port, 1) as (sock,):
        response = parse_response(read_all(sock))
    assert response.status == 408
    assert f"head was not complete within {HEAD_DEADLINE_S:.1f} s" in response.envelope["error"]["message"]


def test_the_head_deadline_follows_the_time_scale_down_to_a_floor() -> None:
    assert [Limits.scaled(s).head_deadline for s in (1.0, 5.0, 0.01)] == [2.0, 10.0, 1.0]
    assert Limits.scaled(1.0).head_deadline < Limits.scaled(1.0).read_deadline
