"""TodoMVC's vanilla-JS example from the npm package `todomvc@0.1.1`, driven through the Python API and the CLI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers_realapps import wait_for
from realapps_env import TODOMVC_DIR, Cli, StaticSite

import phonewire
from loopback import QuietFiles, serving
from phonewire.protocol import errors as e


def rows(phone: phonewire.Phone) -> list[str]:
    """The todos shown: the texts inside the list id=todo-list."""
    nodes = phone.snapshot().nodes
    lists = [n["index"] for n in nodes if n.get("identifier") == "todo-list"]
    inside: set[int] = set(lists)
    out = []
    for n in nodes:
        if n.get("parentIndex") in inside:
            inside.add(n["index"])
            if n["type"] == "StaticText":
                out.append(str(n["label"]))
    return out


def items_left(nodes: list[dict[str, Any]]) -> int | None:
    """The footer's count, "<strong>N</strong> items left" (today two StaticTexts: "N", "items left")."""
    texts = [str(n.get("label")) for n in nodes if n["type"] == "StaticText"]
    for i, text in enumerate(texts):
        joined = " ".join(texts[i : i + 2])
        match = re.fullmatch(r"(\d+) items? left", joined) or re.fullmatch(r"(\d+) items? left", text)
        if match:
            return int(match.group(1))
    return None


def add(phone: phonewire.Phone, text: str) -> None:
    phone.fill("id=new-todo", text)
    phone.press("enter")


def test_add_three_complete_one_filter_active_clear_completed(phone: phonewire.Phone, todomvc: StaticSite) -> None:
    phone.open(todomvc.base + "/index.html")
    wait_for(phone, lambda nodes: any(n.get("identifier") == "new-todo" for n in nodes))
    for text in ("buy milk", "walk dog", "write report"):
        add(phone, text)
    assert rows(phone) == ["buy milk", "walk dog", "write report"]
    assert items_left(phone.snapshot().nodes) == 3

    # the bare words are the todo's text, not its checkbox (which only borrows their name): a tap completes nothing
    phone.tap('"walk dog"')
    assert items_left(phone.snapshot().nodes) == 3
    # complete "walk dog": its checkbox (input.toggle beside a <label>, no name of its own) is heard with its row
    phone.tap('role=CheckBox label="walk dog"')
    assert items_left(phone.snapshot().nodes) == 2

    phone.tap('role=Link label="Active"')
    wait_for(phone, lambda nodes: "walk dog" not in [n.get("label") for n in nodes])
    assert rows(phone) == ["buy milk", "write report"]

    phone.tap('role=Button label="Clear completed (1)"')
    phone.tap('role=Link label="All"')
    assert rows(phone) == ["buy milk", "write report"]
    assert items_left(phone.snapshot().nodes) == 2
    assert not any(str(n.get("label", "")).startswith("Clear completed") for n in phone.snapshot().nodes)


def test_the_cli_adds_todos_and_filters_them(cli: Cli, todomvc: StaticSite, tmp_path: Path) -> None:
    assert cli("open", todomvc.base + "/index.html").code == 0
    for text in ("one", "two", "three"):
        assert cli("fill", "id=new-todo", text).code == 0
        assert cli("press", "enter").code == 0
    view = cli("snapshot", "-i").out
    # each row's checkbox is named by its row: the -i view lists the todos as the checkboxes that complete them
    checkboxes = [line.split() for line in view.splitlines() if " CheckBox " in line and "Mark all" not in line]
    assert [words[2] for words in checkboxes] == ['"one"', '"two"', '"three"'], view
    toggles = [words[0] for words in checkboxes]
    assert cli("tap", toggles[0]).code == 0  # completes "one"
    assert cli("tap", "Completed").code == 0
    done = cli("snapshot").out
    assert '"one"' in done
    assert '"two"' not in done
    assert cli("screenshot", str(tmp_path / "completed.png")).code == 0
    assert (tmp_path / "completed.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert cli("daemon", "stop").code == 0


def test_the_item_count_is_one_line(phone: phonewire.Phone, todomvc: StaticSite) -> None:
    phone.open(todomvc.base + "/index.html")
    wait_for(phone, lambda nodes: any(n.get("identifier") == "new-todo" for n in nodes))
    add(phone, "one")
    view = phone.snapshot().text
    assert 'StaticText "1 item left"' in view, view  # today: StaticText "1", then StaticText "item left"


#: TodoMVC shows a row's delete button only under a hovering mouse, which taps on a touch phone never produce.
#: The tests serve its page with one more CSS rule that shows the buttons the way a touch layout does: on every
#: row ("all"), or on the first row only ("first", where a hovering pointer would sit after a tap on the first
#: row: when that row goes, the next one slides under it and shows its own button, a twin of the old one).
SHOW_DELETE = {
    "all": "#todo-list li .destroy { display: block; }",
    "first": "#todo-list li:first-child .destroy { display: block; }",
}


class TouchTodoHandler(QuietFiles):
    """TodoMVC's files, and /touch-all.html, /touch-first.html: its page with a SHOW_DELETE rule."""

    def do_GET(self) -> None:
        name = self.path.split("?")[0].lstrip("/")
        shown = {f"touch-{k}.html": rule for k, rule in SHOW_DELETE.items()}.get(name)
        if shown is None:
            super().do_GET()
            return
        page = (TODOMVC_DIR / "index.html").read_text().replace("</head>", f"<style>{shown}</style></head>", 1)
        body = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def touch_todomvc(todomvc: StaticSite) -> Iterator[str]:
    """The base URL of TodoMVC served with TouchTodoHandler (``todomvc`` skips when it is not installed)."""
    with serving(TODOMVC_DIR, TouchTodoHandler, "touch-todomvc") as base:
        yield base.rstrip("/")


def start(phone: phonewire.Phone, url: str) -> dict[str, dict[str, Any]]:
    """Open ``url`` with three todos; the snapshot's refs."""
    phone.open(url)
    wait_for(phone, lambda nodes: any(n.get("identifier") == "new-todo" for n in nodes))
    for text in ("buy milk", "walk dog", "write report"):
        add(phone, text)
    return dict(phone.snapshot().refs)


def deletes(refs: dict[str, dict[str, Any]]) -> list[str]:
    """The refs of the delete buttons (no text of their own: named by the "✖" their CSS draws), top to bottom."""
    found = [(n["rect"]["y"], r) for r, n in refs.items() if n["type"] == "Button" and n.get("label") == "✖"]
    return [r for _, r in sorted(found)]


def test_an_old_ref_of_a_deleted_rows_button_never_deletes_the_row_that_took_its_place(
    phone: phonewire.Phone, touch_todomvc: str
) -> None:
    # The finding behind issue 10 item 5: @e57, the delete button of one row, later deleted another row.
    [first] = deletes(start(phone, touch_todomvc + "/touch-first.html"))
    phone.tap("@" + first)
    assert rows(phone) == ["walk dog", "write report"]
    assert len(deletes(phone.snapshot().refs)) == 1  # "walk dog" now shows a delete button where the old one was
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap("@" + first)
    assert info.value.code == e.STALE_REF
    assert rows(phone) == ["walk dog", "write report"]


def test_the_old_ref_of_the_second_rows_delete_button_deletes_that_row_or_is_stale(
    phone: phonewire.Phone, touch_todomvc: str
) -> None:
    refs = start(phone, touch_todomvc + "/touch-all.html")
    first, second, _third = deletes(refs)
    walk_toggle = next(r for r, n in refs.items() if n["type"] == "CheckBox" and n.get("label") == "walk dog")
    phone.tap("@" + first)
    assert rows(phone) == ["walk dog", "write report"]
    # TodoMVC redraws its list: the old refs name elements that are gone (STALE_REF), or, were they kept, the
    # "walk dog" row's own — never another row's.
    try:
        phone.tap("@" + walk_toggle)
        assert items_left(phone.snapshot().nodes) == 1  # "walk dog" completed, "write report" not
    except phonewire.ProtocolError as exc:
        assert exc.code == e.STALE_REF
        assert items_left(phone.snapshot().nodes) == 2
    try:
        phone.tap("@" + second)
        assert rows(phone) == ["write report"]
    except phonewire.ProtocolError as exc:
        assert exc.code == e.STALE_REF
        assert rows(phone) == ["walk dog", "write report"]


def test_a_tap_on_a_rows_text_hovers_it_and_its_delete_button_deletes_exactly_that_todo(
    phone: phonewire.Phone, todomvc: StaticSite
) -> None:
    # TodoMVC's own page: its delete button shows on :hover only.  On a phone a tap leaves the row hovered.
    assert deletes(start(phone, todomvc.base + "/index.html")) == []
    phone.tap('"walk dog"')
    [button] = deletes(phone.snapshot().refs)  # the tapped row's, the only one shown
    phone.tap("@" + button)
    assert rows(phone) == ["buy milk", "write report"]
