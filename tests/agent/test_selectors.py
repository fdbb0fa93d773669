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
