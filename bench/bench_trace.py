"""Tracing's cost on the web demo, in one run on one phone: ``python bench/bench_trace.py [ROUNDS] [TAPS]``.

1. Overhead per tap: a selector tap, untraced and traced, alternating in rounds of TAPS taps (traced rounds
   append to one trace), p50 of each and their ratio.
2. Trace size per 100 steps (trace.jsonl + screenshots before and after).
3. The report of a 500-step trace (the recorded steps repeated, each with its own copy of its screenshots): the
   time ``trace view`` takes to write it, and the time headless Chromium takes to load it (``--dump-dom``), against
   a one-step report loaded by the same Chromium in the same run (the browser's own start).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import phonewire
from pacing import apart  # the bench directory is not a package
from phonewire.agent.trace import STEPS_FILE, read_steps
from phonewire.frontends.cli.trace_view import write_report

CHROMIUM = "/usr/bin/chromium"


def taps(phone: phonewire.Phone, n: int) -> list[float]:
    out = []
    for _ in range(n):
        apart()
        t0 = time.perf_counter()
        phone.tap("id=like-5")
        out.append((time.perf_counter() - t0) * 1000)
    return out


def synthetic(source: Path, target: Path, steps: int) -> None:
    """A trace of ``steps`` steps made of ``source``'s steps repeated (renumbered, screenshots copied)."""
    recorded = read_steps(source)
    (target / "shots").mkdir(parents=True)
    lines = [json.dumps({"kind": "trace", "version": 1})]
    for n in range(1, steps + 1):
        step = dict(recorded[(n - 1) % len(recorded)], n=n)
        for key, suffix in (("shot", ""), ("before", "-before")):
            if key in step:
                name = f"shots/{n:05d}{suffix}.jpg"
                shutil.copyfile(source / step[key], target / name)
                step[key] = name
        lines.append(json.dumps(step))
    (target / STEPS_FILE).write_text("\n".join(lines) + "\n")


def load_ms(report: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", report.as_uri()],
                   capture_output=True, timeout=300, check=True)  # fmt: skip
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    p50 = statistics.median
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "trace"
        with phonewire.Phone(device="web") as phone:
            phone.open("dev.phonewire.demo")
            taps(phone, 5)  # warm up
            plain: list[float] = []
            traced: list[float] = []
            for _ in range(rounds):
                plain += taps(phone, per)
                phone.trace_start(str(trace))
                traced += taps(phone, per)
                phone.trace_stop()
        steps = len(read_steps(trace))
        size = sum(p.stat().st_size for p in trace.rglob("*") if p.is_file())
        print(
            f"tap p50 untraced {p50(plain):.1f} ms, traced {p50(traced):.1f} ms: x{p50(traced) / p50(plain):.2f} "
            f"(+{p50(traced) - p50(plain):.1f} ms; {rounds} alternating rounds of {per} taps each)"
        )
        print(
            f"trace size {size / steps / 1024:.1f} KiB per step, {size * 100 / steps / 1024 / 1024:.2f} MiB per "
            f"100 steps ({steps} steps, screens before and after each tap)"
        )

        big, small = Path(tmp) / "big", Path(tmp) / "small"
        synthetic(trace, big, 500)
        synthetic(trace, small, 1)
        t0 = time.perf_counter()
        report = write_report(big, Path(tmp) / "big.html")
        write_ms = (time.perf_counter() - t0) * 1000
        baseline = write_report(small, Path(tmp) / "small.html")
        loads = [(load_ms(baseline), load_ms(report)) for _ in range(3)]  # alternating, paired
        base, full = p50(b for b, _ in loads), p50(f for _, f in loads)
        print(
            f"500-step report: {report.stat().st_size / 1024 / 1024:.1f} MiB written in {write_ms:.0f} ms; "
            f"Chromium loads it in {full:.0f} ms against {base:.0f} ms for a 1-step report "
            f"(+{full - base:.0f} ms, x{full / base:.2f}; p50 of 3 paired loads)"
        )


if __name__ == "__main__":
    main()
