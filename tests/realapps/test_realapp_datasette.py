"""Datasette 0.65.5 (from the Python package index) on the web phone, through the Python API and the real runner:
a table filtered with its column select, text field and Apply; the SQL editor (CodeMirror 5, an editable region
on a phone) replaced with `fill` and run; an option of a closed select tapped; the cards' field names, which the
page draws with CSS (`td:nth-of-type(3):before { content: "age" }`), read from the view
(docs/realapps-findings-2.md D1, D4, D9)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers_realapps import wait_for, wait_label
from realapps_env import Datasette

import phonewire

Node = dict[str, Any]


def ref_of(view: phonewire.View, **wanted: object) -> str:
    """The ref of the one node of ``view`` with those properties."""
    found = [r for r, n in view.refs.items() if all(n.get(k) == v for k, v in wanted.items())]
    assert len(found) == 1, (wanted, found)
    return "@" + found[0]


def card_texts(nodes: list[Node]) -> list[str]:
    """Each row's card as it reads: a row is a Cell that no longer swallows its cells' text (issue 23), so its card
    is its cells' lines (each value after its CSS-drawn column name), in order."""
    return [
        " ".join(str(c["label"]) for c in nodes if c.get("parentIndex") == n["index"] and c.get("label"))
        for n in nodes
        if n["type"] == "Cell"
    ]


def cards(nodes: list[Node]) -> list[str]:
    return [text for text in card_texts(nodes) if text.startswith("id ")]


def card_of(row: tuple[Any, ...]) -> str:
    """A row as its card reads on the phone: each value after its CSS-drawn column name."""
    names = ("id", "name", "age", "city", "email", "joined")
    return " ".join(f"{k} {v}" for k, v in zip(names, row, strict=True))


def open_table(phone: phonewire.Phone, datasette: Datasette) -> None:
    phone.open(datasette.base + "/db/people")
    wait_label(phone, "300 rows")


def test_filter_by_name_with_the_column_select_text_field_and_apply_shows_the_one_row(
    phone: phonewire.Phone, datasette: Datasette
) -> None:
    open_table(phone, datasette)
    view = phone.snapshot(interactive=True)
    column = ref_of(view, type="ComboBox", value="- column -")
    operator = ref_of(view, type="ComboBox", value="=")
    field = ref_of(view, type="TextField", label=None)
    assert phone.select(column, ["name"]).data["selected"] == ["name"]
    assert phone.select(operator, ["="]).data["selected"] == ["="]
    phone.fill(field, "Person 150")
    phone.tap("Apply")
    wait_label(phone, '1 row where name = "Person 150" sorted by id')
    (row,) = datasette.query("SELECT * FROM people WHERE name = 'Person 150'")
    assert cards(phone.snapshot().nodes) == [card_of(row)]


def test_fill_replaces_the_sql_query_and_run_sql_shows_its_rows(phone: phonewire.Phone, datasette: Datasette) -> None:
    phone.open(datasette.base + "/db")
    wait_for(phone, lambda nodes: any(n["type"] == "TextView" for n in nodes))
    editor = next(n for n in phone.snapshot().nodes if n["type"] == "TextView")
    assert editor["value"] == "select * from people"  # the editor's text, without its line number
    query = "select name, age from people where age > 85 order by id"
    result = phone.fill("role=TextView", query).data
    assert result["cleared"] == len("select * from people")
    assert next(n for n in phone.snapshot().nodes if n["type"] == "TextView")["value"] == query
    phone.tap('"Run SQL"')
    expected = datasette.query(query)
    wait_label(phone, f"Custom SQL query returning {len(expected)} rows (hide)")
    shown = card_texts(phone.snapshot().nodes)
    name, age = expected[0]
    assert shown[0] == f"name {name} age {age}"


def test_a_tap_on_a_sort_option_chooses_it_and_apply_sorts_by_it(phone: phonewire.Phone, datasette: Datasette) -> None:
    open_table(phone, datasette)
    view = phone.snapshot()  # the full view lists a closed select's options (-i counts them)
    option = ref_of(view, type="StaticText", label="Sort by name")
    result = phone.tap(option).data
    assert result["selected"] == ["Sort by name"] and result["message"].startswith('selected "Sort by name" in @')
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "sort_by")["value"] == "Sort by name"
    phone.tap("Apply")
    wait_label(phone, "300 rows sorted by name")
    first_two = datasette.query("SELECT * FROM people ORDER BY name LIMIT 2")
    shown = cards(phone.snapshot().nodes)[:2]  # Person 1, Person 10 (the second card's last lines are below the screen)
    assert shown[0] == card_of(first_two[0])
    assert [c.split(" age ")[0] for c in shown] == [card_of(r).split(" age ")[0] for r in first_two]


def test_minus_i_shows_each_closed_select_as_one_line_and_lists_none_of_its_options(
    phone: phonewire.Phone, datasette: Datasette
) -> None:
    """D10: the filter form's selects listed every column and operator as a line of its own in -i."""
    open_table(phone, datasette)
    lines = [line.split(" ", 1)[1] for line in phone.snapshot(interactive=True).text.splitlines()]
    selects = [line for line in lines if line.startswith("ComboBox")]
    assert selects == [
        'ComboBox value="- column -" (7 options, select one)',
        'ComboBox value="=" (21 options, select one)',
        'ComboBox id=sort_by value="Sort by id" (7 options, select one)',
    ]
    assert not any(line.startswith(('StaticText "Sort by', 'StaticText "contains"')) for line in lines)
    with pytest.raises(phonewire.ProtocolError) as info:  # where the agent asks: select's NOT_FOUND lists them
        phone.select("id=sort_by", ["Sort by shoe size"])
    assert info.value.code == "NOT_FOUND" and '"Sort by name"' in info.value.message


def test_the_cards_show_their_css_drawn_column_names(phone: phonewire.Phone, datasette: Datasette) -> None:
    open_table(phone, datasette)
    first = datasette.query("SELECT * FROM people ORDER BY id LIMIT 2")
    assert cards(phone.snapshot().nodes)[:1] == [card_of(first[0])]
