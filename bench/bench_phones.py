"""Many web phones on one machine: memory per additional phone and tap latency with all of them busy.

    .venv/bin/python bench/bench_phones.py [--counts 1,5,10] [--taps 20] [--seconds 60] [--baseline-src DIR]

For each count N, N runners (``phonewire runner --device web``, one Chromium each) are started, the demo is
launched on each and snapshotted once, then, after a short rest:

* memory: the runner's RSS plus the RSS of every process in its browser's process group (Chromium starts in a
  group of its own), summed over all phones; and the same as PSS (shared pages split between the processes that
  map them, so the sum is not inflated by the pages every Chromium process shares);
* per additional phone: (total at N − total at 1) / (N − 1);
* tap p50 with all N busy: one thread per phone taps an inert spot and reads the screen (``snapshot``), in a loop,
  ``--taps`` times or until ``--seconds`` have passed, all at once; the tap p50 at N is printed as a ratio to the
  tap p50 at the first count (one phone by default), measured in the same run, and the snapshot p50 beside it.
  Each loop pauses one double-tap window (pacing.apart) between its taps, and the phones' phases are spread over
  that pause (phone i starts i/N of it late): independent agents' steps do not fall in the same millisecond, and
  threads started together would otherwise stay in lockstep for the whole run, every tap queued behind nine
  others.  ``--lockstep`` also measures that worst case (every phone's tap sent at the same moment);
* PSS per phone: the total PSS at N divided by N;
* what the machine loses: ``MemAvailable`` (/proc/meminfo) before the phones start minus after, the figure a
  fleet planner cares about (the machine is shared, so other users' allocations are noise in it: read it
  next to PSS, which counts only these processes' pages, shared ones split between the processes that map them);
* ``--shared``: the alternative design, measured in the same run: one Chromium with one browser context per
  phone (``Target.createBrowserContext``: own cookies and storage), each context's page given the phone's
  metrics, touch emulation and the demo, driven over raw CDP.  Its per-phone cost is the browser group's growth
  per context plus one runner process (a shared browser still keeps one runner per device on the wire), taken
  from the one-browser-per-phone runs.

``--baseline-src DIR`` runs the same measurement, interleaved, with runners importing phonewire from DIR (e.g. a
``git archive`` of the commit before a change), and prints both, so a change is measured against its baseline in
the same run.  Everything started is stopped by PID at the end of each count.  Bounded: at most MAX_PHONES phones
and ``--seconds`` of loop per count.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import DEMO, Runner  # the bench directory is not a package
from bench_web import _group as _group_pids
from pacing import apart
from phonewire.devices.web.gestures import APART_S

#: The most phones one run starts (each is a runner and a Chromium: about 200 MB PSS).
MAX_PHONES = 16


def _memory_kb(pid: int) -> tuple[int, int, int]:
    """(RSS, PSS, USS) of one process in KiB; zeros when it is gone.  USS: its private pages only (what its end
    frees for certain)."""
    rss = pss = uss = 0
    try:
        with Path(f"/proc/{pid}/smaps_rollup").open() as f:
            for line in f:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith(("Private_Clean:", "Private_Dirty:")):
                    uss += int(line.split()[1])
    except OSError:
        pass
    return rss, pss, uss


def pids_memory_mb(pids: list[int]) -> tuple[float, float, float]:
    """(RSS, PSS, USS) in MiB summed over ``pids``."""
    rss = pss = uss = 0
    for pid in pids:
        r, p, u = _memory_kb(pid)
        rss, pss, uss = rss + r, pss + p, uss + u
    return rss / 1024, pss / 1024, uss / 1024


def phone_memory_mb(runner: Runner, browser_pid: int) -> tuple[float, float, int, float, float]:
    """(RSS, PSS, processes, runner PSS, USS) of one phone: its runner plus its browser's process group."""
    pids = [runner.proc.pid, *_group_pids(browser_pid)]
    rss, pss, uss = pids_memory_mb(pids)
    return rss, pss, len(pids), pids_memory_mb([runner.proc.pid])[1], uss


def mem_available_mb() -> float:
    with Path("/proc/meminfo").open() as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Phone:
    def __init__(self, env: dict[str, str]) -> None:
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(env)
        try:
            self.runner = Runner()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.runner.send("launchApp", DEMO)
        self.browser_pid = int(self.runner.send("status")["data"]["device"]["browserPid"])
        nodes = self.runner.send("snapshot", DEMO)["data"]["nodes"]
        summary = next(n for n in nodes if n["identifier"] == "likes-total")["rect"]
        self.spot = (summary["x"] - 20.0, summary["y"] + summary["height"] / 2)

    def loop(self, n: int, deadline: float, taps: list[float], reads: list[float], offset: float = 0.0) -> None:
        """Tap, then read the screen, ``n`` times or until ``deadline`` (perf_counter), the first tap ``offset``
        seconds late (the phone's phase among the others')."""
        x, y = self.spot
        time.sleep(offset)
        for _ in range(n):
            if time.perf_counter() > deadline:
                return
            apart()
            t = time.perf_counter()
            self.runner.send("tap", DEMO, x=x, y=y)
            taps.append(time.perf_counter() - t)
            t = time.perf_counter()
            self.runner.send("snapshot", DEMO)
            reads.append(time.perf_counter() - t)


def measure(
    count: int, taps: int, env: dict[str, str], seconds: float = 60.0, *, spread: bool = True
) -> dict[str, float]:
    phones: list[Phone] = []
    available = mem_available_mb()
    try:
        for _ in range(count):
            phones.append(Phone(env))
        time.sleep(1.0)  # let start-up allocations settle
        mem = [phone_memory_mb(p.runner, p.browser_pid) for p in phones]
        lost = available - mem_available_mb()
        samples: list[float] = []
        reads: list[float] = []
        deadline = time.perf_counter() + seconds
        # phases: spread, phone i starts i/count of one pause late (independent agents' steps do not fall in the
        # same millisecond); lockstep, every phone taps at the same moment (the worst case)
        offsets = [i * APART_S / count if spread else 0.0 for i in range(count)]
        threads = [
            threading.Thread(target=p.loop, args=(taps, deadline, samples, reads, offset))
            for p, offset in zip(phones, offsets, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return {
            "rss": sum(m[0] for m in mem),
            "pss": sum(m[1] for m in mem),
            "procs": sum(m[2] for m in mem) / count,
            "runner_pss": statistics.median(m[3] for m in mem),
            "uss": sum(m[4] for m in mem),
            "lost": lost,
            "tap_p50": statistics.median(samples) * 1000,
            "read_p50": statistics.median(reads) * 1000,
            "loops": len(samples),
        }
    finally:
        for p in phones:
            p.runner.stop()


async def _shared_browser(count: int, url: str) -> dict[str, float]:
    """One Chromium (the runner's flags), ``count`` browser contexts, each with one page made a phone."""
    from phonewire.devices.web.browser import BrowserProcess, window_flags
    from phonewire.devices.web.cdp import CdpConnection
    from phonewire.devices.web.profiles import apply_profile, resolve_profile

    profile = resolve_profile(None)
    available = mem_available_mb()
    browser = BrowserProcess.launch(extra_flags=window_flags(profile.width, profile.height))
    cdp = await CdpConnection.open_pipe(browser.read_fd, browser.write_fd)
    try:
        await cdp.send("Target.getTargets")
        for _ in range(count):
            context = (await cdp.send("Target.createBrowserContext", {"disposeOnDetach": True}))["browserContextId"]
            target = (await cdp.send("Target.createTarget", {"url": "about:blank", "browserContextId": context}))[
                "targetId"
            ]
            session_id = (await cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"]
            page = cdp.session(session_id)
            await apply_profile(page, profile)
            await page.send("Page.navigate", {"url": url})
            await page.send("Runtime.evaluate", {"expression": _LOADED, "awaitPromise": True})
        await asyncio.sleep(1.0)
        pids = _group_pids(browser.pid)
        rss, pss, uss = pids_memory_mb(pids)
        return {"rss": rss, "pss": pss, "uss": uss, "procs": len(pids), "lost": available - mem_available_mb()}
    finally:
        await cdp.close()
        await asyncio.to_thread(browser.stop)


_LOADED = "new Promise(r => document.readyState === 'complete' ? r(0) : addEventListener('load', () => r(0)))"


def measure_shared(count: int, url: str) -> dict[str, float]:
    return asyncio.run(_shared_browser(count, url))


def _with_demo_server(count: int) -> dict[str, float]:
    from phonewire.devices.web.pages import DEMO_PATH
    from phonewire.devices.web.server import StaticServer

    async def go() -> dict[str, float]:
        server = StaticServer.for_package_data()
        await server.start()
        try:
            return await _shared_browser(count, server.url(DEMO_PATH))
        finally:
            await server.stop()

    return asyncio.run(go())


def _print_own(
    name: str, by_count: dict[int, dict[str, float]], lockstep: dict[int, dict[str, float]], base: int
) -> None:
    """One variant's lines: memory and latency per count, the lockstep worst case under its count."""
    print(f"{name}:")
    for count, r in by_count.items():
        line = (
            f"  {count:>2} phones: RSS {r['rss']:7.0f} MB  PSS {r['pss']:7.0f} MB ({r['pss'] / count:4.0f}/phone)  "
            f"({r['procs']:.1f} processes/phone)  all busy ({r['loops']:.0f} loops): tap p50 {r['tap_p50']:6.1f} ms"
            f" = {r['tap_p50'] / by_count[base]['tap_p50']:.2f}x {base} phone(s)'s, snapshot p50 "
            f"{r['read_p50']:6.1f} ms = {r['read_p50'] / by_count[base]['read_p50']:.2f}x"
        )
        if count != base:
            extra = count - base
            line += (
                f"   per additional phone: RSS {(r['rss'] - by_count[base]['rss']) / extra:5.0f} MB, "
                f"PSS {(r['pss'] - by_count[base]['pss']) / extra:5.0f} MB, "
                f"USS {(r['uss'] - by_count[base]['uss']) / extra:5.0f} MB, "
                f"machine lost {(r['lost'] - by_count[base]['lost']) / extra:5.0f} MB "
                f"(runner process PSS {r['runner_pss']:.0f} MB)"
            )
        print(line)
        if count in lockstep:
            worst = lockstep[count]
            tap, read = worst["tap_p50"] / by_count[base]["tap_p50"], worst["read_p50"] / by_count[base]["read_p50"]
            print(
                f"  {count:>2} phones in lockstep (every tap at the same moment, the worst case): tap p50 "
                f"{worst['tap_p50']:6.1f} ms = {tap:.2f}x, snapshot p50 {worst['read_p50']:6.1f} ms = {read:.2f}x"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="1,5,10", help="phone counts, the first is the base (default 1,5,10)")
    parser.add_argument("--taps", type=int, default=20, help="tap + snapshot loops per phone while all are busy")
    parser.add_argument("--seconds", type=float, default=60.0, help="at most this long a loop per count")
    parser.add_argument("--baseline-src", help="a src/ directory to import phonewire from for the baseline")
    parser.add_argument("--lockstep", action="store_true", help="also measure every phone tapping at the same moment")
    parser.add_argument("--shared", action="store_true", help="also measure one browser with a context per phone")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    if not counts or min(counts) < 1 or max(counts) > MAX_PHONES:
        parser.error(f"counts must be 1..{MAX_PHONES}")

    variants = {"this tree": dict(os.environ)}
    variants["this tree"].pop("PYTHONPATH", None)
    if args.baseline_src:
        variants["baseline"] = {**os.environ, "PYTHONPATH": str(Path(args.baseline_src).resolve())}

    results: dict[str, dict[int, dict[str, float]]] = {name: {} for name in variants}
    lockstep: dict[str, dict[int, dict[str, float]]] = {name: {} for name in variants}
    shared: dict[int, dict[str, float]] = {}
    for count in counts:  # interleaved: both variants see the same machine load
        for name, env in variants.items():
            results[name][count] = measure(count, args.taps, env, args.seconds)
            if count > 1 and args.lockstep:
                lockstep[name][count] = measure(count, args.taps, env, args.seconds, spread=False)
        if args.shared:
            shared[count] = _with_demo_server(count)

    base = counts[0]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other users' allocations are noise in "
          "'machine lost')")  # fmt: skip
    for name, by_count in results.items():
        _print_own(name, by_count, lockstep[name], base)
    if shared:
        runner_pss = statistics.median(r["runner_pss"] for r in results["this tree"].values())
        print(f"shared browser, a context per phone (raw CDP; + one runner process each, PSS {runner_pss:.0f} MB):")
        for count, r in shared.items():
            line = f"  {count:>2} phones: RSS {r['rss']:7.0f} MB  PSS {r['pss']:7.0f} MB  ({r['procs']:.0f} processes)"
            if count != base:
                extra = count - base
                per_pss = (r["pss"] - shared[base]["pss"]) / extra
                own = results["this tree"]
                own_pss = (own[count]["pss"] - own[base]["pss"]) / extra
                line += (
                    f"   per additional phone: RSS {(r['rss'] - shared[base]['rss']) / extra:5.0f} MB, "
                    f"PSS {per_pss:5.0f} MB + runner {runner_pss:.0f} MB = {per_pss + runner_pss:.0f} MB, "
                    f"USS {(r['uss'] - shared[base]['uss']) / extra:5.0f} MB (+ runner), "
                    f"machine lost {(r['lost'] - shared[base]['lost']) / extra:5.0f} MB (+ runner); "
                    f"ratio to a browser per phone (PSS) {(per_pss + runner_pss) / own_pss:.2f}"
                )
            print(line)


if __name__ == "__main__":
    main()
