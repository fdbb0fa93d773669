"""Session traces (phonewire.agent.trace) over a scripted CommandSender: one step per operation call, the resolved
target with a selector that finds it again, errors, redaction, private files, and nothing left when stopped."""

from __future__ import annotations

import asyncio
import base64
import json
import stat
from pathlib import Path
from typing import Any

import pytest

from agent_fakes import FakeSender, screen
from phonewire.agent import trace
from phonewire.agent.core import AgentSession
from phonewire.agent.operations import OPERATIONS
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

JPEG = b"\xff\xd8\xff\xe0fake-jpeg"


class ShotSender(FakeSender):
    async def send(self, command: str, fields: Any = None) -> Envelope:
        if command == "screenshot":
            self.sent.append((command, dict(fields or {})))
            return ok({"imageBase64": base64.b64encode(JPEG).decode()})
        return await super().send(command, fields)


def form() -> list[dict[str, Any]]:
    return screen(
        RawNode("TextField", label="Name", identifier="name", rect=Rect(0, 100, 300, 40)),
        RawNode("SecureTextField", label="Password", rect=Rect(0, 150, 300, 40), focused=True),
        RawNode("Button", label="Sign in", rect=Rect(0, 200, 120, 40)),
        RawNode("Button", label="Sign in", rect=Rect(0, 400, 120, 40)),
        RawNode("Button", label="Help", rect=Rect(0, 300, 120, 40)),
    )


def traced(tmp_path: Path) -> tuple[AgentSession, ShotSender, Path]:
    sender = ShotSender(form())
    agent = AgentSession(sender, app_id="dev.phonewire.demo")
    directory = tmp_path / "trace"
    asyncio.run(agent.trace_start(str(directory)))
    return agent, sender, directory


def steps(directory: Path) -> list[dict[str, Any]]:
    return trace.read_steps(directory)


def test_each_operation_call_is_one_step_with_target_selector_result_view_and_screenshot(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    asyncio.run(agent.tap("label=Help"))
    (step,) = steps(directory)
    assert step["op"] == "tap"
    assert step["args"] == {"target": "label=Help", "count": 1}
    assert step["target"]["selector"] == 'role=Button label="Help"'
    assert step["target"]["rect"] == {"x": 0, "y": 300, "width": 120, "height": 40}
    assert "result" in step and "error" not in step
    assert step["ms"] >= 0
    assert "@e" in step["view"] and '"Help"' in step["view"]
    assert (directory / step["shot"]).read_bytes() == JPEG


def test_an_id_is_the_preferred_selector_and_a_ref_target_is_recorded_by_its_selector(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    view = asyncio.run(agent.snapshot())
    ref = next(r for r, n in view.refs.items() if n.get("identifier") == "name")
    asyncio.run(agent.tap("@" + ref))
    snap, tap = steps(directory)
    assert snap["op"] == "snapshot" and "target" not in snap
    assert tap["args"]["target"] == "@" + ref
    assert tap["target"]["selector"] == 'id="name"'


def test_twins_get_no_unique_selector(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    view = asyncio.run(agent.snapshot())
    ref = next(r for r, n in view.refs.items() if n.get("label") == "Sign in")
    asyncio.run(agent.tap("@" + ref))
    assert "selector" not in steps(directory)[-1]["target"]


def test_a_failed_operation_is_a_step_with_its_error_and_still_raises(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    with pytest.raises(ProtocolError) as info:
        asyncio.run(agent.tap("label=Nowhere"))
    assert info.value.code == e.NOT_FOUND
    (step,) = steps(directory)
    assert step["error"]["code"] == e.NOT_FOUND and "result" not in step


def test_text_typed_into_a_password_field_never_reaches_the_trace(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    asyncio.run(agent.fill("label=Password", "hunter22"))
    asyncio.run(agent.type("more-secret"))  # the focused field is the password field
    asyncio.run(agent.fill("label=Name", "Ada"))
    secret_fill, secret_type, plain = steps(directory)
    assert secret_fill["args"]["text"] == trace.REDACTED and secret_fill["secret"] is True
    assert secret_type["args"]["text"] == trace.REDACTED
    assert plain["args"]["text"] == "Ada" and "secret" not in plain
    raw = (directory / trace.STEPS_FILE).read_text()
    assert "hunter22" not in raw and "more-secret" not in raw


def test_an_operation_inside_another_is_not_a_step_of_its_own(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    asyncio.run(agent.scroll("down"))  # reads the viewport first
    assert [s["op"] for s in steps(directory)] == ["scroll"]


def test_trace_files_are_private(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    asyncio.run(agent.tap("label=Help"))
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((directory / "shots").stat().st_mode) == 0o700
    for path in [directory / trace.STEPS_FILE, *directory.glob("shots/*")]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_tracing_observes_the_session_and_replaces_none_of_its_methods(tmp_path: Path) -> None:
    agent, sender, directory = traced(tmp_path)
    assert agent.observers.watching == [trace.recorder_of(agent)]
    assert not any(op.method in vars(agent) for op in OPERATIONS.values()) and "_find" not in vars(agent)
    # every operation of the table but the trace's own is a step its observers see
    assert all(
        getattr(getattr(AgentSession, op.method), "__operation__", None) is op
        for op in OPERATIONS.values()
        if op.name not in trace.CONTROL_OPS
    )
    stopped = asyncio.run(agent.trace_stop())
    assert stopped.data["steps"] == 0
    assert agent.observers.watching == []
    sent = len(sender.sent)
    asyncio.run(agent.tap("label=Help"))
    assert steps(directory) == []
    # no screenshot, no look of the trace's own: the target's snapshot, the tap, the look after it (its diff)
    assert [c for c, _ in sender.sent[sent:]] == ["snapshot", "tap", "snapshot"]


def test_a_torn_last_line_is_skipped_when_reading(tmp_path: Path) -> None:
    agent, _, directory = traced(tmp_path)
    asyncio.run(agent.tap("label=Help"))
    with (directory / trace.STEPS_FILE).open("a") as f:
        f.write('{"kind": "step", "n": 2, "op": "ta')
    assert [s["n"] for s in steps(directory)] == [1]
    header = json.loads((directory / trace.STEPS_FILE).read_text().splitlines()[0])
    assert header["kind"] == "trace" and header["version"] == trace.VERSION


def test_screenshots_rotate_beyond_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "MAX_SHOTS", 2)
    agent, _, directory = traced(tmp_path)
    for _ in range(4):
        asyncio.run(agent.tap("label=Help"))
    assert sorted(p.name for p in (directory / "shots").iterdir()) == [
        "00003-before.jpg", "00003.jpg", "00004-before.jpg", "00004.jpg"]  # fmt: skip
    assert len(steps(directory)) == 4


class ObservingSender(ShotSender):
    """A device that keeps logs and requests: each command ``log`` / ``request`` queues one entry."""

    def __init__(self, nodes: list[dict[str, Any]]) -> None:
        super().__init__(nodes)
        self.kept: dict[str, list[dict[str, Any]]] = {"logs": [], "network": []}

    def happen(self, command: str, entry: dict[str, Any]) -> None:
        self.kept[command].append({"seq": len(self.kept[command]), **entry})

    async def send(self, command: str, fields: Any = None) -> Envelope:
        if command in self.kept:
            self.sent.append((command, dict(fields or {})))
            since = int((fields or {}).get("since", 0))
            entries = [x for x in self.kept[command] if x["seq"] >= since]
            key = "entries" if command == "logs" else "requests"
            return ok({key: entries, "next": len(self.kept[command]), "dropped": 0})
        return await super().send(command, fields)


def test_a_mutating_step_has_a_before_screen_and_the_logs_and_requests_that_arrived_during_it(tmp_path: Path) -> None:
    sender = ObservingSender(form())
    sender.happen("logs", {"kind": "console", "level": "log", "text": "before tracing"})
    agent = AgentSession(sender, app_id="dev.phonewire.demo")
    directory = tmp_path / "trace"
    asyncio.run(agent.trace_start(str(directory)))
    sender.happen("logs", {"kind": "console", "level": "log", "text": "tapped help"})
    sender.happen("network", {"method": "GET", "url": "http://127.0.0.1/help.json", "status": 200, "size": 10})
    asyncio.run(agent.tap("label=Help"))
    asyncio.run(agent.snapshot())
    tap, snap = steps(directory)
    assert [x["text"] for x in tap["console"]] == ["tapped help"]  # not what was logged before tracing started
    assert [r["url"] for r in tap["network"]] == ["http://127.0.0.1/help.json"]
    assert (directory / tap["before"]).read_bytes() == JPEG and tap["before"] == "shots/00001-before.jpg"
    assert "console" not in snap and "network" not in snap  # each entry once
    assert "before" not in snap  # a read changes nothing: the previous step's screen shows it


def test_a_device_without_logs_is_not_asked_again_and_an_untraced_session_never_asks(tmp_path: Path) -> None:
    class Refusing(ShotSender):
        async def send(self, command: str, fields: Any = None) -> Envelope:
            if command in ("logs", "network"):
                self.sent.append((command, dict(fields or {})))
                raise ProtocolError(e.UNSUPPORTED_OPERATION, "no logs here", "Use screenshots.")
            return await super().send(command, fields)

    sender = Refusing(form())
    agent = AgentSession(sender, app_id="dev.phonewire.demo")
    asyncio.run(agent.tap("label=Help"))
    assert sender.commands("logs") == sender.commands("network") == []
    asyncio.run(agent.trace_start(str(tmp_path / "trace")))
    asyncio.run(agent.tap("label=Help"))
    asyncio.run(agent.tap("label=Help"))
    assert len(sender.commands("logs")) == len(sender.commands("network")) == 1  # asked once, at the start
    assert len(steps(tmp_path / "trace")) == 2


def test_another_apps_console_and_requests_stay_out_of_the_trace(tmp_path: Path) -> None:
    sender = ObservingSender(form())
    agent = AgentSession(sender, app_id="dev.phonewire.demo")
    directory = tmp_path / "trace"
    asyncio.run(agent.trace_start(str(directory)))
    sender.happen("logs", {"kind": "console", "level": "log", "text": "mine", "app": "dev.phonewire.demo"})
    sender.happen("logs", {"kind": "console", "level": "log", "text": "bank token 42", "app": "https://bank.example/"})
    sender.happen("network", {"method": "GET", "url": "https://bank.example/?token=42", "app": "https://bank.example/"})
    sender.happen("network", {"method": "GET", "url": "http://127.0.0.1/help.json", "app": "dev.phonewire.demo"})
    asyncio.run(agent.tap("label=Help"))
    (tap,) = steps(directory)
    assert [x["text"] for x in tap["console"]] == ["mine"]
    assert [r["url"] for r in tap["network"]] == ["http://127.0.0.1/help.json"]
    assert b"bank" not in (directory / "trace.jsonl").read_bytes()
