"""The web-platform-tests' name and role cases held against the walker's spec layer, Chromium's own accessibility
tree and Playwright, once for both conformance tests (``test_wpt_conformance.py`` on the restated pages under
``wpt/``, ``test_wpt_originals.py`` on WPT's own files).

A page's cases are read from its own markup — class ``ex`` / ``ex-generic`` with ``data-testname``,
``data-expectedrole``, ``data-expectedlabel`` or ``data-expectedname`` — and, for WPT's manual tests, from the
expectations their ``ATTAcomm`` block declares (the element's id and its ATK name).  ``wpt/probe.js`` answers what
the spec layer says of each case and marks it ``data-pw-case=N``; Chromium's answer for the same element comes from
``Accessibility.getPartialAXTree`` in the same browser, Playwright's from ``aria_snapshot()`` of the same element
in a browser of its own (the same Chromium binary).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from web_phone import Phone

from phonewire.devices.web import js

CHROMIUM = "/usr/bin/chromium"
_PROBE_JS = (Path(__file__).resolve().parent / "wpt" / "probe.js").read_text()
#: Our role names (Chromium's internal ones, and the walk's own) as the ARIA names the cases expect.
ROLE_NAMES = {
    "DisclosureTriangle": "button",
    "img": "image",
    "Iframe": "iframe",
    "PopUpButton": "combobox",
    "MenuListOption": "option",
    "ListBoxOption": "option",
    "LabelText": "generic",
    "clickable": "generic",
    "StaticText": "none",
    "RootWebArea": "document",
    "text": "none",
    "": "none",
}
#: Roles that stand for "no role of its own" when a case expects generic (or WPT's empty computed role).
NO_ROLE = ("generic", "none")


def probe(manual: Iterable[tuple[str, str]] = ()) -> str:
    """The probe as one function body: the spec and rules layers, then MANUAL, then probe.js's expression."""
    return (
        '(function () {\n"use strict";\n'
        + js.load("walker_spec.js")
        + js.load("walker_rules.js")
        + f"\nconst MANUAL = {json.dumps([list(c) for c in manual])};\nreturn (\n"
        + _PROBE_JS
        + ");\n})()"
    )


def manual_cases(html: str) -> list[tuple[str, str]]:
    """A WPT manual test's name cases: (element id, the name its ATK expectation says), from its ATTAcomm block."""
    start = html.find("new ATTAcomm(")
    if start < 0:
        return []
    spec, _ = json.JSONDecoder().raw_decode(html[html.index("{", start) :])
    out = []
    for step in spec.get("steps", []):
        for check in step.get("test", {}).get("ATK", []):
            if check[:3] == ["property", "name", "is"] and step.get("element"):
                out.append((str(step["element"]), str(check[3])))
    return out


def role(name: Any) -> str:
    text = str(name or "")
    return ROLE_NAMES.get(text, text)


def text(name: Any) -> str:
    """A name as the cases compare it: ASCII whitespace trimmed and collapsed (U+00A0 is no ASCII whitespace)."""
    return " ".join(re.split(r"[\t\n\f\r ]+", str(name or ""))).strip(" ")


def right(expected_role: str | None, expected_label: str | None, got_role: str, name: str) -> bool:
    if expected_role is not None:
        generic = expected_role in ("generic", "")
        if not (got_role == expected_role or (generic and got_role in NO_ROLE)):
            return False
    return expected_label is None or text(name) == text(expected_label)


def chromium(phone: Phone, app: str, count: int) -> dict[int, tuple[str, str]]:
    """case number → (role, name) in Chromium's accessibility tree."""
    session = phone.device._live(app).session
    document = phone.run(session.send("DOM.getDocument", {"depth": -1, "pierce": True}))
    found: dict[int, int] = {}

    def visit(node: dict[str, Any]) -> None:
        attrs = node.get("attributes", [])
        for key, value in zip(attrs[::2], attrs[1::2], strict=False):
            if key == "data-pw-case":
                found[int(value)] = node["backendNodeId"]
        for child in [*node.get("children", []), *node.get("shadowRoots", [])]:
            visit(child)

    visit(document["root"])
    out: dict[int, tuple[str, str]] = {}
    for number, backend in found.items():
        tree = phone.run(
            session.send("Accessibility.getPartialAXTree", {"backendNodeId": backend, "fetchRelatives": False})
        )
        node = tree["nodes"][0] if tree.get("nodes") else {}
        got = "none" if node.get("ignored") else str(node.get("role", {}).get("value", ""))
        out[number] = (role(got), str(node.get("name", {}).get("value", "")))
    assert len(out) == count
    return out


_SNAPSHOT_LINE = re.compile(r'^- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?')


def from_aria_snapshot(snapshot: str) -> tuple[str, str]:
    """Playwright's role and name of an element from the first line of its ``aria_snapshot()``."""
    m = _SNAPSHOT_LINE.match(snapshot.splitlines()[0] if snapshot else "")
    if not m:
        return ("none", "")
    name = json.loads('"' + m.group(2) + '"') if m.group(2) is not None else ""
    return (role(m.group(1)), name)


@dataclass
class Playwright:
    """Playwright's answers, from a browser of its own on the same pages (the same Chromium binary)."""

    pw: Any = None
    browser: Any = None
    pages: dict[str, Any] = field(default_factory=dict)

    def __enter__(self) -> Playwright:
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        return self

    def __exit__(self, *exc: object) -> None:
        self.browser.close()
        self.pw.stop()

    def answers(self, url: str, source: str, count: int) -> dict[int, tuple[str, str]]:
        page = self.browser.new_page(viewport={"width": 390, "height": 844})
        try:
            page.goto(url, wait_until="load")
            assert len(page.evaluate(source)) == count
            return {
                n: from_aria_snapshot(page.locator(f'[data-pw-case="{n}"]').first.aria_snapshot(timeout=5000))
                for n in range(count)
            }
        finally:
            page.close()


def conformance(phone: Phone, base: str, pages: dict[str, list[tuple[str, str]]]) -> list[dict[str, Any]]:
    """One row per case of every page (path under ``base`` → its manual cases): the expectation, ours, Chromium's,
    whether each is right, whether the element shows."""
    rows: list[dict[str, Any]] = []
    for page, manual in pages.items():
        app = base + page
        phone.run(phone.device.launch_app(app))
        try:
            cases = phone.eval(probe(manual), app)
            theirs = chromium(phone, app, len(cases))
        finally:
            phone.run(phone.device.terminate_app(app))
        for number, (test, expected_role, expected_label, got_role, name, visible) in enumerate(cases):
            c_role, c_name = theirs[number]
            rows.append(
                {
                    "page": page,
                    "number": number,
                    "case": f"{page}: {test}",
                    "test": test,
                    "visible": bool(visible),
                    "ours": right(expected_role, expected_label, role(got_role), str(name)),
                    "chromium": right(expected_role, expected_label, c_role, c_name),
                    "got": (role(got_role), str(name)),
                    "chromium_got": (c_role, c_name),
                    "expected": (expected_role, expected_label),
                }
            )
    return rows


def add_playwright(rows: list[dict[str, Any]], base: str, pages: dict[str, list[tuple[str, str]]]) -> None:
    """Playwright's answer on each row (after the phone's pass: Playwright's sync API runs a loop of its own)."""
    with Playwright() as playwright:
        for page, manual in pages.items():
            mine = [r for r in rows if r["page"] == page]
            answers = playwright.answers(base + page, probe(manual), len(mine))
            for r in mine:
                p_role, p_name = answers[r["number"]]
                expected_role, expected_label = r["expected"]
                r["playwright"] = right(expected_role, expected_label, p_role, p_name)
                r["playwright_got"] = (p_role, p_name)
