"""Issue 15 item 3: a reply that says the device or runner restarted (stateReset) is shown by every front end,
on results and errors alike, and only once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

from agent_fakes import FakeSender, screen
from phonewire.agent.core import AgentSession
from phonewire.agent.results import STATE_RESET_NOTE
from phonewire.frontends.bridge.methods import error_reply
from phonewire.frontends.cli.verbs import Outcome, render_error, render_outcome
from phonewire.frontends.mcp_server import error_result
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, decode_envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect


class RestartedOnce(FakeSender):
    """The first reply carries stateReset (as the runner's first reply after a device restart does)."""

    def __init__(self) -> None:
        super().__init__(screen(RawNode("Button", label="Go", rect=Rect(0, 0, 90, 40))))
        self.pending = True

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        reply = await super().send(command, fields)
        if self.pending:
            self.pending = False
            return ok(reply.data, state_reset=True)
        return reply


def test_the_agent_core_marks_the_action_whose_reply_said_so_and_not_the_next() -> None:
    async def main() -> tuple[bool, bool, bool]:
        session = AgentSession(RestartedOnce(), app_id="app")
        first = await session.tap("Go")  # its snapshot reply carried the flag
        second = await session.tap("Go")
        view = await session.snapshot()
        return first.state_reset, second.state_reset, view.state_reset

    assert asyncio.run(main()) == (True, False, False)


def test_the_wire_flag_survives_decoding_on_ok_and_error_envelopes() -> None:
    assert decode_envelope({"ok": True, "data": {}, "stateReset": True}).state_reset
    failed = decode_envelope({"ok": False, "error": {"code": e.APP_NOT_AVAILABLE, "message": "m"}, "stateReset": True})
    assert failed.state_reset and failed.error is not None and failed.error.state_reset
    assert ok({}).to_json() == {"ok": True, "data": {}}  # a clean reply stays byte-identical


def test_the_cli_prints_a_note_line_and_a_json_field() -> None:
    text = render_outcome(Outcome({}, "ok tapped", state_reset=True), as_json=False)
    assert text.splitlines() == [f"note: {STATE_RESET_NOTE}", "ok tapped"]
    assert json.loads(render_outcome(Outcome({}, "x", state_reset=True), as_json=True))["stateReset"] is True
    error = ProtocolError(e.APP_NOT_AVAILABLE, "gone", "open it", state_reset=True)
    assert render_error(error, as_json=False).splitlines()[-1] == f"note: {STATE_RESET_NOTE}"
    assert json.loads(render_error(error, as_json=True))["stateReset"] is True
    assert "stateReset" not in render_error(ProtocolError(e.NOT_FOUND, "no"), as_json=True)


def test_mcp_and_bridge_errors_carry_the_field() -> None:
    error = ProtocolError(e.APP_NOT_AVAILABLE, "gone", "open it", state_reset=True)
    result = error_result(error)
    assert result.structured_content is not None and result.structured_content["stateReset"] is True
    assert STATE_RESET_NOTE in result.content[0].text  # type: ignore[union-attr]
    assert error_reply(7, error)["stateReset"] is True
    assert "stateReset" not in error_reply(7, ProtocolError(e.NOT_FOUND, "no"))
