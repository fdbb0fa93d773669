"""What the web phone's back costs, against the action a person would take instead, in the same run.

    .venv/bin/python bench/bench_back.py [--rounds 20]

One runner (``phonewire runner --device web``) with the demo.  Rounds alternate, each pair measured back to back:

* closing the Tasks screen's drawer: ``button back`` (Escape, then the layers read back after two frames) against a
  tap on the drawer's own close button (the tap a person would make), both through the runner;
* going back one history entry: ``button back`` (Escape, the layers, no change, then history, until the step is
  taken) against ``key escape`` alone (the same HTTP path and one key event), both through the runner;
* closing the drawer right after the tap that opened it, no snapshot between (back first waits for the page to be
  still: findings 3, E15) against the tap on its close button, also right after the tap that opened it.

The setup of each sample (opening the drawer, a tab tap) is not timed.  Prints p50s and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import DEMO, Runner, p50  # the bench directory is not a package


def _centre(runner: Runner, identifier: str) -> dict[str, float]:
    nodes = runner.send("snapshot", DEMO)["data"]["nodes"]
    r = next(n for n in nodes if n["identifier"] == identifier)["rect"]
    return {"x": r["x"] + r["width"] / 2, "y": r["y"] + r["height"] / 2}


def _timed(runner: Runner, command: str, app: str | None = None, **fields: Any) -> tuple[float, dict[str, Any]]:
    t = time.perf_counter()
    reply = runner.send(command, app, **fields)
    return time.perf_counter() - t, reply["data"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds
    runner = Runner()
    try:
        runner.send("launchApp", DEMO)
        runner.send("tap", DEMO, **_centre(runner, "tab-reorder"))
        opener = _centre(runner, "open-drawer")
        runner.send("tap", DEMO, **opener)
        closer = _centre(runner, "close-drawer")
        runner.send("tap", DEMO, **closer)
        back_drawer, tap_close, back_history, escape = [], [], [], []
        back_at_once, tap_at_once = [], []
        for i in range(rounds):
            for first in (i % 2 == 0, i % 2 == 1):  # alternate which of the pair goes first
                runner.send("tap", DEMO, **opener)
                runner.send("snapshot", DEMO)
                if first:
                    took, data = _timed(runner, "button", button="back")
                    assert data["back"] == "closed", data
                    back_drawer.append(took)
                else:
                    tap_close.append(_timed(runner, "tap", DEMO, **closer)[0])
                runner.send("snapshot", DEMO)
            for first in (i % 2 == 0, i % 2 == 1):
                runner.send("tap", DEMO, **opener)  # and at once, as an agent that saw the drawer open would
                if first:
                    took, data = _timed(runner, "button", button="back")
                    assert data["back"] == "closed", data
                    back_at_once.append(took)
                else:
                    tap_at_once.append(_timed(runner, "tap", DEMO, **closer)[0])
                runner.send("snapshot", DEMO)
            runner.send("tap", DEMO, **_centre(runner, "tab-list"))  # one history entry to go back through
            runner.send("snapshot", DEMO)
            took, data = _timed(runner, "button", button="back")
            assert data["back"] == "history", data
            back_history.append(took)
            runner.send("snapshot", DEMO)
            escape.append(_timed(runner, "key", DEMO, key="escape")[0])
        print(f"{rounds} rounds, alternating, one runner; p50 in ms")
        print("| measure | back | baseline | ratio |")
        print("| --- | --- | --- | --- |")
        for name, ours, base, base_name in (
            ("close the drawer", back_drawer, tap_close, "tap on its close button"),
            ("one history entry back", back_history, escape, "key escape alone"),
            ("close the drawer right after opening it", back_at_once, tap_at_once, "tap on its close button"),
        ):
            print(f"| {name} | {p50(ours):.1f} | {base_name} {p50(base):.1f} | {p50(ours) / p50(base):.2f} |")
    finally:
        runner.stop()


if __name__ == "__main__":
    main()
