"""Host-layer overhead, measured against a real runner (``--device double``) in one run.

* added p50 latency per command: a hot allowlisted ``tap`` through ``HostSession.send`` (preflight skipped,
  diagnostics written to a file) against the same HTTP request sent directly over a raw asyncio socket
  (request bytes prepared before the clock starts), interleaved so both see the same machine;
* requests per hot tap: counted at a loopback forwarder between the host and the runner.

Targets (issue 4): under 1 ms added at p50, one request per hot tap.

Run: ``.venv/bin/python bench/bench_host.py [--n 2000] [--device web]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from phonewire.host import HostSession
from phonewire.host.launcher import spawn_runner
from phonewire.host.transport import Transport

APP = "app.bench"
FIELDS: dict[str, object] = {"appBundleId": APP, "x": 10, "y": 20}


def raw_request(port: int, command_id: str, token: str) -> bytes:
    body = json.dumps({**FIELDS, "command": "tap", "commandId": command_id}).encode()
    head = (
        f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Content-Type: application/json\r\n"
        f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def direct(port: int, request: bytes) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    data = await reader.read()
    writer.close()
    body = data.split(b"\r\n\r\n", 1)[1]
    assert json.loads(body)["ok"] is True


class Counter:
    """A loopback forwarder that counts connections (one request each)."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.requests = 0
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.requests += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(int(x.split(b":")[1]) for x in head.split(b"\r\n") if x.lower().startswith(b"content-length"))
        up_writer.write(head + await reader.readexactly(length))
        await up_writer.drain()
        writer.write(await up_reader.read())
        await writer.drain()
        up_writer.close()
        writer.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(n: int, device: str) -> None:
    process = await spawn_runner(device)
    tmp = tempfile.TemporaryDirectory()
    try:
        port = process.port
        env = dict(os.environ, PHONEWIRE_RUNNER_TOKEN=process.token)
        host = HostSession(runner_addr=f"127.0.0.1:{port}", diagnostics_path=Path(tmp.name) / "bench.jsonl", env=env)
        transport = Transport("127.0.0.1", port, token=process.token)
        await host.send("launchApp", {"appBundleId": FIELDS["appBundleId"]})
        await host.send("tap", FIELDS)  # earn the healthy-mutation skip
        for _ in range(200):  # warm up both paths
            await host.send("tap", FIELDS)
            await direct(port, raw_request(port, uuid.uuid4().hex, process.token))
        base: list[float] = []
        via_host: list[float] = []
        via_transport: list[float] = []
        for _ in range(n):
            request = raw_request(port, uuid.uuid4().hex, process.token)
            t0 = time.perf_counter()
            await direct(port, request)
            t1 = time.perf_counter()
            await host.send("tap", FIELDS)
            t2 = time.perf_counter()
            await transport.send({**FIELDS, "command": "tap", "commandId": uuid.uuid4().hex}, 90.0)
            t3 = time.perf_counter()
            base.append((t1 - t0) * 1000)
            via_host.append((t2 - t1) * 1000)
            via_transport.append((t3 - t2) * 1000)
        await host.close()

        counter = Counter(port)
        await counter.start()
        counted = HostSession(runner_addr=f"127.0.0.1:{counter.port}", write_diagnostics=False, env=env)
        await counted.send("launchApp", {"appBundleId": FIELDS["appBundleId"]})
        await counted.send("tap", FIELDS)
        before = counter.requests
        hot = 500
        for _ in range(hot):
            await counted.send("tap", FIELDS)
        per_tap = (counter.requests - before) / hot
        await counted.close()
        await counter.close()
    finally:
        await process.stop(graceful=True)
        tmp.cleanup()

    b50, h50, t50 = statistics.median(base), statistics.median(via_host), statistics.median(via_transport)
    print(f"hot tap, n={n} each, interleaved, against one {device} runner")
    print(f"  direct HTTP request     p50 {b50:7.3f} ms   p90 {pct(base, 0.9):7.3f} ms")
    print(f"  transport only          p50 {t50:7.3f} ms   p90 {pct(via_transport, 0.9):7.3f} ms")
    print(f"  HostSession.send        p50 {h50:7.3f} ms   p90 {pct(via_host, 0.9):7.3f} ms")
    print(f"  added by the host layer p50 {h50 - b50:+7.3f} ms   (ratio {h50 / b50:.3f}x)   target < 1 ms")
    print(f"  added by transport only p50 {t50 - b50:+7.3f} ms")
    print(f"requests per hot tap: {per_tap:.3f}   (target 1; {hot} taps after the first)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--device", default="double", help="double (default) or web (taps the bundled demo app)")
    args = parser.parse_args()
    if args.device.startswith("web"):
        FIELDS = {"appBundleId": "dev.phonewire.demo", "x": 5, "y": 5}
    asyncio.run(main(args.n, args.device))
