"""A settled answer as soon as the page is still: tap + the settled snapshot after it, and the cold start's first
snapshot, against a baseline tree in the same run.

    .venv/bin/python bench/bench_settle.py [--rounds 40] [--colds 5] [--baseline-ref REF | --baseline-src DIR]

The baseline is the same code before the settle change: by default the parent of the commit that brought
``settle.STILL_FRAMES`` in (extracted with ``git archive`` into a temporary directory), or ``--baseline-ref`` /
``--baseline-src``. Two runners (``--device web``, the demo), one of each tree, alternate call by call, the order
swapped every round, so both see the same machine load:

* **tap + settled answer**: a tap on the first row's Like button (the page reacts at once: its counter), then the
  snapshot that follows it — what an agent pays to see what its tap did; p50 of the pair, and of the snapshot alone;
* **cold start, first snapshot**: runner spawn → demo launched → first snapshot, and the first snapshot's own wait
  (after ``launchApp`` answered), p50 over ``--colds`` starts of each tree.

Each figure is printed with the baseline's and their ratio. Prints figures; asserts nothing. Every runner and browser
started is stopped (by PID).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import DEMO, Runner, runner_from  # the bench directory is not a package
from phonewire.devices.web.gestures import APART_S

ROOT = Path(__file__).resolve().parent.parent
SETTLE_PY = "src/phonewire/devices/web/settle.py"


def baseline_tree(ref: str | None) -> tuple[Path, str]:
    """``src/`` of ``ref`` (default: the parent of the commit that brought STILL_FRAMES in), in a temporary dir."""
    if ref is None:
        found = subprocess.run(["git", "log", "--format=%H", "--reverse", "-S", "STILL_FRAMES", "--", SETTLE_PY],
                               cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
        ref = f"{found[0]}^"
    out = Path(tempfile.mkdtemp(prefix="phonewire-settle-baseline-"))
    archive = subprocess.run(["git", "archive", ref, "src"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out / "src", ref


def like_spot(runner: Runner) -> tuple[float, float]:
    nodes = runner.send("snapshot", DEMO)["data"]["nodes"]
    rect = next(n for n in nodes if n.get("identifier") == "like-1")["rect"]
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


def tap_then_snapshot(runner: Runner, spot: tuple[float, float]) -> tuple[float, float]:
    t = time.perf_counter()
    runner.send("tap", DEMO, x=spot[0], y=spot[1])
    between = time.perf_counter()
    runner.send("snapshot", DEMO)
    end = time.perf_counter()
    return end - t, end - between


def cold(src: str | None) -> tuple[float, float]:
    """(spawn → first snapshot, the first snapshot's own wait) of one fresh runner."""
    runner = runner_from(src)
    try:
        runner.send("launchApp", DEMO)
        t = time.perf_counter()
        runner.send("snapshot", DEMO)
        end = time.perf_counter()
        return end - runner.started, end - t
    finally:
        runner.stop()


def ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def line(name: str, ours: list[float], base: list[float], target: str = "") -> None:
    a, b = ms(ours), ms(base)
    print(f"{name:40} {a:8.1f} ms   baseline {b:8.1f} ms   ratio {a / b:5.2f}{target}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--colds", type=int, default=5)
    parser.add_argument("--baseline-ref", default=None)
    parser.add_argument("--baseline-src", default=None)
    opts = parser.parse_args(argv)
    if opts.baseline_src:
        base_src, name = opts.baseline_src, opts.baseline_src
    else:
        tree, name = baseline_tree(opts.baseline_ref)
        base_src = str(tree)
    print(f"baseline: {name}")

    runners = {"ours": runner_from(), "base": runner_from(base_src)}
    pairs: dict[str, list[float]] = {"ours": [], "base": []}
    snaps: dict[str, list[float]] = {"ours": [], "base": []}
    try:
        spots = {}
        for key, runner in runners.items():
            runner.send("launchApp", DEMO)
            spots[key] = like_spot(runner)
            for _ in range(3):
                tap_then_snapshot(runner, spots[key])  # warm both
                time.sleep(APART_S)
        for k in range(opts.rounds):
            for key in ("ours", "base") if k % 2 == 0 else ("base", "ours"):
                pair, snap = tap_then_snapshot(runners[key], spots[key])
                time.sleep(APART_S)  # two taps, not a double click (gestures.apart), outside the times
                pairs[key].append(pair)
                snaps[key].append(snap)
    finally:
        for runner in runners.values():
            runner.stop()

    colds: dict[str, list[tuple[float, float]]] = {"ours": [], "base": []}
    for k in range(opts.colds):
        for key in ("ours", "base") if k % 2 == 0 else ("base", "ours"):
            colds[key].append(cold(None if key == "ours" else base_src))

    print(f"\n== the demo, {opts.rounds} rounds, alternating (p50) ==")
    line("tap + settled snapshot", pairs["ours"], pairs["base"], "   (target <= 50 ms)")
    line("  the snapshot after the tap", snaps["ours"], snaps["base"])
    print(f"\n== cold start, {opts.colds} runner starts each, alternating (p50) ==")
    line("spawn -> first snapshot", [c[0] for c in colds["ours"]], [c[0] for c in colds["base"]])
    line("  the first snapshot's wait", [c[1] for c in colds["ours"]], [c[1] for c in colds["base"]],
         "   (target: half)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
