"""TodoMVC's vanilla-JS example from the npm package `todomvc@0.1.1`, driven through the Python API and the CLI."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from helpers_realapps import wait_for
from realapps_env import Cli, StaticSite

import phonewire


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

    # complete "walk dog": the row's checkbox is its text's row mate (it has no name of its own)
    view = phone.snapshot(interactive=True)
    lines = view.text.splitlines()
    walk = next(i for i, line in enumerate(lines) if '"walk dog"' in line)
    toggle = re.match(r"\s*(@e\d+) CheckBox", lines[walk - 1])
    assert toggle, lines[walk - 1]
    phone.tap(toggle.group(1))
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
    assert [line.split('"')[1] for line in view.splitlines() if "StaticText" in line][:3] == ["one", "two", "three"]
    toggles = [line.split()[0] for line in view.splitlines() if "CheckBox value=" in line]
    assert len(toggles) == 3
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
