"""The bridge end to end: a real TCP client → ``phonewire bridge`` process → runner process → Chromium (web device),
replaying the PhoneAgent reference workflow on the demo app: get_tree → tap_element → enter_text → get_context.

What is checked is what the page shows afterwards: the tapped row's counter went up by exactly one, the typed text
is the field's value, and the screenshot decodes as a JPEG of the reported size (a PNG at device pixels on request)."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procs import stop_process, wait_gone

pytestmark = pytest.mark.e2e

DEMO = "dev.phonewire.demo"
FRAME = re.compile(r" frame=(\{\{[^}]*\}, \{[^}]*\}\})$")
REF = re.compile(r"@e\d+ ")


class Bridge:
    """A ``phonewire bridge`` process on the web device, and one client connection to it."""

    def __init__(self, app: str = DEMO) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_TIME_SCALE")}
        argv = [sys.executable, "-m", "phonewire", "bridge", "--port", "0", "--device", "web", "--app", app]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith(b"PHONEWIRE_BRIDGE_READY port="):
            self.stop()
            raise AssertionError(f"bridge did not come up: {line!r}")
        self.port = int(line.split(b"=")[1])
        self.runner_pids = [int(p) for p in Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
                            .split()]  # fmt: skip
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        self.stream = self.sock.makefile("rwb")
        self._ids = 0

    def raw(self, line: bytes) -> dict[str, Any]:
        self.stream.write(line)
        self.stream.flush()
        reply: dict[str, Any] = json.loads(self.stream.readline())
        return reply

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._ids += 1
        reply = self.raw(json.dumps({"id": self._ids, "method": method, "params": params}).encode() + b"\n")
        assert reply["id"] == self._ids
        return reply

    def result(self, method: str, **params: Any) -> dict[str, Any]:
        reply = self.call(method, **params)
        assert "result" in reply, reply
        result: dict[str, Any] = reply["result"]
        return result

    def stop(self) -> None:
        if getattr(self, "stream", None) is not None:
            self.stream.close()
            self.sock.close()
        stop_process(self.proc)


def serving_bridge(app: str = DEMO) -> Iterator[Bridge]:
    """A fixture body: a bridge on ``app`` (an app id or a URL), stopped after the module with its runners."""
    b = Bridge(app)
    try:
        yield b
    finally:
        b.stop()
        for pid in b.runner_pids:
            assert wait_gone(pid), f"runner {pid} outlived the bridge"


@pytest.fixture(scope="module")
def bridge() -> Iterator[Bridge]:
    yield from serving_bridge()


def _plain(line: str) -> str:
    """A tree line without its ref and frame: what the element is and says."""
    return FRAME.sub("", REF.sub("", line, count=1)).strip()


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    """Pairs of (old, new) lines, position by position, whose element or texts differ."""
    a = [_plain(line) for line in before.splitlines()]
    b = [_plain(line) for line in after.splitlines()]
    assert len(a) == len(b), "the screen's structure changed"
    return [(x, y) for x, y in zip(a, b, strict=True) if x != y]


def find_line(tree: str, pattern: str) -> str:
    for line in tree.splitlines():
        if re.search(pattern, line):
            return line
    raise AssertionError(f"no line matching {pattern!r} in:\n{tree}")


def frame_of(line: str) -> str:
    match = FRAME.search(line)
    assert match, line
    return match.group(1)


def likes(tree: str, row: int) -> int:
    """The demo list's per-row like counter, read from the row's button label ("Like N")."""
    match = re.search(r'Button "Like (\d+)"', find_line(tree, rf"id=like-{row}\b"))
    assert match
    return int(match.group(1))


def total_likes(tree: str) -> int:
    match = re.search(r'StaticText "(\d+)"', find_line(tree, r"id=likes-total\b"))
    assert match
    return int(match.group(1))


def test_reference_workflow_get_tree_tap_element_enter_text_get_context(bridge: Bridge, tmp_path: Path) -> None:
    # 1. get_tree: agent view lines, each with a frame string to copy
    tree = bridge.result("get_tree")["tree"]
    button = find_line(tree, r"id=like-1\b")

    # 2. tap_element with the copied frame: the fresh tree comes back, row 1's counter went up by exactly one
    tapped = bridge.result("tap_element", coordinate=frame_of(button))
    assert tapped["coordinate"] == frame_of(button) and tapped["count"] == 1 and tapped["longPress"] is False
    after = tapped["tree"]
    assert likes(after, 1) == likes(tree, 1) + 1
    assert total_likes(after) == total_likes(tree) + 1
    assert [likes(after, row) for row in (2, 3)] == [likes(tree, row) for row in (2, 3)]

    # 3. to the form (another tap_element), then enter_text into its Name field: the text becomes the value
    form = bridge.result("tap_element", coordinate=frame_of(find_line(after, r"id=tab-form\b")))["tree"]
    name = find_line(form, r'TextField "Name" id=name\b')
    typed = bridge.result("enter_text", coordinate=frame_of(name), text="hello bridge")
    assert typed["coordinate"] == frame_of(name)
    assert 'value="hello bridge"' in find_line(typed["tree"], r"id=name\b")

    # 4. get_context: tree + screenshot, by default a JPEG at one pixel per point that decodes at the reported size
    #    (the viewport's size in points); a PNG at device pixels on request.  The Name field's keyboard is dismissed
    #    first: while it is up the viewport is the part of the screen above it, the screenshot the whole screen
    assert bridge.result("keyboard_hide")["message"].startswith("hid the keyboard")
    context = bridge.result("get_context")
    assert 'value="hello bridge"' in context["tree"]
    viewport = bridge.result("viewport")
    from PIL import Image

    with Image.open(io.BytesIO(base64.b64decode(context["screenshot_base64"]))) as image:
        image.load()
        assert image.format == "JPEG" and context["metadata"]["format"] == "jpeg"
        assert image.size == (context["metadata"]["width"], context["metadata"]["height"])
        assert image.size == (round(viewport["width"]), round(viewport["height"]))
    full = bridge.result("get_screen_image", format="png", scale="device")
    png = tmp_path / "context.png"
    png.write_bytes(base64.b64decode(full["screenshot_base64"]))
    with Image.open(png) as image:
        image.load()
        assert image.format == "PNG"
        assert image.size == (full["metadata"]["width"], full["metadata"]["height"])
        assert image.size == (round(viewport["width"] * 3), round(viewport["height"] * 3))  # iphone-15: 3 px a point


def test_bad_input_on_the_live_bridge_gets_errors_and_the_connection_keeps_serving(bridge: Bridge) -> None:
    replies = [
        bridge.raw(b"{ not json\n"),
        bridge.raw(b'{"id": "u", "method": "teleport", "params": {}}\n'),
        bridge.raw(b'{"id": "m", "method": "tap_element", "params": {}}\n'),
        bridge.raw(b'{"id": "w", "method": "tap", "params": {"x": "12", "y": 30}}\n'),
        bridge.raw(b'{"id": "f", "method": "enter_text", "params": {"coordinate": "12,30,40,40", "text": "x"}}\n'),
    ]
    assert [r["id"] for r in replies] == [None, "u", "m", "w", "f"]
    for reply in replies:
        assert reply["error"]["code"] == "INVALID_REQUEST"
        assert reply["error"]["message"] and reply["error"]["hint"]
    assert "{{x, y}, {w, h}}" in replies[4]["error"]["hint"]
    assert "@e1 " in bridge.result("get_tree")["tree"]


def test_a_stale_ref_is_refused_and_nothing_is_tapped(bridge: Bridge) -> None:
    before = bridge.result("get_tree")["tree"]
    reply = bridge.call("tap", target="@e9999")
    assert reply["error"]["code"] == "STALE_REF"
    assert changed_lines(before, bridge.result("get_tree")["tree"]) == []


def first_row(tree: str) -> int:
    return min(int(n) for n in re.findall(r"id=row-(\d+)\b", tree))


def test_scroll_and_swipe_reveal_rows_further_down_the_list(bridge: Bridge) -> None:
    tree = bridge.result("get_tree")["tree"]
    tree = bridge.result("tap_element", coordinate=frame_of(find_line(tree, r"id=tab-list\b")))["tree"]
    first = first_row(tree)
    scrolled = bridge.result("scroll", direction="down")["tree"]  # phonewire form: reveal content below
    assert first_row(scrolled) > first
    swiped = bridge.result("swipe", x=200, y=600, direction="up")["tree"]  # reference form: the finger moves up
    assert first_row(swiped) > first_row(scrolled)


def fully_visible_row(tree: str) -> int:
    """A row whose like button lies well inside the list's viewport (not under the header or the tab bar)."""
    for line in tree.splitlines():
        match = re.search(r"id=like-(\d+)\b.* frame=\{\{[-\d.]+, ([-\d.]+)\}", line)
        if match and 120 <= float(match.group(2)) <= 600:
            return int(match.group(1))
    raise AssertionError(f"no fully visible row in:\n{tree}")


def test_targets_by_ref_and_selector_and_an_ambiguous_selector_taps_nothing(bridge: Bridge) -> None:
    tree = bridge.result("get_tree")["tree"]
    row = fully_visible_row(tree)
    ref = find_line(tree, rf"id=like-{row}\b").split()[0]
    by_ref = bridge.result("tap", target=ref)["tree"]
    assert likes(by_ref, row) == likes(tree, row) + 1
    by_selector = bridge.result("tap", target=f"id=like-{row + 1}")["tree"]
    assert likes(by_selector, row + 1) == likes(tree, row + 1) + 1
    ambiguous = bridge.call("tap", target="role=Button")
    assert ambiguous["error"]["code"] == "AMBIGUOUS_MATCH" and "@e" in ambiguous["error"]["message"]
    assert changed_lines(by_selector, bridge.result("get_tree")["tree"]) == []


def test_forgiving_selectors_numbers_and_patterns_over_the_bridge(bridge: Bridge) -> None:
    """Issue 25 item 4 through the bridge: a label read as a person reads it, a number, a pattern; a selector that
    cannot be read is INVALID_REQUEST and taps nothing."""
    tree = bridge.result("get_tree")["tree"]
    row = fully_visible_row(tree)
    count = likes(tree, row)
    between = f"id=like-{row} label~=/^Like \\d+$/ value>={count} value<{count + 1}"  # its number, from its label
    assert bridge.result("wait", selector=between, timeout_ms=0)["target"]["label"] == f"Like {count}"
    shown = bridge.result("wait", selector=f"id=like-{row} label=like {count}!", timeout_ms=0)  # case, punctuation
    assert shown["target"]["label"] == f"Like {count}"
    exact = bridge.call("wait", selector=f"id=like-{row} label==like {count}", timeout_ms=0)
    assert exact["error"]["code"] == "WAIT_TIMED_OUT"
    for bad in (f"id=like-{row} value<many", "text~=/Like (/"):
        refused = bridge.call("tap", target=bad)
        assert refused["error"]["code"] == "INVALID_REQUEST" and "value<45.5" in str(refused["error"]), refused
    assert likes(bridge.result("get_tree")["tree"], row) == count
