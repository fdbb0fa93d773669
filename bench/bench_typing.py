"""Cost of the read-back after typing (E2) and of the settle that waits for requests and timers on their way (E9),
against a baseline tree measured in the same run.

    git archive BASE src | tar -x -C /tmp/base && .venv/bin/python bench/bench_typing.py --baseline-src /tmp/base/src

Two runners (this tree's, and one importing phonewire from ``--baseline-src``) drive the same small page (a text
field and a button, no timers); their calls alternate one by one (the order swapped every round), so both see the
same machine load.  Per round: ``type`` 17 characters into the field (this tree reads the field back after), a
``tap`` on the button, then a ``snapshot`` (the first after an action: it waits for the screen to settle).  Prints
p50s and the ratio this tree / baseline; asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench_web import Runner, runner_from

PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><input id="field" style="position:absolute; left:10px; top:10px; width:300px; height:30px">
<button id="go" style="position:absolute; left:10px; top:60px; width:120px; height:40px"
  onclick="this.textContent = 'Go ' + (Number(this.textContent.slice(3) || 0) + 1)">Go</button></body></html>"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _round(runner: Runner, app: str, samples: dict[str, list[float]]) -> None:
    for name, command, fields in (
        ("type", "type", {"text": "hello world 12345"}),
        ("tap", "tap", {"x": 50.0, "y": 80.0}),
        ("snapshot", "snapshot", {}),
    ):
        start = time.perf_counter()
        runner.send(command, app, **fields)
        samples[name].append(time.perf_counter() - start)
    runner.send("tap", app, x=150.0, y=25.0)  # the field again, for the next round's typing


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline-src", required=True)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as site:
        Path(site, "page.html").write_text(PAGE)
        handler = functools.partial(_Quiet, directory=site)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        app = f"http://127.0.0.1:{server.server_address[1]}/page.html"
        ours, base = runner_from(), runner_from(args.baseline_src)
        try:
            figures: dict[str, dict[str, list[float]]] = {}
            for label, runner in (("ours", ours), ("base", base)):
                runner.send("launchApp", app)
                runner.send("tap", app, x=150.0, y=25.0)
                figures[label] = {"type": [], "tap": [], "snapshot": []}
                _round(runner, app, {"type": [], "tap": [], "snapshot": []})  # warm-up
            for i in range(args.rounds):
                pair = [("ours", ours), ("base", base)]
                for label, runner in pair if i % 2 == 0 else list(reversed(pair)):
                    _round(runner, app, figures[label])
        finally:
            ours.stop()
            base.stop()
            server.shutdown()
            server.server_close()
    print(f"{args.rounds} rounds, alternating call by call (2 shared cores: figures are noisy, compare the ratios)")
    for name in ("type", "tap", "snapshot"):
        o, b = statistics.median(figures["ours"][name]), statistics.median(figures["base"][name])
        print(f"{name:9s} p50 this tree {o * 1000:7.1f} ms   baseline {b * 1000:7.1f} ms   ratio {o / b:5.2f}")


if __name__ == "__main__":
    main()
