"""Runner overhead: requests/s and p50 latency of ``status``, ``uptime`` and a no-op ``tap`` through a real runner
process (``--device double``), against a bare asyncio loopback HTTP responder measured in the same run.

Both servers run as separate processes; the client is one blocking socket per request (the protocol's own shape:
one POST per connection, ``Connection: close``).  Rounds are interleaved so background load hits every case alike.

    .venv/bin/python bench/bench_runner.py [--requests 1500] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

#: The bearer token the runner under test is started with (the runner demands it on every request).
TOKEN = secrets.token_urlsafe(32)

TARGET_OVERHEAD_MS = 0.5
BARE_REPLY = b'{"ok":true,"data":{}}'


# -- the baseline: a bare asyncio responder (no parsing beyond finding the body) --------------------------------------
async def _bare_serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    await reader.readexactly(length)
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(BARE_REPLY)).encode()
        + b"\r\nConnection: close\r\n\r\n"
        + BARE_REPLY
    )
    await writer.drain()
    writer.close()


async def _bare_main() -> None:
    server = await asyncio.start_server(_bare_serve, "127.0.0.1", 0)
    print(f"BARE_LISTENING port={server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()


# -- processes ---------------------------------------------------------------------------------------------------
def _spawn(argv: list[str], marker: str) -> tuple[subprocess.Popen[str], int]:
    env = dict(os.environ, PHONEWIRE_RUNNER_TOKEN=TOKEN)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith(marker):
        proc.kill()
        proc.wait()
        raise SystemExit(f"server did not start: {line!r}")
    return proc, int(line.strip().split("=", 1)[1])


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


# -- client ------------------------------------------------------------------------------------------------------
def _request(port: int, body: bytes) -> bytes:
    raw = (
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + TOKEN.encode()
        + b"\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(raw)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    reply = b"".join(chunks)
    if b'"ok":true' not in reply:
        raise SystemExit(f"unexpected reply: {reply[:300]!r}")
    return reply


def _measure(port: int, make_body: Callable[[int], bytes], n: int, offset: int) -> tuple[list[float], float]:
    samples = []
    start = time.perf_counter()
    for i in range(n):
        body = make_body(offset + i)
        t0 = time.perf_counter()
        _request(port, body)
        samples.append((time.perf_counter() - t0) * 1000.0)
    return samples, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1500, help="requests per case per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bare-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bare_server:
        asyncio.run(_bare_main())
        return 0

    env_note = os.environ.get("PHONEWIRE_TIME_SCALE")
    if env_note:
        print(f"note: PHONEWIRE_TIME_SCALE={env_note} is set (budgets only; does not affect these figures)")
    bare, bare_port = _spawn([sys.executable, __file__, "--bare-server"], "BARE_LISTENING port=")
    runner, runner_port = _spawn(
        [sys.executable, "-m", "phonewire", "runner", "--device", "double"], "PHONEWIRE_RUNNER_LISTENING port="
    )
    try:
        _request(runner_port, b'{"command":"launchApp","commandId":"bench-launch","appBundleId":"app.bench"}')
        cases: dict[str, tuple[int, Callable[[int], bytes]]] = {
            "bare asyncio responder": (bare_port, lambda i: b'{"command":"status"}'),
            "runner status": (runner_port, lambda i: b'{"command":"status"}'),
            "runner uptime": (runner_port, lambda i: b'{"command":"uptime"}'),
            "runner tap (double, no-op)": (
                runner_port,
                lambda i: json.dumps(
                    {"command": "tap", "commandId": f"bench-{i}", "appBundleId": "app.bench", "x": 1, "y": 1}
                ).encode(),
            ),
        }
        samples: dict[str, list[float]] = {name: [] for name in cases}
        elapsed: dict[str, float] = dict.fromkeys(cases, 0.0)
        for port, make in cases.values():  # warm-up
            _measure(port, make, 200, 10_000_000)
        for r in range(args.rounds):
            for name, (port, make) in cases.items():
                got, spent = _measure(port, make, args.requests, r * args.requests)
                samples[name] += got
                elapsed[name] += spent
    finally:
        _stop(runner)
        _stop(bare)

    base_p50 = statistics.median(samples["bare asyncio responder"])
    print(f"{'case':32} {'req/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p50 overhead ms':>16}")
    worst = 0.0
    for name in cases:
        xs = sorted(samples[name])
        p50, p90 = statistics.median(xs), xs[int(len(xs) * 0.9)]
        rate = len(xs) / elapsed[name]
        overhead = p50 - base_p50
        if name.startswith("runner"):
            worst = max(worst, overhead)
        print(f"{name:32} {rate:9.0f} {p50:8.3f} {p90:8.3f} {overhead:16.3f}")
    verdict = "meets" if worst < TARGET_OVERHEAD_MS else "MISSES"
    print(f"worst p50 overhead over the bare responder: {worst:.3f} ms ({verdict} the {TARGET_OVERHEAD_MS} ms target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
