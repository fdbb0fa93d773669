"""Host session against the real web device (headless Chromium) through the real fault proxy.

The page is a counter served by the test itself on loopback and opened as a URL app, so the count read back
from the device's own snapshot is the ground truth for "exactly once".
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import shutil
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from host_fault_proxy import Fault, FaultProxy, Plan
from host_helpers import running_runner

from phonewire.host import HostSession
from phonewire.host import diagnostics as d
from phonewire.host import rules as r

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        importlib.util.find_spec("phonewire.devices.web.device") is None or shutil.which("chromium") is None,
        reason="the web device (phonewire.devices.web.device) or Chromium is not available",
    ),
]

PAGE = b"""<!doctype html>
<html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Counter</title></head>
<body style="margin:20px">
<button id="inc" style="display:block;width:240px;height:90px;font-size:24px">Increment</button>
<p id="out">count 0</p>
<script>
let n = 0;
document.getElementById("inc").addEventListener("click", () => {
  n += 1;
  document.getElementById("out").textContent = "count " + n;
});
</script>
</body></html>"""


@contextlib.asynccontextmanager
async def counter_page() -> AsyncIterator[str]:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
                b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(PAGE) + PAGE
            )
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/counter.html"
    finally:
        server.close()
        await server.wait_closed()


def find(nodes: list[dict[str, Any]], role: str, prefix: str) -> dict[str, Any]:
    for node in nodes:
        if node.get("type") == role and str(node.get("label") or node.get("value") or "").startswith(prefix):
            return node
    raise AssertionError(f"no {role} labelled {prefix!r} in {[(n.get('type'), n.get('label')) for n in nodes]}")


async def count_on_screen(host: HostSession, app: str) -> int:
    snap = await host.send("snapshot", {"appBundleId": app})
    assert snap.data is not None
    label = str(find(snap.data["nodes"], "StaticText", "count ")["label"])
    return int(label.rsplit(maxsplit=1)[-1])


def test_taps_with_dropped_replies_count_exactly_once_on_a_real_page() -> None:
    """send-once + recovery on the web device: every 4th tap reply is dropped and recovered from the
    runner's journal; the page's own counter equals the taps the host reported, never more."""
    seen = {"taps": 0}

    def rule(_index: int, body: dict[str, Any]) -> Plan:
        if body.get("command") == "tap":
            seen["taps"] += 1
            if seen["taps"] % 4 == 0:
                return Plan(Fault.DROP_REPLY)
        return Plan(Fault.PASS)

    async def main() -> None:
        async with (
            counter_page() as url,
            running_runner("web") as process,
            FaultProxy(process.port, rule) as proxy,
        ):
            host = HostSession(
                runner_addr=proxy.address,
                write_diagnostics=False,
                env=dict(os.environ, PHONEWIRE_RUNNER_TOKEN=process.token),
            )
            try:
                await host.send("launchApp", {"appBundleId": url})
                snap = await host.send("snapshot", {"appBundleId": url})
                assert snap.data is not None
                rect = find(snap.data["nodes"], "Button", "Increment")["rect"]
                x, y = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
                done = recovered = 0
                for _ in range(12):
                    reply = await host.send("tap", {"appBundleId": url, "x": x, "y": y})
                    done += 1
                    recovered += reply.recovered == r.RECOVERED_COMPLETED
                assert recovered == proxy.faults[Fault.DROP_REPLY] == 3
                assert await count_on_screen(host, url) == done == 12
                assert proxy.count("tap") == 12
                assert host.diagnostics(event=d.INVALIDATION) == []
            finally:
                await host.close()

    asyncio.run(main())


def test_hot_taps_on_the_web_device_make_one_request_each_and_relaunch_keeps_the_runner() -> None:
    """lifecycle on the web device: after the first tap, one runner request per allowlisted tap."""

    async def main() -> None:
        async with counter_page() as url, running_runner("web") as process, FaultProxy(process.port) as proxy:
            host = HostSession(
                runner_addr=proxy.address,
                write_diagnostics=False,
                env=dict(os.environ, PHONEWIRE_RUNNER_TOKEN=process.token),
            )
            try:
                await host.send("launchApp", {"appBundleId": url})
                await host.send("tap", {"appBundleId": url, "x": 100, "y": 60})
                before = proxy.count()
                for _ in range(20):
                    await host.send("tap", {"appBundleId": url, "x": 100, "y": 60})
                assert proxy.count() - before == 20
                assert await count_on_screen(host, url) == 21
                # lifecycle: relaunching the app keeps the warm runner through one lifecycle reset
                runner = host.runner
                relaunch = await host.send("launchApp", {"appBundleId": url})
                assert relaunch.data is not None and relaunch.data["relaunched"] is True
                assert [ev["confirmed"] for ev in host.diagnostics(event=d.LIFECYCLE_RESET)] == [True]
                assert proxy.count("reset") == 1
                assert host.runner is runner and host.diagnostics(event=d.INVALIDATION) == []
                await host.send("tap", {"appBundleId": url, "x": 100, "y": 60})
                assert await count_on_screen(host, url) == 1  # a fresh page, tapped once
            finally:
                await host.close()

    asyncio.run(main())


def test_sigkilled_web_runner_is_replaced_by_the_next_command() -> None:
    """lifecycle on the web device: the next command notices the dead runner, starts a new one (and a new
    Chromium) and succeeds, with no graceful-shutdown wait."""

    async def main() -> None:
        async with counter_page() as url, HostSession("web", write_diagnostics=False) as host:
            await host.send("launchApp", {"appBundleId": url})
            await host.send("tap", {"appBundleId": url, "x": 100, "y": 60})
            first = host.runner
            assert first is not None and first.process is not None
            os.kill(first.process.pid, signal.SIGKILL)
            while first.process.alive():
                await asyncio.sleep(0.001)
            reply = await host.send("launchApp", {"appBundleId": url})
            assert reply.ok and host.runner is not first
            assert await count_on_screen(host, url) == 0  # a new device: the old page died with its runner
            [stopped] = host.diagnostics(event=d.RUNNER_STOPPED)
            assert stopped["how"] == "exited"

    asyncio.run(main())
