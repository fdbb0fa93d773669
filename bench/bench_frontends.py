"""Front-end overhead: a bridge tap and an MCP tap against a direct runner tap, in one run, on one runner.

    .venv/bin/python bench/bench_frontends.py [--device web] [--rounds 40] [--app dev.phonewire.demo]

One runner process is started (``phonewire runner --device …``); the bridge (``phonewire bridge --runner …``) and
the MCP server (``phonewire mcp --runner …``, through the SDK's stdio client) attach to it.  Each round taps the
same point three ways, in rotating order so none of them always follows another:

* direct — one HTTP POST ``tap`` to the runner on a fresh loopback connection (what the host transport does);
* bridge — ``{"method": "tap", "params": {"x", "y", "return_tree": false}}`` on an open bridge connection;
* mcp    — ``tools/call tap {"target": "X Y"}`` through the SDK client.

It prints the median and p90 wall time per kind and the median of the per-round differences against the direct
tap (target: within 3 ms), plus, for reference, the reference-style action that returns the fresh tree
(bridge ``tap_element``, whose tree waits until two snapshots agree) against the same steps sent directly: a tap,
then snapshots until two in a row agree.  Every process it starts is stopped
by PID on the way out.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from pacing import apaced  # the bench directory is not a package
from phonewire.devices.web.gestures import APART_S
from phonewire.frontends.serving import TAP_SETTLE

#: The runner's bearer token (in its environment and the bridge's, which attaches with it).
TOKEN = secrets.token_urlsafe(32)

PY = sys.executable


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def _read_line(proc: subprocess.Popen[bytes], prefix: bytes, budget_s: float = 90.0) -> bytes:
    assert proc.stdout is not None
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"process {proc.pid} exited before printing {prefix!r}")
        if line.startswith(prefix):
            return line
    raise RuntimeError(f"no {prefix!r} line within {budget_s} s")


def _start(argv: list[str], env: dict[str, str], ready: bytes) -> tuple[subprocess.Popen[bytes], int]:
    """Spawn a process and read the port from its ready line (a blocking step, before any timing)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env)
    try:
        return proc, int(_read_line(proc, ready).split(b"=")[1])
    except BaseException:
        _stop(proc)
        raise


async def _post(port: int, body: dict[str, Any]) -> dict[str, Any]:
    """One wire command on its own connection (Connection: close), as the host transport sends it."""
    payload = json.dumps(body, separators=(",", ":")).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
    ).encode()
    writer.write(head + payload)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    reply: dict[str, Any] = json.loads(raw.split(b"\r\n\r\n", 1)[1])
    if not reply.get("ok"):
        raise RuntimeError(f"runner refused {body['command']}: {reply}")
    return reply


def _target_point(nodes: list[dict[str, Any]]) -> tuple[float, float]:
    """The centre of the first visible button (a row's counter on the demo app), else the screen centre."""
    for node in nodes:
        rect = node.get("rect") or {}
        if node.get("type") == "Button" and rect.get("width") and rect.get("y", 0) > 0:
            return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
    return 195.0, 422.0


def _summary(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"{name:<28} median {statistics.median(samples) * 1000:7.2f} ms   p90 {p90 * 1000:7.2f} ms   n={len(samples)}"
    )


async def bench(device: str, app: str, rounds: int) -> int:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = dict(os.environ, PHONEWIRE_RUNNER_PORT="0", PHONEWIRE_RUNNER_TOKEN=TOKEN)
    env.pop("PHONEWIRE_RUNNER_ADDR", None)
    runner, port = _start([PY, "-m", "phonewire", "runner", "--device", device], env, b"PHONEWIRE_RUNNER_LISTENING")
    bridge: subprocess.Popen[bytes] | None = None
    try:
        address = f"127.0.0.1:{port}"

        async def direct(command: str, **fields: Any) -> dict[str, Any]:
            body = {"command": command, "commandId": uuid.uuid4().hex, "appBundleId": app, **fields}
            return await _post(port, body)

        await direct("launchApp")
        snapshot = await direct("snapshot")
        x, y = _target_point(snapshot["data"]["nodes"])
        print(f"device {device}, app {app}, tapping ({x:.1f}, {y:.1f}), {rounds} rounds", flush=True)

        bridge, bridge_port = _start(
            [PY, "-m", "phonewire", "bridge", "--port", "0", "--runner", address, "--app", app],
            env,
            b"PHONEWIRE_BRIDGE_READY",
        )
        b_reader, b_writer = await asyncio.open_connection("127.0.0.1", bridge_port)

        async def rpc(method: str, params: dict[str, Any]) -> dict[str, Any]:
            b_writer.write(json.dumps({"id": 1, "method": method, "params": params}).encode() + b"\n")
            await b_writer.drain()
            reply: dict[str, Any] = json.loads(await b_reader.readline())
            if "error" in reply:
                raise RuntimeError(f"bridge {method}: {reply['error']}")
            return reply

        params = StdioServerParameters(
            command=PY, args=["-m", "phonewire", "mcp", "--runner", address, "--app", app], env=env
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
            await mcp.initialize()

            async def mcp_tap() -> object:
                result = await mcp.call_tool("tap", {"target": f"{x} {y}"})
                if result.is_error:
                    raise RuntimeError(f"mcp tap: {result.content}")
                return result

            kinds: dict[str, Callable[[], Awaitable[object]]] = {
                "direct runner tap": lambda: direct("tap", x=x, y=y),
                "bridge tap": lambda: rpc("tap", {"x": x, "y": y, "return_tree": False}),
                "mcp tap": mcp_tap,
            }
            for fn in kinds.values():  # warm every path (imports, connections, preflight records)
                for _ in range(3):
                    await fn()
            samples: dict[str, list[float]] = {k: [] for k in kinds}
            names = list(kinds)
            for i in range(rounds):
                order = names[i % 3 :] + names[: i % 3]
                for name in order:  # (each apart from the last tap, as an agent's are: bench/pacing.py)
                    samples[name].append(await apaced(kinds[name]))

            frame = f"{{{{{x - 5}, {y - 5}}}, {{10, 10}}}}"
            settle = "direct tap, settled snapshot"
            with_tree: dict[str, list[float]] = {settle: [], "bridge tap_element (tree)": []}
            for _ in range(max(5, rounds // 4)):
                await asyncio.sleep(APART_S)
                start = time.perf_counter()
                await direct("tap", x=x, y=y)
                first = await direct("snapshot")
                while True:  # what the bridge does for the tree: snapshot until two in a row agree
                    await asyncio.sleep(TAP_SETTLE.interval_s)
                    again = await direct("snapshot")
                    if again["data"]["nodes"] == first["data"]["nodes"]:
                        break
                    first = again
                with_tree[settle].append(time.perf_counter() - start)
                tree = await apaced(lambda: rpc("tap_element", {"coordinate": frame}))
                with_tree["bridge tap_element (tree)"].append(tree)
        b_writer.close()

        print()
        for name, values in {**samples, **with_tree}.items():
            print(_summary(name, values))
        print()
        base = samples["direct runner tap"]
        verdicts = []
        for name in ("bridge tap", "mcp tap"):
            deltas = [a - b for a, b in zip(samples[name], base, strict=True)]
            added = statistics.median(deltas) * 1000
            ratio = statistics.median(samples[name]) / statistics.median(base)
            ok = added <= 3.0
            verdicts.append(ok)
            print(f"{name:<12} adds {added:6.2f} ms over the direct runner tap (median of per-round differences), "
                  f"ratio {ratio:4.2f}  [{'within' if ok else 'OVER'} the 3 ms target]")  # fmt: skip
        tree_added = (statistics.median(with_tree["bridge tap_element (tree)"])
                      - statistics.median(with_tree[settle])) * 1000  # fmt: skip
        print(f"tap_element with its fresh tree adds {tree_added:6.2f} ms over a direct tap + settled snapshot")
        return 0 if all(verdicts) else 1
    finally:
        if bridge is not None:
            _stop(bridge)
        _stop(runner)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="web")
    parser.add_argument("--app", default=None, help="default: dev.phonewire.demo (app.bench on the double)")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    app = args.app or ("app.bench" if args.device.startswith("double") else "dev.phonewire.demo")
    return asyncio.run(bench(args.device, app, args.rounds))


if __name__ == "__main__":
    sys.exit(main())
