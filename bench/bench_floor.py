"""Every figure of issue 16 in one run, each next to its baseline measured in the same run (≤ 3 minutes).

    .venv/bin/python bench/bench_floor.py [--rounds 20] [--cold 4] [--phones 5] [--cli 15]

Reuses the other benches' functions (the bench directory is not a package; it is put on ``sys.path``):

* tap p50 through the runner vs Playwright's ``touchscreen.tap`` and a raw CDP touch pair (bench_web);
* cold start, runner spawn → first snapshot of the demo (wall and CPU of the runner and its browser) vs a fresh
  interpreter that imports Playwright, launches the same browser, opens the demo and takes its first
  ``aria_snapshot``; when the default browser is ``chromium-headless-shell``, also a runner started with the full
  chromium (``PHONEWIRE_CHROMIUM``), so the choice of binary is measured too; alternating, order rotated;
* RSS and PSS per additional phone, 1 → ``--phones`` phones of a browser each (bench_phones);
* JPEG at CSS scale (MCP's and the bridge's default) through the runner vs raw ``Page.captureScreenshot`` and
  Playwright's ``page.screenshot(type="jpeg", scale="css")`` (bench_web), and the browser's CPU per JPEG;
* warm CLI overhead of the native client and of the Python client over a direct tap through the in-process
  Python API (bench_cli);
* snapshot p50 of the demo's 300-row list through the runner vs raw ``Accessibility.getFullAXTree`` (bench_web).

The runner side and the raw and Playwright baselines take turns (two passes, the order reversed in the second),
so drifting load hits each alike.  The machine's load average is printed first and last.  Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_cli  # the bench directory is not a package
import bench_phones
import bench_web
from phonewire.devices.web.browser import CHROMIUM, DEBIAN_BINARY, HEADLESS_SHELL

Samples = dict[str, list[float]]


def ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1000


def line(figure: str, ours: float, unit: str, baseline: str, base: float, *, target: str = "") -> None:
    ratio = f"{ours / base:5.2f}x" if base else "   - "
    print(f"{figure:<36} {ours:8.2f} {unit:<3} {baseline:<42} {base:8.2f} {unit:<3} {ratio}  {target}")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


# -- cold start ---------------------------------------------------------------------------------------------------
def cold_starts(rounds: int) -> tuple[Samples, Samples]:
    """(wall, CPU) samples per side: this runner with its default browser, the full chromium when the default is
    the headless shell, and Playwright; alternating, the order rotated every round."""
    wall: Samples = {"runner": [], "runner, full chromium": [], "Playwright": []}
    cpu: Samples = {"runner": [], "runner, full chromium": []}
    sides: list[Callable[[str], None]] = [lambda url: wall["runner"].append(bench_web.cold_start(cpu=cpu["runner"]))]
    if CHROMIUM == HEADLESS_SHELL and os.access(DEBIAN_BINARY, os.X_OK):
        full = wall["runner, full chromium"]
        sides.append(
            lambda url: full.append(bench_web.cold_start(cpu=cpu["runner, full chromium"], browser=DEBIAN_BINARY))
        )
    sides.append(lambda url: wall["Playwright"].append(bench_web.playwright_cold_start(url)))

    async def alternate(url: str) -> None:
        for i in range(rounds):
            for side in sides[i % len(sides) :] + sides[: i % len(sides)]:
                await asyncio.to_thread(side, url)

    asyncio.run(bench_web._serve_demo_then(alternate))
    return wall, cpu


# -- tap, snapshot, JPEG: the runner against raw CDP and Playwright ----------------------------------------------
def page_figures(rounds: int) -> tuple[Samples, Samples, Samples, int]:
    """(runner, raw CDP, Playwright) samples on the demo's list screen, and its snapshot's node count."""
    runner = bench_web.Runner()
    ours: Samples = {}
    raw: Samples = {}
    pw: Samples = {}

    def extend(into: Samples, more: Samples) -> None:
        for key, values in more.items():
            into.setdefault(key, []).extend(values)

    try:
        url, spot, nodes = bench_web.open_demo(runner)
        ours["jpeg_cpu"] = [jpeg_cpu(runner, max(5, rounds // 2))]
        sides: list[Callable[[], None]] = [
            lambda: extend(ours, bench_web.runner_figures(runner, spot, rounds // 2)),
            lambda: extend(raw, asyncio.run(bench_web.raw_baselines(url, rounds // 2, spot))),
            lambda: extend(pw, asyncio.run(bench_web.playwright_baselines(url, rounds // 2, spot))),
        ]
        for side in [*sides, *reversed(sides)]:
            side()
    finally:
        runner.stop()
    return ours, raw, pw, len(nodes)


def jpeg_cpu(runner: bench_web.Runner, n: int) -> float:
    """CPU seconds (user + system) the runner's browser spends per JPEG at CSS scale: the part of a screenshot that
    waiting for a core on a loaded machine does not inflate."""
    group = bench_web._group(int(runner.send("status")["data"]["device"]["browserPid"]))
    before = bench_web._cpu_s(group)
    for _ in range(n):
        runner.send("screenshot", format="jpeg", scale="css")
    return (bench_web._cpu_s(group) - before) / n


# -- memory per phone ---------------------------------------------------------------------------------------------
def memory(phones: int) -> tuple[dict[str, float], dict[str, float]]:
    env = bench_web.child_env()
    return bench_phones.measure(1, 3, env), bench_phones.measure(phones, 3, env)


# -- warm CLI -----------------------------------------------------------------------------------------------------
def warm_cli(n: int) -> tuple[list[float], Samples, Samples, Samples] | None:
    if bench_cli.COMMAND == bench_cli.SCRIPT:
        return None  # no native client: scripts/setup.sh installs it
    env = bench_cli.cli_env()
    runner = bench_cli.Runner("web", env)
    rt = ["--runner", f"127.0.0.1:{runner.port}"]
    try:
        runner.send("launchApp", appBundleId=bench_cli.DEMO)
        bench_cli.cli(env, *rt, "open", bench_cli.DEMO)  # the daemon's session has the app open, as an agent's has
        return bench_cli.fast_client_figures(env, runner, bench_cli.DEMO, rt, n)
    finally:
        with contextlib.suppress(SystemExit):
            bench_cli.cli(env, "daemon", "stop")
        runner.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="snapshots and taps per side (screenshots: a quarter)")
    parser.add_argument("--cold", type=int, default=4, help="cold starts per side")
    parser.add_argument("--phones", type=int, default=5, help="phones for the memory per additional phone")
    parser.add_argument("--cli", type=int, default=15, help="rounds of warm CLI taps")
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"issue 16 figures; browser {CHROMIUM}; python {sys.version.split()[0]}; load average {load()}")

    cold_wall, cold_cpu = cold_starts(args.cold)
    ours, raw, pw, nodes = page_figures(args.rounds)
    one, many = memory(args.phones)
    cli = warm_cli(args.cli)

    print(f"\n{'figure (p50 unless said)':<36} {'ours':>12} {'baseline, same run':<42} {'':>12} ratio  target")
    line(
        "tap (runner)", ms(ours["tap"]), "ms", "Playwright touchscreen.tap", ms(pw["tap"]), target="<= 1.0x Playwright"
    )
    line("tap (runner)", ms(ours["tap"]), "ms", "raw CDP touch pair, pipelined", ms(raw["tap_pipelined"]))
    line("tap (runner)", ms(ours["tap"]), "ms", "raw CDP touch pair, awaited", ms(raw["tap"]))
    cold, pw_cold = statistics.median(cold_wall["runner"]), statistics.median(cold_wall["Playwright"])
    line("cold start (runner), wall", cold, "s", "Playwright launch + goto + aria_snapshot", pw_cold, target="<= 0.4 s")
    print(f"{'  CPU (runner + browser)':<36} {statistics.median(cold_cpu['runner']):8.2f} s   "
          f"runs: {', '.join(f'{w:.2f}' for w in cold_wall['runner'])} s wall")  # fmt: skip
    if cold_wall["runner, full chromium"]:
        full, full_cpu = statistics.median(cold_wall["runner, full chromium"]), cold_cpu["runner, full chromium"]
        line("cold start (runner), wall", cold, "s", "the same runner on the full chromium", full)
        line("  CPU (runner + browser)", statistics.median(cold_cpu["runner"]), "s", "  on the full chromium",
             statistics.median(full_cpu))  # fmt: skip
    extra = max(1, args.phones - 1)
    for key, name in (("pss", "PSS"), ("rss", "RSS")):
        per = (many[key] - one[key]) / extra
        line(f"{name} per additional phone", per, "MB", f"{name} of the first phone", one[key],
             target="<= 300 MB" if key == "pss" else "")  # fmt: skip
    line("JPEG CSS screenshot (runner)", ms(ours["shot_jpeg"]), "ms", "raw captureScreenshot JPEG, fixed clip",
         ms(raw["shot_jpeg"]), target="<= 25 ms")  # fmt: skip
    line("JPEG CSS screenshot (runner)", ms(ours["shot_jpeg"]), "ms", 'Playwright screenshot jpeg scale="css"',
         ms(pw["shot_jpeg"]))  # fmt: skip
    print(
        f"{'  browser CPU per JPEG CSS':<36} {ours['jpeg_cpu'][0] * 1000:8.2f} ms  (user + system of its process group)"
    )
    if cli is None:
        print("warm CLI: the native client is not installed (bash scripts/setup.sh)")
    else:
        api, wall, cpu, over = cli
        for name, label in (("native", "warm CLI tap, native client"), ("python", "warm CLI tap, Python client")):
            line(label, ms(wall[name]), "ms", "direct tap, Python API in-process", ms(api),
                 target=f"overhead {ms(over[name]):.2f} ms <= 15 ms; CPU {ms(cpu[name]):.2f} ms")  # fmt: skip
    line(f"snapshot, {nodes} nodes (runner)", ms(ours["snapshot"]), "ms", "raw Accessibility.getFullAXTree",
         ms(raw["ax"]))  # fmt: skip
    print(
        f"\nload average at the end {load()}; {time.perf_counter() - started:.0f} s; rounds {args.rounds} "
        f"(two passes, alternating), cold starts {args.cold} per side, phones 1 → {args.phones}, CLI rounds {args.cli}"
    )


if __name__ == "__main__":
    main()
