"""The view names what a person sees (issue 23, the findings on names and states), on real Chromium: each case of
pages/truth.html is one library's markup as the finding saw it; each assertion failed before its fix."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_phone import Phone, requires_chromium

from loopback import serving

pytestmark = requires_chromium

PAGES = Path(__file__).resolve().parent / "pages"


@pytest.fixture(scope="module")
def truth(phone: Phone) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with serving(PAGES) as base:
        app = base + "truth.html"
        phone.run(phone.device.launch_app(app))
        try:
            yield app, phone.snapshot(app)["nodes"]
        finally:
            phone.run(phone.device.terminate_app(app))


def page_nodes(phone: Phone, name: str) -> list[dict[str, Any]]:
    """The view's nodes of pages/NAME, launched for this and closed after."""
    with serving(PAGES) as base:
        app = base + name
        phone.run(phone.device.launch_app(app))
        try:
            nodes: list[dict[str, Any]] = phone.snapshot(app)["nodes"]
        finally:
            phone.run(phone.device.terminate_app(app))
    return nodes


def by_id(nodes: list[dict[str, Any]], ident: str) -> dict[str, Any]:
    found = [n for n in nodes if n["identifier"] == ident]
    assert len(found) == 1, (ident, found)
    return found[0]


def test_names_made_of_class_part_or_tag_words_go(truth: tuple[str, list[dict[str, Any]]]) -> None:
    _, nodes = truth
    labels = {n["label"] for n in nodes}
    for noise in ("ios hydrated", "native inner", "sc alert ios", "alert button group", "lm widget jp", "rect"):
        assert noise not in labels
    # the reorder handle is still a button a person taps, shown unnamed; the backdrop is no button at all
    assert by_id(nodes, "reorder")["type"] == "Button" and by_id(nodes, "reorder")["label"] is None
    assert [n for n in nodes if n["identifier"] == "backdrop" and n["type"] == "Button"] == []
    # a painted shape is still named by its kind (MiniWoB's "click the circle")
    assert any(n["type"] == "Button" and n["label"] == "circle" for n in nodes)


def test_a_css_image_is_no_name(truth: tuple[str, list[dict[str, Any]]]) -> None:
    _, nodes = truth
    lettuce = by_id(nodes, "lettuce")
    assert (lettuce["type"], lettuce["label"]) == ("CheckBox", "Lettuce")


def test_mkdocs_palette_toggle_reads_what_its_shown_label_says(truth: tuple[str, list[dict[str, Any]]]) -> None:
    _, nodes = truth
    toggles = [n for n in nodes if n["type"] == "RadioButton"]
    assert [(n["label"], n["value"]) for n in toggles] == [("Switch to dark mode", "0")]
    assert toggles[0]["rules"] == ["drawn-toggle"]
    # its header's menu icon, a label drawing a hidden checkbox, says what it opens
    menu = [n for n in nodes if n["type"] == "CheckBox" and n["label"] == "menu"]
    assert len(menu) == 1 and menu[0]["rules"] == ["drawn-toggle", "mkdocs-toggle"]


def test_states_a_person_sees(truth: tuple[str, list[dict[str, Any]]]) -> None:
    _, nodes = truth
    assert by_id(nodes, "bold")["selected"] is True and by_id(nodes, "italic")["selected"] is False
    assert by_id(nodes, "small")["selected"] is True and by_id(nodes, "large")["selected"] is False
    assert by_id(nodes, "city")["value"] == "ascending" and by_id(nodes, "country")["value"] is None
    size = by_id(nodes, "size")
    assert (size["type"], size["label"], size["value"]) == ("ComboBox", "Size", "Large")
    assert by_id(nodes, "tab-two")["selected"] is True and by_id(nodes, "tab-one")["selected"] is False
    assert "selected-by-class" in by_id(nodes, "tab-two")["rules"]


def test_a_tables_cells_are_lines_of_their_own_not_one_row(truth: tuple[str, list[dict[str, Any]]]) -> None:
    """Dash's DataTable read each row as one Cell ("Tokyo Japan 37"): a row named by its cells swallowed them."""
    _, nodes = truth
    labels = [n["label"] for n in nodes]
    assert "Tokyo" in labels and "Japan" in labels and "Tokyo Japan" not in labels


def test_shadow_root_text_and_slots_read_in_order(truth: tuple[str, list[dict[str, Any]]]) -> None:
    _, nodes = truth
    texts = [n["label"] for n in nodes if n["type"] == "StaticText"]
    assert "foo slotted bar" in texts and "foo default bar" in texts


def test_a_value_keeps_its_whitespace_in_json(truth: tuple[str, list[dict[str, Any]]]) -> None:
    _, nodes = truth
    assert by_id(nodes, "vitae")["value"] == "vitae purus "


def test_a_node_says_which_rules_shaped_it(truth: tuple[str, list[dict[str, Any]]]) -> None:
    _, nodes = truth
    assert by_id(nodes, "reorder")["rules"] == ["clickable"]
    assert "rules" not in by_id(nodes, "bold")


def test_what_fills_the_screen_is_no_button_whatever_listens_on_it(phone: Phone) -> None:
    # Ionic's bottom sheet at full height read as Button "Sheet heading Sheet body" (its <ion-content> listens)
    nodes = page_nodes(phone, "surface.html")
    assert [n for n in nodes if n["type"] == "Button" and "Sheet heading" in str(n["label"])] == []
    assert by_id(nodes, "heading")["type"] == "Heading"
    assert by_id(nodes, "tile")["type"] == "Button"  # a small element with a listener is still a button


def test_a_host_drawing_its_button_in_its_shadow_root_is_one_button(phone: Phone) -> None:
    # Ionic's <ion-button>: the host (with a listener) and its native button read as Button "Show toast" twice
    nodes = page_nodes(phone, "shadow_button.html")
    assert [n["label"] for n in nodes if n["type"] == "Button"] == ["Save"]


def test_an_editors_toolbar_is_named_by_what_its_buttons_do_and_its_swatches_by_colour(phone: Phone) -> None:
    """MiniWoB's text-editor (issue 24): Quill's toolbar read as seven unnamed Buttons, its 35 swatches as more; a
    person tells them apart by their icons and colours.  The pressed one (ql-active) is selected."""
    nodes = page_nodes(phone, "swatch.html")
    named = {n["identifier"]: n for n in nodes if n["identifier"]}
    assert [(named[i]["label"], named[i]["selected"]) for i in ("bold", "italic", "underline")] == [
        ("bold", True), ("italic", False), ("underline", False)]  # fmt: skip
    assert named["colour"]["label"] == "color"
    swatches = [n["label"] for n in nodes if n["type"] == "Button" and n["label"] and "#" in n["label"]]
    assert swatches == ["red #e60000", "light red #facccc", "blue #0066cc", "green #008a00", "purple #9933ff",
                        "yellow #ffff00", "orange #ff9900", "black #000000"]  # fmt: skip
    assert "swatch" in next(n for n in nodes if n["label"] == "red #e60000")["rules"]
    assert named["plain"]["type"] == "Button" and named["plain"]["label"] is None


def test_a_bare_item_that_opens_a_popup_is_a_menu_item_and_a_cards_logo_does_not_repeat_its_label(
    phone: Phone,
) -> None:
    """JupyterLab 4.6 (issue 24): File > New and Open Recent, Lumino's submenu items without a role, read as text
    (Cell "New"), the launcher's cards as Button "Python 3 (ipykernel) Python 3 (ipykernel)", a dialog's header
    (a React root) as a second Button "Rename File"."""
    nodes = page_nodes(phone, "popup_item.html")
    named = {n["identifier"]: n for n in nodes if n["identifier"]}
    assert [(named[i]["type"], named[i]["label"]) for i in ("new", "launcher", "recent", "share")] == [
        ("MenuItem", "New"), ("MenuItem", "New Launcher Ctrl+Shift+L"), ("MenuItem", "Open Recent"),
        ("Button", "Share")]  # fmt: skip
    assert named["recent"]["enabled"] is False
    assert "popup-item" in named["new"]["rules"]
    assert "inert" not in named or named["inert"]["type"] not in ("MenuItem", "Button")
    assert (named["card"]["type"], named["card"]["label"]) == ("Button", "Python 3 (ipykernel)")
    assert "image-echo" in named["card"]["rules"]
    assert named["twice"]["label"] == "Bora Bora"
    # a React root's listeners are its tree's: its own text is no button (JupyterLab's dialog header)
    assert [n["type"] for n in nodes if n["label"] == "Rename File"] == ["StaticText"]
    # React's empty onclick says nothing (Dash's html.Div with an id); one that looks tappable, or does something, is
    assert [named[i]["type"] for i in ("output", "real", "handled")] == ["Other", "Button", "Button"]


def test_dash_tabs_are_tabs_a_columns_sort_arrow_says_its_column_and_a_charts_drag_layer_is_no_button(
    phone: Phone,
) -> None:
    """Dash 4.4 (issue 23): dcc.Tabs read as Buttons, a DataTable's sort arrows as Button "sort" three times, and a
    plotly chart's eleven transparent drag rects as unnamed Buttons."""
    nodes = page_nodes(phone, "dash_parts.html")
    named = {n["identifier"]: n for n in nodes if n["identifier"]}
    assert [(named[i]["type"], named[i]["label"], named[i]["selected"]) for i in ("pick", "table")] == [
        ("Tab", "Pick", True), ("Tab", "Table", False)]  # fmt: skip
    assert named["lonely"]["type"] == "Button"  # one of its kind is no tab
    assert [named[i]["label"] for i in ("sort-city", "sort-country")] == ["sort City", "sort Country"]
    assert "column-action" in named["sort-city"]["rules"]
    # the filter row's fields, named by one placeholder, are told apart by their columns; a labelled one keeps it
    assert [named[i]["label"] for i in ("filter-city", "filter-country", "labelled-cell", "param")] == [
        "filter data... City",
        "filter data... Country",
        "Tokyo note",
        "petId",
    ]  # fmt: skip (a row that says it)
    assert "drag" not in named or named["drag"]["type"] != "Button"
    assert named["dot"]["type"] == "Button"  # a painted shape that takes clicks still is one
