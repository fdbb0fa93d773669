"""Benchmark of ``find`` in a virtual list: tests/e2e/hostile/virtual.html (10,000 rows of 40 pt, 30 row nodes
recycled as it scrolls, like react-window), ``find "Row N"`` from the top, by this tree and (``--baseline-src DIR``,
e.g. a ``git archive`` of an earlier commit's src/) by a tree that imports phonewire from DIR, agent core and runner
both — each run in its own interpreter, alternated run by run (the order swapped every round) so both see the same
machine load.

    .venv/bin/python bench/bench_find.py --baseline-src /tmp/base/src [--rounds 1] [--rows "Row 300" "Row 7,500"]

Per row and tree: whether it was found, the scroll commands ``find`` sent (``max_scrolls`` 200), the characters of
its answer and its wall time (from the call to the answer; the page is opened fresh before, not counted).  Prints
figures and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HOSTILE = Path(__file__).resolve().parent.parent / "tests" / "e2e" / "hostile"
MAX_SCROLLS = 200


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def worker(url: str, rows: list[str]) -> None:
    """One tree's runs (this interpreter imports phonewire from its PYTHONPATH): a JSON line per row."""
    import phonewire

    with phonewire.Phone(device="web") as phone:
        for row in rows:
            phone.open(url)
            started = time.perf_counter()
            try:
                found = phone.find(row, max_scrolls=MAX_SCROLLS)
                out: dict[str, Any] = {
                    "found": True,
                    "scrolls": found.data["scrolls"],
                    "chars": len(found.data["message"]),
                }
            except phonewire.ProtocolError as exc:
                scrolls = exc.message.split(" after ")[1].split(" ")[0] if " after " in exc.message else "?"
                out = {"found": False, "scrolls": int(scrolls) if scrolls.isdigit() else -1, "chars": len(exc.message)}
            out.update(row=row, wall=time.perf_counter() - started)
            print(json.dumps(out), flush=True)


def run_tree(src: str | None, url: str, rows: list[str]) -> list[dict[str, Any]]:
    env = dict(os.environ)
    env.pop("PHONEWIRE_RUNNER_ADDR", None)
    env.pop("PHONEWIRE_TIME_SCALE", None)
    env["PHONEWIRE_STATE_DIR"] = tempfile.mkdtemp(prefix="bench-find-")
    if src is not None:
        env["PYTHONPATH"] = src
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", url, "--rows", *rows],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"worker ({src or 'this tree'}) failed:\n{proc.stderr[-2000:]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline-src", help="a src/ directory of another tree (its find and its runner)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--rows", nargs="+", default=["Row 300", "Row 7,500"])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.rows)
        return
    handler = functools.partial(_Quiet, directory=str(HOSTILE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/virtual.html"
    trees: dict[str, str | None] = {"this tree": None}
    if args.baseline_src:
        trees["baseline"] = args.baseline_src
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    try:
        names = list(trees)
        for i in range(args.rounds):
            for name in names[i % 2 :] + names[: i % 2]:
                results[name].extend(run_tree(trees[name], url, args.rows))
    finally:
        server.shutdown()
        server.server_close()
    print(f"find in a virtual list of 10,000 rows (30 recycled nodes), from the top, max_scrolls {MAX_SCROLLS}; "
          f"{args.rounds} alternated round(s), medians:")  # fmt: skip
    for row in args.rows:
        walls: dict[str, float] = {}
        for name in trees:
            runs = [r for r in results[name] if r["row"] == row]
            wall = statistics.median(r["wall"] for r in runs)
            walls[name] = wall
            found = sum(1 for r in runs if r["found"])
            scrolls = statistics.median(r["scrolls"] for r in runs)
            chars = statistics.median(r["chars"] for r in runs)
            print(f"  {row!r:12} {name:10} found {found}/{len(runs)}  scrolls {scrolls:5.0f}  characters {chars:5.0f}"
                  f"  wall {wall:7.2f} s")  # fmt: skip
        if "baseline" in walls:
            print(f"  {row!r:12} ratio this tree / baseline wall {walls['this tree'] / walls['baseline']:.3f}")


if __name__ == "__main__":
    main()
