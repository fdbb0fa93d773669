"""Request validation: types, finite coordinates, numberOfTaps >= 1, non-negative durations, known buttons."""

from __future__ import annotations

from typing import Any

import pytest

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import parse_request

TAP = {"command": "tap", "commandId": "1", "appBundleId": "app.a", "x": 1, "y": 2}


def refused(obj: object) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_request(obj)
    return caught.value


def test_a_valid_tap_becomes_a_typed_request() -> None:
    request = parse_request({**TAP, "numberOfTaps": 2, "unknownField": "ignored"})
    assert (request.command, request.command_id, request.app_id) == ("tap", "1", "app.a")
    assert request.args == {"x": 1, "y": 2, "numberOfTaps": 2}
    assert not request.read_only


@pytest.mark.parametrize("obj", [None, [], "tap", 3, True])
def test_body_must_be_an_object(obj: object) -> None:
    assert refused(obj).code == e.INVALID_REQUEST


@pytest.mark.parametrize("command", [None, 1, "", "Tap", "swipe"])
def test_command_must_be_a_known_name(command: object) -> None:
    error = refused({"command": command})
    assert error.code == e.INVALID_REQUEST
    assert error.hint and "status" in error.hint


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("x", "1"),
        ("x", True),
        ("x", None),
        ("x", float("nan")),
        ("y", float("inf")),
        ("x", 10**400),
        ("numberOfTaps", 1.0),
        ("numberOfTaps", 0),
        ("numberOfTaps", -3),
        ("numberOfTaps", 21),
        ("commandId", 5),
        ("commandId", ""),
        ("commandId", "i" * 201),
        ("appBundleId", ["a"]),
    ],
)
def test_tap_field_rules(field: str, value: Any) -> None:
    assert refused({**TAP, field: value}).code == e.INVALID_REQUEST


@pytest.mark.parametrize("field", ["durationMs", "holdMs", "settle"])
@pytest.mark.parametrize("value", [-1, -0.001, 60_001])
def test_durations_are_non_negative_and_bounded(field: str, value: float) -> None:
    drag = {"command": "drag", "appBundleId": "a", "fromX": 0, "fromY": 0, "toX": 1, "toY": 1, field: value}
    assert refused(drag).code == e.INVALID_REQUEST


def test_zero_durations_are_fine() -> None:
    drag = {"command": "drag", "appBundleId": "a", "fromX": 0, "fromY": 0, "toX": 1, "toY": 1, "durationMs": 0}
    assert parse_request(drag).args["durationMs"] == 0


@pytest.mark.parametrize("button", c.BUTTONS)
def test_known_buttons_are_accepted(button: str) -> None:
    assert parse_request({"command": "button", "button": button}).args["button"] == button


@pytest.mark.parametrize("button", ["power", "Home", ""])
def test_unknown_buttons_are_refused_with_the_list(button: str) -> None:
    error = refused({"command": "button", "button": button})
    assert error.code == e.INVALID_REQUEST
    assert error.hint and "volumeUp" in error.hint


@pytest.mark.parametrize("command", sorted(c.APP_SCOPED | c.APP_LIFECYCLE))
@pytest.mark.parametrize("app_id", [None, ""])
def test_app_scoped_commands_need_an_app_id(command: str, app_id: str | None) -> None:
    body: dict[str, Any] = {"command": command, "x": 1, "y": 1, "fromX": 1, "fromY": 1, "toX": 1, "toY": 1}
    body["text"] = "t"
    if app_id is not None:
        body["appBundleId"] = app_id
    error = refused(body)
    assert error.code == e.APP_BUNDLE_ID_REQUIRED
    assert error.hint


@pytest.mark.parametrize(
    ("command", "missing"),
    [("tap", "x"), ("longPress", "y"), ("drag", "toY"), ("type", "text"), ("button", "button"), ("openUrl", "url")],
)
def test_required_fields(command: str, missing: str) -> None:
    full = {"x": 1, "y": 1, "fromX": 1, "fromY": 1, "toX": 1, "toY": 1, "text": "t", "button": "home", "url": "u"}
    body = {"command": command, "appBundleId": "a", **{k: v for k, v in full.items() if k != missing}}
    error = refused(body)
    assert error.code == e.INVALID_REQUEST
    assert missing in error.message


@pytest.mark.parametrize(
    "extra", [{"format": "gif"}, {"scale": "half"}, {"quality": 0}, {"quality": 101}, {"quality": 50.5}]
)
def test_screenshot_options(extra: dict[str, Any]) -> None:
    assert refused({"command": "screenshot", **extra}).code == e.INVALID_REQUEST


def test_screenshot_options_accepted() -> None:
    args = parse_request({"command": "screenshot", "format": "jpeg", "scale": "css", "quality": 1}).args
    assert args == {"format": "jpeg", "scale": "css", "quality": 1}


def test_status_with_status_command_id() -> None:
    request = parse_request({"command": "status", "statusCommandId": "abc"})
    assert request.args == {"statusCommandId": "abc"}
    assert request.read_only


DRAG = {"command": "drag", "appBundleId": "a", "fromX": 0, "fromY": 0, "toX": 1, "toY": 1}
EVERY_REFUSAL = {
    "wrong type": {**TAP, "x": "1"},
    "not finite": {**TAP, "x": float("nan")},
    "empty commandId": {**TAP, "commandId": ""},
    "long statusCommandId": {"command": "status", "statusCommandId": "i" * 201},
    "missing field": {"command": "type", "appBundleId": "a"},
    "numberOfTaps out of range": {**TAP, "numberOfTaps": 0},
    "negative duration": {**DRAG, "holdMs": -1},
    "screenshot format": {"command": "screenshot", "format": "gif"},
    "screenshot scale": {"command": "screenshot", "scale": "half"},
    "screenshot quality": {"command": "screenshot", "quality": 0},
}


@pytest.mark.parametrize("body", list(EVERY_REFUSAL.values()), ids=list(EVERY_REFUSAL))
def test_every_refusal_carries_a_hint_for_the_agent(body: dict[str, Any]) -> None:
    """brief: bad input gets a specific error code and a hint phrased for the agent."""
    error = refused(body)
    assert error.code == e.INVALID_REQUEST
    assert error.hint


# --- issue 15: numbers bounded at the edge, commandId a printable ASCII set ----------------------------------------
@pytest.mark.parametrize(
    ("command", "field", "value"),
    [("tap", "x", 3.5e38), ("tap", "y", -1e39), ("tap", "x", 100_000.5), ("drag", "fromX", 1e308),
     ("drag", "toY", -1e308), ("drag", "toX", 10**30), ("longPress", "x", -100_001)],
)  # fmt: skip
def test_coordinates_beyond_the_bound_are_refused_before_any_device_sees_them(
    command: str, field: str, value: float
) -> None:
    body: dict[str, Any] = {"command": command, "commandId": "c-1", "appBundleId": "app.a"}
    body.update({"x": 1, "y": 1} if command != "drag" else {"fromX": 1, "fromY": 1, "toX": 2, "toY": 2})
    body[field] = value
    with pytest.raises(ProtocolError) as caught:
        parse_request(body)
    assert caught.value.code == e.INVALID_REQUEST
    assert field in caught.value.message and "100000" in caught.value.message
    assert caught.value.hint and "snapshot" in caught.value.hint


@pytest.mark.parametrize("value", [-100_000, 100_000, 0, 389.5, -0.0])
def test_coordinates_within_the_bound_are_accepted(value: float) -> None:
    assert parse_request({**TAP, "x": value, "y": value}).args["x"] == value


@pytest.mark.parametrize(
    "command_id",
    ["\ud800", "tap\udfff", "caf\u00e9", "a b", "a/b", "new\nline", "i" * 129, "\x00", "emoji\U0001f600"],
)
def test_command_ids_outside_the_printable_ascii_set_are_refused_with_a_hint(command_id: str) -> None:
    for body in ({**TAP, "commandId": command_id}, {"command": "status", "statusCommandId": command_id}):
        with pytest.raises(ProtocolError) as caught:
            parse_request(body)
        assert caught.value.code == e.INVALID_REQUEST and caught.value.hint
        caught.value.message.encode("utf-8")  # the refusal itself is always encodable


@pytest.mark.parametrize("command_id", ["a", "i" * 128, "0f3c9a2b4d5e6f708192a3b4c5d6e7f8", "e2e-12-3", "ns:cmd_1.2"])
def test_command_ids_in_the_set_are_accepted(command_id: str) -> None:
    assert parse_request({**TAP, "commandId": command_id}).command_id == command_id


def test_a_drag_whose_parts_together_outlast_its_budget_is_refused() -> None:
    """Adversarial re-run: holdMs, durationMs and settle each within 60 s, together 180 s, wedged the runner."""
    body = {"command": "drag", "commandId": "d1", "appBundleId": "a", "fromX": 1, "fromY": 1, "toX": 2, "toY": 2}
    with pytest.raises(ProtocolError) as info:
        parse_request({**body, "durationMs": 60_000, "holdMs": 60_000, "settle": 60_000})
    assert info.value.code == e.INVALID_REQUEST and "together" in info.value.message and info.value.hint
    assert parse_request({**body, "durationMs": 30_000, "holdMs": 20_000, "settle": 10_000}).args["settle"] == 10_000


@pytest.mark.parametrize(
    ("points", "pixels"),
    [
        ((393, 852), (393, 852)),  # a phone: one pixel per point
        ((1180, 820), (1180, 820)),  # a tablet in landscape, under the cap
        ((2560, 1600), (1568, 980)),  # a tablet at density 1: the long side fits the cap
        ((1600, 2560), (980, 1568)),
        ((1568, 10), (1568, 10)),
        ((5000, 1), (1568, 1)),  # each side at least one pixel
    ],
)
def test_a_css_screenshot_is_one_pixel_per_point_its_long_side_at_most_1568(
    points: tuple[float, float], pixels: tuple[int, int]
) -> None:
    from phonewire.protocol.request import CSS_MAX_SIDE, css_image_size

    assert CSS_MAX_SIDE == 1568
    assert css_image_size(*points) == pixels


def test_docs_agent_view_md_lists_the_folded_punctuation_as_the_code_strips_it() -> None:
    from pathlib import Path

    from phonewire.protocol.folding import EDGE_PUNCTUATION, fold

    doc = (Path(__file__).resolve().parents[2] / "docs" / "agent-view.md").read_text(encoding="utf-8")
    assert f"(`{EDGE_PUNCTUATION}`)" in doc
    assert fold('Deselect file "Sums.ipynb"') == fold("Deselect file Sums.ipynb") == "deselect file sums.ipynb"
    assert fold("  Action: ") == "action" and fold("+") == "+" and fold("…") == "…"
