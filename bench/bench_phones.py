"""Many web phones on one machine: memory per additional phone and tap latency with all of them busy.

    .venv/bin/python bench/bench_phones.py [--counts 1,5,10] [--taps 20] [--baseline-src DIR]

For each count N, N runners (``phonewire runner --device web``, one Chromium each) are started, the demo is
launched on each and snapshotted once, then, after a short rest:

* memory: the runner's RSS plus the RSS of every process in its browser's process group (Chromium starts in a
  group of its own), summed over all phones; and the same as PSS (shared pages split between the processes that
  map them, so the sum is not inflated by the pages every Chromium process shares);
* per additional phone: (total at N − total at 1) / (N − 1);
* tap p50 with all N busy: one thread per phone taps an inert spot ``--taps`` times, all at once.

``--baseline-src DIR`` runs the same measurement, interleaved, with runners importing phonewire from DIR (e.g. a
``git archive`` of the commit before a change), and prints both, so a change is measured against its baseline in
the same run.  Everything started is stopped by PID at the end of each count.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import DEMO, Runner  # the bench directory is not a package


def _group_pids(pgid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid:
                    out.append(int(entry.name))
            except ProcessLookupError:
                continue
    return out


def _memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in KiB; zeros when it is gone."""
    rss = pss = 0
    try:
        with Path(f"/proc/{pid}/smaps_rollup").open() as f:
            for line in f:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def phone_memory_mb(runner: Runner, browser_pid: int) -> tuple[float, float, int]:
    """(RSS, PSS, processes) of one phone: its runner plus its browser's process group."""
    pids = [runner.proc.pid, *_group_pids(browser_pid)]
    rss = pss = 0
    for pid in pids:
        r, p = _memory_kb(pid)
        rss, pss = rss + r, pss + p
    return rss / 1024, pss / 1024, len(pids)


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

    def taps(self, n: int, out: list[float]) -> None:
        x, y = self.spot
        for _ in range(n):
            t = time.perf_counter()
            self.runner.send("tap", DEMO, x=x, y=y)
            out.append(time.perf_counter() - t)


def measure(count: int, taps: int, env: dict[str, str]) -> dict[str, float]:
    phones: list[Phone] = []
    try:
        for _ in range(count):
            phones.append(Phone(env))
        time.sleep(1.0)  # let start-up allocations settle
        mem = [phone_memory_mb(p.runner, p.browser_pid) for p in phones]
        samples: list[float] = []
        threads = [threading.Thread(target=p.taps, args=(taps, samples)) for p in phones]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return {
            "rss": sum(m[0] for m in mem),
            "pss": sum(m[1] for m in mem),
            "procs": sum(m[2] for m in mem) / count,
            "tap_p50": statistics.median(samples) * 1000,
        }
    finally:
        for p in phones:
            p.runner.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="1,5,10", help="phone counts, the first is the base (default 1,5,10)")
    parser.add_argument("--taps", type=int, default=20, help="taps per phone while all are busy")
    parser.add_argument("--baseline-src", help="a src/ directory to import phonewire from for the baseline")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]

    variants = {"this tree": dict(os.environ)}
    variants["this tree"].pop("PYTHONPATH", None)
    if args.baseline_src:
        variants["baseline"] = {**os.environ, "PYTHONPATH": str(Path(args.baseline_src).resolve())}

    results: dict[str, dict[int, dict[str, float]]] = {name: {} for name in variants}
    for count in counts:  # interleaved: both variants see the same machine load
        for name, env in variants.items():
            results[name][count] = measure(count, args.taps, env)

    base = counts[0]
    for name, by_count in results.items():
        print(f"{name}:")
        for count, r in by_count.items():
            line = (
                f"  {count:>2} phones: RSS {r['rss']:7.0f} MB  PSS {r['pss']:7.0f} MB  "
                f"({r['procs']:.1f} processes/phone)  tap p50 all busy {r['tap_p50']:6.1f} ms"
            )
            if count != base:
                extra = count - base
                line += (
                    f"   per additional phone: RSS {(r['rss'] - by_count[base]['rss']) / extra:5.0f} MB, "
                    f"PSS {(r['pss'] - by_count[base]['pss']) / extra:5.0f} MB"
                )
            print(line)


if __name__ == "__main__":
    main()
