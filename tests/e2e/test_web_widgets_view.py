"""Widgets the MiniWoB++ benchmark found missing from the agent view (issue 14), each on a small page of its own
against the real runner and real Chromium: SVG shapes with click handlers, a slider drawn without ARIA (jQuery
UI's handle), a spinner's arrows hidden from assistive technology, a multi-select's list box in ``-i``, and long
runs of same-role siblings summarised (``--all`` lists them) with wrappers that carry only an id left out, a long
instruction printed whole, and ``fill`` on a read-only field refused with that reason."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import phonewire
from loopback import serving

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium")]

PAGES = Path(__file__).resolve().parent / "widgets"


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(PAGES) as base:
        yield base


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone


def lines(view: phonewire.View) -> list[str]:
    """The view's lines without their refs."""
    return [
        line.strip().split(" ", 1)[1] if line.strip().startswith("@") else line.strip()
        for line in view.text.splitlines()
    ]


def test_svg_shapes_with_click_handlers_are_buttons_named_by_title_id_text_or_kind(
    phone: phonewire.Phone, site: str
) -> None:
    phone.open(site + "shapes.html")
    view = phone.snapshot(interactive=True)
    shapes = {n["label"]: f"@{r}" for r, n in view.refs.items() if n.get("type") == "Button"}
    assert set(shapes) == {"circle", "box", "Warning sign", "T"}
    phone.tap(shapes["circle"])
    after = phone.snapshot()
    assert next(n for n in after.nodes if n.get("identifier") == "count")["label"] == "1"  # exactly one click
    phone.tap(shapes["Warning sign"])
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "count")["label"] == "2"


def test_svg_links_are_links_named_by_their_title_or_unnamed_and_a_tap_follows_them(
    phone: phonewire.Phone, site: str
) -> None:
    """A chart's bars as SVG ``<a href>`` (Fava's): they were ``Button "a"`` (the tag as the name, a word nowhere on
    screen); SVG-AAM makes such an ``a`` a link, named by its content (a ``<title>``) or not at all."""
    phone.open(site + "shapes.html")
    view = phone.snapshot()
    links = [(n.get("label"), r) for r, n in view.refs.items() if n.get("type") == "Link"]
    assert [label for label, _ in links] == ["Expenses:Rent", None], view.text
    assert not [n for n in view.refs.values() if n.get("label") == "a"], view.text
    phone.tap("@" + links[1][1])
    went = next(n for n in phone.snapshot().refs.values() if n.get("identifier") == "went")
    assert went.get("label") == "#food"


def test_a_button_laid_out_as_display_contents_is_tapped_where_its_content_shows(
    phone: phonewire.Phone, site: str
) -> None:
    """Fava's chart legend: a ``<button>`` with ``display: contents`` has no box of its own, so a tap on its ref said
    "has no place on the screen to touch" while its text showed.  Its content's box is its place: the tap toggles
    exactly that entry (the page's own handler), not the one beside it."""
    phone.open(site + "contents.html")
    view = phone.snapshot()
    usd = next(r for r, n in view.refs.items() if n.get("type") == "Button" and n.get("identifier") == "usd")
    assert view.refs[usd]["rect"]["width"] > 0, view.refs[usd]
    phone.tap("@" + usd)
    shown = next(n for n in phone.snapshot().refs.values() if n.get("identifier") == "shown")
    assert shown.get("label") == "EUR"


def test_a_route_change_in_place_answers_the_new_pages_view_once(phone: phonewire.Phone, site: str) -> None:
    """A single-page app's link to another route (Fava's Journal): the document stays, its title and most of its
    lines change.  The tap's reply was every old line ``-`` and every new one ``+`` (117 lines, 4 kB); it is the
    new page's view under its own header when that is shorter, and the link that stayed keeps its ref."""
    phone.open(site + "spa.html")
    link = next(r for r, n in phone.snapshot().refs.items() if n.get("identifier") == "go")
    result = phone.tap("@" + link)
    diff = result.diff or []
    assert diff[0] == "# another page, the same document (the one before is gone):", diff
    assert any('Heading "Journal - Ledger"' in line for line in diff), diff
    assert not [line for line in diff if "Income" in line], diff
    assert any(line.startswith(f"@{link} Link") for line in diff), diff  # the link kept its ref


def test_an_inline_element_kept_apart_by_a_margin_reads_apart(phone: phonewire.Phone, site: str) -> None:
    """Fava's heading draws "Trial Ledger › Journal" with a margin around the ›, in markup without spaces: the name
    read "Trial Ledger› Journal".  A margin or padding that keeps an inline element apart on screen sets it apart;
    an inline element without one joins the text around it (WPT's rule)."""
    phone.open(site + "gap.html")
    labels = {n.get("identifier") or n.get("type"): n.get("label") for n in phone.snapshot().refs.values()}
    assert labels["Heading"] == "Trial Ledger › Journal"
    assert (labels["p1"], labels["p2"], labels["Button"]) == ("Total 42", "abc", "Save | Close")


def test_a_slider_handle_without_aria_is_a_slider_with_its_value(phone: phonewire.Phone, site: str) -> None:
    phone.open(site + "controls.html")
    sliders = [n for n in phone.snapshot(interactive=True).refs.values() if n.get("type") == "Slider"]
    # the widget's own value where the page's jQuery UI instance answers it, else the place along the track
    assert [s.get("value") for s in sliders] == ["40%", "7"]


def test_spinner_arrows_hidden_from_assistive_technology_are_buttons_a_tap_reaches(
    phone: phonewire.Phone, site: str
) -> None:
    phone.open(site + "controls.html")
    view = phone.snapshot(interactive=True)
    arrows = {n["label"]: f"@{r}" for r, n in view.refs.items() if n.get("identifier") in ("up", "down")}
    assert set(arrows) == {"▲", "▼"}
    phone.tap(arrows["▲"])
    qty = next(n for n in phone.snapshot().nodes if n.get("identifier") == "qty")
    assert qty["value"] == "4"  # 3 + exactly one
    phone.tap(arrows["▼"])  # role=button, its click handled by the wrapper
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "qty")["value"] == "3"


def test_a_multi_select_is_a_list_in_the_interactive_view_with_its_visible_options(
    phone: phonewire.Phone, site: str
) -> None:
    phone.open(site + "controls.html")
    view = phone.snapshot(interactive=True)
    shown = lines(view)
    at = next(i for i, s in enumerate(shown) if s.startswith("List id=names"))
    block = shown[at + 1 : at + 8]
    assert block[:4] == ['Cell "Dannie"', 'Cell "Corinne"', 'Cell "Lizabeth" [selected]', 'Cell "Carlynne"']
    cells = [s for s in block if s.startswith("Cell ")]
    more = block[len(cells)]  # the options scrolled out of the box: one line, so the agent knows the list goes on
    assert more == f'StaticText "… {6 - len(cells)} more option{"s" if 6 - len(cells) > 1 else ""}"'
    listbox = next(f"@{r}" for r, n in view.refs.items() if n.get("identifier") == "names")
    phone.select(listbox, ["Dari"])
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "picked")["label"] == "Dari"


def test_a_long_run_of_same_role_siblings_is_summarised_and_all_lists_it(phone: phonewire.Phone, site: str) -> None:
    phone.open(site + "gallery.html")
    view = phone.snapshot()
    shown = lines(view)
    images = [s for s in shown if s.startswith("Image ")]
    assert images == ['Image "photo 1"', 'Image "photo 2"', 'Image "photo 3"']
    assert shown[shown.index('Image "photo 3"') + 1] == "… 27 more Image"
    assert len([s for s in shown if s.startswith("Button ")]) == 25  # interactive elements are never summarised
    assert not any("id=wrap" in s or "id=photos" in s for s in shown)  # wrappers with only an id: no line
    everything = lines(phone.snapshot(all=True))
    assert len([s for s in everything if s.startswith("Image ")]) == 30
    assert "Other id=wrap" in everything and not any(s.startswith("…") for s in everything)
    # the summarised images are still on the screen for selectors
    assert phone.tap('label="photo 20"').data["target"]["label"] == "photo 20"


def test_menu_entries_with_click_handlers_are_named_by_their_text_and_their_opener_is_no_button_around_them(
    phone: phonewire.Phone, site: str
) -> None:
    phone.open(site + "menu.html")
    phone.tap("id=more")
    view = phone.snapshot(interactive=True)
    entries = {n["label"]: f"@{r}" for r, n in view.refs.items() if n.get("type") == "Cell"}
    assert set(entries) == {"Share via DM", "Mute @joye", "Report"}
    # the pointer-cursor wrapper of the icon and its menu delegates to them: it is no button named by the whole menu
    assert [n.get("identifier") for n in view.refs.values() if n.get("type") == "Button"] == ["more"]
    phone.tap(entries["Mute @joye"])
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "chosen")["label"] == "Mute @joye"


def test_a_name_from_content_leaves_out_parts_that_are_not_rendered(phone: phonewire.Phone, site: str) -> None:
    """Django admin's theme toggle holds one label per theme and shows only the current one (the others are
    ``display: none``): the name is the shown one, and follows the theme; a visually hidden label (clipped to 1 px,
    meant for screen readers) still names it, and ``visibility: hidden`` text does not."""
    phone.open(site + "names.html")

    def names() -> dict[str, str]:
        return {str(n["identifier"]): str(n["label"]) for n in phone.snapshot(interactive=True).refs.values()}

    assert names() == {"toggle": "Toggle theme (current theme: auto)", "save": "Save"}
    phone.tap("id=toggle")
    assert names()["toggle"] == "Toggle theme (current theme: light)"


def test_the_interactive_view_prints_a_long_instruction_whole(phone: phonewire.Phone, site: str) -> None:
    """MiniWoB's search-engine instruction (98 characters, inline markup): cut at 80 the view said "…then find and
    click the…" and not which result; a text line is now cut at 200, so the line an agent reads has it all."""
    phone.open(site + "instruction.html")
    lines = phone.snapshot(interactive=True).text.splitlines()
    task = 'Use the textbox to enter "Nathalie" and press "Search", then find and click the 3rd search result.'
    assert lines[0].split(" ", 1)[1] == "StaticText " + json.dumps(task)
    assert [line.split(" ", 1)[1] for line in lines[1:]] == ["TextField id=search-text", 'Button "Search"']


def test_fill_on_a_read_only_field_says_it_is_read_only(phone: phonewire.Phone, site: str) -> None:
    """MiniWoB's book-flight date field (``readonly``, a date picker sets it): the view marks it ``[read-only]``
    (``readOnly`` in the JSON nodes), and ``fill`` refuses it with the reason before touching it — the field never
    gets focus and stays empty; a normal one fills.  A readonly textarea and an ``aria-readonly`` text box are
    marked too; the normal field is not."""
    phone.open(site + "readonly.html")
    view = phone.snapshot()
    by_id = {n.get("identifier"): n for n in view.refs.values()}
    assert {i for i, n in by_id.items() if n.get("readOnly") is True} == {"date", "notes", "qty", "code"}
    assert "readOnly" not in by_id["name"]
    assert any(line.startswith("TextField id=date [read-only]") for line in lines(view)), view.text
    with pytest.raises(phonewire.ProtocolError) as caught:
        phone.fill("id=date", "12/24/2016")
    assert caught.value.code == "TEXT_INPUT_NOT_FOCUSED"
    assert "read-only" in str(caught.value) and "picker" in (caught.value.hint or "")
    after = {n.get("identifier"): n for n in phone.snapshot().refs.values()}
    assert after["date"].get("focused") is False and not after["date"].get("value")  # refused before any tap
    for field in ("id=notes", "id=qty"):  # a number field is refused too, not set whole behind its back
        with pytest.raises(phonewire.ProtocolError) as caught:
            phone.fill(field, "7")
        assert caught.value.code == "TEXT_INPUT_NOT_FOCUSED", field
    phone.fill("id=name", "Ada")
    values = {n.get("identifier"): n.get("value") for n in phone.snapshot().refs.values()}
    assert values.get("name") == "Ada" and not values.get("date") and values.get("notes") == "kept"
    assert values.get("qty") == "2"


def test_fill_on_a_select_is_refused_before_any_tap_with_the_select_to_use(phone: phonewire.Phone, site: str) -> None:
    """A select is a ComboBox too, but its options are chosen, not typed: ``fill`` refuses it with the ``select``
    command to use instead of tapping it open and then saying no text field has focus; the select keeps its value
    and never got focus."""
    phone.open(site + "readonly.html")
    with pytest.raises(phonewire.ProtocolError) as caught:
        phone.fill("id=country", "Peru")
    assert caught.value.code == "INVALID_REQUEST"
    assert "is a select" in str(caught.value) and 'select id=country "Peru"' in (caught.value.hint or "")
    country = next(n for n in phone.snapshot().refs.values() if n.get("identifier") == "country")
    assert (country.get("value"), country.get("focused")) == ("Japan", False)
    phone.select("id=country", ["Peru"])  # the hint's command does it
    country = next(n for n in phone.snapshot().refs.values() if n.get("identifier") == "country")
    assert country.get("value") == "Peru"


def test_a_name_borrowed_from_the_row_gives_way_to_the_words_a_person_sees(phone: phonewire.Phone, site: str) -> None:
    """TodoMVC's row: the checkbox has no name of its own and is named by its row's text (``nameFrom: "row"``, not
    printed).  A bare ``"B second"`` is the words (a tap toggles nothing, a double tap edits the todo once);
    ``role=CheckBox label="B second"`` is the checkbox (it toggles once).  A real ``<label for>`` still makes its
    text and its field one target: ``fill Email`` fills the field."""
    phone.open(site + "todorow.html")

    def counts() -> tuple[str, str]:
        nodes = {n.get("identifier"): n for n in phone.snapshot().nodes}
        return str(nodes["edits"]["label"]), str(nodes["toggles"]["label"])

    view = phone.snapshot()
    box = next(n for n in view.nodes if n.get("type") == "CheckBox" and n.get("label") == "B second")
    assert box.get("nameFrom") == "row"
    assert "nameFrom" not in next(n for n in view.nodes if n.get("identifier") == "x")
    assert 'CheckBox "B second"' in lines(view) and 'StaticText "B second" id=b' in lines(view), view.text
    assert "nameFrom" not in view.text and '"row"' not in view.text
    assert counts() == ("0", "0")
    phone.tap('"B second"')
    assert counts() == ("0", "0")  # the words: no toggle
    phone.tap("B second", count=2)
    assert counts() == ("1", "0")  # the double tap reached the words: one edit
    phone.tap('role=CheckBox label="B second"')
    assert counts() == ("1", "1")
    assert (
        next(n for n in phone.snapshot().nodes if n.get("label") == "B second" and n["type"] == "CheckBox")["value"]
        == "1"
    )
    phone.fill("Email", "a@b.c")
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "x")["value"] == "a@b.c"


def test_tree_expanders_show_their_state_and_a_tap_opens_them(phone: phonewire.Phone, site: str) -> None:
    """MiniWoB's navigate-tree (jQuery treeview: an expander <div class="hitarea expandable-hitarea">, its state in
    classes), an expander whose nested list's display tells its state, an ARIA tree and a <details>: each shows as
    what it is, with [expanded]/[collapsed]; a tap opens it, the state flips, and the page counted one toggle."""
    phone.open(site + "tree.html")

    def toggles() -> int:
        return int(str(next(n for n in phone.snapshot().nodes if n.get("identifier") == "toggles")["label"]))

    view = phone.snapshot(interactive=True)
    assert lines(view) == [
        'Button "expander" [collapsed]',  # not its class words, "hitarea expandable"
        'StaticText "Alan"',
        "Cell",
        'StaticText "Truman"',
        'Button "expander" [collapsed]',
        'StaticText "Olin"',
        'List "Docs"',
        'TreeItem "Guides" [collapsed]',
        'Button "More" [collapsed]',
    ], view.text
    assert all("Renda" not in line and "Behind" not in line for line in lines(phone.snapshot()))
    alan = view.text.splitlines()[0].split()[0]
    phone.tap(alan)
    assert toggles() == 1
    after = lines(phone.snapshot())
    assert (
        after[after.index('StaticText "Alan"') - 1] == 'Button "expander" [expanded]' and 'StaticText "Renda"' in after
    )
    assert after.count('Button "expander" [collapsed]') == 1  # Olin's, untouched
    guides = next(r for r, n in view.refs.items() if n.get("label") == "Guides")
    phone.tap("@" + guides)
    assert toggles() == 2
    tree = phone.snapshot(interactive=True)
    assert 'TreeItem "Guides" [expanded,focused]' in lines(tree) and 'TreeItem "Install"' in lines(tree)
    # the item's name is its own text, not its nested items': the ref it had still names it
    assert tree.refs[guides].get("identifier") == "guides"
    phone.tap("More")
    assert 'StaticText "Behind the summary"' in lines(phone.snapshot())
    assert next(n for n in phone.snapshot().nodes if n.get("label") == "More").get("expanded") is True
