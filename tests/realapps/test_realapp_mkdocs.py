"""mkdocs-material 9.8 (a two-page site it builds) driven through the CLI only, without coordinates (issue 23): the
palette toggle reads the label a person sees and switches the scheme, the header's menu and search icons are named
as a person would, the page under the full-screen search is not listed, and a code block's copy button shows its
"Copied to clipboard" toast in the tap's reply.  One phone for the module."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from realapps_env import Cli, StaticSite


@pytest.fixture(scope="module")
def pw(mkdocs_site: StaticSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    c = Cli(tmp_path_factory.mktemp("mkdocs-cli"))
    try:
        assert c("open", mkdocs_site.base + "/index.html").code == 0
        assert c("wait", 'role=Heading label="Welcome"').code == 0
        yield c
    finally:
        c.close()


def act(pw: Cli, *argv: str) -> dict[str, Any]:
    done = pw("--json", *argv)
    assert done.code == 0, (argv, done.out, done.err)
    data: dict[str, Any] = done.json()["data"]
    return data


def test_the_header_icons_are_named_as_a_person_would(pw: Cli) -> None:
    view = pw("snapshot", "-i").out
    assert 'CheckBox "menu"' in view, view  # the hamburger (its hidden input says only data-md-toggle="drawer")
    assert 'CheckBox "search"' in view, view
    assert "drawer" not in view, view


def test_the_palette_toggle_reads_the_label_shown_and_switches(pw: Cli) -> None:
    assert 'RadioButton "Switch to dark mode"' in pw("snapshot", "-i").out  # light mode: a tap goes dark
    switched = act(pw, "tap", '"Switch to dark mode"')
    assert any('RadioButton "Switch to light mode"' in line for line in switched["diff"]), switched
    assert "Switch to dark mode" not in pw("snapshot", "-i").out
    assert act(pw, "tap", '"Switch to light mode"')["changed"] is True


def test_the_copy_buttons_toast_is_in_the_taps_reply(pw: Cli) -> None:
    copied = act(pw, "tap", 'role=Button label="Copy to clipboard"')
    assert any(line.startswith("+ ") and '"Copied to clipboard"' in line for line in copied["diff"]), copied


def test_the_page_under_the_search_overlay_is_not_listed(pw: Cli) -> None:
    opened = act(pw, "tap", 'role=CheckBox label="search"')
    # (a "+" line says its states as they are; a "~" line marks the one it gained: [+focused])
    assert any(re.search(r'TextField "Search" \[\+?focused\]', line) for line in opened["diff"]), opened
    view = pw("snapshot", "-i").out
    assert 'TextField "Search"' in view, view
    for under in ('"Welcome"', '"Usage"', '"Copy to clipboard"', '"Install the tool, then run it."'):
        assert under not in view, view
    first = pw("press", "back")  # the search field has focus: the first back lowers the keyboard, as on a phone
    assert first.code == 0 and "Keyboard" in first.out, first
    assert pw("press", "back").code == 0
    assert 'Heading "Welcome"' in pw("snapshot", "-i").out
