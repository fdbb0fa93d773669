"""Fixes of docs/realapps-findings-3.md on the real web phone, on pages of our own (tests/e2e/hostile/findings3.html,
debounced.html): E2 `fill` and `type` read the field back once the page's key handlers ran, and fail naming what it
holds when a picker rewrote it; E6 a box a library draws for a hidden select is a ComboBox that `select` sets; E9
the view after an action waits for the page's reaction on its way (a debounce, then a slow request)."""

from __future__ import annotations

import http.server
import json
import time
import urllib.parse
from collections.abc import Iterator

import pytest
from web_runner import HostileSite

import phonewire
from loopback import serve
from phonewire.protocol import errors as e
from phonewire.protocol.snapshot import Node

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(shared_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    shared_phone.open(hostile_site.url("findings3.html"))  # the session's runner, every app closed first
    return shared_phone


def node_of(phone: phonewire.Phone, ident: str) -> Node:
    return next(n for n in phone.snapshot().nodes if n.get("identifier") == ident)


def test_e2_fill_into_a_field_a_picker_rewrites_fails_naming_what_it_holds(phone: phonewire.Phone) -> None:
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.fill("id=published", "2024-02-29")
    assert info.value.code == e.COMMAND_FAILED
    assert "the field holds '0002-01-01024-02-29', not '2024-02-29'" in info.value.message
    assert "widget" in (info.value.hint or "")
    assert node_of(phone, "published")["value"] == "0002-01-01024-02-29"  # the error says what the screen shows
    assert node_of(phone, "keyups")["label"] == "10"  # every key went in, each with its keyup


def test_e2_type_into_a_rewritten_field_fails_too_and_a_plain_field_reads_back_ok(phone: phonewire.Phone) -> None:
    phone.tap("id=published")
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.type("7")
    assert info.value.code == e.COMMAND_FAILED and "holds '0007-01-01', not '7'" in info.value.message
    result = phone.fill("id=note", "hello world").data
    assert "typed 11 character(s)" in result["message"]
    phone.type("!")  # typed at the caret (the end): read back as expected
    assert node_of(phone, "note")["value"] == "hello world!"


def test_e6_a_box_drawn_for_a_hidden_select_is_a_combobox_named_by_its_label_showing_its_text(
    phone: phonewire.Phone,
) -> None:
    view = phone.snapshot()
    author = [n for n in view.nodes if n.get("identifier") == "author"]
    assert len(author) == 1  # the box stands for the hidden select: one element, not two
    assert author[0]["type"] == "ComboBox" and author[0]["label"] == "Author"
    assert author[0]["value"] == "Choose an author"
    assert 'ComboBox "Author" id=author value="Choose an author"' in view.text
    assert not any(n.get("type") == "Link" and n.get("label") == "Choose an author" for n in view.nodes)
    # its <label for=author> only names the box: no line of its own beside it (the leftover of E6)
    assert [n["type"] for n in view.nodes if n.get("label") == "Author"] == ["ComboBox"]


def test_e6_select_on_the_drawn_box_sets_the_hidden_select_once_and_reads_the_box_back(phone: phonewire.Phone) -> None:
    result = phone.select("id=author", ["Ursula Le Guin"]).data
    assert result["selected"] == ["Ursula Le Guin"] and result["shown"] == "Ursula Le Guin"
    assert node_of(phone, "author")["value"] == "Ursula Le Guin"
    assert node_of(phone, "author-changes")["label"] == "1"  # one change event, which the library redrew on
    ref = next(r for r, n in phone.snapshot(interactive=True).refs.items() if n.get("identifier") == "author")
    assert phone.select("@" + ref, ["Jorge Borges"]).data["shown"] == "Jorge Borges"
    assert node_of(phone, "author-changes")["label"] == "2"


def test_e6_not_found_for_an_element_the_page_hides_does_not_send_the_agent_scrolling(phone: phonewire.Phone) -> None:
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.fill("id=hidden-field", "x")
    assert info.value.code == e.NOT_FOUND
    hint = info.value.hint or ""
    assert "scroll to reveal" not in hint and "the page hides" in hint and "act on what shows in its place" in hint


class _SlowSearch(http.server.BaseHTTPRequestHandler):
    """``/search?q=…``: the names that contain q, answered after 200 ms (any origin may ask)."""

    NAMES = ("Article 01", "Article 02", "Article 03", "Article 07", "Article 17")

    def do_GET(self) -> None:
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query).get("q", [""])[0]
        time.sleep(0.2)
        body = json.dumps([n for n in self.NAMES if query in n]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def slow_api() -> Iterator[str]:
    with serve(_SlowSearch, "slow-search") as base:
        yield base


def test_e9_the_view_after_typing_waits_for_a_debounced_search_and_its_slow_answer(
    phone: phonewire.Phone, hostile_site: HostileSite, slow_api: str
) -> None:
    phone.open(hostile_site.url("debounced.html?api=" + urllib.parse.quote(slow_api, safe="")))
    assert node_of(phone, "count")["label"] == "5 rows"
    phone.fill("id=q", "07")
    view = phone.snapshot()  # the first look after the action: 300 ms debounce + 200 ms answer later
    count = next(n for n in view.nodes if n.get("identifier") == "count")
    assert count["label"] == "1 row"
    assert "Article 07" in view.text and "Article 01" not in view.text
