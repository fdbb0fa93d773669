"""Chromium's own accessibility tree as the oracle of the walk (issue 23 item 3), on every page under tests/.

For each page (and the demo's screens) the snapshot's controls, headings and images that stand for an element are
found in ``Accessibility.getPartialAXTree`` by that element (the walk's serial: oracle_marks.js hands the elements
over by reference), and the node's role and name are held against Chromium's, both through the one role table
(devices/web/roles.py).  Every difference is intended and says why: the node was shaped by a named rule beyond the
spec (its ``rules``, each an entry of walker_rules.js's RULES), or it is one of the kinds of :data:`INTENDED`, each
naming its rule.  A difference with neither fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_phone import Phone, requires_chromium

from loopback import serving
from phonewire.devices.web.device import DEMO_APP_ID
from phonewire.devices.web.roles import vocabulary_role
from phonewire.protocol.snapshot import INTERACTIVE_ROLES

pytestmark = requires_chromium

TESTS = Path(__file__).resolve().parents[2]
WEB = Path(__file__).resolve().parents[3] / "src" / "phonewire" / "devices" / "web"
MARKS = (Path(__file__).resolve().parent / "oracle_marks.js").read_text()
RULES = set(re.findall(r'^  "([a-z-]+)": \{finding:', (WEB / "walker_rules.js").read_text(), re.M))
#: Pages that cannot be walked to a still screen on purpose (they block, loop, navigate away, flood, open dialogs,
#: or are too deep to lay out within the budget).
UNWALKABLE = {
    "block.html", "stuck.html", "flood.html", "dialogs.html", "socket_dialog.html", "flash_dialog.html",
    "navigate.html", "chatty.html", "churn.html", "back_modal.html", "gone.html", "broken.html",
    "abyss.html",  # 50,000 nested divs: under load its layout outlasts the page-script budget and the page is ended
}  # fmt: skip
PAGES = sorted(
    str(p.relative_to(TESTS))
    for folder in ("e2e/hostile", "e2e/widgets", "e2e/refid", "devices/web/pages")
    for p in (TESTS / folder).glob("*.html")
    if p.name not in UNWALKABLE
)
#: Kinds of difference that are intended: kind → (the rule of walker_rules.js behind it, what differs).
INTENDED: dict[str, tuple[str, str]] = {
    "zero-width": ("zero-width-text", "Chromium keeps the U+200B a page breaks a word with; the view leaves it out"),
}
_ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff]")


def _kind(node: dict[str, Any], theirs: tuple[str, str, bool]) -> str | None:
    """Which intended kind a difference is, if any."""
    role, name, _ = theirs
    if (node["type"], node["label"] or "") == (role, _ZERO_WIDTH.sub("", name)):
        return "zero-width"
    return None


def _elements(phone: Phone, app: str) -> dict[str, int]:
    """serial number → backend node id of the element the walk gave it."""
    session = phone.device._live(app).session

    def items(object_id: str) -> list[dict[str, Any]]:
        props = phone.run(session.send("Runtime.getProperties", {"objectId": object_id, "ownProperties": True}))
        return [p["value"] for p in props["result"] if p["name"].isdigit()]

    found = phone.run(session.send("Runtime.evaluate", {"expression": MARKS}))["result"]["objectId"]
    numbers_of, elements_of = items(found)
    numbers = [str(v["value"]) for v in items(numbers_of["objectId"])]
    out: dict[str, int] = {}
    for number, element in zip(numbers, items(elements_of["objectId"]), strict=True):
        described = phone.run(session.send("DOM.describeNode", {"objectId": element["objectId"]}))
        out[number] = described["node"]["backendNodeId"]
    return out


def _theirs(phone: Phone, app: str, backend: int, secure: bool) -> tuple[str, str, bool]:
    """Chromium's (vocabulary role, name, ignored) of one element."""
    session = phone.device._live(app).session
    tree = phone.run(
        session.send("Accessibility.getPartialAXTree", {"backendNodeId": backend, "fetchRelatives": False})
    )
    ax: dict[str, Any] = tree["nodes"][0] if tree.get("nodes") else {"ignored": True}
    props = {p["name"]: p.get("value", {}).get("value") for p in ax.get("properties", [])}
    role = vocabulary_role(str(ax.get("role", {}).get("value", "")), multiline=bool(props.get("multiline")))
    if secure and role == "TextField":
        role = "SecureTextField"
    name = " ".join(str(ax.get("name", {}).get("value", "")).split())
    return role, name, bool(ax.get("ignored"))


def _compare(phone: Phone, app: str) -> list[str]:
    """The unexplained differences of one screen."""
    nodes = phone.snapshot(app)["nodes"]
    backend = _elements(phone, app)
    unexplained: list[str] = []
    for node in nodes:
        number = str(node.get("serial") or "").rpartition(":")[2]
        if number not in backend or not (node["type"] in INTERACTIVE_ROLES or node["type"] in ("Heading", "Image")):
            continue
        theirs = _theirs(phone, app, backend[number], node["type"] == "SecureTextField")
        if (node["type"], node["label"] or "") == theirs[:2]:
            continue
        rules = node.get("rules") or []
        assert set(rules) <= RULES, rules
        if not rules and _kind(node, theirs) is None:
            unexplained.append(f"{node['type']} {node['label']!r} id={node['identifier']} vs Chromium {theirs}")
    return unexplained


def test_every_intended_kind_points_at_a_rule() -> None:
    assert {rule for rule, _ in INTENDED.values()} <= RULES


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(TESTS) as base:
        yield base


@pytest.mark.parametrize("page", PAGES)
def test_the_walk_agrees_with_chromium_or_says_why(phone: Phone, site: str, page: str) -> None:
    app = site + page
    phone.run(phone.device.launch_app(app))
    try:
        assert _compare(phone, app) == []
    finally:
        phone.run(phone.device.terminate_app(app))
        phone.run(phone.device.activate(DEMO_APP_ID))


@pytest.mark.parametrize("screen", ["list", "detail/7", "form", "controls", "reorder"])
def test_the_demo_screens_agree_with_chromium_or_say_why(phone: Phone, screen: str) -> None:
    phone.goto(screen)
    assert _compare(phone, DEMO_APP_ID) == []
