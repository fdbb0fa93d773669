"""Maestro flows, checked whole before anything runs, and run on the agent session (a scripted sender: no device).

Each refusal is asserted with nothing sent to the device: a flow that cannot run runs nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from agent_fakes import FakeSender, row, screen
from phonewire.agent import flow_commands, flow_match, trace
from phonewire.agent.core import AgentSession
from phonewire.agent.flow_yaml import MAX_FLOW_BYTES, MAX_FLOW_NODES, parse_flow
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

HEADER = "appId: dev.phonewire.demo\n---\n"


def rows() -> list[dict[str, object]]:
    return screen(row(1, 100), row(2, 150), row(3, 200), RawNode("Button", label="Save", identifier="save",
                                                                   rect=Rect(10, 400, 100, 40)))  # fmt: skip


def run(tmp_path: Path, text: str, *, env: list[str] | None = None, name: str = "flow.yaml") -> tuple[
    FakeSender, ProtocolError | dict[str, Any]
]:  # fmt: skip
    (tmp_path / name).write_text(text)
    sender = FakeSender(rows())
    agent = AgentSession(sender, app_id="dev.phonewire.demo")
    try:
        result = asyncio.run(agent.flow_run(str(tmp_path / name), env))
    except ProtocolError as exc:
        return sender, exc
    return sender, result.data


def refused(tmp_path: Path, text: str, code: str, **kwargs: object) -> ProtocolError:
    sender, outcome = run(tmp_path, text, **kwargs)  # type: ignore[arg-type]
    assert isinstance(outcome, ProtocolError), outcome
    assert outcome.code == code, outcome.message
    assert sender.sent == [], "a refused flow sends nothing"
    return outcome


# -- refused up front ------------------------------------------------------------------------------------------------
def test_an_unsupported_command_is_refused_with_its_line_and_the_supported_list(tmp_path: Path) -> None:
    flow = HEADER + "- launchApp\n- tapOn: Save\n- hideKeyboard\n- tapOn: Save\n"
    err = refused(tmp_path, flow, e.FLOW_UNSUPPORTED)
    assert "flow.yaml:5" in err.message and "'hideKeyboard'" in err.message
    assert err.hint is not None and all(name in err.hint for name in flow_commands.COMMANDS)


def test_travel_is_refused_with_its_reason_not_skipped(tmp_path: Path) -> None:
    err = refused(tmp_path, HEADER + "- launchApp\n- travel:\n    points: []\n", e.FLOW_UNSUPPORTED)
    assert "flow.yaml:4" in err.message and "setLocation" in err.message


def test_set_location_sets_the_position_apps_get(tmp_path: Path) -> None:
    sender, _ = run(tmp_path, HEADER + "- setLocation:\n    latitude: '52.36'\n    longitude: 4.883\n")
    assert next(b for c, b in sender.sent if c == "setLocation")["latitude"] == 52.36
    refused(tmp_path, HEADER + "- setLocation:\n    latitude: 91\n    longitude: 0\n", e.FLOW_INVALID)


def test_an_unsupported_option_of_a_command_is_refused(tmp_path: Path) -> None:
    err = refused(tmp_path, HEADER + "- tapOn:\n    text: Save\n    width: 100\n", e.FLOW_UNSUPPORTED)
    assert "flow.yaml:3" in err.message and "width" in err.message


def test_a_yaml_bomb_is_refused_before_anything_is_built(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    bomb = "\n".join(lines) + "\n---\n- inputText: ${i}\n"
    err = refused(tmp_path, bomb, e.FLOW_TOO_LARGE)
    assert str(MAX_FLOW_NODES) in err.message


def test_a_file_over_the_size_bound_is_refused(tmp_path: Path) -> None:
    flow = HEADER + "- back\n" * (MAX_FLOW_BYTES // 7 + 1)
    refused(tmp_path, flow, e.FLOW_TOO_LARGE)


def test_python_tags_are_not_built(tmp_path: Path) -> None:
    err = refused(tmp_path, HEADER + "- inputText: !!python/object/apply:os.system ['true']\n", e.FLOW_INVALID)
    assert "flow.yaml:3" in err.message


def test_a_flow_that_runs_itself_is_unbounded(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text(HEADER + "- runFlow: flow.yaml\n")
    err = refused(tmp_path, HEADER + "- back\n- runFlow: b.yaml\n", e.FLOW_UNBOUNDED)
    assert "b.yaml:3" in err.message and "already running" in err.message


def test_repeat_times_beyond_the_bound_is_unbounded(tmp_path: Path) -> None:
    flow = HEADER + f"- repeat:\n    times: {flow_commands.MAX_REPEAT + 1}\n    commands:\n      - back\n"
    refused(tmp_path, flow, e.FLOW_UNBOUNDED)


def test_nested_repeats_that_multiply_past_the_step_bound_are_unbounded(tmp_path: Path) -> None:
    def level(depth: int) -> str:
        pad = "  " * (2 * depth)
        return f"{pad}- repeat:\n{pad}    times: 100\n{pad}    commands:\n"

    flow = HEADER + level(0) + level(1) + level(2) + "  " * 6 + "- back\n"
    err = refused(tmp_path, flow, e.FLOW_UNBOUNDED)
    assert str(flow_commands.MAX_FLOW_STEPS) in err.message


def test_an_undefined_variable_and_javascript_are_refused(tmp_path: Path) -> None:
    err = refused(tmp_path, HEADER + "- inputText: ${USER}\n", e.FLOW_INVALID)
    assert "${USER} is not defined" in err.message and "--env USER=VALUE" in (err.hint or "")
    refused(tmp_path, HEADER + "- inputText: ${USER.toUpperCase()}\n", e.FLOW_UNSUPPORTED)


def test_a_malformed_argument_names_its_line(tmp_path: Path) -> None:
    err = refused(tmp_path, HEADER + "- back\n- swipe:\n    duration: 10\n", e.FLOW_INVALID)
    assert "flow.yaml:4" in err.message


def test_an_error_late_in_the_file_runs_nothing_before_it(tmp_path: Path) -> None:
    refused(tmp_path, HEADER + "- launchApp\n- tapOn: Save\n" + "- back\n" * 20 + "- travel: {}\n", e.FLOW_UNSUPPORTED)


# -- running ---------------------------------------------------------------------------------------------------------
def test_steps_run_as_operations_with_lines_and_variables(tmp_path: Path) -> None:
    flow = "appId: dev.phonewire.demo\nenv:\n  WHO: Row 2\n---\n- launchApp\n- tapOn:\n    text: \\+\n" \
        "    below: ${WHO}\n- tapOn:\n    id: sa.e\n- inputText: ${WHO}\n"  # fmt: skip
    sender, data = run(tmp_path, flow)
    assert isinstance(data, dict), data
    commands = [c for c, _ in sender.sent]
    assert commands.count("launchApp") == 1 and commands.count("tap") == 2
    taps = [b for c, b in sender.sent if c == "tap"]
    # the "+" nearest below "Row 2" is row 3's (y 204..240), not row 1's or row 2's
    assert 200 <= taps[0]["y"] <= 240 and 400 <= taps[1]["y"] <= 440
    assert [b for c, b in sender.sent if c == "type"] == [{"text": "Row 2", "appBundleId": "dev.phonewire.demo"}]
    assert [(s["line"], s["command"]) for s in data["steps"]] == [
        (5, "launchApp"), (6, "tapOn"), (9, "tapOn"), (11, "inputText")]  # fmt: skip


def test_env_given_to_the_run_beats_the_flows_own(tmp_path: Path) -> None:
    sender, _ = run(tmp_path, "appId: x\nenv:\n  T: a\n---\n- inputText: ${T}\n", env=["T=b"])
    assert [b["text"] for c, b in sender.sent if c == "type"] == ["b"]


def test_a_text_that_names_several_elements_is_ambiguous_never_the_first(tmp_path: Path) -> None:
    sender, outcome = run(tmp_path, HEADER + "- tapOn: '\\+'\n")
    assert isinstance(outcome, ProtocolError) and outcome.code == e.AMBIGUOUS_MATCH
    assert "flow.yaml:3 tapOn" in outcome.message and "index" in (outcome.hint or "")
    assert "tap" not in [c for c, _ in sender.sent]
    sender, outcome = run(tmp_path, HEADER + "- tapOn:\n    text: '\\+'\n    index: 2\n")
    assert [b["y"] for c, b in sender.sent if c == "tap"] == [pytest.approx(222)]


def test_repeat_while_stops_when_the_condition_ends_and_is_bounded_when_it_never_does(tmp_path: Path) -> None:
    sender, outcome = run(
        tmp_path, HEADER + "- repeat:\n    while:\n      visible: Save\n    commands:\n      - back\n"
    )
    assert isinstance(outcome, ProtocolError) and outcome.code == e.FLOW_UNBOUNDED
    assert [c for c, _ in sender.sent].count("button") == flow_commands.MAX_REPEAT
    sender, data = run(
        tmp_path, HEADER + "- repeat:\n    while:\n      notVisible: Save\n    commands:\n      - back\n"
    )
    assert isinstance(data, dict) and "button" not in [c for c, _ in sender.sent]


def test_a_failing_step_says_its_file_line_and_how_many_passed(tmp_path: Path) -> None:
    flow = HEADER + "- tapOn: Save\n- extendedWaitUntil:\n    notVisible: Save\n    timeout: 100\n"
    _, outcome = run(tmp_path, flow)
    assert isinstance(outcome, ProtocolError) and outcome.code == e.WAIT_TIMED_OUT
    assert outcome.message.startswith("flow.yaml:4 extendedWaitUntil:") and "(1 step(s) passed before it)" in (
        outcome.message
    )


class ClipboardSender(FakeSender):
    """A FakeSender whose phone keeps a clipboard."""

    clip = ""

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if command == "setClipboard":
            self.clip = str((fields or {})["text"])
        if command == "getClipboard":
            self.sent.append((command, dict(fields or {})))
            return ok({"text": self.clip})
        return await super().send(command, fields)


def test_copied_text_goes_onto_the_clipboard_and_is_pasted_by_typing(tmp_path: Path) -> None:
    flow = HEADER + "- copyTextFrom:\n    id: save\n- pasteText\n- inputText: ${maestro.copiedText}\n"
    (tmp_path / "flow.yaml").write_text(flow)
    sender = ClipboardSender(rows())
    asyncio.run(AgentSession(sender, app_id="dev.phonewire.demo").flow_run(str(tmp_path / "flow.yaml")))
    assert sender.clip == "Save"
    assert [b["text"] for c, b in sender.sent if c == "type"] == ["Save", "Save"]


def test_a_traced_run_writes_each_operation_with_its_flow_line_and_own_steps(tmp_path: Path) -> None:
    (tmp_path / "flow.yaml").write_text(HEADER + "- tapOn:\n    id: save\n- assertVisible: Save\n")
    agent = AgentSession(FakeSender(rows()), app_id="dev.phonewire.demo")
    asyncio.run(agent.flow_run(str(tmp_path / "flow.yaml"), trace=str(tmp_path / "t")))
    steps = trace.read_steps(tmp_path / "t")
    assert [(s["op"], s["flow"]["line"]) for s in steps] == [("tap", 3), ("assertVisible", 5)]
    assert steps[0]["target"]["selector"] == 'id="save"'
    assert steps[1]["args"] == {"maestro": {"assertVisible": "Save"}}
    assert trace.recorder_of(agent) is None  # the run's own trace stopped with it


# -- pieces ----------------------------------------------------------------------------------------------------------
def test_lines_of_nested_commands_are_their_own() -> None:
    flow = parse_flow(HEADER + "- repeat:\n    times: 2\n    commands:\n      - back\n      - tapOn: x\n", "f")
    steps, _ = flow_commands.check_flow(flow, Path("/nonexistent/f"), {})
    assert [(s.command, s.line) for s in steps[0].body] == [("back", 6), ("tapOn", 7)]


def test_maestro_text_is_a_whole_match_regex_case_insensitive_or_the_exact_text() -> None:
    nodes = screen(RawNode("StaticText", label="Total: $15", rect=Rect(0, 0, 100, 20)),
                   RawNode("StaticText", label="150", rect=Rect(0, 30, 100, 20)))  # fmt: skip
    found = flow_match.resolve(flow_match.parse_selector("Total: $15"), nodes)
    assert found["label"] == "Total: $15"
    assert flow_match.visible(flow_match.parse_selector("15"), nodes) == []
    assert flow_match.resolve(flow_match.parse_selector("total.*"), nodes)["label"] == "Total: $15"


def test_the_docs_table_is_the_command_table() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "flows.md").read_text()
    assert flow_commands.markdown_table() in doc
    listed = {line.split("`")[1] for line in doc.splitlines() if line.startswith("| `")}
    assert listed == set(flow_commands.COMMANDS)
    for code in (e.FLOW_INVALID, e.FLOW_UNSUPPORTED, e.FLOW_TOO_LARGE, e.FLOW_UNBOUNDED):
        assert f"`{code}`" in doc
    assert f"over {flow_commands.MAX_REPEAT}" in doc and f"{flow_commands.MAX_FLOW_STEPS:,} steps" in doc
