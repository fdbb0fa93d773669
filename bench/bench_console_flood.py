"""Benchmark of a page that floods the console: the runner's memory and CPU, the size of ``logs`` replies and
snapshot latency while the page logs, each against a quiet page measured in the same run on the same runner.

    .venv/bin/python bench/bench_console_flood.py [--rounds 15] [--burst 10000] [--size 1024] [--baseline-src DIR]

Pages (served on loopback from this process), each with the same 200 rows of text:

* ``quiet``: logs nothing;
* ``burst``: logs ``--burst`` messages of ``--size`` characters in one tight loop at load, then shows "burst done";
* ``forever``: logs 20 such messages on every 0-ms timer tick, for as long as it is open (one runner's at a time:
  each runner in turn opens it, is measured, and closes it).

Figures, for each runner (this tree's; with ``--baseline-src DIR``, e.g. a ``git archive`` of an earlier commit's
src/, also one that imports phonewire from DIR, measured alternately in the same run):

* snapshot p50 on the quiet page and while ``forever`` floods (ratio flood / quiet);
* the runner process's CPU seconds per wall second while ``forever`` floods and nobody sends a command;
* the runner's resident memory (VmRSS, and its peak VmHWM) after the burst and after the flood;
* the bytes of the first ``logs`` reply after the burst (the whole ring), its entry count and ``dropped``.

Prints figures and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import Runner, runner_from, serve_handler  # the bench directory is not a package

ROWS = "".join(f"<p>Row {i}: some text of the row</p>" for i in range(200))
PAGES = {
    "quiet": "",
    "burst": """setTimeout(() => {
  const line = "x".repeat(SIZE);
  for (let i = 0; i < BURST; i++) console.log(i + " " + line);
  document.getElementById("state").textContent = "burst done";
}, 0);""",
    "forever": """const line = "x".repeat(SIZE);
let n = 0;
setInterval(() => { for (let k = 0; k < 20; k++) console.log(n++ + " " + line); }, 0);""",
}


def page(name: str, burst: int, size: int) -> bytes:
    script = PAGES[name].replace("SIZE", str(size)).replace("BURST", str(burst))
    return (
        f"<!doctype html><html><head><title>{name}</title><meta name=viewport content='width=device-width'></head>"
        f"<body><h1 id=state>{name}</h1>{ROWS}<script>{script}</script></body></html>"
    ).encode()


@contextlib.contextmanager
def serving(burst: int, size: int) -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            name = parts.path.strip("/").split(".")[0]
            if name not in PAGES:
                self.send_error(404)
                return
            query = parse_qs(parts.query)
            body = page(name, int(query.get("burst", [burst])[0]), size)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    with serve_handler(Handler, "flood-pages") as base:
        yield base + "/"


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS / VmHWM of ``pid`` in KB."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    import os

    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def raw_logs(runner: Runner, app: str) -> tuple[int, dict[str, Any]]:
    """The first ``logs`` reply's byte size and its data."""
    envelope, size = runner.exchange("logs", app, timeout=120, since=0)
    if not envelope.get("ok"):
        raise SystemExit(f"logs failed: {envelope}")
    return size, envelope["data"]


def shows(runner: Runner, app: str, text: str, within_s: float = 120.0) -> float:
    """Seconds until a snapshot of ``app`` shows ``text``."""
    start = time.perf_counter()
    while time.perf_counter() - start < within_s:
        nodes = runner.send("snapshot", app)["data"]["nodes"]
        if any(n.get("label") == text for n in nodes):
            return time.perf_counter() - start
    raise SystemExit(f"{app} never showed {text!r}")


def measure(runners: dict[str, Runner], base: str, rounds: int) -> dict[str, dict[str, Any]]:
    """Every figure for every runner, the runners alternating at each step (order rotated) so they share the load."""
    out: dict[str, dict[str, Any]] = {name: {"quiet": [], "flood": []} for name in runners}
    names = list(runners)

    def each() -> Iterator[tuple[str, Runner]]:
        order = names if each.turn % 2 == 0 else list(reversed(names))  # type: ignore[attr-defined]
        each.turn += 1  # type: ignore[attr-defined]
        for name in order:
            yield name, runners[name]

    each.turn = 0  # type: ignore[attr-defined]
    quiet, burst, forever = base + "quiet.html", base + "burst.html", base + "forever.html"
    for _name, r in each():
        r.send("launchApp", quiet)
        for _ in range(3):
            r.send("snapshot", quiet)
    for _ in range(rounds):
        for name, r in each():
            t = time.perf_counter()
            r.send("snapshot", quiet)
            out[name]["quiet"].append(time.perf_counter() - t)
    # the burst: memory and the first logs reply
    for name, r in each():
        r.send("terminateApp", quiet)
        t = time.perf_counter()
        r.send("launchApp", burst)
        out[name]["burstShownS"] = shows(r, burst, "burst done") + (time.perf_counter() - t)
        out[name]["afterBurst"] = proc_status(r.proc.pid)
        size, data = raw_logs(r, burst)
        out[name]["logsBytes"], out[name]["logsEntries"], out[name]["logsDropped"] = (
            size, len(data["entries"]), data.get("dropped", 0))  # fmt: skip
        out[name]["afterLogs"] = proc_status(r.proc.pid)
        r.send("terminateApp", burst)
    # the endless flood, one runner's page at a time (two flooding browsers would measure each other): CPU with no
    # command, then snapshots, each runner visited in turn (order rotated) with the page reopened each visit
    for name, r in [*each(), *each()]:
        r.send("launchApp", forever)
        r.send("snapshot", forever)
        time.sleep(0.5)
        cpu0, t0 = cpu_seconds(r.proc.pid), time.perf_counter()
        time.sleep(2.0)
        out[name].setdefault("floodCpu", []).append((cpu_seconds(r.proc.pid) - cpu0) / (time.perf_counter() - t0))
        r.send("terminateApp", forever)
    for _ in range(rounds):
        for name, r in each():
            r.send("launchApp", forever)
            time.sleep(0.3)
            for _ in range(3):
                t = time.perf_counter()
                r.send("snapshot", forever)
                out[name]["flood"].append(time.perf_counter() - t)
            r.send("terminateApp", forever)
    for name, r in each():
        out[name]["floodCpuPerS"] = statistics.median(out[name]["floodCpu"])
        r.send("launchApp", forever)
        time.sleep(1.0)
        out[name]["afterFlood"] = proc_status(r.proc.pid)
        size, data = raw_logs(r, forever)
        out[name]["floodLogsBytes"], out[name]["floodLogsEntries"] = size, len(data["entries"])
        r.send("terminateApp", forever)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--burst", type=int, default=10000)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--baseline-src", default=None, help="src/ of an earlier tree, measured alternately")
    args = parser.parse_args()
    runners: dict[str, Runner] = {}
    try:
        runners["this tree"] = runner_from()
        if args.baseline_src:
            runners["baseline"] = runner_from(args.baseline_src)
        with serving(args.burst, args.size) as base:
            figures = measure(runners, base, args.rounds)
    finally:
        for r in runners.values():
            r.stop()

    def ms(xs: list[float]) -> float:
        return statistics.median(xs) * 1000

    print(
        f"pages: {args.burst} x {args.size}-character console.log burst; 20 per 0-ms tick forever; {args.rounds} rounds"
    )
    for name, f in figures.items():
        quiet, flood = ms(f["quiet"]), ms(f["flood"])
        print(f"\n[{name}]")
        print(f"  snapshot p50: quiet {quiet:.1f} ms, while flooding {flood:.1f} ms  (x{flood / quiet:.2f} of quiet)")
        print(f"  runner CPU while flooding, no command: {f['floodCpuPerS']:.2f} s/s")
        print(f"  burst shown after {f['burstShownS']:.2f} s")
        print(f"  runner RSS: after burst {f['afterBurst']['VmRSS'] / 1024:.1f} MB, after its logs "
              f"{f['afterLogs']['VmRSS'] / 1024:.1f} MB, after flood {f['afterFlood']['VmRSS'] / 1024:.1f} MB "
              f"(peak {f['afterFlood']['VmHWM'] / 1024:.1f} MB)")  # fmt: skip
        print(f"  first logs after burst: {f['logsBytes'] / 1024:.0f} KB, {f['logsEntries']} entries, "
              f"dropped {f['logsDropped']}; logs during flood: {f['floodLogsBytes'] / 1024:.0f} KB, "
              f"{f['floodLogsEntries']} entries")  # fmt: skip
    if "baseline" in figures:
        a, b = figures["this tree"], figures["baseline"]
        print("\nthis tree / baseline:")
        flood, quiet = ms(a["flood"]) / ms(b["flood"]), ms(a["quiet"]) / ms(b["quiet"])
        print(f"  snapshot while flooding x{flood:.2f}, quiet x{quiet:.2f}")
        print(f"  CPU while flooding x{a['floodCpuPerS'] / b['floodCpuPerS']:.2f}")
        print(f"  logs reply after burst x{a['logsBytes'] / b['logsBytes']:.2f}")
        print(f"  peak RSS x{a['afterFlood']['VmHWM'] / b['afterFlood']['VmHWM']:.2f}")


if __name__ == "__main__":
    main()
