"""Typing read back (phonewire.devices.web.readback): the value the keys should have made, and the error when the
field holds another."""

from __future__ import annotations

from phonewire.devices.web.readback import expected, mismatch
from phonewire.protocol import errors as e


def test_the_text_takes_the_place_of_the_selection() -> None:
    assert expected({"value": "hello world", "start": 5, "end": 11}, "!") == "hello!"
    assert expected({"value": "ab", "start": 1, "end": 1}, "X") == "aXb"


def test_a_one_line_input_drops_line_breaks_and_a_textarea_keeps_them_as_newlines() -> None:
    assert expected({"value": "", "start": 0, "end": 0}, "a\r\nb") == "ab"
    assert expected({"value": "", "start": 0, "end": 0, "multiline": True}, "a\r\nb\rc") == "a\nb\nc"


def test_a_field_that_holds_what_was_typed_is_no_error_nor_is_one_with_nothing_to_check() -> None:
    before = {"value": "", "start": 0, "end": 0}
    assert mismatch(before, {"value": "2024"}, "2024") is None
    assert mismatch(None, {"value": "x"}, "2024") is None  # a contenteditable: no value to read
    assert mismatch(before, None, "2024") is None  # focus moved on, or the page went


def test_a_rewritten_field_is_command_failed_naming_the_value_it_holds() -> None:
    failed = mismatch({"value": "", "start": 0, "end": 0}, {"value": "0002-01-01024-02-29"}, "2024-02-29")
    assert failed is not None and failed.code == e.COMMAND_FAILED
    assert "holds '0002-01-01024-02-29', not '2024-02-29'" in failed.message


def test_a_password_field_s_value_is_never_named_only_its_length() -> None:
    failed = mismatch({"value": "", "start": 0, "end": 0, "secret": True}, {"value": "SECRET"}, "secret")
    assert failed is not None and "SECRET" not in failed.message and "6 character(s)" in failed.message


def test_without_a_selection_the_text_must_be_there_and_nothing_else_added() -> None:
    before = {"value": "a@b", "start": None, "end": None}
    assert mismatch(before, {"value": "a@b.org"}, ".org") is None
    assert mismatch(before, {"value": "a@b.org!"}, ".org") is not None


def test_an_inline_completion_of_what_was_typed_is_what_was_typed() -> None:
    """The APG's combobox with both list and inline autocomplete: "Ala" typed, the field holds "Alabama" with
    "bama" selected; the same value without that selection, or a completion of other text, is a rewrite."""
    before = {"value": "", "start": 0, "end": 0}
    assert mismatch(before, {"value": "Alabama", "start": 3, "end": 7}, "Ala") is None
    assert mismatch(before, {"value": "Alabama", "start": 7, "end": 7}, "Ala") is not None
    assert mismatch(before, {"value": "Alabama"}, "Ala") is not None
    assert mismatch(before, {"value": "Xlabama", "start": 3, "end": 7}, "Ala") is not None
