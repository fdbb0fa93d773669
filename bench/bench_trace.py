"""Tracing's cost per tap on the web demo: p50 of a selector tap untraced, then traced (same phone, same run), and
the trace's size per step.  ``python bench/bench_trace.py [N]``."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import phonewire


def taps(phone: phonewire.Phone, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        phone.tap("id=like-5")
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    with tempfile.TemporaryDirectory() as tmp, phonewire.Phone(device="web") as phone:
        phone.open("dev.phonewire.demo")
        taps(phone, 5)  # warm up
        plain = taps(phone, n)
        phone.trace_start(tmp)
        traced = taps(phone, n)
        phone.trace_stop()
        after = taps(phone, n)
        size = sum(p.stat().st_size for p in Path(tmp).rglob("*") if p.is_file())
    p50 = statistics.median
    print(f"tap p50 untraced {p50(plain):.1f} ms, traced {p50(traced):.1f} ms "
          f"(+{p50(traced) - p50(plain):.1f} ms), after trace_stop {p50(after):.1f} ms")  # fmt: skip
    print(f"trace size {size / n / 1024:.1f} KiB per step ({size * 100 / n / 1024 / 1024:.2f} MiB per 100 steps)")


if __name__ == "__main__":
    main()
