"""The CLI's trace words: `trace start DIR` / `trace stop` (two-word verbs from the table), the global `--trace DIR`
resolved against the caller's working directory, and the offline `trace view` / `trace export` usage errors."""

from __future__ import annotations

import asyncio
from pathlib import Path

from agent_fakes import FakeSender, screen
from phonewire.agent import trace
from phonewire.agent.core import AgentSession
from phonewire.frontends.cli import verbs
from phonewire.frontends.cli.main import main as cli_main
from phonewire.protocol.snapshot import RawNode, Rect


def _context(agent: AgentSession, cwd: Path) -> verbs.Context:
    async def session() -> AgentSession:
        return agent

    return verbs.Context(session, cwd=str(cwd))


def _agent() -> AgentSession:
    nodes = screen(RawNode("Button", label="Help", identifier="help", rect=Rect(0, 300, 120, 40)))
    return AgentSession(FakeSender(nodes), app_id="dev.phonewire.demo")


def test_trace_start_and_stop_are_verbs_and_the_directory_is_the_callers(tmp_path: Path) -> None:
    agent = _agent()
    inv = verbs.parse_argv(["trace", "start", "runs/one"])
    assert inv.verb == "trace start" and inv.args == ["runs/one"]
    out = asyncio.run(verbs.execute(inv, _context(agent, tmp_path)))
    assert out.text == f"ok tracing to {tmp_path / 'runs' / 'one'}"
    asyncio.run(verbs.execute(verbs.parse_argv(["tap", "id=help"]), _context(agent, tmp_path)))
    stopped = asyncio.run(verbs.execute(verbs.parse_argv(["trace", "stop"]), _context(agent, tmp_path)))
    assert stopped.data["steps"] == 1
    assert [s["op"] for s in trace.read_steps(tmp_path / "runs" / "one")] == ["tap"]


def test_the_global_trace_flag_binds_tracing_from_that_call_on(tmp_path: Path) -> None:
    agent = _agent()
    ctx = _context(agent, tmp_path)
    asyncio.run(verbs.execute(verbs.parse_argv(["--trace", "t", "tap", "id=help"]), ctx))
    asyncio.run(verbs.execute(verbs.parse_argv(["tap", "id=help"]), ctx))  # still traced: bound to the session
    steps = trace.read_steps(tmp_path / "t")
    assert [s["target"]["selector"] for s in steps] == ['id="help"', 'id="help"']


def test_offline_trace_commands_report_usage_and_missing_traces(tmp_path: Path) -> None:
    assert cli_main(["trace", "export", str(tmp_path)]) == 2  # no --pytest
    assert cli_main(["trace", "view", str(tmp_path), "-o", str(tmp_path / "r.html")]) == 3  # no trace there
