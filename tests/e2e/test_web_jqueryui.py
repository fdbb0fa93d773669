"""jQuery UI's widgets as a new user met them (issue 23), on jQuery UI 1.12.1 as the MiniWoB++ wheel ships it
(``bench/bench_miniwob.py``'s ``ensure_html``), served with our page ``tests/e2e/jqueryui/widgets.html``:

* a selectmenu's box keeps its ref while it comes to show the chosen option (it was @e10 → @e100: refs were kept
  by name, not by the element);
* the open menu marks the chosen option ``[selected]`` (jQuery UI says it by the list's aria-activedescendant);
* an inline datepicker lists each day once (a Cell "15" around a Link "15" was two lines).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import phonewire
from loopback import QuietFiles, serve

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_miniwob as wob  # noqa: E402

pytestmark = [pytest.mark.e2e, pytest.mark.realapp]
PAGES = Path(__file__).resolve().parent / "jqueryui"


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    html = wob.ensure_html()

    class Files(QuietFiles):
        """Our pages, and the MiniWoB++ wheel's html/ under /wob/."""

        def translate_path(self, path: str) -> str:
            path = path.split("?", 1)[0]
            if path.startswith("/wob/"):
                return str(html / path[len("/wob/") :])
            return str(PAGES / path.lstrip("/"))

    with serve(Files, "jqueryui-site") as base:
        yield base


@pytest.fixture
def phone(shared_phone: phonewire.Phone, site: str) -> phonewire.Phone:
    shared_phone.open(site + "/widgets.html")
    return shared_phone


def ref_of(view: phonewire.View, identifier: str) -> str:
    return next(r for r, n in view.refs.items() if n.get("identifier") == identifier)


def test_a_selectmenu_keeps_its_ref_while_it_shows_the_chosen_option(phone: phonewire.Phone) -> None:
    view = phone.snapshot(interactive=True)
    box = ref_of(view, "speed-button")
    opened = phone.tap("@" + box).data
    assert any(line.startswith(f"~ @{box} ComboBox") for line in opened["diff"]), opened["diff"]
    menu = phone.snapshot(interactive=True)
    assert ref_of(menu, "speed-button") == box
    # the chosen option is marked, the others not
    chosen = [line for line in menu.text.splitlines() if "[selected]" in line and "Cell" in line]
    assert len(chosen) == 1 and '"Medium"' in chosen[0], menu.text
    picked = phone.tap('"Fast"').data
    assert any(line.startswith(f'~ @{box} ComboBox "Fast"') for line in picked["diff"]), picked["diff"]
    after = phone.snapshot(interactive=True)
    assert ref_of(after, "speed-button") == box
    chosen_text = next(n for n in after.nodes if n.get("identifier") == "chosen")
    assert chosen_text["label"] == "Fast"  # the page's own change handler saw the choice


def test_a_datepicker_lists_each_day_once(phone: phonewire.Phone) -> None:
    for interactive in (False, True):
        lines = phone.snapshot(interactive=interactive).text.splitlines()
        fifteen = [line for line in lines if line.strip().split(" ", 1)[-1].startswith(('Link "15"', 'Other "15"'))]
        assert len(fifteen) == 1 and 'Link "15"' in fifteen[0], (interactive, fifteen)
    phone.tap('Link "20"')
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "picked")["label"] == "01/20/2026"
