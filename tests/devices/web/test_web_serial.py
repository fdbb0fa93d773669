"""The web device's snapshot nodes on real Chromium: element serials (one DOM node, one serial, for the node's
life; never the same in another document; never printed in the text view) and checkboxes named by their row."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_phone import Phone, requires_chromium

from loopback import serving
from phonewire.agent.view import render
from phonewire.devices.web.home import DEMO_APP_ID

pytestmark = requires_chromium

PAGES = Path(__file__).resolve().parent / "pages"


@pytest.fixture
def rows_page(phone: Phone) -> Iterator[str]:
    with serving(PAGES) as base:
        url = base + "rows.html"
        phone.run(phone.device.open_url(url))
        try:
            yield url
        finally:
            phone.run(phone.device.terminate_app(url))
            phone.run(phone.device.activate(DEMO_APP_ID))


def by_id(nodes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {n["identifier"]: n for n in nodes if n.get("identifier")}


def test_a_checkbox_without_a_name_of_its_own_is_named_by_its_row(phone: Phone, rows_page: str) -> None:
    nodes = phone.snapshot(rows_page)["nodes"]
    boxes = [n for n in nodes if n["type"] == "CheckBox"]
    # the row's text without its controls (the delete button, the hidden edit field, the select's option)
    assert [n["label"] for n in boxes if not n.get("identifier")] == ["Buy milk"]
    ids = by_id(nodes)
    assert ids["named"]["label"] == "Own name"  # its own name wins
    assert ids["tr-box"]["label"] == "Alice"  # a table row
    assert ids["lonely"]["label"] is None  # in no row: still nameless


def test_every_node_has_a_serial_that_stays_with_its_element(phone: Phone, rows_page: str) -> None:
    first = phone.snapshot(rows_page)["nodes"]
    serials = [n.get("serial") for n in first[1:]]  # the Application root stands for no element
    assert all(isinstance(s, str) and s for s in serials)
    assert len(set(serials)) == len(serials)
    again = phone.snapshot(rows_page)["nodes"]
    assert [n.get("serial") for n in again] == [n.get("serial") for n in first]
    assert not any(s in line for s in serials for line in render(first).lines)  # not in the text view

    # Beta moves above Alpha, Alpha is replaced by a new element that reads the same
    phone.eval(
        "(() => { const l = document.getElementById('list'); const a = document.getElementById('a');"
        " l.prepend(document.getElementById('b')); const n = document.createElement('li'); n.id = 'a';"
        " n.textContent = 'Alpha'; a.replaceWith(n); })()",
        rows_page,
    )
    moved = phone.snapshot(rows_page)["nodes"]
    before, after = by_id(first), by_id(moved)
    assert after["b"]["serial"] == before["b"]["serial"]
    assert after["a"]["serial"] not in serials  # a new element never gets a serial given before

    # a new document: no serial of the old one ever comes back
    phone.run(phone.device.open_url(rows_page))  # navigates the page again
    reloaded = phone.snapshot(rows_page)["nodes"]
    assert len(reloaded) > 5
    assert {n.get("serial") for n in reloaded}.isdisjoint(serials)
