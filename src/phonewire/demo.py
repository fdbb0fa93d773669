"""The main job: a short session on the bundled demo app on the embedded web phone.

``python -m phonewire.demo [--device web:PROFILE] [--out DIR] [--trace DIR]`` (``bash scripts/demo.sh`` sets
everything up and runs it; ``--trace`` records the session for ``phonewire trace view`` / ``trace export``).
It opens the demo, reads the screen, taps a button, signs in through the form, searches, saves a screenshot, and
checks every effect on the screen itself — printing what it did and how long each step took.
Exit status 0 when every check held, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from phonewire.api import Phone, View
from phonewire.protocol.errors import ProtocolError

DEMO_APP = "dev.phonewire.demo"
T = TypeVar("T")


def _text_of(view: View, identifier: str) -> str | None:
    for node in view.nodes:
        if node.get("identifier") == identifier:
            label = node.get("label")
            value = node.get("value")
            return str(label if label is not None else value)
    return None


class _Steps:
    def __init__(self) -> None:
        self.failures = 0

    def run(self, what: str, action: Callable[[], T]) -> T:
        started = time.perf_counter()
        result = action()
        print(f"  {(time.perf_counter() - started) * 1000:7.1f} ms  {what}", flush=True)
        return result

    def check(self, what: str, got: object, want: object) -> None:
        mark = "ok " if got == want else "FAIL"
        if got != want:
            self.failures += 1
        print(f"  {mark}         {what}: {got!r}" + ("" if got == want else f" (expected {want!r})"), flush=True)


def run(device: str, out: Path, trace: Path | None = None) -> int:
    steps = _Steps()
    out.mkdir(parents=True, exist_ok=True)
    print(f"phonewire demo on {device}: {DEMO_APP}", flush=True)
    started = time.perf_counter()
    with Phone(device=device, trace=str(trace) if trace is not None else None) as phone:
        steps.run(f"open {DEMO_APP} (starts the runner and Chromium)", lambda: phone.open(DEMO_APP))
        view = steps.run("snapshot -i", lambda: phone.snapshot(interactive=True))
        print(f"             {len(view.text.splitlines())} lines, {len(view.text)} characters:")
        for line in view.text.splitlines()[:6]:
            print(f"             | {line}")
        print("             | …")
        steps.run("tap id=like-1", lambda: phone.tap("id=like-1"))
        view = steps.run("snapshot", phone.snapshot)
        steps.check("row 1's button after one tap", _text_of(view, "like-1"), "Like 1")
        steps.check("row 2's button untouched", _text_of(view, "like-2"), "Like 0")

        steps.run("tap the Account tab", lambda: phone.tap("id=tab-form"))
        steps.run('fill id=name "Ada Lovelace"', lambda: phone.fill("id=name", "Ada Lovelace"))
        steps.run('fill id=password "correct horse"', lambda: phone.fill("id=password", "correct horse"))
        steps.run("tap Sign in", lambda: phone.tap('role=Button label="Sign in"'))
        view = steps.run("snapshot", phone.snapshot)
        steps.check("sign-ins", _text_of(view, "signin-count"), "1")
        steps.check("signed-in user", _text_of(view, "signin-user"), "Ada Lovelace")

        steps.run('fill id=search "phones"', lambda: phone.fill("id=search", "phones"))
        steps.run("press enter (submit the search)", lambda: phone.press("enter"))
        view = steps.run("snapshot", phone.snapshot)
        steps.check("searches", _text_of(view, "search-count"), "1")
        steps.check("last search", _text_of(view, "search-last"), "phones")

        shot = out / "phonewire-demo.png"
        steps.run(f"screenshot → {shot}", lambda: phone.screenshot(str(shot)))
        steps.check("screenshot is a PNG", shot.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
    total = time.perf_counter() - started
    verdict = "all checks held" if not steps.failures else f"{steps.failures} check(s) failed"
    print(f"done in {total:.2f} s (runner and browser stopped): {verdict}", flush=True)
    if trace is not None:
        print(
            f"trace: {trace}  (see it: phonewire trace view {trace} -o report.html; replay it: phonewire trace "
            f"export {trace} --pytest test_demo_flow.py && pytest test_demo_flow.py)",
            flush=True,
        )
    return 0 if not steps.failures else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m phonewire.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="web", help="device spec (default: web)")
    parser.add_argument("--out", type=Path, default=Path("out"), help="where the screenshot goes (default: out/)")
    parser.add_argument("--trace", type=Path, metavar="DIR", help="record the session in DIR (docs/trace.md)")
    args = parser.parse_args(argv)
    try:
        return run(args.device, args.out, args.trace)
    except ProtocolError as exc:
        print(f"error {exc.code}: {exc.message}" + (f"\nhint: {exc.hint}" if exc.hint else ""), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
