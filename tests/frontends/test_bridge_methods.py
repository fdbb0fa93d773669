"""The bridge's request → reply function over a real AgentSession on a scripted CommandSender (no sockets).

Each test names the rule it checks and asserts what reached the wire (the commands the fake sender recorded) or
the exact reply shape."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Mapping
from typing import Any

import pytest

from agent_fakes import FakeSender, row, screen
from phonewire.agent.core import AgentSession
from phonewire.agent.results import View
from phonewire.frontends.bridge.methods import METHODS, Dispatcher, encode_reply, render_tree
from phonewire.frontends.serving import image_size
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

PNG_2X3 = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000020000000308060000009dc3a8d9"
    "0000000f4944415478da63f8ffff3f03062400007fe91ef7b9c8f47e0000000049454e44ae426082"
)


class Sender(FakeSender):
    """FakeSender plus screenshots, scripted failures and a crash switch."""

    def __init__(self, nodes: list[dict[str, Any]]) -> None:
        super().__init__(nodes)
        self.fail: dict[str, ProtocolError] = {}
        self.crash = False

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if self.crash:
            raise RuntimeError("boom")
        if command in self.fail:
            self.sent.append((command, dict(fields or {})))
            raise self.fail[command]
        if command == "screenshot":
            self.sent.append((command, dict(fields or {})))
            return ok({"imageBase64": base64.b64encode(PNG_2X3).decode()})
        if command == "tap":
            self.sent.append((command, dict(fields or {})))
            return ok({}, warning="suppressed issue") if fields and fields.get("x") == 999 else ok({})
        return await super().send(command, fields)


def demo_screen() -> list[dict[str, Any]]:
    field = RawNode("TextField", label="Email", rect=Rect(20, 300, 350, 40))
    return screen(row(1, 100, 0), row(2, 144, 0), field)


@pytest.fixture
def sender() -> Sender:
    return Sender(demo_screen())


@pytest.fixture
def agent(sender: Sender) -> AgentSession:
    return AgentSession(sender, app_id="dev.phonewire.demo")


def call(agent: AgentSession, request: object) -> dict[str, Any]:
    line = request if isinstance(request, bytes) else json.dumps(request).encode()
    reply: dict[str, Any] = asyncio.run(Dispatcher(agent).handle(line))
    # every reply must survive the wire encoding as one line
    assert encode_reply(reply).count(b"\n") == 1
    return reply


def error_of(reply: dict[str, Any]) -> dict[str, Any]:
    assert "result" not in reply, reply
    error: dict[str, Any] = reply["error"]
    assert set(error) == {"code", "message", "hint"} and error["hint"]
    return error


# --- reference methods ------------------------------------------------------------------------------------------
def test_get_tree_returns_agent_view_lines_each_with_its_frame_string(agent: AgentSession) -> None:
    reply = call(agent, {"id": 1, "method": "get_tree", "params": {}})
    assert reply["id"] == 1
    tree = reply["result"]["tree"]
    assert tree.splitlines()[0] == '@e1 StaticText "Row 1" frame={{10.0, 112.0}, {100.0, 20.0}}'
    assert 'Button "+" frame={{320.0, 104.0}, {60.0, 36.0}}' in tree
    assert 'TextField "Email" frame={{20.0, 300.0}, {350.0, 40.0}}' in tree


def test_tap_element_taps_the_centre_of_the_frame_and_returns_the_fresh_tree(
    agent: AgentSession, sender: Sender
) -> None:
    reply = call(agent, {"id": "a", "method": "tap_element", "params": {"coordinate": "{{320, 104}, {60, 36}}"}})
    assert sender.commands("tap") == [{"x": 350.0, "y": 122.0, "appBundleId": "dev.phonewire.demo"}]
    result = reply["result"]
    assert result["coordinate"] == "{{320.0, 104.0}, {60.0, 36.0}}"
    assert result["count"] == 1 and result["longPress"] is False
    assert result["tree"].startswith("@e1 ")
    # the looks before and after the tap (its diff), then the tree once two snapshots agree
    assert [c for c, _ in sender.sent] == ["snapshot", "tap", "snapshot", "snapshot", "snapshot"]


def test_tap_element_count_and_long_press(agent: AgentSession, sender: Sender) -> None:
    call(agent, {"id": 1, "method": "tap_element", "params": {"coordinate": "{{0, 0}, {10, 10}}", "count": 2}})
    assert sender.commands("tap")[-1]["numberOfTaps"] == 2
    reply = call(agent, {"id": 2, "method": "tap_element",
                         "params": {"coordinate": "{{0, 0}, {10, 10}}", "longPress": True, "count": 3}})  # fmt: skip
    assert sender.commands("longPress") == [
        {"x": 5.0, "y": 5.0, "durationMs": 800, "appBundleId": "dev.phonewire.demo"}
    ]
    assert reply["result"]["longPress"] is True and reply["result"]["count"] == 1


def test_enter_text_taps_the_field_centre_then_types(agent: AgentSession, sender: Sender) -> None:
    reply = call(agent, {"id": 1, "method": "enter_text",
                         "params": {"coordinate": "{{20.0, 300.0}, {350.0, 40.0}}", "text": "a@b.c"}})  # fmt: skip
    # the tap and the typing each between the looks of its diff; the tree once two snapshots agree
    tapped = ["snapshot", "tap", "snapshot"]
    assert [c for c, _ in sender.sent] == [*tapped, "snapshot", "type", "snapshot", "snapshot", "snapshot"]
    assert sender.commands("tap")[0]["x"] == 195.0 and sender.commands("tap")[0]["y"] == 320.0
    assert sender.commands("type")[0]["text"] == "a@b.c"
    assert "tree" in reply["result"]


def test_enter_text_with_a_malformed_frame_sends_nothing_and_names_the_form(
    agent: AgentSession, sender: Sender
) -> None:
    reply = call(agent, {"id": 7, "method": "enter_text", "params": {"coordinate": "20,300,350,40", "text": "x"}})
    error = error_of(reply)
    assert reply["id"] == 7
    assert error["code"] == e.INVALID_REQUEST and "{{x, y}, {w, h}}" in error["hint"]
    assert sender.sent == []


def test_open_app_answers_bundle_identifier_and_tree(sender: Sender) -> None:
    agent = AgentSession(sender)
    reply = call(agent, {"id": 1, "method": "open_app", "params": {"bundle_identifier": "dev.phonewire.demo"}})
    assert reply["result"]["bundle_identifier"] == "dev.phonewire.demo"
    assert "@e1" in reply["result"]["tree"]
    assert agent.app_id == "dev.phonewire.demo"


def test_open_app_accepts_the_android_spelling_package_name(sender: Sender) -> None:
    agent = AgentSession(sender)
    reply = call(agent, {"id": 1, "method": "open_app", "params": {"package_name": "dev.phonewire.demo"}})
    assert reply["result"]["package_name"] == reply["result"]["bundle_identifier"] == "dev.phonewire.demo"
    assert sender.commands("launchApp") == [{"appBundleId": "dev.phonewire.demo"}]


def test_get_screen_image_is_base64_with_its_dimensions_a_jpeg_at_css_scale_unless_asked(
    agent: AgentSession, sender: Sender
) -> None:
    call(agent, {"id": 1, "method": "get_screen_image", "params": {}})
    call(agent, {"id": 2, "method": "screenshot", "params": {}})
    assert sender.commands("screenshot") == [{"format": "jpeg", "scale": "css"}] * 2
    reply = call(agent, {"id": 3, "method": "get_screen_image", "params": {"format": "png", "scale": "device"}})
    result = reply["result"]
    assert base64.b64decode(result["screenshot_base64"]) == PNG_2X3
    assert result["metadata"] == {"format": "png", "width": 2, "height": 3}
    assert sender.commands("screenshot")[-1] == {"format": "png", "scale": "device"}


def test_get_context_is_tree_plus_image(agent: AgentSession) -> None:
    result = call(agent, {"id": 1, "method": "get_context"})["result"]
    assert {"tree", "screenshot_base64", "metadata"} <= set(result)


def test_tap_by_point_and_by_ref(agent: AgentSession, sender: Sender) -> None:
    call(agent, {"id": 1, "method": "tap", "params": {"x": 120, "y": 300}})
    tree = call(agent, {"id": 2, "method": "get_tree"})["result"]["tree"]
    plus = next(line for line in tree.splitlines() if 'Button "+"' in line).split()[0]
    call(agent, {"id": 3, "method": "tap", "params": {"target": plus}})
    taps = sender.commands("tap")
    assert (taps[0]["x"], taps[0]["y"]) == (120, 300)
    assert (taps[1]["x"], taps[1]["y"]) == (350.0, 122.0)


def test_the_returned_tree_is_the_screen_after_it_holds_still(agent: AgentSession, sender: Sender) -> None:
    # the app reacts to the tap asynchronously: the first snapshot still shows the old screen
    sender.screens = [screen(row(1, 100, 1)), screen(row(1, 100, 1))]
    reply = call(agent, {"id": 1, "method": "tap", "params": {"x": 350, "y": 122}})
    assert '"count 1"' in reply["result"]["tree"]
    assert [c for c, _ in sender.sent] == ["snapshot", "tap", "snapshot", "snapshot", "snapshot"]


def test_return_tree_false_skips_the_snapshot(agent: AgentSession, sender: Sender) -> None:
    reply = call(agent, {"id": 1, "method": "tap", "params": {"x": 1, "y": 2, "return_tree": False}})
    assert reply == {"id": 1, "result": {"changed": False, "diff": []}}
    assert [c for c, _ in sender.sent] == ["snapshot", "tap", "snapshot"]  # the looks of its diff, no tree


def test_a_runner_warning_is_passed_on_in_the_result(agent: AgentSession) -> None:
    reply = call(agent, {"id": 1, "method": "tap", "params": {"x": 999, "y": 2, "return_tree": False}})
    assert reply["result"] == {"warning": "suppressed issue", "changed": False, "diff": []}


def test_scroll_reference_form_drags_the_finger_by_the_distance_kept_on_screen(
    agent: AgentSession, sender: Sender
) -> None:
    call(agent, {"id": 1, "method": "scroll", "params": {"x": 200, "y": 600, "distanceX": 0, "distanceY": -900}})
    drag = sender.commands("drag")[0]
    assert (drag["fromX"], drag["fromY"], drag["toX"], drag["toY"]) == (200, 600, 200, 0)


def test_scroll_by_direction_uses_the_session_scroll(agent: AgentSession, sender: Sender) -> None:
    call(agent, {"id": 1, "method": "scroll", "params": {"direction": "down"}})
    assert sender.commands("scroll") == [{"direction": "down", "amount": 0.6, "appBundleId": "dev.phonewire.demo"}]


def test_scroll_by_target_scrolls_the_container_there_and_answers_distance_and_end(
    agent: AgentSession, sender: Sender
) -> None:
    async def scrolled(command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if command == "scroll":
            sender.sent.append((command, dict(fields or {})))
            return ok({"direction": "left", "distance": 120.0, "atEnd": True, "message": "scrolled left 120 pt, "
                       "reached the end"})  # fmt: skip
        return await Sender.send(sender, command, fields)

    sender.send = scrolled  # type: ignore[method-assign]
    reply = call(agent, {"id": 1, "method": "scroll", "params": {"direction": "left", "target": "text=Row 1",
                                                                  "return_tree": False}})  # fmt: skip
    assert reply["result"] == {"distance": 120.0, "atEnd": True, "message": "scrolled left 120 pt, reached the end",
                               "changed": False, "diff": []}  # fmt: skip
    assert sender.commands("scroll")[0]["x"] == 60 and sender.commands("scroll")[0]["y"] == 122


def test_find_answers_the_line_and_ref_without_a_tree(agent: AgentSession, sender: Sender) -> None:
    reply = call(agent, {"id": 1, "method": "find", "params": {"selector": "Email"}})
    result = reply["result"]
    assert "tree" not in result
    assert result["line"] == f'@{result["ref"]} TextField "Email"' and result["scrolls"] == 0
    tapped = call(agent, {"id": 2, "method": "tap", "params": {"target": "@" + result["ref"], "return_tree": False}})
    assert "result" in tapped and sender.commands("tap")[-1] == {
        "x": 195,
        "y": 320,
        "appBundleId": "dev.phonewire.demo",
    }
    refused = error_of(call(agent, {"id": 3, "method": "find", "params": {"selector": "Email", "return_tree": True}}))
    assert refused["code"] == "INVALID_REQUEST"


def test_swipe_reference_form_moves_half_the_screen_in_the_direction(agent: AgentSession, sender: Sender) -> None:
    call(agent, {"id": 1, "method": "swipe", "params": {"x": 195, "y": 700, "direction": "up"}})
    drag = sender.commands("drag")[0]
    assert (drag["fromX"], drag["fromY"], drag["toX"], drag["toY"]) == (195, 700, 195, 505)


def test_swipe_between_two_points(agent: AgentSession, sender: Sender) -> None:
    call(agent, {"id": 1, "method": "swipe", "params": {"x1": 1, "y1": 2, "x2": 3, "y2": 4, "duration_ms": 50}})
    assert sender.commands("drag")[0] == {
        "fromX": 1, "fromY": 2, "toX": 3, "toY": 4, "durationMs": 50, "appBundleId": "dev.phonewire.demo",
    }  # fmt: skip


def test_the_rest_of_the_command_set(agent: AgentSession, sender: Sender) -> None:
    assert call(agent, {"id": 1, "method": "list_apps"})["result"]["apps"][0]["appBundleId"] == "dev.phonewire.demo"
    assert call(agent, {"id": 2, "method": "viewport"})["result"] == {"x": 0, "y": 0, "width": 390, "height": 844}
    snap = call(agent, {"id": 3, "method": "snapshot", "params": {"interactive": True, "json": True}})["result"]
    assert "frame=" not in snap["tree"] and snap["view"]["nodes"]
    call(agent, {"id": 4, "method": "type", "params": {"text": "hi", "return_tree": False}})
    call(agent, {"id": 5, "method": "press", "params": {"key": "enter", "return_tree": False}})
    call(agent, {"id": 6, "method": "fill", "params": {"target": "10 20", "text": "x", "return_tree": False}})
    call(agent, {"id": 7, "method": "long_press", "params": {"x": 5, "y": 6, "return_tree": False}})
    call(agent, {"id": 8, "method": "open_url", "params": {"url": "https://example.com/", "return_tree": False}})
    assert [c for c, _ in sender.sent if c != "snapshot"] == [
        "listApps", "viewport", "type", "keyboardReturn", "tap", "type", "longPress", "openUrl",
    ]  # fmt: skip


def test_every_method_is_documented_in_docs_bridge_md() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "bridge.md").read_text()
    for name in METHODS:
        assert f"`{name}`" in doc, name


# --- bad input: an error reply naming the problem ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "reply_id", "message"),
    [
        (b"{not json", None, "request line is not JSON"),
        (b"\xff\xfe", None, "request line is not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, None, "at most 64 are accepted"),
        (b'{"id": 1, "method": "tap", "params": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", 1,  # its id, read up front
         "at most 64 are accepted"),
        (b"[1, 2]", None, "not a JSON object"),
        (b'{"id": {"a": 1}, "method": "get_tree"}', None, "id must be a string or a number"),
        (b'{"id": 3, "params": {}}', 3, "lacks a string 'method'"),
        (b'{"id": 4, "method": 12}', 4, "lacks a string 'method'"),
        (b'{"id": 5, "method": "explode"}', 5, "unknown method 'explode'"),
        (b'{"id": 6, "method": "tap", "params": {"x": 1}}', 6, "needs parameter 'y'"),
        (b'{"id": 7, "method": "tap", "params": {"x": "1", "y": 2}}', 7, "must be a number, got string"),
        (b'{"id": 8, "method": "tap_element", "params": {}}', 8, "needs parameter 'coordinate'"),
        (b'{"id": 9, "method": "enter_text", "params": {"coordinate": "{{1, 2}, {3, 4}}", "text": 5}}', 9,
         "'text' must be a string"),
        (b'{"id": 10, "method": "get_tree", "params": "all"}', 10, "params must be a JSON object"),
        (b'{"id": 11, "method": "open_app", "params": {"bundle_id": "x"}}', 11, "no parameter 'bundle_id'"),
    ],
)  # fmt: skip
def test_malformed_requests_get_invalid_request_with_the_id_when_readable(
    agent: AgentSession, sender: Sender, line: bytes, reply_id: object, message: str
) -> None:
    reply = call(agent, line)
    assert reply["id"] == reply_id
    error = error_of(reply)
    assert error["code"] == e.INVALID_REQUEST
    assert message in error["message"]
    assert sender.sent == []


def test_unknown_method_hint_lists_the_methods(agent: AgentSession) -> None:
    hint = error_of(call(agent, {"id": 1, "method": "get_trees"}))["hint"]
    assert "get_tree" in hint and "tap_element" in hint


def test_device_errors_keep_their_code_message_and_hint(agent: AgentSession, sender: Sender) -> None:
    sender.fail["tap"] = ProtocolError(e.APP_NOT_AVAILABLE, "app is not running", "Open it with open_app.")
    reply = call(agent, {"id": 1, "method": "tap", "params": {"x": 1, "y": 2}})
    assert reply == {"id": 1, "error": {"code": e.APP_NOT_AVAILABLE, "message": "app is not running",
                                        "hint": "Open it with open_app."}}  # fmt: skip


def test_a_stale_ref_is_refused_before_any_tap(agent: AgentSession, sender: Sender) -> None:
    error = error_of(call(agent, {"id": 1, "method": "tap", "params": {"target": "@e40"}}))
    assert error["code"] == e.STALE_REF
    assert sender.commands("tap") == []


def test_an_unexpected_exception_is_command_failed_and_the_dispatcher_keeps_working(
    agent: AgentSession, sender: Sender
) -> None:
    dispatcher = Dispatcher(agent)

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        sender.crash = True
        first = await dispatcher.handle(b'{"id": 1, "method": "get_tree"}')
        sender.crash = False
        second = await dispatcher.handle(b'{"id": 2, "method": "get_tree"}')
        return first, second

    first, second = asyncio.run(run())
    assert error_of(first)["code"] == e.COMMAND_FAILED and "boom" in first["error"]["message"]
    assert "tree" in second["result"]


def test_stop_method_sets_the_stop_switch(agent: AgentSession) -> None:
    async def run() -> bool:
        dispatcher = Dispatcher(agent)
        reply = await dispatcher.handle(b'{"id": 1, "method": "stop"}')
        assert reply == {"id": 1, "result": {"stopping": True}}
        return dispatcher.stop_requested.is_set()

    assert asyncio.run(run())


def test_a_reply_with_a_non_finite_number_becomes_command_failed_on_the_wire() -> None:
    line = encode_reply({"id": 1, "result": {"x": float("nan")}})
    reply = json.loads(line)
    assert reply["id"] == 1 and reply["error"]["code"] == e.COMMAND_FAILED


# --- helpers ------------------------------------------------------------------------------------------------------
def test_render_tree_appends_frames_only_to_lines_with_known_refs() -> None:
    node = {"index": 0, "type": "Button", "rect": {"x": 1, "y": 2, "width": 3, "height": 4}}
    view = View("# snapshot degraded\n@e1 Button\n  @e9 Other", [node], {"e1": node}, {})
    assert render_tree(view) == "# snapshot degraded\n@e1 Button frame={{1.0, 2.0}, {3.0, 4.0}}\n  @e9 Other"


def test_render_tree_marks_an_element_without_a_size_frame_none_instead_of_a_frame_of_zeros() -> None:
    option = {"index": 1, "type": "StaticText", "rect": {"x": 0, "y": 0, "width": 0, "height": 0}}
    view = View('@e1 ComboBox "Status"\n  @e2 StaticText "sold"', [option], {"e2": option}, {})
    assert render_tree(view) == '@e1 ComboBox "Status"\n  @e2 StaticText "sold" frame=none'


def test_every_action_field_is_documented_in_docs_bridge_md() -> None:
    from pathlib import Path

    from phonewire.frontends.bridge.methods import ACTION_FIELDS, NO_FRAME

    doc = (Path(__file__).parents[2] / "docs" / "bridge.md").read_text()
    for name in ACTION_FIELDS:
        assert f"`{name}`" in doc, name
    assert f"`{NO_FRAME}`" in doc


def test_image_size_reads_png_and_jpeg_headers() -> None:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (7, 5)).save(out, format="JPEG")
    assert image_size(out.getvalue()) == (7, 5)
    assert image_size(PNG_2X3) == (2, 3)
    assert image_size(b"GIF89a") is None


# --- the currently focused app ------------------------------------------------------------------------------------
def test_without_an_open_app_the_foreground_app_becomes_the_target(sender: Sender) -> None:
    agent = AgentSession(sender)
    reply = call(agent, {"id": 1, "method": "tap", "params": {"x": 3, "y": 4}})
    assert "tree" in reply["result"]
    assert agent.app_id == "dev.phonewire.demo"
    assert [c for c, _ in sender.sent] == ["listApps", "snapshot", "tap", "snapshot", "snapshot", "snapshot"]


def test_without_an_open_app_or_a_foreground_app_the_error_says_to_call_open_app(sender: Sender) -> None:

    async def no_apps(command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        sender.sent.append((command, dict(fields or {})))
        return ok({"apps": [{"appBundleId": "dev.phonewire.demo", "state": "background"}]})

    sender.send = no_apps  # type: ignore[method-assign]
    error = error_of(call(AgentSession(sender), {"id": 1, "method": "get_tree"}))
    assert error["code"] == e.APP_BUNDLE_ID_REQUIRED
    assert "open_app" in error["hint"]
    assert [c for c, _ in sender.sent] == ["listApps", "uptime"]  # uptime: is the runner there at all?


def test_an_action_is_never_repeated_while_looking_for_an_app(sender: Sender) -> None:
    # openUrl answers without an app id, so the tree that follows has no app to snapshot
    reply = call(AgentSession(sender), {"id": 1, "method": "open_url", "params": {"url": "https://example.com/"}})
    assert error_of(reply)["code"] == e.APP_BUNDLE_ID_REQUIRED
    assert [c for c, _ in sender.sent] == ["openUrl", "uptime"]  # uptime: is the runner there at all?


def test_press_home_answers_ok_without_a_tree_when_the_app_went_to_the_background(
    agent: AgentSession, sender: Sender
) -> None:
    """Adversarial re-run: `press home` pressed home, then the tree it answers with failed APP_BACKGROUNDED and
    the agent was told the press failed."""
    sender.fail["snapshot"] = ProtocolError(e.APP_BACKGROUNDED, "dev.phonewire.demo is in the background")
    reply = call(agent, {"id": 1, "method": "press", "params": {"key": "home"}})
    assert "error" not in reply, reply
    assert reply["result"]["tree"] == "" and "background" in reply["result"]["note"]
    assert [c for c, _ in sender.sent].count("button") == 1
