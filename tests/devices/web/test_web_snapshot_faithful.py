"""The in-page walk is faithful to Chromium's own accessibility tree.

For every visible interactive node of the demo's screens, the walk's role and name equal what
``Accessibility.getFullAXTree`` says of the same DOM element (matched by its id), once both go through the one
role table (devices/web/roles.py).  And no visible interactive element with an id that the browser exposes is
missing from the snapshot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_phone import Phone, requires_chromium

from loopback import serving
from phonewire.devices.web.home import DEMO_APP_ID
from phonewire.devices.web.roles import vocabulary_role
from phonewire.protocol.snapshot import INTERACTIVE_ROLES

pytestmark = requires_chromium


PAGES = Path(__file__).resolve().parent / "pages"


def browser_view(phone: Phone, app: str = DEMO_APP_ID) -> dict[str, tuple[str, str]]:
    """id → (vocabulary role, name) of the visible, non-ignored interactive nodes of the browser's AX tree."""
    session = phone.device._live(app).session
    tree = phone.run(session.send("Accessibility.getFullAXTree"))
    w, h = phone.device.profile.width, phone.device.profile.height
    out: dict[str, tuple[str, str]] = {}
    for node in tree["nodes"]:
        if node.get("ignored") or "backendDOMNodeId" not in node:
            continue
        ax_role = node.get("role", {}).get("value", "")
        props = {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", [])}
        role = vocabulary_role(ax_role, multiline=bool(props.get("multiline")))
        if role not in INTERACTIVE_ROLES:
            continue
        described = phone.run(session.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]}))
        attrs = described["node"].get("attributes", [])
        attributes = dict(zip(attrs[::2], attrs[1::2], strict=False))
        ident = attributes.get("id")
        if not ident:
            continue
        if attributes.get("type") == "password":
            role = vocabulary_role(ax_role, secure=True)
        box = phone.run(session.send("DOM.getBoxModel", {"backendNodeId": node["backendDOMNodeId"]}))
        xs, ys = box["model"]["border"][0::2], box["model"]["border"][1::2]
        if max(xs) <= 0 or min(xs) >= w or max(ys) <= 0 or min(ys) >= h:
            continue
        out[ident] = (role, " ".join(str(node.get("name", {}).get("value", "")).split()))
    return out


def walk_view(snapshot: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        n["identifier"]: (n["type"], n["label"] or "")
        for n in snapshot["nodes"]
        if n["identifier"] and n["type"] in INTERACTIVE_ROLES
    }


@pytest.mark.parametrize("screen", ["list", "detail/7", "form", "controls", "reorder"])
def test_walk_matches_the_accessibility_tree(phone: Phone, screen: str) -> None:
    phone.goto(screen)
    phone.eval("document.querySelectorAll('.screen').forEach(s => s.scrollTop = 0)")
    walk = walk_view(phone.snapshot())
    browser = browser_view(phone)
    assert len(browser) >= 3
    shared = set(walk) & set(browser)
    assert len(shared) >= 3
    mismatches = {i: (walk[i], browser[i]) for i in shared if walk[i] != browser[i]}
    assert mismatches == {}
    # Every browser-exposed interactive element that is really on screen (hit-testable at its centre, so not
    # clipped by a scroll view or covered by a bar) is in the snapshot.
    on_screen = phone.eval(
        "(ids => ids.filter(id => { const el = document.getElementById(id); const r = el.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        " return hit !== null && (el === hit || el.contains(hit) || hit.contains(el)); }))"
        f"({sorted(browser)!r})"
    )
    assert set(on_screen) - set(walk) == set()


def test_walk_matches_the_accessibility_tree_on_the_element_zoo(phone: Phone) -> None:
    """Names from aria-label, aria-labelledby, alt, wrapping and for-labels, title, placeholder, input values,
    nested content; roles of every form control, ARIA widgets, contenteditable and summary."""
    with serving(PAGES) as base:
        url = base + "zoo.html"
        phone.run(phone.device.open_url(url))
        try:
            walk = walk_view(phone.snapshot(url))
            browser = browser_view(phone, url)
            assert len(browser) >= 20
            mismatches = {i: (walk.get(i), browser[i]) for i in browser if walk.get(i) != browser[i]}
            assert mismatches == {}
        finally:
            phone.run(phone.device.terminate_app(url))
            phone.run(phone.device.activate(DEMO_APP_ID))
