"""Benchmark of what one hostile page costs the rest of the phone (issue 28, finding 4; target: ≤ 5 s each).

    .venv/bin/python bench/bench_hostile.py [--rounds 3] [--only loop,abyss]

Pages (served on loopback from this process):

* ``benign``: a button whose handler writes one line (the baseline);
* ``loop``: a button whose handler runs ``while(true){}``;
* ``abyss``: 50,000 nested divs (deeper than the renderer's layout goes);
* ``huge``: 10⁶ elements;
* ``windows``: a button that opens 100 windows;
* ``flood``: logs 20 KB-long lines on every 0-ms timer tick.

For each page, on one runner: the demo app is open; the page is launched and its button tapped (where it has one),
then the demo app is launched again and read.  The runner serves one command at a time, so the time from the
hostile launch to that read's answer is what every other session of the phone waited; the figure is that time
beyond the same sequence on ``benign``, measured in the same run.  Prints figures and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import DEMO, Runner, serve_handler  # the bench directory is not a package

TARGET_S = 5.0
BUTTON = "<button id=go style='position:absolute;left:20px;top:60px;width:200px;height:60px' onclick='{}'>Go</button>"
PAGES: dict[str, tuple[str, bool]] = {  # name -> (body, whether its button is tapped)
    "benign": (BUTTON.format("document.title = `done`") + "<p id=out>ready</p>", True),
    "loop": (BUTTON.format("while (true) {}"), True),
    "abyss": (
        "<h1>Abyss</h1><script>let at = document.body; for (let i = 0; i < 50000; i++) {"
        " const d = document.createElement('div'); at.appendChild(d); at = d; }</script>",
        False,
    ),
    "huge": (
        "<h1>Huge</h1><script>const f = document.createDocumentFragment(); for (let i = 0; i < 1000000; i++) {"
        " const s = document.createElement('span'); s.textContent = i % 100 ? '' : 'item ' + i; f.appendChild(s); }"
        " document.body.appendChild(f);</script>",
        False,
    ),
    "windows": (BUTTON.format("for (let i = 0; i < 100; i++) window.open(`/benign.html?w=${i}`)"), True),
    "flood": (
        "<h1>Flood</h1><script>const line = 'x'.repeat(20000);"
        " setInterval(() => { for (let k = 0; k < 20; k++) console.log(line); }, 0);</script>",
        False,
    ),
}


@contextlib.contextmanager
def serving() -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            name = self.path.split("?")[0].strip("/").removesuffix(".html")
            if name not in PAGES:
                self.send_error(404)
                return
            body = (
                f"<!doctype html><html><head><title>{name}</title><meta name=viewport "
                f"content='width=device-width'></head><body>{PAGES[name][0]}</body></html>"
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    with serve_handler(Handler, "hostile-pages") as base:
        yield base + "/"


def raw(runner: Runner, command: str, app: str | None = None, **fields: Any) -> dict[str, Any]:
    """The runner's envelope, ok or not (a hostile page's command may take minutes on a machine under load)."""
    return runner.exchange(command, app, timeout=300, **fields)[0]


def held(runner: Runner, url: str, tap: bool) -> dict[str, Any]:
    """Launch ``url`` (and tap its button), then bring the demo app back and read it: the seconds until the demo app
    is served again (the runner serves one command at a time, so this is the time every other session waited), and
    what the hostile commands answered."""
    start = time.perf_counter()
    marks: list[float] = []

    def timed(command: str, app: str, **fields: Any) -> dict[str, Any]:
        t = time.perf_counter()
        reply = raw(runner, command, app, **fields)
        marks.append(time.perf_counter() - t)
        return reply

    replies = [timed("launchApp", url)]
    if tap and replies[0].get("ok"):
        replies.append(timed("tap", url, x=120, y=90))
    back = [timed("launchApp", DEMO), timed("snapshot", DEMO)]
    served = time.perf_counter()
    if not all(r.get("ok") for r in back):
        raise SystemExit(f"the demo app was not served after {url}: {back}")
    raw(runner, "terminateApp", url)
    codes = [r["error"]["code"] if not r.get("ok") else "ok" for r in replies]
    steps = " + ".join(f"{m:.2f}" for m in marks)
    print(f"  {url.rsplit('/', 1)[1]}: {served - start:.2f} s ({steps}) {codes}", file=sys.stderr)
    return {"s": served - start, "replies": codes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(n for n in PAGES if n != "benign"))
    args = parser.parse_args()
    names = ["benign", *[n for n in args.only.split(",") if n != "benign"]]
    load = os.getloadavg()[0]
    out: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    with serving() as base:
        runner = Runner()
        try:
            raw(runner, "launchApp", DEMO)
            for _ in range(args.rounds):
                for name in names:
                    out[name].append(held(runner, base + name + ".html", PAGES[name][1]))
        finally:
            runner.stop()
    baseline = statistics.median(r["s"] for r in out["benign"])
    print(f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; {args.rounds} round(s)")
    print(f"{'page':<9} {'held (p50)':>11} {'− benign':>9} {'vs target':>10}  replies")
    for name in names:
        s = statistics.median(r["s"] for r in out[name])
        replies = sorted({c for r in out[name] for c in r["replies"]})
        extra = s - baseline
        print(f"{name:<9} {s:>10.2f}s {extra:>8.2f}s {extra / TARGET_S:>9.2f}×  {','.join(replies)}")
    print(f"target: each hostile page holds the phone ≤ {TARGET_S:.0f} s beyond the benign page (ratio ≤ 1.00×)")


if __name__ == "__main__":
    main()
