"""Every figure of issue 27 (the agent's step) in one command, each beside its baseline measured in the same run.

    .venv/bin/python bench/bench_step.py [--quick] [--skip agent,phones]

Runs the benches that measure each figure, one after another, prints what each printed, then one table: figure,
ours, baseline (same run), ratio, target, met. The benches (each documented in its own docstring):

* ``bench_aim.py``: ``tap @eN`` against ``tap X Y`` and ``fill @eN`` against ``fill X Y`` on the same element;
* ``bench_settle.py``: tap + its settled snapshot on the demo, and the cold start's first snapshot wait, against
  the tree before the settle change;
* ``bench_tokens.py``: cl100k tokens of ``snapshot -i`` on the iOS Settings root, beside SimBench's published
  figures (published, not measured here: those tools need a Mac);
* ``bench_agent.py``: calls and characters per task through phonewire's CLI and through Playwright MCP;
* ``bench_phones.py --counts 1,10``: tap p50 with ten phones busy against one phone's.

The runner requests per snapshot (1.0: no preflight within the healthy window) are counted by a test at a proxy
(``tests/host/test_host_faults.py``), not timed, so they are not repeated here.  ``--quick`` runs fewer rounds
(a check that the command works, not figures to quote).  The machine's load is printed first and last: figures
are only worth quoting from an otherwise idle machine.  Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Figure:
    name: str
    bench: str
    #: A regular expression over the bench's output: groups ``ours`` and ``base`` or ``ratio`` (numbers).
    pattern: str
    unit: str
    baseline: str
    target: str
    #: Met when ``ours / base`` (or ``ours`` when ``absolute``) is at most this.
    limit: float
    absolute: bool = False


_NUM = r"[0-9.]+"
FIGURES: tuple[Figure, ...] = (
    Figure("tap @eN", "aim", "", "ms", "tap X Y", "<= 1.1x", 1.1),  # (bench_aim's pairs: _aim_figures)
    Figure("fill @eN", "aim", "", "ms", "fill X Y", "<= 1.1x", 1.1),
    Figure("tap + settled snapshot, demo", "settle",
           rf"tap \+ settled snapshot\s+(?P<ours>{_NUM}) ms\s+baseline\s+(?P<base>{_NUM})", "ms",
           "the tree before the settle change", "<= 50 ms", 50.0, absolute=True),
    Figure("cold start's first snapshot wait", "settle",
           rf"the first snapshot's wait\s+(?P<ours>{_NUM}) ms\s+baseline\s+(?P<base>{_NUM})", "ms",
           "the tree before the settle change", "<= 0.5x", 0.5),
    Figure("snapshot -i tokens, iOS Settings root", "tokens",
           rf"iOS Settings root, snapshot -i: (?P<ours>{_NUM}) tokens(?s:.*?)vs agent-device\s+(?P<base>{_NUM})",
           "tok", "agent-device (SimBench, published)", "<= 180", 180.0, absolute=True),
    Figure("calls per task, median", "agent",
           rf"median per task: calls phonewire CLI (?P<ours>{_NUM}) vs Playwright MCP (?P<base>{_NUM})", "",
           "Playwright MCP", "<= 0.5x", 0.5),
    Figure("characters per task, median", "agent",
           rf"characters phonewire CLI (?P<ours>{_NUM}) vs Playwright MCP (?P<base>{_NUM})", "",
           "Playwright MCP", "<= 0.5x", 0.5),
    Figure("tap p50, 10 phones busy", "phones",
           rf"10 phones:.*?tap p50\s+(?P<ours>{_NUM}) ms = (?P<ratio>{_NUM})x", "ms", "one phone, same run",
           "<= 1.3x", 1.3),
)  # fmt: skip


def _aim_figures(out: str) -> dict[str, tuple[float, float]]:
    """bench_aim prints its two pairs on separate lines."""
    found: dict[str, tuple[float, float]] = {}
    for verb in ("tap", "fill"):
        ours = re.search(rf"{verb} @eN : median ({_NUM})", out)
        base = re.search(rf"{verb} X Y : median ({_NUM})", out)
        if ours and base:
            found[f"{verb} @eN"] = (float(ours.group(1)), float(base.group(1)))
    return found


def _commands(quick: bool) -> dict[str, list[str]]:
    rounds = "6" if quick else "40"
    return {
        "aim": ["bench_aim.py", "--rounds", rounds],
        "settle": ["bench_settle.py", "--rounds", rounds, "--colds", "2" if quick else "5"],
        "tokens": ["bench_tokens.py"],
        "agent": ["bench_agent.py", "--episodes", "1" if quick else "3", *(["--no-django"] if quick else [])],
        "phones": ["bench_phones.py", "--counts", "1,10", "--taps", "5" if quick else "20", "--lockstep"],
    }


def _run(name: str, argv: list[str]) -> str:
    print(f"\n===== {name}: {' '.join(argv)} =====", flush=True)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(BENCH / argv[0]), *argv[1:]], check=False, capture_output=True, text=True
    )
    print(done.stdout, end="")
    if done.returncode:
        print(f"({name} exited {done.returncode}; its last error lines:)\n{done.stderr[-2000:]}")
    print(f"({name}: {time.monotonic() - started:.0f} s)", flush=True)
    return done.stdout


def _row(fig: Figure, outs: dict[str, str]) -> str:
    out = outs.get(fig.bench)
    if out is None:
        return f"{fig.name:<40} {'skipped':>9}"
    if fig.bench == "aim":
        pair = _aim_figures(out).get(fig.name)
        ours, base, ratio = (pair[0], pair[1], pair[0] / pair[1]) if pair else (None, None, None)
    else:
        m = re.search(fig.pattern, out)
        if m is None:
            return f"{fig.name:<40} {'no figure':>9} (see {fig.bench}'s output above)"
        ours = float(m.group("ours"))
        groups = m.groupdict()
        base = float(groups["base"]) if groups.get("base") else None
        ratio = float(groups["ratio"]) if groups.get("ratio") else (ours / base if base else None)
        if base is None and ratio:
            base = ours / ratio
    if ours is None or base is None or ratio is None:
        return f"{fig.name:<40} {'no figure':>9} (see {fig.bench}'s output above)"
    met = (ours if fig.absolute else ratio) <= fig.limit
    return (
        f"{fig.name:<40} {ours:9.1f} {fig.unit:<3} {fig.baseline:<38} {base:9.1f} {ratio:6.2f}x  "
        f"{fig.target:<9} {'met' if met else 'NOT MET'}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few rounds: check the command, not figures to quote")
    parser.add_argument("--skip", default="", help="benches to leave out (comma-separated: aim,settle,...)")
    opts = parser.parse_args(argv)
    skip = {s for s in opts.skip.split(",") if s}
    started = time.monotonic()
    print(f"issue 27 figures; load average at the start {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")  # fmt: skip
    outs = {name: _run(name, argv) for name, argv in _commands(opts.quick).items() if name not in skip}
    print(f"\n{'figure (p50 unless said)':<40} {'ours':>13} {'baseline, same run':<38} {'':>9} ratio    target")
    for fig in FIGURES:
        print(_row(fig, outs))
    print(f"\nload average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"{time.monotonic() - started:.0f} s{' (--quick)' if opts.quick else ''}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
