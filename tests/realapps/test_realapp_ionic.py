"""Ionic (npm ``@ionic/core`` 9, its dist bundle, iOS look) driven through the CLI only, without coordinates of our
own (issue 23): tabs, the search bar's clear button over a list, a toast, a dialog with its backdrop, a bottom sheet
swiped to full height (the swipe's points are the sheet's own handle, read from the view), and a view without names
made of class, ``part`` or tag words.  One phone for the module (tests/realapps/ionic/index.html)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from realapps_env import Cli, StaticSite

#: Words of Ionic's classes, parts and tags (and Stencil's): a name made only of them is styling, not what a person
#: reads ("ios hydrated" on every backdrop and reorder handle, "native inner" in every ion-button, "sc alert ios",
#: "toggle inner").
CLASS_WORDS = frozenset(
    ("ios", "md", "hydrated", "native", "inner", "sc", "alert", "toggle", "track", "handle", "item", "button",
     "icon", "ion", "wrapper", "container", "bg", "lbl", "toolbar", "background", "content", "label",
     "interactive", "activated", "focusable", "in", "has", "overlay", "hidden")
)  # fmt: skip


def class_word_names(view: str) -> list[str]:
    """The view lines whose name is made of CLASS_WORDS only."""
    out = []
    for line in view.splitlines():
        found = re.search(r'^\s*@e\d+ \S+ "([^"]+)"', line)
        if found and set(found.group(1).lower().replace("-", " ").split()) <= CLASS_WORDS:
            out.append(line.strip())
    return out


@pytest.fixture(scope="module")
def pw(ionic: StaticSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    """One phone for the module, showing the Ionic page (its web components defined: the search field shows)."""
    c = Cli(tmp_path_factory.mktemp("ionic-cli"))
    try:
        assert c("open", ionic.base + "/ionic/index.html").code == 0
        assert c("wait", "role=SearchField").code == 0
        yield c
    finally:
        c.close()


def act(pw: Cli, *argv: str) -> dict[str, Any]:
    """An action's --json reply data (changed, diff)."""
    done = pw("--json", *argv)
    assert done.code == 0, (argv, done.out, done.err)
    data: dict[str, Any] = done.json()["data"]
    return data


def now(line: str) -> str:
    """A diff line without what it was before (``(was: …)``)."""
    return line.split("  (was:", 1)[0]


def test_a_tab_has_no_name_made_of_class_words(pw: Cli) -> None:
    for tab in ("Fruit", "Controls"):
        assert pw("tap", f'role=Tab label="{tab}"').code == 0
        view = pw("snapshot", "-i").out
        assert f'Tab "{tab}" [selected]' in view, view
        assert class_word_names(view) == [], view
        # each tab is one line, not three (Ionic's host, its inner button, the tab); each button one, not two
        assert len([ln for ln in view.splitlines() if f'"{tab}"' in ln]) == 1, view
    assert len([ln for ln in view.splitlines() if '"Show toast"' in ln]) == 1, view


def test_the_search_bars_clear_button_changes_the_list_back_to_six_rows(pw: Cli) -> None:
    assert pw("tap", 'role=Tab label="Fruit"').code == 0
    filled = act(pw, "fill", "role=SearchField", "ban")
    assert filled["changed"] is True
    assert any('StaticText "1 row"' in line for line in filled["diff"]), filled
    cleared = act(pw, "tap", 'role=Button label="reset"')  # Ionic's own name for its clear button
    assert cleared["changed"] is True, cleared
    assert any('StaticText "6 rows"' in now(line) for line in cleared["diff"]), cleared
    view = pw("snapshot", "-i").out
    assert [ln.split('"')[1] for ln in view.splitlines() if " StaticText " in ln] == [
        "Apple", "Banana", "Cherry", "Date", "Elderberry", "Fig"], view  # fmt: skip


def test_the_toast_is_in_the_taps_reply(pw: Cli) -> None:
    assert pw("tap", 'role=Tab label="Controls"').code == 0
    shown = act(pw, "tap", '"Show toast"')
    assert any(line.startswith("+ ") and 'Alert "Saved to your list"' in line for line in shown["diff"]), shown["diff"]


def test_after_closing_the_dialog_the_reply_has_no_backdrop_and_nothing_covered(pw: Cli) -> None:
    assert pw("tap", 'role=Tab label="Controls"').code == 0
    opened = act(pw, "tap", '"Open dialog"')
    assert any('"Dialog body text"' in line for line in opened["diff"]), opened
    assert any("covered" in now(line) for line in opened["diff"]), opened  # the dialog's backdrop covers the page
    closed = act(pw, "tap", 'role=Button label="Close"')
    assert closed["changed"] is True
    after = [now(line) for line in closed["diff"]]
    assert '- StaticText "Dialog body text"' in after, (opened["diff"], closed["diff"])
    still = [line for line in after if ("covered" in line or "ackdrop" in line) and not line.startswith("- ")]
    assert [line for line in still if " elements no longer [covered]: " not in line] == [], closed
    # the tab's own buttons are no longer covered in the view the reply left
    view = pw("snapshot").out
    assert re.search(r'Button "Open dialog"( \[focused\])?$', view, re.M), view


def test_the_swipe_that_expands_the_bottom_sheet_answers_changed(pw: Cli) -> None:
    assert pw("tap", 'role=Tab label="Controls"').code == 0
    opened = act(pw, "tap", '"Open sheet"')
    assert any('Heading "Sheet heading"' in line for line in opened["diff"]), opened
    nodes = json.loads(pw("--json", "snapshot", "-i").out)["data"]["nodes"]
    [handle] = [n for n in nodes if str(n.get("label", "")).startswith("Activate to adjust the size")]
    [heading] = [n for n in nodes if n.get("label") == "Sheet heading"]
    x = handle["rect"]["x"] + handle["rect"]["width"] / 2
    y = handle["rect"]["y"] + handle["rect"]["height"] / 2
    swiped = act(pw, "swipe", f"{x:g}", f"{y + 20:g}", f"{x:g}", "60", "--duration", "400")
    assert swiped["changed"] is True, swiped
    moved = [line for line in swiped["diff"] if 'Heading "Sheet heading"' in line]
    assert len(moved) == 1, swiped["diff"]
    found = re.search(r"moved: y [\d.]+ → ([\d.]+)", moved[0])
    assert found is not None, moved
    top = float(found.group(1))
    assert top < heading["rect"]["y"] / 2, swiped  # the sheet went up to (about) the top of the screen
    assert pw("press", "back").code == 0
