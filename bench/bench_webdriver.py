"""WebDriver front end vs the Python API, directly and through a real Selenium Grid 4, in one run on the web phone
(demo app), medians; every comparison is measured alternately in the same run (the machine is shared: absolute
numbers drift, the ratios are what to read):

* session creation: ``POST /session`` to phonewire directly, the same through the Grid's hub (relay node → the
  same kind of phonewire server), and ``Phone("web")`` + ``open`` (the baseline), in rounds of one each;
* memory per idle session: RSS and PSS of a ``phonewire webdriver`` process and everything below it (runners,
  browsers) with K idle sessions, minus the same with none, divided by K;
* find + click through the Appium Python client (``find_element(ACCESSIBILITY_ID)`` then ``click()``: two HTTP
  requests, two fresh snapshots, one tap), directly and through the Grid, against one direct
  ``Phone.tap("id=like-1")`` (one snapshot, one tap), interleaved tap by tap.

    .venv/bin/python bench/bench_webdriver.py [N taps] [R session rounds] [K idle sessions]

Needs Java and the Selenium jar for the Grid part (``bash scripts/grid.sh``); without them it measures the
direct numbers only and says so.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from appium import webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy

from pacing import paced  # the bench directory is not a package
from phonewire.api import Phone

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from grid_harness import STEREOTYPE, Grid, Phonewire, descendants, server_jar

CAPS: dict[str, object] = {**STEREOTYPE, "appium:deviceName": "iPhone 15", "appium:app": "dev.phonewire.demo"}


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms"


def _ratio(a: list[float], b: list[float]) -> str:
    return f"{statistics.median(a) / statistics.median(b):.2f}"


def connect(url: str) -> webdriver.Remote:
    options = AppiumOptions()
    options.load_capabilities(CAPS)
    return webdriver.Remote(url, options=options)


def tree_memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MB of ``pid`` and every process below it."""
    rss = pss = 0
    for p in {pid} | {child for child, _ in descendants(pid)}:
        try:
            with Path(f"/proc/{p}/smaps_rollup").open() as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            continue
    return rss / 1024, pss / 1024


def settle_memory(pid: int) -> tuple[float, float]:
    time.sleep(3)  # let a fresh browser finish its start-up allocations
    samples = []
    for _ in range(5):
        samples.append(tree_memory_mb(pid))
        time.sleep(0.2)
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def create_and_quit(where: str | Grid) -> float:
    t = time.perf_counter()
    d = connect(where) if isinstance(where, str) else where.connect(CAPS)
    took = time.perf_counter() - t
    d.quit()
    return took


def main(n: int, rounds: int, idle: int) -> None:
    jar, why = server_jar()
    workdir = Path(tempfile.mkdtemp(prefix="bench-webdriver-"))
    grid: Grid | None = None
    direct = Phonewire.start(workdir / "phonewire-direct.log")
    try:
        if jar is None:
            print(f"no Grid ({why}); direct numbers only")
        else:
            grid = Grid(jar, workdir, credentials=[None], max_sessions=max(2, idle))
            grid.start()

        # -- session creation, alternating: direct, through the Grid, Python API --------------------------
        create_wd: list[float] = []
        create_grid: list[float] = []
        create_api: list[float] = []

        def api_session() -> float:
            t = time.perf_counter()
            with Phone("web") as phone:
                phone.open("dev.phonewire.demo")
                return time.perf_counter() - t

        kinds: list[tuple[list[float], Callable[[], float]]] = [
            (create_wd, lambda: create_and_quit(direct.url)),
            (create_api, api_session),
        ]
        if grid is not None:
            kinds.append((create_grid, lambda: create_and_quit(grid)))
        for i in range(rounds):  # one of each per round, the order rotated round by round
            for samples, create in kinds[i % len(kinds) :] + kinds[: i % len(kinds)]:
                samples.append(create())

        # -- memory per idle session ------------------------------------------------------------------------
        base_rss, base_pss = settle_memory(direct.proc.pid)
        sessions = [connect(direct.url) for _ in range(idle)]
        busy_rss, busy_pss = settle_memory(direct.proc.pid)
        for d in sessions:
            d.quit()

        # -- find + click vs Phone.tap, interleaved ---------------------------------------------------------
        clicks: list[float] = []
        clicks_grid: list[float] = []
        taps: list[float] = []
        d = connect(direct.url)
        g = grid.connect(CAPS) if grid is not None else None
        with Phone("web") as phone:
            phone.open("dev.phonewire.demo")
            for _ in range(n):
                clicks.append(paced(lambda: d.find_element(AppiumBy.ACCESSIBILITY_ID, "like-1").click()))
                if g is not None:
                    t = time.perf_counter()
                    g.find_element(AppiumBy.ACCESSIBILITY_ID, "like-1").click()
                    clicks_grid.append(time.perf_counter() - t)
                t = time.perf_counter()
                phone.tap("id=like-1")
                taps.append(time.perf_counter() - t)
        d.quit()
        if g is not None:
            g.quit()
    finally:
        if grid is not None:
            grid.stop()
        direct.proc.terminate()
        direct.proc.wait(30)
        if direct.proc.stdout is not None:
            direct.proc.stdout.close()

    print(f"one run, alternating, medians; {rounds} session rounds, {n} taps, {idle} idle sessions")
    line = f"session creation: Phone()+open {_ms(create_api)} (baseline); POST /session direct {_ms(create_wd)} "
    line += f"(x{_ratio(create_wd, create_api)})"
    if create_grid:
        line += f"; through the Grid {_ms(create_grid)} (x{_ratio(create_grid, create_api)}, "
        line += f"x{_ratio(create_grid, create_wd)} of direct)"
    print(line)
    print(
        f"memory per idle session: RSS {(busy_rss - base_rss) / idle:.0f} MB, PSS {(busy_pss - base_pss) / idle:.0f} "
        f"MB (phonewire webdriver + runners + browsers: {base_rss:.0f} MB RSS with none, {busy_rss:.0f} MB with {idle})"
    )
    line = f"find+click: Phone.tap p50 {_ms(taps)} (baseline); Appium direct {_ms(clicks)} (x{_ratio(clicks, taps)})"
    if clicks_grid:
        line += f"; through the Grid {_ms(clicks_grid)} (x{_ratio(clicks_grid, taps)}, "
        line += f"x{_ratio(clicks_grid, clicks)} of direct)"
    print(line)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*(args + [30, 5, 2][len(args) :]))
