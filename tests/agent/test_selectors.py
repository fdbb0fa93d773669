"""Selectors: key=value terms, quoting, ANDed terms, || fallbacks; matching rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_fakes import row, screen
from phonewire.agent.selectors import Term, match, parse
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect


def test_terms_are_key_value_pairs_anded_by_spaces() -> None:
    sel = parse("role=Button label=Save")
    assert sel.alternatives == ((Term("role", "Button"), Term("label", "Save")),)


def test_quoted_values_keep_spaces_equals_and_escaped_quotes() -> None:
    assert parse('label="Sign in"').alternatives[0] == (Term("label", "Sign in"),)
    assert parse("label='a=b'").alternatives[0] == (Term("label", "a=b"),)
    assert parse(r'text="say \"hi\""').alternatives[0] == (Term("text", 'say "hi"'),)
    assert parse(r"label=back\\slash").alternatives[0] == (Term("label", "back\\slash"),)


def test_double_bar_separates_fallback_alternatives() -> None:
    sel = parse("id=submit || label=Submit||text=ok")
    assert sel.alternatives == ((Term("id", "submit"),), (Term("label", "Submit"),), (Term("text", "ok"),))


def test_boolean_keys_take_true_false_or_stand_alone() -> None:
    assert parse("enabled").alternatives[0] == (Term("enabled", True),)
    assert parse("focused=false selected=1").alternatives[0] == (Term("focused", False), Term("selected", True))


def test_a_bare_word_is_a_text_term() -> None:
    assert parse("Save").alternatives[0] == (Term("text", "Save"),)
    assert parse('"Sign in"').alternatives[0] == (Term("text", "Sign in"),)


@pytest.mark.parametrize(
    "source",
    ["", "   ", "colour=red", 'label="open', "enabled=maybe", "id=", "|| id=a", "id=a ||", "id=a || || id=b"],
)
def test_malformed_selectors_are_invalid_requests_with_a_hint(source: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse(source)
    assert info.value.code == e.INVALID_REQUEST
    assert info.value.hint and "key=value" in info.value.hint


@given(st.text(max_size=40))
def test_the_parser_never_raises_anything_but_a_protocol_error(source: str) -> None:
    try:
        parse(source)
    except ProtocolError as exc:
        assert exc.code == e.INVALID_REQUEST


@given(st.text(min_size=1, max_size=30))
def test_any_label_round_trips_through_double_quotes(label: str) -> None:
    escaped = label.replace("\\", "\\\\").replace('"', '\\"')
    assert parse(f'label="{escaped}"').alternatives[0] == (Term("label", label),)


NODES = screen(
    RawNode("Button", label="Save", identifier="save", rect=Rect(0, 0, 90, 40),
            children=[RawNode("StaticText", label="Save draft", rect=Rect(5, 5, 80, 30))]),
    RawNode("Button", label="Saved items", rect=Rect(0, 50, 120, 40)),
    RawNode("TextField", label="Email", value="a@b.c", rect=Rect(0, 100, 300, 40), focused=True),
    RawNode("Button", label="Delete", enabled=False, rect=Rect(0, 150, 90, 40)),
    row(1, 200),
    row(2, 250),
)  # fmt: skip


def labels(source: str) -> list[str | None]:
    return [n.get("label") for n in match(parse(source), NODES)]


def test_id_role_label_and_value_match_exactly() -> None:
    assert labels("id=save") == ["Save"]
    assert labels("role=button label=Delete") == ["Delete"]
    assert labels("role=textfield") == ["Email"]
    assert labels("value=a@b.c") == ["Email"]
    assert labels("label=save") == []


def test_text_is_a_case_insensitive_substring_but_exact_matches_win() -> None:
    assert labels("text=save") == ["Save"]  # exact beats "Saved items" and the caption "Save draft"
    assert labels("text=sav") == ["Save", "Saved items"]  # the caption folds into its button
    assert labels("text=A@B") == ["Email"]


def test_boolean_terms() -> None:
    assert labels("role=Button enabled=false") == ["Delete"]
    assert labels("focused") == ["Email"]
    assert labels("editable") == ["Email"]


def test_first_alternative_that_matches_decides() -> None:
    assert labels("id=nope || label=Delete || label=Save") == ["Delete"]
    assert labels("id=nope || id=nada") == []


def test_several_matches_are_all_returned() -> None:
    assert labels("label=+") == ["+", "+"]


def test_a_form_label_matching_beside_its_field_is_dropped() -> None:
    nodes = screen(
        RawNode("StaticText", label="Name", rect=Rect(0, 0, 100, 20)),
        RawNode("TextField", label="Name", identifier="name", rect=Rect(0, 20, 300, 40)),
    )
    assert [n["type"] for n in match(parse("label=Name"), nodes)] == ["TextField"]
    assert [n["type"] for n in match(parse("role=StaticText label=Name"), nodes)] == ["StaticText"]


def test_a_label_borrowed_from_the_row_gives_way_to_the_text_beside_it() -> None:
    """TodoMVC: a checkbox named by its row's text (``nameFrom: "row"``) is not the target of the words; a real
    label's field still is (rule 5 holds for it), and ``role=CheckBox`` still names the checkbox."""
    nodes = screen(
        RawNode("CheckBox", label="B second", value="0", rect=Rect(0, 0, 40, 40), name_from="row"),
        RawNode("StaticText", label="B second", rect=Rect(40, 0, 200, 40)),
        RawNode("StaticText", label="Email", rect=Rect(0, 60, 100, 20)),
        RawNode("TextField", label="Email", rect=Rect(0, 80, 300, 40)),
    )
    assert [n["type"] for n in nodes if n.get("nameFrom") == "row"] == ["CheckBox"]
    for selector in ("B second", '"B second"', "text=B second", 'label="B second"'):
        assert [n["type"] for n in match(parse(selector), nodes)] == ["StaticText"], selector
    assert [n["type"] for n in match(parse('role=CheckBox label="B second"'), nodes)] == ["CheckBox"]
    assert [n["type"] for n in match(parse("Email"), nodes)] == ["TextField"]


# -- issue 10 item 1: words are phrases; the target is the element itself -------------------------------------------
def test_bare_words_in_a_row_are_one_phrase_not_anded_words() -> None:
    assert parse("Log in").alternatives[0] == (Term("text", "Log in"),)
    assert parse("text=Log in").alternatives[0] == (Term("text", "Log in"),)
    assert parse("label=Sign  in now").alternatives[0] == (Term("label", "Sign in now"),)
    assert parse("role=Button Log in").alternatives[0] == (Term("role", "Button"), Term("text", "Log in"))
    assert parse('label="Sign in" Save').alternatives[0] == (Term("label", "Sign in"), Term("text", "Save"))
    assert parse("Log in || id=login").alternatives == ((Term("text", "Log in"),), (Term("id", "login"),))


def _app(title: str, *children: RawNode) -> list[dict[str, object]]:
    from phonewire.protocol.snapshot import build_snapshot

    root = RawNode("Application", label=title, rect=Rect(0, 0, 390, 844), children=list(children))
    return build_snapshot(root, Rect(0, 0, 390, 844), "fake")["nodes"]


def test_a_phrase_taps_the_button_not_the_application_whose_title_contains_it() -> None:
    nodes = _app(
        "Log in | Django site admin",
        RawNode("StaticText", label="Username:", rect=Rect(0, 100, 100, 20)),
        RawNode("Button", label="Log in", rect=Rect(0, 300, 200, 40)),
    )
    assert [(n["type"], n["label"]) for n in match(parse("Log in"), nodes)] == [("Button", "Log in")]
    only_title = _app("Log in | Django site admin", RawNode("StaticText", label="Welcome", rect=Rect(0, 0, 9, 9)))
    assert match(parse("Log in"), only_title) == []  # the root is never a target


def test_a_control_beats_a_cell_with_the_same_label() -> None:
    nodes = _app(
        "Site administration",
        RawNode("Other", label="Groups", rect=Rect(0, 100, 390, 40)),  # a table header cell
        RawNode("Link", label="Groups", rect=Rect(10, 200, 80, 20)),
    )
    assert [n["type"] for n in match(parse("label=Groups"), nodes)] == ["Link"]


def test_a_container_that_contains_the_words_is_not_the_target_when_its_child_matches() -> None:
    nodes = _app(
        "Tasks",
        RawNode(
            "Other",
            label="Click on the ok button below",  # an instruction block holding the words
            rect=Rect(0, 0, 390, 200),
            children=[RawNode("StaticText", label="ok", rect=Rect(10, 150, 30, 20))],
        ),
    )
    assert [(n["type"], n["label"]) for n in match(parse("ok"), nodes)] == [("StaticText", "ok")]
