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


def test_id_role_and_value_match_exactly_label_as_a_person_reads_it() -> None:
    assert labels("id=save") == ["Save"]
    assert labels("role=button label=Delete") == ["Delete"]
    assert labels("role=textfield") == ["Email"]
    assert labels("value=a@b.c") == ["Email"]
    assert labels("label=save") == ["Save"]  # case does not matter to label=
    assert labels("label==save") == []  # label== is exact
    assert labels("label==Save") == ["Save"]


# --- selectors forgive what a person would (issue 25, item 4) ---------------------------------------------------
FORM = screen(
    RawNode("StaticText", label="Action:", rect=Rect(0, 0, 60, 30)),
    RawNode("ComboBox", label="Action:", identifier="action", rect=Rect(70, 0, 200, 30)),
    RawNode("Button", label='Deselect file "Sums.ipynb"', rect=Rect(0, 40, 200, 30)),
    RawNode("Button", label="Save changes…", rect=Rect(0, 80, 200, 30)),
    RawNode("Button", label="Go", rect=Rect(0, 120, 50, 30)),
    RawNode("Link", label="go!", rect=Rect(60, 120, 50, 30)),
    RawNode("Button", label="+", rect=Rect(120, 120, 30, 30)),
    RawNode("StaticText", label="Stock price: $45.20", identifier="price", rect=Rect(0, 160, 200, 30)),
    RawNode("TextField", label="Qty", value="1,204", identifier="qty", rect=Rect(0, 200, 200, 30)),
)  # fmt: skip


def form_labels(source: str) -> list[str | None]:
    return [n.get("label") for n in match(parse(source), FORM)]


@pytest.mark.parametrize(
    "source", ["label=Action", "label=action", "label=ACTION:", 'label=" Action : "', "text=action"]
)
def test_label_and_text_ignore_case_surrounding_punctuation_and_whitespace(source: str) -> None:
    """``label=Action`` is the select Django names "Action:" (findings 4, F6); its caption folds into it (rule 5)."""
    assert form_labels(source) == ["Action:"]
    assert [n.get("type") for n in match(parse(source), FORM)] == ["ComboBox"]


def test_exact_matching_is_spelled_with_two_equals() -> None:
    assert form_labels("label==Action") == []
    assert form_labels("label==Action:") == ["Action:"]
    assert form_labels("text==Action") == []
    assert form_labels("text==Save changes…") == ["Save changes…"]
    assert form_labels("text==save changes…") == []
    assert form_labels("label=save changes") == ["Save changes…"]
    assert form_labels('label="  SAVE   changes "') == ["Save changes…"]


def test_several_that_fold_alike_all_match_so_a_tap_is_ambiguous() -> None:
    """ "Go" and "go!" are the same words to a person: both match, and ``tap`` refuses with AMBIGUOUS_MATCH."""
    assert form_labels("label=go") == ["Go", "go!"]
    assert form_labels("label==Go") == ["Go"]


def test_text_that_is_only_punctuation_is_compared_as_it_is() -> None:
    assert form_labels("label=+") == ["+"]
    assert form_labels("+") == ["+"]


@pytest.mark.parametrize(
    "source",
    [
        'Deselect file "Sums.ipynb"',  # what the Jupyter user typed: it matched nothing for 40 s
        "Deselect file Sums.ipynb",
        "label='Deselect file \"Sums.ipynb\"'",
        'label="Deselect file Sums.ipynb"',
        'text=Deselect file "Sums.ipynb"',
    ],
)
def test_a_text_with_quotes_inside_matches_the_label_that_has_them(source: str) -> None:
    assert form_labels(source) == ['Deselect file "Sums.ipynb"']


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('Deselect file "Sums.ipynb', "unterminated"),
        ("id=price value<cheap", "takes a number"),
        ("id<3", "compares numbers"),
        ("role~=/But/", "not a pattern key"),
        ("text~=Stock", "/REGEX/"),
        ("text~=/Stock (/", "does not compile"),
        ("text~=/Stock", "unterminated /pattern/"),
        ("text~=/a/x", "flag"),
        ("role==Button", "matches exactly"),
        ("label==", "needs a value"),
    ],
)
def test_a_selector_that_cannot_be_read_is_a_usage_error_never_silently_nothing(source: str, message: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse(source)
    assert info.value.code == e.INVALID_REQUEST and message in info.value.message, info.value.message
    assert info.value.hint and "value<45.5" in info.value.hint


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("id=price value<45.5", ["Stock price: $45.20"]),  # no value: the number in its text
        ("id=price value<45.2", []),
        ("id=price value<=45.2", ["Stock price: $45.20"]),
        ("id=price text>45", ["Stock price: $45.20"]),
        ("id=qty value>1200", ["Qty"]),  # "1,204" is 1204
        ("id=qty value>=1205", []),
        ("value<0", []),
    ],
)
def test_numeric_conditions_compare_the_number_shown(source: str, found: list[str]) -> None:
    assert form_labels(source) == found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (r"text~=/Stock price: \$4\d/", ["Stock price: $45.20"]),  # spaces and backslashes kept
        (r"text~=/Stock price: \$5\d/", []),
        (r"text~=/stock PRICE/i", ["Stock price: $45.20"]),
        (r"text~=/stock PRICE/", []),
        (r"id~=/^pri/ text~=/\d+\.\d{2}$/", ["Stock price: $45.20"]),
        (r"label~=/^Deselect/ || id=qty", ['Deselect file "Sums.ipynb"']),
    ],
)
def test_pattern_conditions_search_the_text_with_a_regular_expression(source: str, found: list[str]) -> None:
    assert form_labels(source) == found


def test_a_paragraph_that_mentions_the_words_is_a_mention_a_row_or_an_exact_text_is_not() -> None:
    from phonewire.agent.selectors import mentions_only

    nodes = screen(
        RawNode("StaticText", label="Select Janessa from the list and click Submit.", rect=Rect(0, 0, 300, 30)),
        RawNode("Cell", label="Janessa", rect=Rect(0, 40, 300, 30)),
        RawNode("StaticText", label="Janessa:", rect=Rect(0, 80, 300, 30)),
        RawNode("Button", label="Ask Janessa", rect=Rect(0, 120, 300, 30)),
    )  # fmt: skip
    by_label = {n.get("label"): n for n in nodes}
    sel = parse("Janessa")
    assert mentions_only(sel, by_label["Select Janessa from the list and click Submit."])
    assert not mentions_only(sel, by_label["Janessa"])
    assert not mentions_only(sel, by_label["Janessa:"])
    assert not mentions_only(sel, by_label["Ask Janessa"])  # a control
    assert not mentions_only(parse("id=x || Janessa"), by_label["Janessa"])


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


def test_a_label_whose_markup_split_a_word_matches_the_word_the_screen_shows() -> None:
    """Fava's autocomplete highlights the typed part as an inline-block, which the names' rule sets apart (WPT's
    "inline-block children are separated"): the option reads "Expenses:Food: Gro ceries" where the screen shows
    "Expenses:Food:Groceries", and the words the agent read on the screen found nothing.  A whole label that reads
    the same without its spaces matches; a part of one does not, nor other words."""
    nodes = screen(
        RawNode("Cell", label="Expenses:Food: Gro ceries", rect=Rect(0, 100, 300, 40)),
        RawNode("Button", label="Sign in", rect=Rect(0, 200, 300, 40)),
    )
    for source in ("Expenses:Food:Groceries", "label=Expenses:Food:Groceries", "text=Expenses:Food:Groceries"):
        assert [n["label"] for n in match(parse(source), nodes)] == ["Expenses:Food: Gro ceries"], source
    assert match(parse("label=Groceries"), nodes) == []  # a part of the label is no label
    assert match(parse("label==Expenses:Food:Groceries"), nodes) == []  # exact is exact
    assert [n["label"] for n in match(parse("label=Signin"), nodes)] == ["Sign in"]
