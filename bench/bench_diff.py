"""What the settled diff costs an action on the web demo, in one run on one phone: ``python bench/bench_diff.py
[ROUNDS] [ACTIONS]``.

Each action is timed with its settled diff (the default: the reply carries the view's lines that changed, from a
look before the action — the screen the agent last saw while the device confirms it still shows, else one of its
own — and a look after it) and alone (``AgentSession.settled_diff`` off: the reply as the device gave it),
alternating in rounds of ACTIONS actions on the same session, p50 of each and their ratio.  Two actions: a selector
tap and a point tap (both go by the screen the last reply left, with its change mark; a point tap alone answers
before the screen settled and walks nothing, and the next look waits for that).  Then the point tap with its diff
against what an agent did before to verify a step: the tap, then ``snapshot --diff``.  Target (issue 23): at most
x1.15.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import phonewire
from pacing import apart  # the bench directory is not a package


def timed(act: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        apart()
        t0 = time.perf_counter()
        act()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    p50 = statistics.median
    with phonewire.Phone(device="web") as phone:
        phone.open("dev.phonewire.demo")
        node = next(n for n in phone.snapshot().nodes if n.get("identifier") == "like-5")
        r = node["rect"]
        point = f"{r['x'] + r['width'] / 2:.1f} {r['y'] + r['height'] / 2:.1f}"
        actions: dict[str, Callable[[], object]] = {
            "tap SELECTOR": lambda: phone.tap("id=like-5"),
            "tap X Y": lambda: phone.tap(point),
        }
        for act in actions.values():
            timed(act, 5)  # warm up
        for name, act in actions.items():
            alone: list[float] = []
            with_diff: list[float] = []
            for _ in range(rounds):
                phone.session.settled_diff = False
                alone += timed(act, per)
                phone.session.settled_diff = True
                with_diff += timed(act, per)
            print(
                f"{name:<13} p50 alone {p50(alone):.1f} ms, with its diff {p50(with_diff):.1f} ms: "
                f"x{p50(with_diff) / p50(alone):.2f} (+{p50(with_diff) - p50(alone):.1f} ms; {rounds} alternating "
                f"rounds of {per})"
            )
        # what an agent did before to verify a step: the action, then `snapshot --diff` (two calls, not one)
        two_calls: list[float] = []
        one_call: list[float] = []

        def tap_then_look() -> None:
            phone.tap(point)
            phone.snapshot(diff=True)

        for _ in range(rounds):
            phone.session.settled_diff = False
            two_calls += timed(tap_then_look, per)
            phone.session.settled_diff = True
            one_call += timed(actions["tap X Y"], per)
        print(
            f"tap X Y, then snapshot --diff: p50 {p50(two_calls):.1f} ms; tap X Y with its diff {p50(one_call):.1f} "
            f"ms: x{p50(one_call) / p50(two_calls):.2f}"
        )


if __name__ == "__main__":
    main()
