"""Front-end parameters: strict frame strings, typed checks with hints, form choice, JSON Schema."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phonewire.agent.params import (
    FRAME_FORM,
    Form,
    Frame,
    Param,
    format_frame,
    json_schema,
    parse_frame,
    parse_params,
)
from phonewire.protocol.errors import INVALID_REQUEST, ProtocolError

X = Param("x", "number", "x", required=True)
Y = Param("y", "number", "y", required=True)
TARGET = Param("target", "string", "target", required=True)
COUNT = Param("count", "integer", "taps", minimum=1, maximum=20)
TAP_FORMS = (Form((X, Y, COUNT)), Form((TARGET, COUNT)))


def _error(fn: object, *args: object) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        fn(*args)  # type: ignore[operator]
    assert info.value.code == INVALID_REQUEST
    assert info.value.hint
    return info.value


@pytest.mark.parametrize(
    ("text", "frame"),
    [
        ("{{33.0, 861.0}, {364.0, 38.0}}", Frame(33.0, 861.0, 364.0, 38.0)),
        ("{{1,2},{3,4}}", Frame(1, 2, 3, 4)),
        ("  { { -5.5 , 0 } , { 10 , .5 } }  ", Frame(-5.5, 0, 10, 0.5)),
    ],
)
def test_frame_strings_in_the_reference_form_parse_to_their_rectangle(text: str, frame: Frame) -> None:
    assert parse_frame(text) == frame


@pytest.mark.parametrize(
    "text",
    [
        "{{1, 2}, {3}}",  # three numbers
        "{1, 2, 3, 4}",  # flat
        "{{1, 2}, {3, 4}",  # unbalanced
        "{{1, 2}, {3, 4}} extra",  # trailing text
        "{{a, 2}, {3, 4}}",  # not a number
        "{{1e3, 2}, {3, 4}}",  # exponents are not part of the form
        "{{1, 2}, {-3, 4}}",  # negative width
        "",
    ],
)
def test_malformed_frame_strings_are_invalid_request_with_the_expected_form_in_the_hint(text: str) -> None:
    error = _error(parse_frame, text)
    assert FRAME_FORM in (error.hint or "")


@given(
    st.floats(-5000, 5000, allow_nan=False),
    st.floats(-5000, 5000, allow_nan=False),
    st.floats(0.1, 5000, allow_nan=False),
    st.floats(0.1, 5000, allow_nan=False),
)
def test_a_printed_frame_string_parses_back_to_the_same_rectangle_at_print_precision(
    x: float, y: float, w: float, h: float
) -> None:
    frame = parse_frame(format_frame(x, y, w, h))
    assert (frame.x, frame.y, frame.width, frame.height) == tuple(float(f"{v:.1f}") for v in (x, y, w, h))


@pytest.mark.parametrize("text", ["{{0.0, 0.0}, {0.0, 0.0}}", "{{10, 20}, {0, 40}}", "{{10, 20}, {30, 0.0}}"])
def test_a_frame_with_no_size_is_refused_naming_the_ref_and_select_since_its_centre_is_not_on_it(text: str) -> None:
    error = _error(parse_frame, text)
    assert "no size" in error.message and "nothing was tapped" in error.message
    assert '`tap {"target": "@eN"}`' in (error.hint or "") and "`select" in (error.hint or "")


def test_frame_centre_is_the_middle_of_the_rectangle() -> None:
    assert Frame(10, 20, 100, 40).center == (60, 40)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"x": "10", "y": 2}, "must be a number, got string"),
        ({"x": True, "y": 2}, "must be a number, got boolean"),
        ({"x": 1, "y": 2, "count": 1.5}, "whole number"),
        ({"x": 1, "y": 2, "count": 0}, "at least 1"),
        ({"x": 1, "y": 2, "count": 21}, "at most 20"),
        ({"x": 1}, "needs parameter 'y'"),
        ({"x": 1, "y": 2, "colour": "red"}, "no parameter 'colour'"),
        ({"target": 3}, "must be a string, got number"),
        ({"x": 1, "target": "@e1"}, "mix of parameters"),
    ],
)
def test_each_bad_parameter_gets_invalid_request_naming_the_problem(raw: dict[str, object], message: str) -> None:
    error = _error(parse_params, "tap", TAP_FORMS, raw)
    assert message in error.message
    assert "tap takes" in (error.hint or "")


def test_params_that_are_not_an_object_are_rejected() -> None:
    assert "must be a JSON object, got array" in _error(parse_params, "tap", TAP_FORMS, [1, 2]).message


def test_the_form_is_chosen_by_the_names_given_and_values_are_normalised() -> None:
    assert parse_params("tap", TAP_FORMS, {"x": 1, "y": 2.5}) == (0, {"x": 1, "y": 2.5})
    assert parse_params("tap", TAP_FORMS, {"target": "@e3", "count": 2.0}) == (1, {"target": "@e3", "count": 2})


def test_null_and_absent_params_mean_an_empty_object() -> None:
    empty = (Form(()),)
    assert parse_params("get_tree", empty, None) == (0, {})
    assert parse_params("get_tree", (Form((COUNT,)),), {"count": None}) == (0, {})


def test_choices_are_enforced_and_listed() -> None:
    direction = Param("direction", "string", "where", required=True, choices=("up", "down"))
    error = _error(parse_params, "scroll", (Form((direction,)),), {"direction": "sideways"})
    assert "one of up, down" in error.message


def test_json_schema_of_a_form_lists_types_required_names_and_forbids_extras() -> None:
    schema = json_schema(Form((TARGET, COUNT, Param("coordinate", "frame", "Frame."))))
    assert schema == {
        "type": "object",
        "properties": {
            "target": {"type": "string", "description": "target"},
            "count": {"type": "integer", "description": "taps", "minimum": 1, "maximum": 20},
            "coordinate": {"type": "string", "description": f"Frame. Form {FRAME_FORM}, e.g. {{{{20.0, 120.0}}, "
                           "{350.0, 44.0}}."},
        },
        "additionalProperties": False,
        "required": ["target"],
    }  # fmt: skip
