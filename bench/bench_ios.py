"""The iOS backend's closing-note measures: page-source parse + build time per fixture, and WDA calls per command.

    .venv/bin/python bench/bench_ios.py [--runs 50] [--baseline-src DIR]

* parse + build: for each real XML page source in tests/devices/ios/fixtures (and the JSON source the WDA double
  derives from it), ``parse_*_source`` + the shared ``build_snapshot``, p50 and max over ``--runs``, each printed
  against a baseline measured in the same run, alternating with it: only decoding the same text
  (``xml.etree.ElementTree.fromstring`` / ``json.loads``), the floor any reader of that reply pays.
* WDA calls per wire command: a scripted session (Settings, the sign-up form, a system alert, an app's own alert)
  sent through the runner's real :class:`~phonewire.runner.dispatch.Dispatcher` (so the app-state check before
  every app-scoped command is counted) to an ``IosDevice`` talking loopback HTTP to the WDA double, whose call
  record gives the routes.  With ``--baseline-src DIR`` (e.g. ``git archive`` of an earlier commit's src/) the same
  script runs with phonewire imported from DIR, and both are printed side by side.  Call counts do not depend on
  machine load; the times do (two shared cores: compare the ratios, not the milliseconds).

Everything runs in this process except the call scripts (one subprocess per source tree); the double is stopped
at the end of each.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
IOS_TESTS = ROOT / "tests" / "devices" / "ios"


# --- parse + build ----------------------------------------------------------------------------------------------------
def parse_build(runs: int) -> None:
    sys.path.insert(0, str(IOS_TESTS))
    from xml.etree import ElementTree

    from wda_double import FIXTURES, _app_element, json_node

    from phonewire.devices.ios.source import parse_json_source, parse_xml_source
    from phonewire.protocol.snapshot import build_snapshot

    print(f"parse + build per fixture, {runs} runs each, alternating with the baseline (decode only); ms")
    print(f"{'fixture':58} {'fmt':4} {'p50':>7} {'max':>7} {'decode p50':>10} {'ratio':>6} {'nodes':>5}")
    for path in sorted(FIXTURES.glob("*.xml")):
        xml = path.read_text(encoding="utf-8")
        json_text = json.dumps(json_node(_app_element(xml)))

        def xml_full(x: str = xml) -> int:
            tree = parse_xml_source(x)
            return len(build_snapshot(tree, tree.rect, "ios-wda")["nodes"])

        def json_full(j: str = json_text) -> int:
            tree = parse_json_source(j)
            return len(build_snapshot(tree, tree.rect, "ios-wda")["nodes"])

        def xml_decode(x: str = xml) -> int:
            return len(ElementTree.fromstring(x.strip().encode("utf-8")))

        def json_decode(j: str = json_text) -> int:
            return len(json.loads(j))

        cases: list[tuple[str, Callable[[], int], Callable[[], int]]] = [
            ("xml", xml_full, xml_decode), ("json", json_full, json_decode)]  # fmt: skip
        for fmt, full, decode in cases:
            full_ms: list[float] = []
            decode_ms: list[float] = []
            nodes = full()
            for _ in range(runs):
                for fn, out in ((full, full_ms), (decode, decode_ms)):
                    began = time.perf_counter()
                    fn()
                    out.append((time.perf_counter() - began) * 1000)
            p50, base = statistics.median(full_ms), statistics.median(decode_ms)
            print(f"{path.name:58} {fmt:4} {p50:7.2f} {max(full_ms):7.2f} {base:10.2f} {p50 / base:6.1f} {nodes:5}")


# --- calls per command ------------------------------------------------------------------------------------------------
def call_script() -> list[tuple[str, list[str], str]]:
    """(label, WDA routes, outcome) per wire command of the script; run with phonewire from whatever src is first
    on sys.path."""
    sys.path.insert(0, str(IOS_TESTS))
    from wda_double import FORM_APP, SETTINGS_APP, WdaDouble

    from phonewire.devices.ios.device import IosDevice
    from phonewire.protocol.request import Request
    from phonewire.runner.dispatch import Dispatcher

    out: list[tuple[str, list[str], str]] = []

    async def main(wda: WdaDouble) -> None:
        device = IosDevice(wda.url, scale=1.0)
        await device.open()
        dispatcher = Dispatcher(device)
        last: dict[str, Any] = {}

        async def send(label: str, command: str, app: str | None = None, **args: Any) -> dict[str, Any]:
            mark = len(wda.calls)
            env = await dispatcher.run(Request(command, app_id=app, args=args))
            outcome = "ok" if env.ok else f"error {env.error.code if env.error else '?'}"
            if env.ok and env.reactivated:
                outcome += " (reactivated)"
            out.append((label, wda.routes()[mark:], outcome))
            data: dict[str, Any] = dict(env.data or {}) if env.ok else {}
            return data

        def centre(label: str) -> tuple[float, float]:
            node = next(n for n in last["nodes"] if n.get("label") == label and n["type"] in ("Button", "TextField"))
            r = node["rect"]
            return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2

        try:
            await send("launchApp", "launchApp", SETTINGS_APP)
            last = await send("snapshot", "snapshot", SETTINGS_APP)
            await send("tap after a snapshot", "tap", SETTINGS_APP, x=195, y=400)
            await send("tap after a tap", "tap", SETTINGS_APP, x=195, y=400)
            await send("snapshot after a tap", "snapshot", SETTINGS_APP)
            await send("snapshot again (nothing between)", "snapshot", SETTINGS_APP)
            await send("tap x2 after a snapshot", "tap", SETTINGS_APP, x=195, y=400, numberOfTaps=2)
            await send("viewport", "viewport", SETTINGS_APP)
            await send("longPress after viewport", "longPress", SETTINGS_APP, x=195, y=400, durationMs=500)
            await send("drag", "drag", SETTINGS_APP, fromX=195, fromY=600, toX=195, toY=200)
            await send("launchApp (form)", "launchApp", FORM_APP)
            await send("snapshot (form)", "snapshot", FORM_APP)
            await send("tap a field after a snapshot", "tap", FORM_APP, x=300, y=115)
            await send("type", "type", FORM_APP, text="a@b.c")
            await send("keyboardDelete", "keyboardDelete", FORM_APP)
            await send("openUrl", "openUrl", None, url="prefs:root=General")
            await send("tap (app now in the background)", "tap", FORM_APP, x=10, y=300)
            await send("launchApp (settings)", "launchApp", SETTINGS_APP)
            wda.alert = ("“Settings” Would Like to Send You Notifications", ["Don’t Allow", "Allow"])
            last = await send("snapshot (system alert up)", "snapshot", SETTINGS_APP)
            if any(n.get("label") == "Allow" and n["rect"]["width"] for n in last.get("nodes", [])):
                x, y = centre("Allow")
            else:
                x, y = 0.0, 0.0  # a backend that shows no geometry for the alert's buttons
            await send("tap the alert's Allow", "tap", SETTINGS_APP, x=x, y=y)
            await send("snapshot (alert answered?)", "snapshot", SETTINGS_APP)
            wda.alert = None
            wda.show_app_alert("Reset Settings?", "This cannot be undone.", ["Cancel", "Reset"])
            last = await send("snapshot (app's own alert up)", "snapshot", SETTINGS_APP)
            x, y = centre("Cancel")
            await send("tap the alert's Cancel", "tap", SETTINGS_APP, x=x, y=y)
            await send("screenshot", "screenshot", None, format="png", scale="css")
            await send("listApps", "listApps")
            await send("button home", "button", None, button="home")
        finally:
            await device.close()

    with WdaDouble.with_fixture_apps() as wda:
        asyncio.run(main(wda))
        out.append(("(alert answers recorded by the double)", list(wda.alert_answers), "-"))
    return out


def run_script(src: Path) -> list[tuple[str, list[str], str]]:
    env = dict(os.environ, PYTHONPATH=str(src), PHONEWIRE_TIME_SCALE="1")
    result = subprocess.run([sys.executable, __file__, "--calls-json"], env=env, capture_output=True, text=True,
                            timeout=300, check=False)  # fmt: skip
    if result.returncode != 0:
        raise SystemExit(f"call script under {src} failed:\n{result.stderr[-2000:]}")
    return [tuple(row) for row in json.loads(result.stdout)]


def calls(baseline_src: Path | None) -> None:
    now = run_script(ROOT / "src")
    base = run_script(baseline_src) if baseline_src else None
    print("\nWDA calls per wire command (the runner's dispatcher, app-state check included)")
    head = f"{'command':40} {'now':>3}" + (f" {'base':>4}" if base else "")
    print(head + "  routes now" + ("  | routes at baseline (when different)" if base else ""))
    total_now = total_base = 0
    for n, (label, routes, outcome) in enumerate(now):
        counted = not label.startswith("(")
        total_now += len(routes) if counted else 0
        line = f"{label:40} {len(routes) if counted else '':>3}"
        other = base[n] if base and n < len(base) else None
        if base:
            total_base += len(other[1]) if other and counted else 0
            line += f" {len(other[1]) if other and counted else '':>4}"
        line += f"  {', '.join(routes) or '-'} [{outcome}]"
        if other and (other[1] != routes or other[2] != outcome):
            line += f"  | {', '.join(other[1]) or '-'} [{other[2]}]"
        print(line)
    print(f"{'total':40} {total_now:>3}" + (f" {total_base:>4}" if base else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--baseline-src", type=Path, default=None)
    parser.add_argument("--calls-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.calls_json:
        print(json.dumps(call_script(), ensure_ascii=False))
        return
    parse_build(args.runs)
    calls(args.baseline_src)


if __name__ == "__main__":
    main()
