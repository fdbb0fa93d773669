"""The MCP tools over a real AgentSession on a scripted CommandSender: schemas, argument checks, results.

Every failure must come back as a tool result with ``is_error`` and the hint (never an exception)."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Mapping
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import mcp.types as mt
import pytest

from agent_fakes import FakeSender, row, screen
from phonewire.agent.core import AgentSession
from phonewire.frontends.mcp_server import TOOLS, ToolRunner, tool_list
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError

JPEG_HEADER = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffc0000b080005000701011100")


class Sender(FakeSender):
    def __init__(self) -> None:
        super().__init__(screen(row(1, 100, 3), row(2, 144, 0)))
        self.fail: ProtocolError | None = None

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if self.fail is not None and command == "tap":
            self.sent.append((command, dict(fields or {})))
            raise self.fail
        if command == "screenshot":
            self.sent.append((command, dict(fields or {})))
            return ok({"imageBase64": base64.b64encode(JPEG_HEADER).decode()})
        return await super().send(command, fields)


@pytest.fixture
def sender() -> Sender:
    return Sender()


@pytest.fixture
def runner(sender: Sender) -> ToolRunner:
    return ToolRunner(AgentSession(sender, app_id="dev.phonewire.demo"))


def call(runner: ToolRunner, name: str, arguments: dict[str, Any] | None = None) -> mt.CallToolResult:
    return asyncio.run(runner.call(name, arguments))


def text_of(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent)
    return block.text


def test_one_tool_per_command_each_with_an_object_schema_that_forbids_unknown_arguments() -> None:
    tools = {t.name: t for t in tool_list()}
    assert set(tools) == {"open_app", "close_app", "list_apps", "snapshot", "tap", "long_press", "fill", "type",
                          "select", "press", "swipe", "scroll", "find", "screenshot", "viewport", "open_url", "wait",
                          "trace_start", "trace_stop", "logs", "network", "record_start", "record_stop",
                          "select_text", "clipboard_get", "clipboard_set", "rotate", "location", "location_off",
                          "connectivity", "permissions", "appearance", "pick_file", "pinch", "keyboard_hide",
                          "flow_run"}  # fmt: skip
    for tool in tools.values():
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.input_schema["type"] == "object" and tool.input_schema["additionalProperties"] is False
        assert tool.description
    assert tools["tap"].input_schema["required"] == ["target"]
    assert tools["screenshot"].annotations is not None and tools["screenshot"].annotations.read_only_hint


def test_schemas_and_server_side_checks_agree_on_valid_arguments(runner: ToolRunner) -> None:
    valid = {"target": "10 20", "count": 2, "snapshot": False}
    schema = next(t.input_schema for t in tool_list() if t.name == "tap")
    jsonschema.validate(valid, schema)
    assert TOOLS["tap"].form.names == set(schema["properties"])
    assert not call(runner, "tap", valid).is_error


def test_tap_by_ref_from_the_last_snapshot_taps_the_element_centre(runner: ToolRunner, sender: Sender) -> None:
    view = text_of(call(runner, "snapshot", {"interactive": True}))
    ref = next(line for line in view.splitlines() if 'Button "+"' in line).split()[0]
    result = call(runner, "tap", {"target": ref})
    assert not result.is_error
    assert text_of(result).startswith("ok: tap")
    taps = sender.commands("tap")
    assert [(t["x"], t["y"]) for t in taps] == [(350.0, 122.0)]


def test_snapshot_true_adds_the_interactive_view_to_an_action(runner: ToolRunner) -> None:
    result = call(runner, "tap", {"target": "5 5", "snapshot": True})
    assert 'Button "+"' in text_of(result)
    assert result.structured_content is not None and "view" in result.structured_content


def test_a_stale_ref_is_an_error_result_with_the_hint_and_nothing_is_tapped(runner: ToolRunner, sender: Sender) -> None:
    result = call(runner, "tap", {"target": "@e9"})
    assert result.is_error
    assert text_of(result).startswith(f"{e.STALE_REF}: ")
    assert "\nhint: " in text_of(result)
    assert result.structured_content is not None
    error = result.structured_content["error"]
    assert error["code"] == e.STALE_REF and error["hint"] == "Run `snapshot` and use a ref from its output."
    assert sender.commands("tap") == []


def test_a_device_error_is_an_error_result_keeping_code_and_hint(runner: ToolRunner, sender: Sender) -> None:
    sender.fail = ProtocolError(e.APP_NOT_AVAILABLE, "app is not running", "Open it with open_app.")
    result = call(runner, "tap", {"target": "1 2"})
    assert result.is_error
    assert text_of(result) == "APP_NOT_AVAILABLE: app is not running\nhint: Open it with open_app."


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("tap", {}, "needs parameter 'target'"),
        ("tap", {"target": 3}, "'target' must be a string, got number"),
        ("tap", {"target": "@e1", "count": 0}, "at least 1"),
        ("tap", {"target": "@e1", "force": True}, "no parameter 'force'"),
        ("scroll", {"direction": "sideways"}, "one of up, down, left, right"),
        ("swipe", {"x1": 1, "y1": 2, "x2": 3}, "needs parameter 'y2'"),
        ("screenshot", {"format": "gif"}, "one of png, jpeg"),
        ("teleport", {}, "unknown tool 'teleport'"),
    ],
)
def test_bad_arguments_are_invalid_request_error_results(
    runner: ToolRunner, sender: Sender, name: str, arguments: dict[str, Any], message: str
) -> None:
    result = call(runner, name, arguments)
    assert result.is_error
    assert text_of(result).startswith(f"{e.INVALID_REQUEST}: ")
    assert message in text_of(result)
    assert "\nhint: " in text_of(result)
    assert sender.sent == []


def test_screenshot_defaults_to_a_scaled_down_jpeg_image(runner: ToolRunner, sender: Sender) -> None:
    result = call(runner, "screenshot")
    assert sender.commands("screenshot") == [{"format": "jpeg", "scale": "css"}]
    image = result.content[0]
    assert isinstance(image, mt.ImageContent)
    assert image.mime_type == "image/jpeg" and base64.b64decode(image.data) == JPEG_HEADER
    assert result.structured_content == {"format": "jpeg", "bytes": len(JPEG_HEADER), "width": 7, "height": 5}


def test_the_other_tools_reach_the_wire(runner: ToolRunner, sender: Sender) -> None:
    steps: list[tuple[str, dict[str, Any]]] = [
        ("open_app", {"app_id": "dev.phonewire.demo"}),
        ("list_apps", {}),
        ("viewport", {}),
        ("type", {"text": "hi"}),
        ("press", {"key": "back"}),
        ("long_press", {"target": "3 4", "duration_ms": 500}),
        ("swipe", {"x1": 1, "y1": 2, "x2": 3, "y2": 4}),
        ("scroll", {"direction": "down"}),
        ("fill", {"target": "3 4", "text": "x"}),
        ("open_url", {"url": "https://example.com/"}),
        ("close_app", {}),
    ]
    for name, arguments in steps:
        assert not call(runner, name, arguments).is_error, name
    assert [c for c, _ in sender.sent if c != "snapshot"] == [
        "launchApp", "listApps", "viewport", "type", "button", "longPress", "drag", "scroll", "tap", "type",
        "openUrl", "terminateApp",
    ]  # fmt: skip
    # each action between the two looks of its diff: the screen before and after it; and fill at a point one more
    # look, for the field its tap focused (cleared as fill @eN clears it)
    assert sum(c == "snapshot" for c, _ in sender.sent) == 2 * 6 + 1


def test_scroll_takes_a_target_and_find_answers_the_line_of_the_row_it_scrolled_to(
    runner: ToolRunner, sender: Sender
) -> None:
    tools = {t.name: t for t in tool_list()}
    assert tools["find"].input_schema["required"] == ["selector"]
    assert set(tools["find"].input_schema["properties"]) == {"selector", "direction", "max_scrolls"}
    assert "snapshot" not in tools["find"].input_schema["properties"]  # its answer is the line, not a view
    scrolled = call(runner, "scroll", {"direction": "right", "target": "10 20", "snapshot": False})
    assert not scrolled.is_error
    assert sender.commands("scroll")[-1] == {
        "direction": "right", "amount": 0.6, "x": 10, "y": 20, "appBundleId": "dev.phonewire.demo"
    }  # fmt: skip
    found = call(runner, "find", {"selector": "text=Row 2"})
    assert not found.is_error
    head, _, data = text_of(found).partition(" {")
    # the ref the scroll's reply (its diff's view of the screen after it) gave the row
    assert head == "ok: find" and json.loads("{" + data)["line"] == '@e4 StaticText "Row 2"'
    assert found.structured_content is not None and found.structured_content["data"]["ref"] == "e4"
    assert len(sender.commands("scroll")) == 1  # on screen already: no scroll
    missing = call(runner, "find", {"selector": "text=Row 9", "max_scrolls": 2})
    assert missing.is_error and "NOT_FOUND" in text_of(missing) and "max_scrolls=2" in text_of(missing)
    assert len(sender.commands("scroll")) == 3


def test_an_unexpected_exception_is_command_failed_error_result(runner: ToolRunner, sender: Sender) -> None:
    async def broken(command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        raise RuntimeError("wires crossed")

    sender.send = broken  # type: ignore[method-assign]
    result = call(runner, "viewport")
    assert result.is_error and "COMMAND_FAILED" in text_of(result) and "wires crossed" in text_of(result)
