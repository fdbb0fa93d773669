"""Session rules whose trigger the double cannot produce, against a scripted runner on a real loopback socket.

The scripted runner answers each request with whatever the test's script returns (an envelope, or ``None`` to
hang up without replying), so the host under test is the real one end to end: transport, rules, diagnostics.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from phonewire.host import HostError, HostSession
from phonewire.host import diagnostics as d
from phonewire.host import rules as r
from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing
from phonewire.protocol.errors import ProtocolError

Script = Callable[[dict[str, Any]], dict[str, Any] | None]
APP = "app.nav"


def ok(data: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"ok": True, "data": data or {}}


def err(code: str, message: str = "m", hint: str | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if hint:
        error["hint"] = hint
    return {"ok": False, "error": error}


def screen(*labels: str) -> dict[str, Any]:
    nodes = [
        {"index": i, "type": "Button", "label": label, "rect": {"x": 0, "y": 40 * i, "width": 100, "height": 40}}
        for i, label in enumerate(labels)
    ]
    return ok({"nodes": nodes, "quality": {"state": "healthy", "backend": "scripted"}})


@contextlib.asynccontextmanager
async def scripted_runner(script: Script) -> AsyncIterator[list[dict[str, Any]]]:
    """Yields the list of received request bodies; the server stops on exit."""
    received: list[dict[str, Any]] = []
    tasks: set[asyncio.Task[None]] = set()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
            )
            body = json.loads(await reader.readexactly(length))
            received.append(body)
            answer = script(body)
            if answer is not None:
                payload = json.dumps(answer).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(payload))
                writer.write(payload)
                await writer.drain()
        finally:
            writer.close()

    writers: list[asyncio.StreamWriter] = []

    def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)  # closed at teardown even if its task is cancelled before it ever ran
        task = asyncio.ensure_future(handle(reader, writer))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    received.append({"port": server.sockets[0].getsockname()[1]})
    try:
        yield received
    finally:
        server.close()
        for task in list(tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        for writer in writers:
            writer.close()
        await server.wait_closed()


def run(script: Script, scenario: Callable[[HostSession, list[dict[str, Any]]], Any], scale: float = 1.0) -> None:
    async def main() -> None:
        async with scripted_runner(script) as received:
            port = received.pop(0)["port"]
            address = f"127.0.0.1:{port}"
            env = dict(os.environ, PHONEWIRE_RUNNER_TOKEN="scripted-runner-token")
            async with HostSession(runner_addr=address, timing=Timing(scale), write_diagnostics=False, env=env) as host:
                await scenario(host, received)

    asyncio.run(main())


def commands(received: list[dict[str, Any]]) -> list[str]:
    return [b["command"] for b in received]


# --- XCTEST_RECORDED_FAILURE after a tap -----------------------------------------------------------------------------
def recorded_failure_script(after_tap: dict[str, Any]) -> Script:
    state = {"tapped": False}

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        if body["command"] == "tap":
            state["tapped"] = True
            return err(e.XCTEST_RECORDED_FAILURE, "Failed to get matching snapshot", "re-observe")
        if body["command"] == "snapshot":
            return after_tap if state["tapped"] else screen("Navigate to Details", "Settings")
        return ok({"uptimeMs": 1})

    return script


def test_recorded_failure_with_changed_screen_is_success_with_an_explicit_warning() -> None:
    """lifecycle: one post-action capture; a changed digest is reported as success with an explicit warning."""

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        await host.send("snapshot", {"appBundleId": APP})
        reply = await host.send("tap", {"appBundleId": APP, "x": 5, "y": 5})
        assert reply.ok and reply.warning == r.RECORDED_FAILURE_WARNING
        assert commands(received).count("snapshot") == 2  # exactly one post-action capture
        assert commands(received).count("tap") == 1
        [event] = host.diagnostics(event=d.RECORDED_FAILURE)
        assert (event["successWithWarning"], event["reason"]) == (True, r.EVIDENCE_CHANGED)

    run(recorded_failure_script(screen("Details", "Back to home")), scenario)


def test_recorded_failure_with_unchanged_screen_stays_the_original_failure() -> None:
    """lifecycle: unchanged evidence remains the original failure."""

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        await host.send("snapshot", {"appBundleId": APP})
        with pytest.raises(ProtocolError) as info:
            await host.send("tap", {"appBundleId": APP, "x": 5, "y": 5})
        assert (info.value.code, info.value.hint) == (e.XCTEST_RECORDED_FAILURE, "re-observe")
        assert host.diagnostics(event=d.RECORDED_FAILURE)[-1]["reason"] == r.EVIDENCE_UNCHANGED

    run(recorded_failure_script(screen("Navigate to Details", "Settings")), scenario)


def test_recorded_failure_without_a_retained_snapshot_takes_no_capture() -> None:
    """lifecycle: with no usable retained snapshot there is no post-action capture; the failure stands."""

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        with pytest.raises(ProtocolError) as info:
            await host.send("tap", {"appBundleId": APP, "x": 5, "y": 5})
        assert info.value.code == e.XCTEST_RECORDED_FAILURE
        assert "snapshot" not in commands(received)
        assert host.diagnostics(event=d.RECORDED_FAILURE)[-1]["reason"] == r.EVIDENCE_NO_BASELINE

    run(recorded_failure_script(screen("Details")), scenario)


# --- recovery paths ---------------------------------------------------------------------------------------------------
def test_mutating_command_completed_without_retained_reply_fails_with_a_reobserve_hint() -> None:
    """issue 4: completed without a reply → a mutating command fails with a hint to re-observe; session kept."""

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        if body["command"] == "drag":
            return None  # hang up without a reply
        if body["command"] == "status" and "statusCommandId" in body:
            return ok({"commandId": body["statusCommandId"], "state": "completed", "responseOk": True})
        return ok({"uptimeMs": 1})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        with pytest.raises(HostError) as info:
            await host.send("drag", {"appBundleId": APP, "fromX": 1, "fromY": 1, "toX": 2, "toY": 2})
        assert info.value.code == e.TRANSPORT_FAILED
        assert info.value.hint is not None and "snapshot" in info.value.hint.lower()
        assert commands(received).count("drag") == 1
        assert host.diagnostics(event=d.INVALIDATION) == []
        runner = host.runner
        await host.send("listApps")
        assert host.runner is runner

    run(script, scenario)


def test_status_probe_uses_the_original_command_id() -> None:
    """recovery: one bounded status probe with the original commandId."""

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        if body["command"] == "type":
            return None
        if body["command"] == "status":
            return ok({"state": "completed", "responseJson": json.dumps(ok({"message": "typed"}))})
        return ok({})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        reply = await host.send("type", {"appBundleId": APP, "text": "hi"})
        assert reply.data == {"message": "typed"}
        [sent] = [b for b in received if b["command"] == "type"]
        [probe] = [b for b in received if b["command"] == "status"]
        assert probe["statusCommandId"] == sent["commandId"]
        assert len(sent["commandId"]) == 32  # client-stamped uuid4 hex

    run(script, scenario)


def test_unconfirmed_lifecycle_reset_discards_the_runner() -> None:
    """lifecycle: if the reset after a relaunch cannot be confirmed, the runner session is discarded."""

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        if body["command"] == "reset":
            return err(e.COMMAND_FAILED, "reset failed")
        return ok({"appBundleId": APP})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        first = host.runner
        reply = await host.send("launchApp", {"appBundleId": APP})  # relaunch: the launch itself succeeded
        assert reply.ok
        assert commands(received).count("reset") == 1
        assert first is not None and first.invalidated
        assert first.invalidation_reason == r.INVALIDATE_RESET_UNCONFIRMED
        await host.send("listApps")
        assert host.runner is not first

    run(script, scenario)


def test_runner_fatal_reply_never_earns_the_preflight_skip() -> None:
    """lifecycle: the record is written only after the runnerFatal check."""

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        if body["command"] == "tap":
            return ok({"message": "tapped", "runnerFatal": True})
        return ok({})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        for _ in range(3):
            await host.send("tap", {"appBundleId": APP, "x": 1, "y": 1})
        assert commands(received).count("uptime") == 3

    run(script, scenario)


def test_busy_runner_gives_up_after_three_attempts_and_says_so() -> None:
    """issue 4: RUNNER_BUSY retried (nothing ran) at most 3 attempts, each with a fresh command id."""

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        if body["command"] == "snapshot":
            return err(e.RUNNER_BUSY, "busy", "wait")
        return ok({})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        with pytest.raises(ProtocolError) as info:
            await host.send("snapshot", {"appBundleId": APP})
        assert info.value.code == e.RUNNER_BUSY
        ids = [b["commandId"] for b in received if b["command"] == "snapshot"]
        assert len(ids) == 3 and len(set(ids)) == 3

    run(script, scenario, scale=0.01)  # short backoffs


def test_cancelled_send_clears_the_healthy_record() -> None:
    """lifecycle: an uncertain send never leaves a recency record behind; the next tap preflights."""

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        return ok({})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        await host.send("tap", {"appBundleId": APP, "x": 1, "y": 1})
        runner = host.runner
        recorded = None if runner is None else runner.last_healthy_mutation
        assert runner is not None and recorded is not None
        task = asyncio.ensure_future(host.send("tap", {"appBundleId": APP, "x": 1, "y": 1}))
        await asyncio.sleep(0)  # let it reach the transport
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert runner.last_healthy_mutation is None
        await host.send("listApps")  # the runner has accepted (and will close) the abandoned connection by now

    run(script, scenario)


@pytest.mark.parametrize("command", ["status", "uptime"])
def test_a_readiness_probe_whose_reply_is_lost_is_retried_like_any_read_only_command(command: str) -> None:
    """issue 4: read-only commands retry on retryable transport errors.  status and uptime carry no commandId, so
    there is no journal to ask: the retry is the recovery."""
    calls = {"n": 0}

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        if body["command"] == command:
            calls["n"] += 1
            if calls["n"] == 1:
                return None  # hang up without a reply
        return ok({"uptimeMs": 7, "state": "idle"})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        reply = await host.send(command)
        assert reply.ok and reply.data is not None and reply.data["uptimeMs"] == 7
        assert commands(received).count(command) == 2
        [retry] = host.diagnostics(event=d.RETRY)
        assert (retry["retry"], retry["reason"]) == (True, "readOnlyReplyLost")
        assert host.diagnostics(event=d.INVALIDATION) == []

    run(script, scenario, scale=0.01)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), object()], ids=["NaN", "Infinity", "object"])
def test_fields_that_are_not_json_are_invalid_request_with_a_hint_and_nothing_is_sent(bad: object) -> None:
    """brief: bad input gets a specific error code and a hint, never a bare ValueError / TypeError from the
    encoder; the runner is never asked."""

    def script(body: dict[str, Any]) -> dict[str, Any] | None:
        return ok({})

    async def scenario(host: HostSession, received: list[dict[str, Any]]) -> None:
        await host.send("listApps")
        with pytest.raises(ProtocolError) as info:
            await host.send("tap", {"appBundleId": APP, "x": bad, "y": 1})
        assert info.value.code == e.INVALID_REQUEST and info.value.hint
        assert "tap" not in commands(received)
        assert host.diagnostics(event=d.INVALIDATION) == []

    run(script, scenario)
