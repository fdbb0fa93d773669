"""Benchmark of the web phone on the demo's 300-row list screen, each figure against a raw CDP baseline
measured in the same run on the same machine.

    .venv/bin/python bench/bench_web.py [--rounds 40] [--cold 3] [--no-playwright] [--baseline-src DIR]
    .venv/bin/python bench/bench_web.py --only-taps [--rounds 40] [--baseline-src DIR] [--no-playwright]
    .venv/bin/python bench/bench_web.py --only-snapshots --baseline-src DIR [--rounds 40]

* snapshot p50 through the runner (HTTP + the in-page walk + the shared builder) vs raw
  ``Accessibility.getFullAXTree`` and vs raw ``DOMSnapshot.captureSnapshot`` (with layout rects);
* tap p50 through the runner vs a raw CDP touch tap (touchStart + touchEnd on the same page spot), each event
  awaited before the next, and pipelined (both sent at once, as Playwright's touchscreen.tap does);
* screenshot p50 through the runner vs raw ``Page.captureScreenshot``: PNG at device scale, and JPEG at CSS scale
  (one pixel per point, what MCP asks for by default);
* cold start: from spawning ``phonewire runner --device web`` to the first snapshot of the demo;
* reaching a row: ``find "Item 150"`` then a tap of its ref, against the blind way of issue 10 (``snapshot -i``,
  ``scroll down``, … until the row shows, then the tap), both through the agent API on one phone, alternated each
  round: calls, characters the agent reads (the CLI's output for each call) and wall time;
* with ``--baseline-src DIR`` (e.g. a ``git archive`` of an earlier commit's src/), snapshots of the demo list by
  a runner that imports phonewire from DIR, alternating call by call with one of this tree, and cold starts of
  such runners, interleaved with this tree's;
* ``--only-snapshots``: the paired snapshots of ``--baseline-src`` alone (p50 of each side, and the median of the
  per-round differences);
* ``--only-taps``: taps alone, one per side per round, alternating (order rotated): this tree's runner, the
  ``--baseline-src`` runner, Playwright's ``touchscreen.tap``;
* the same tap, screenshots and cold start through Playwright for Python (``page.touchscreen.tap``,
  ``page.screenshot``, and a fresh interpreter that imports Playwright, launches the browser, opens the demo and
  takes its first ``aria_snapshot``), driving the same Debian Chromium on the same device profile.

The raw baselines use their own browser (same flags, same device profile), loading the same demo page.
Playwright launches that binary with its own flags, on a page of the same size, scale, touch and user agent.
Prints figures and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import http.server
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from pacing import apart  # the bench directory is not a package
from phonewire.devices.web.browser import CHROMIUM, BrowserProcess
from phonewire.devices.web.cdp import CdpConnection, CdpSession
from phonewire.devices.web.pages import DEMO_PATH
from phonewire.devices.web.profiles import resolve_profile
from phonewire.devices.web.server import StaticServer
from phonewire.devices.web.settle import STILL_FRAMES

DEMO = "dev.phonewire.demo"
#: Where spawned interpreters keep compiled bytecode.  An installed phonewire has its .pyc files (the installer
#: compiles them); a source tree under PYTHONDONTWRITEBYTECODE (set on some machines) would recompile every module
#: at every start, ~0.1 s of a cold start that no installation pays.
PYCACHE = Path(tempfile.gettempdir()) / f"phonewire-bench-pycache-{os.getuid()}"


def child_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's) for a spawned interpreter that reads and writes compiled bytecode."""
    out = dict(os.environ if env is None else env)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    out["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return out


class Runner:
    def __init__(self) -> None:
        env = child_env()
        env.pop("PHONEWIRE_TIME_SCALE", None)
        env.pop("PHONEWIRE_RUNNER_PORT", None)
        self.token = secrets.token_urlsafe(32)
        env["PHONEWIRE_RUNNER_TOKEN"] = self.token
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "phonewire", "runner", "--device", "web"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("PHONEWIRE_RUNNER_LISTENING port="):
            self.stop()
            raise SystemExit(f"runner did not start: {line!r}")
        self.port = int(line.strip().split("=", 1)[1])
        self._n = 0

    def send(self, command: str, app: str | None = None, **fields: Any) -> dict[str, Any]:
        """The runner's envelope of an ok reply; the bench ends on any other."""
        envelope, _ = self.exchange(command, app, **fields)
        if not envelope.get("ok"):
            raise SystemExit(f"{command} failed: {envelope}")
        return envelope

    def exchange(
        self, command: str, app: str | None = None, *, timeout: float = 60, **fields: Any
    ) -> tuple[dict[str, Any], int]:
        """The runner's envelope, ok or not, and the size of its reply in bytes."""
        self._n += 1
        body: dict[str, Any] = {"command": command, "commandId": f"bench-{os.getpid()}-{self._n}", **fields}
        if app:
            body["appBundleId"] = app
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {
                "Content-Type": "application/json",
                "Connection": "close",
                "Authorization": f"Bearer {self.token}",
            }
            conn.request("POST", "/", json.dumps(body), headers)
            raw = conn.getresponse().read()
        finally:
            conn.close()
        envelope: dict[str, Any] = json.loads(raw)
        return envelope, len(raw)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@contextlib.contextmanager
def serve_handler(handler: type[http.server.BaseHTTPRequestHandler], name: str) -> Iterator[str]:
    """``handler`` on 127.0.0.1 from a thread of this process (a bench's own pages); yields its base URL, no slash."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def p50(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(fn: Callable[[], object], rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


async def atimed(fn: Callable[[], Awaitable[object]], rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        await fn()
        out.append(time.perf_counter() - t)
    return out


async def raw_baselines(url: str, rounds: int, tap_at: tuple[float, float]) -> dict[str, list[float]]:
    profile = resolve_profile(None)
    browser = BrowserProcess.launch()
    cdp = await CdpConnection.open_pipe(browser.read_fd, browser.write_fd)
    try:
        target = (await cdp.send("Target.createTarget", {"url": "about:blank"}))["targetId"]
        session_id = (await cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"]
        s = CdpSession(cdp, session_id)
        await s.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": profile.width, "height": profile.height, "deviceScaleFactor": profile.dpr, "mobile": True},
        )
        await s.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        await s.send("Page.navigate", {"url": url})
        await s.send(
            "Runtime.evaluate",
            {
                "expression": "new Promise(r => document.readyState === 'complete' ? r(0) : onload = () => r(0))",
                "awaitPromise": True,
            },
        )
        x, y = tap_at

        async def tap() -> None:
            await s.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            await s.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

        async def tap_pipelined() -> None:  # what Playwright's touchscreen.tap sends: both events at once
            await asyncio.gather(
                s.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}),
                s.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []}),
            )

        async def ax() -> None:
            await s.send("Accessibility.getFullAXTree")

        async def dom() -> None:
            await s.send("DOMSnapshot.captureSnapshot", {"computedStyles": [], "includeDOMRects": True})

        fast = {"captureBeyondViewport": False, "optimizeForSpeed": True}  # as the device asks

        async def shot() -> None:
            await s.send("Page.captureScreenshot", {"format": "png", **fast})

        async def shot_jpeg() -> None:  # what the device sends for JPEG at CSS scale: the viewport, scaled 1/dpr
            await s.send(
                "Page.captureScreenshot",
                {
                    "format": "jpeg",
                    "quality": 80,
                    "clip": {"x": 0, "y": 0, "width": profile.width, "height": profile.height,
                             "scale": 1 / profile.dpr},
                    **fast,
                },
            )  # fmt: skip

        # taps and screenshots first: with the Accessibility domain enabled, every frame also updates the
        # accessibility tree (the runner never enables it), which would slow the raw side down
        for warm in (shot, shot_jpeg):
            await warm()
        out = {
            "tap": await atimed(tap, rounds),
            "tap_pipelined": await atimed(tap_pipelined, rounds),
            "shot": await atimed(shot, max(5, rounds // 4)),
            "shot_jpeg": await atimed(shot_jpeg, max(5, rounds // 4)),
        }
        await s.send("Accessibility.enable")
        await s.send("DOMSnapshot.enable")
        for warm in (ax, dom):
            await warm()
        return {"ax": await atimed(ax, rounds), "dom": await atimed(dom, rounds), **out}
    finally:
        await cdp.close()
        browser.stop()


def _playwright_context_options() -> dict[str, Any]:
    profile = resolve_profile(None)
    return {
        "viewport": {"width": profile.width, "height": profile.height},
        "device_scale_factor": profile.dpr,
        "is_mobile": True,
        "has_touch": True,
        "user_agent": profile.user_agent,
    }


async def playwright_baselines(url: str, rounds: int, tap_at: tuple[float, float]) -> dict[str, list[float]]:
    """Playwright for Python on the same binary, page and spot: touchscreen.tap and page.screenshot."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = await (await browser.new_context(**_playwright_context_options())).new_page()
            await page.goto(url, wait_until="load")
            x, y = tap_at

            async def tap() -> None:
                await page.touchscreen.tap(x, y)

            async def shot() -> None:
                await page.screenshot(type="png", animations="allow", caret="initial")

            async def shot_jpeg() -> None:
                await page.screenshot(type="jpeg", quality=80, scale="css", animations="allow", caret="initial")

            for warm in (tap, shot, shot_jpeg):
                await warm()
            return {
                "tap": await atimed(tap, rounds),
                "shot": await atimed(shot, max(5, rounds // 4)),
                "shot_jpeg": await atimed(shot_jpeg, max(5, rounds // 4)),
            }
        finally:
            await browser.close()


_PLAYWRIGHT_COLD = """
import sys
from playwright.sync_api import sync_playwright
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=sys.argv[1], headless=True)
    page = browser.new_context(**OPTIONS).new_page()
    page.goto(sys.argv[2], wait_until="load")
    page.locator("body").aria_snapshot()
    print("snapshot", flush=True)
    browser.close()
"""


def playwright_cold_start(url: str) -> float:
    """A fresh interpreter: import Playwright, launch the browser, open the demo, its first aria snapshot."""
    script = _PLAYWRIGHT_COLD.replace("OPTIONS", repr(_playwright_context_options()))
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", script, CHROMIUM, url],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=child_env(),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    took = time.perf_counter() - started
    proc.wait(30)
    proc.stdout.close()
    if line.strip() != "snapshot":
        raise SystemExit(f"playwright cold start failed: {line!r}")
    return took


async def _serve_demo_then(work: Callable[[str], Awaitable[object]]) -> None:
    server = StaticServer.for_package_data()
    await server.start()
    try:
        await work(server.url(DEMO_PATH))
    finally:
        await server.stop()


def _cpu_s(pids: list[int]) -> float:
    """User + system CPU of ``pids`` and of the children they waited for (a launcher script's helpers), seconds."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _group(pgid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid:
                    out.append(int(entry.name))
            except ProcessLookupError:
                continue
    return out


def runner_from(baseline_src: str | None = None, browser: str | None = None) -> Runner:
    """A runner of this tree, or (``baseline_src``) one that imports phonewire from that src/ directory;
    ``browser``: the binary it starts (``PHONEWIRE_CHROMIUM``), else its default."""
    overrides = {"PYTHONPATH": baseline_src, "PHONEWIRE_CHROMIUM": browser}
    saved = {name: os.environ.get(name) for name, value in overrides.items() if value is not None}
    for name in saved:
        os.environ[name] = str(overrides[name])
    try:
        return Runner()
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def paired_snapshots(baseline_src: str, rounds: int) -> tuple[list[float], list[float]]:
    """Snapshots of the demo list by a runner of this tree and one of the baseline tree, alternating call by call
    (the order swapped every round), so both see the same machine load."""
    ours, base = runner_from(), runner_from(baseline_src)
    try:
        for runner in (ours, base):
            runner.send("launchApp", DEMO)
            for _ in range(3):
                runner.send("snapshot", DEMO)
        ours_s: list[float] = []
        base_s: list[float] = []
        for i in range(rounds):
            pair = [(ours, ours_s), (base, base_s)]
            for runner, samples in pair if i % 2 == 0 else reversed(pair):
                start = time.perf_counter()
                runner.send("snapshot", DEMO)
                samples.append(time.perf_counter() - start)
        return ours_s, base_s
    finally:
        ours.stop()
        base.stop()


def paired_taps(baseline_src: str | None, rounds: int, playwright: bool) -> dict[str, list[float]]:
    """Taps on the demo's inert spot, one per side per round, alternating (the order rotated every round) so every
    side sees the same load: this tree's runner, with ``baseline_src`` a runner importing phonewire from there, and
    Playwright's ``touchscreen.tap`` (sync API, its own browser, same binary and profile).  Seconds per side."""
    runners = {"ours": runner_from()}
    if baseline_src is not None:
        runners["baseline"] = runner_from(baseline_src)
    pw_stack: Any = None
    try:
        spot = (0.0, 0.0)
        for runner in runners.values():
            url, spot, _ = open_demo(runner)

        def tapper(r: Runner) -> Callable[[], object]:
            return lambda: r.send("tap", DEMO, x=spot[0], y=spot[1])

        sides: dict[str, Callable[[], object]] = {name: tapper(runner) for name, runner in runners.items()}
        if playwright:
            from playwright.sync_api import sync_playwright

            pw_stack = sync_playwright().start()
            browser = pw_stack.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_context(**_playwright_context_options()).new_page()
            page.goto(url, wait_until="load")
            sides["playwright"] = lambda: page.touchscreen.tap(*spot)
        out: dict[str, list[float]] = {name: [] for name in sides}
        names = list(sides)
        for side in sides.values():  # warm
            side()
        for i in range(rounds):
            apart()
            for name in names[i % len(names) :] + names[: i % len(names)]:
                started = time.perf_counter()
                sides[name]()
                out[name].append(time.perf_counter() - started)
        return out
    finally:
        if pw_stack is not None:
            pw_stack.stop()
        for runner in runners.values():
            runner.stop()


def print_paired_taps(taps: dict[str, list[float]], baseline_src: str | None) -> None:
    ours = p50(taps["ours"])
    print(f"taps alternating ({len(taps['ours'])} rounds), load average {os.getloadavg()[0]:.1f}:")
    print(f"  tap p50 (runner, this tree)         {ours:8.1f} ms")
    for name, label in (("baseline", f"runner, {baseline_src}"), ("playwright", "Playwright touchscreen.tap")):
        if name in taps:
            print(
                f"  tap p50 ({label})  {p50(taps[name]):8.1f} ms   ratio this tree / it {ours / p50(taps[name]):5.2f}"
            )
    if "baseline" in taps and "playwright" in taps:
        print(f"  ratio baseline / Playwright {p50(taps['baseline']) / p50(taps['playwright']):5.2f}")


def cold_start(baseline_src: str | None = None, cpu: list[float] | None = None, browser: str | None = None) -> float:
    """Runner spawn to the first snapshot of the demo; ``baseline_src``: the runner imports phonewire from there;
    ``browser``: the binary it starts.  ``cpu`` gets the CPU time the runner and its browser spent up to then."""
    runner = runner_from(baseline_src, browser)
    try:
        runner.send("launchApp", DEMO)
        runner.send("snapshot", DEMO)
        took = time.perf_counter() - runner.started
        if cpu is not None:
            browser_pid = int(runner.send("status")["data"]["device"]["browserPid"])
            cpu.append(_cpu_s([runner.proc.pid, *_group(browser_pid)]))
        return took
    finally:
        runner.stop()


FIND_ROW = "Item 150"


def _reach_by_find(phone: Any) -> tuple[int, int]:
    found = phone.find(FIND_ROW)
    tapped = phone.tap("@" + found.data["ref"])
    return 2, len(f"ok {found.data['message']}\n") + len(f"ok {tapped.data['message']}\n")


def _reach_blind(phone: Any) -> tuple[int, int]:
    """What an agent did before ``find``: look, scroll the page down, look again, … then tap the row."""
    calls = chars = 0
    while True:
        text = phone.snapshot(interactive=True).text
        calls, chars = calls + 1, chars + len(text) + 1
        row = re.search(rf'(@e\d+) Link "{FIND_ROW}"( |$)', text, re.M)
        if row is not None:
            tapped = phone.tap(row.group(1))
            return calls + 1, chars + len(f"ok {tapped.data['message']}\n")
        scrolled = phone.scroll("down")
        calls, chars = calls + 1, chars + len(f"ok {scrolled.data['message']}\n")
        if calls > 200:
            raise SystemExit("the blind way never reached the row")


def find_figures(rounds: int) -> dict[str, list[tuple[int, int, float]]]:
    """(calls, characters, wall seconds) per round for each way, each round from a freshly opened demo (the list at
    its top; the open itself is one more call for both ways and is not counted).  Alternated, the order rotated
    every round."""
    import phonewire

    ways: dict[str, Callable[[Any], tuple[int, int]]] = {"find": _reach_by_find, "blind": _reach_blind}
    out: dict[str, list[tuple[int, int, float]]] = {name: [] for name in ways}
    with phonewire.Phone(device="web") as phone:
        names = list(ways)
        for i in range(rounds):
            for name in names[i % 2 :] + names[: i % 2]:
                phone.open(DEMO)
                started = time.perf_counter()
                calls, chars = ways[name](phone)
                out[name].append((calls, chars, time.perf_counter() - started))
                if f'"{FIND_ROW}" id=detail-heading' not in phone.snapshot().text:
                    raise SystemExit(f"{name}: the tap did not open {FIND_ROW}")
    return out


async def playwright_find(url: str, rounds: int) -> list[float]:
    """Playwright for Python on the same demo: ``get_by_role("link", name=…).tap()`` (it scrolls the row into view
    itself), until the detail heading shows; each round from a fresh load."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = await (await browser.new_context(**_playwright_context_options())).new_page()
            out = []
            for _ in range(rounds):
                await page.goto(url, wait_until="load")
                started = time.perf_counter()
                await page.get_by_role("link", name=FIND_ROW, exact=True).tap()
                await page.locator("#detail-heading", has_text=FIND_ROW).wait_for()
                out.append(time.perf_counter() - started)
            return out
        finally:
            await browser.close()


def open_demo(runner: Runner) -> tuple[str, tuple[float, float], list[dict[str, Any]]]:
    """Launch the demo on ``runner``: its URL, an inert spot to tap (left of the summary line: nothing re-renders,
    every side taps the same place) and the list screen's snapshot nodes."""
    runner.send("launchApp", DEMO)
    demo_url = str(runner.send("status")["data"]["device"]["demoUrl"])
    nodes: list[dict[str, Any]] = runner.send("snapshot", DEMO)["data"]["nodes"]
    summary = next(n for n in nodes if n["identifier"] == "likes-total")["rect"]
    for _ in range(3):
        runner.send("snapshot", DEMO)
    return demo_url, (summary["x"] - 20.0, summary["y"] + summary["height"] / 2), nodes


def runner_figures(runner: Runner, spot: tuple[float, float], rounds: int) -> dict[str, list[float]]:
    """Through the runner (HTTP + device): snapshot and tap ``rounds`` times, PNG at device scale and JPEG at CSS
    scale (MCP's and the bridge's default) ``max(5, rounds // 4)`` times each; seconds."""
    shots = max(5, rounds // 4)
    return {
        "snapshot": timed(lambda: runner.send("snapshot", DEMO), rounds),
        "tap": timed(lambda: runner.send("tap", DEMO, x=spot[0], y=spot[1]), rounds),
        "shot": timed(lambda: runner.send("screenshot"), shots),
        "shot_jpeg": timed(lambda: runner.send("screenshot", format="jpeg", scale="css"), shots),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--cold", type=int, default=3)
    parser.add_argument("--no-playwright", action="store_true", help="skip the Playwright baseline")
    parser.add_argument("--find-rounds", type=int, default=3, help="rounds of reaching a row (find vs blind)")
    parser.add_argument("--only-find", action="store_true", help="only the figures of reaching a row")
    parser.add_argument(
        "--only-taps",
        action="store_true",
        help="only taps, alternating: this tree's runner, the --baseline-src runner and Playwright's touchscreen.tap",
    )
    parser.add_argument(
        "--only-snapshots",
        action="store_true",
        help="only snapshots of the demo list, alternating: this tree's runner and the --baseline-src runner",
    )
    parser.add_argument(
        "--baseline-src",
        help="also time snapshots (paired, alternating) and cold starts of runners importing phonewire from this "
        "src/ directory",
    )
    args = parser.parse_args()
    if args.only_find:
        print_find(find_figures(args.find_rounds), _playwright_find_walls(args))
        return
    if args.only_taps:
        base = str(Path(args.baseline_src).resolve()) if args.baseline_src else None
        print_paired_taps(paired_taps(base, args.rounds, not args.no_playwright), base)
        return
    if args.only_snapshots:
        if not args.baseline_src:
            parser.error("--only-snapshots compares with a baseline: give --baseline-src DIR")
        ours_s, base_s = paired_snapshots(str(Path(args.baseline_src).resolve()), args.rounds)
        differences = statistics.median(a - b for a, b in zip(ours_s, base_s, strict=True)) * 1000
        print(f"snapshot p50 of the demo list (runner, paired, {args.rounds} rounds, load {os.getloadavg()[0]:.1f}): "
              f"this tree {p50(ours_s):.2f} ms, {args.baseline_src} {p50(base_s):.2f} ms, "
              f"ratio {p50(ours_s) / p50(base_s):.2f}; median per-round difference {differences:+.2f} ms")  # fmt: skip
        return

    colds: list[float] = []
    pw_colds: list[float] = []
    base_colds: list[float] = []
    cpu_colds: list[float] = []
    cpu_base_colds: list[float] = []
    baseline_src = str(Path(args.baseline_src).resolve()) if args.baseline_src else None

    async def colds_alternating(url: str) -> None:
        # interleaved, and the order rotated every round: each side sees the same machine load, and none always
        # follows the same predecessor (a browser that was just closed still winds down for a moment)
        sides: list[Callable[[], None]] = [lambda: colds.append(cold_start(cpu=cpu_colds))]
        if baseline_src is not None:
            sides.append(lambda: base_colds.append(cold_start(baseline_src, cpu_base_colds)))
        if not args.no_playwright:
            sides.append(lambda: pw_colds.append(playwright_cold_start(url)))
        for i in range(args.cold):
            for side in sides[i % len(sides) :] + sides[: i % len(sides)]:
                await asyncio.to_thread(side)

    asyncio.run(_serve_demo_then(colds_alternating))

    runner = Runner()
    try:
        demo_url, spot, nodes = open_demo(runner)
        ours = runner_figures(runner, spot, args.rounds)
        snap, tap, shot, shot_jpeg = ours["snapshot"], ours["tap"], ours["shot"], ours["shot_jpeg"]
        status = timed(lambda: runner.send("status"), args.rounds)
        # a snapshot right after a tap waits for the screen to hold still (settle.STILL_FRAMES still frames)
        tap_snap = timed(
            lambda: (runner.send("tap", DEMO, x=spot[0], y=spot[1]), runner.send("snapshot", DEMO)),
            max(5, args.rounds // 4),
        )
        size = len(json.dumps(runner.send("snapshot", DEMO)))
        raw = asyncio.run(raw_baselines(demo_url, args.rounds, spot))
        pw = {} if args.no_playwright else asyncio.run(playwright_baselines(demo_url, args.rounds, spot))
    finally:
        runner.stop()

    def row(name: str, ours: float, base: float, base_name: str) -> None:
        print(f"{name:<34} {ours:8.1f} ms   {base_name:<32} {base:8.1f} ms   ratio {ours / base:5.2f}")

    print(f"demo list screen, {len(nodes)} snapshot nodes, snapshot reply {size / 1024:.1f} KB, rounds {args.rounds}")
    row("snapshot p50 (runner)", p50(snap), p50(raw["ax"]), "raw getFullAXTree p50")
    row("snapshot p50 (runner)", p50(snap), p50(raw["dom"]), "raw DOMSnapshot p50")
    row("tap p50 (runner)", p50(tap), p50(raw["tap"]), "raw CDP touch pair, awaited p50")
    row("tap p50 (runner)", p50(tap), p50(raw["tap_pipelined"]), "raw CDP touch pair, pipelined p50")
    overhead = p50(tap) - p50(raw["tap_pipelined"])
    print(f"{'':<34} tap overhead over the pipelined raw pair: {overhead:+.1f} ms (status p50 {p50(status):.1f} ms)")
    if pw:
        row("tap p50 (runner)", p50(tap), p50(pw["tap"]), "Playwright touchscreen.tap p50")
    row("tap + snapshot p50 (runner)", p50(tap_snap), p50(tap) + p50(snap), "tap p50 + snapshot p50")
    print(f"{'':<34} a snapshot right after an action waits until the page is still ({STILL_FRAMES} frame(s) "
          "without a change, nothing animating or on its way); the action itself waits for nothing")  # fmt: skip
    row("screenshot p50 (runner, PNG device)", p50(shot), p50(raw["shot"]), "raw captureScreenshot PNG p50")
    if pw:
        row("screenshot p50 (runner, PNG device)", p50(shot), p50(pw["shot"]), "Playwright screenshot PNG p50")
    row("screenshot p50 (runner, JPEG css)", p50(shot_jpeg), p50(raw["shot_jpeg"]), "raw captureScreenshot JPEG p50")
    if pw:
        row("screenshot p50 (runner, JPEG css)", p50(shot_jpeg), p50(pw["shot_jpeg"]), "Playwright screenshot JPEG p50")

    if baseline_src is not None:
        ours_s, base_s = paired_snapshots(baseline_src, args.rounds)
        row("snapshot p50 (runner, paired)", p50(ours_s), p50(base_s), "baseline tree, paired p50")

    def runs(values: list[float]) -> str:
        return f"median {statistics.median(values):.2f} s (runs: {', '.join(f'{c:.2f}' for c in values)})"

    print(f"cold start, runner spawn → first demo snapshot: {runs(colds)}, CPU (runner + browser) median "
          f"{statistics.median(cpu_colds):.2f} s")  # fmt: skip
    if base_colds:
        print(f"cold start, baseline tree ({args.baseline_src}): {runs(base_colds)}  "
              f"ratio {statistics.median(colds) / statistics.median(base_colds):.2f}, CPU median "
              f"{statistics.median(cpu_base_colds):.2f} s ratio "
              f"{statistics.median(cpu_colds) / statistics.median(cpu_base_colds):.2f}")  # fmt: skip
    if pw_colds:
        print(f"cold start, Playwright (python + import + launch + goto + aria_snapshot): {runs(pw_colds)}  "
              f"ratio {statistics.median(colds) / statistics.median(pw_colds):.2f}")  # fmt: skip

    print_find(find_figures(args.find_rounds), _playwright_find_walls(args))


def _playwright_find_walls(args: argparse.Namespace) -> list[float]:
    if args.no_playwright:
        return []
    walls: list[float] = []

    async def run(url: str) -> None:
        walls.extend(await playwright_find(url, args.find_rounds))

    asyncio.run(_serve_demo_then(run))
    return walls


def print_find(figures: dict[str, list[tuple[int, int, float]]], playwright: list[float]) -> None:
    def summary(name: str) -> tuple[float, float, float]:
        rows = figures[name]
        return (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows),
                statistics.median(r[2] for r in rows))  # fmt: skip

    (fc, fx, fw), (bc, bx, bw) = summary("find"), summary("blind")
    rounds = len(figures["find"])
    print(f"reaching {FIND_ROW!r} of 300 and tapping it (after open; medians of {rounds} alternated rounds):")
    print(f"  find + tap                  {fc:4.0f} calls {fx:7.0f} characters {fw:6.2f} s")
    print(f"  blind snapshot/scroll loop  {bc:4.0f} calls {bx:7.0f} characters {bw:6.2f} s")
    print(f"  ratio find/blind  calls {fc / bc:.2f}  characters {fx / bx:.3f}  wall {fw / bw:.2f}")
    if playwright:
        pw = statistics.median(playwright)
        print(
            f"  Playwright get_by_role(...).tap() wall {pw:.2f} s (its own browser, after the phone's rounds); "
            f"ratio find/Playwright wall {fw / pw:.2f}"
        )


if __name__ == "__main__":
    main()
