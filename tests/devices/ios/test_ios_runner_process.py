"""The real ``phonewire runner --device ios:http://127.0.0.1:PORT`` process against the WDA double, through the host
session: every wire command, WDA calls per command, lost replies, a WDA that stops answering, a WDA that is absent.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from host_fault_proxy import Fault, FaultProxy, Plan, Rule, pass_all
from host_helpers import running_runner
from wda_double import FORM_APP, SETTINGS_APP, WdaDouble

from phonewire.host import HostSession
from phonewire.host import rules as r
from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing
from phonewire.protocol.errors import ProtocolError


@pytest.fixture
def wda() -> Iterator[WdaDouble]:
    with WdaDouble.with_fixture_apps() as double:
        yield double


def drive(
    wda: WdaDouble,
    scenario: Callable[[HostSession, FaultProxy], Awaitable[None]],
    rule: Rule = pass_all,
    *,
    scale: float = 1.0,
) -> None:
    """Runner process (ios:URL of the double) → fault proxy → HostSession; everything stopped afterwards."""

    async def main() -> None:
        async with running_runner(f"ios:{wda.url}", scale) as process, FaultProxy(process.port, rule) as proxy:
            env = dict(os.environ, PHONEWIRE_RUNNER_TOKEN=process.token)
            host = HostSession(runner_addr=proxy.address, timing=Timing(scale), write_diagnostics=False, env=env)
            try:
                await scenario(host, proxy)
            finally:
                await host.close()

    asyncio.run(main())


def wda_calls(wda: WdaDouble, mark: int) -> list[str]:
    return wda.routes()[mark:]


def test_the_runner_serves_every_wire_command_against_the_double_and_counts_wda_calls(wda: WdaDouble) -> None:
    per_command: dict[str, list[str]] = {}

    async def scenario(host: HostSession, _proxy: FaultProxy) -> None:
        async def send(label: str, command: str, fields: dict[str, Any] | None = None) -> Any:
            mark = len(wda.calls)
            try:
                return await host.send(command, fields)
            finally:
                per_command[label] = wda_calls(wda, mark)

        app = {"appBundleId": FORM_APP}
        assert (await send("launchApp", "launchApp", app)).data["state"] == "foreground"
        assert (await send("viewport", "viewport", app)).data == {"x": 0, "y": 0, "width": 375, "height": 667}
        assert (await send("tap", "tap", {**app, "x": 300, "y": 115})).ok
        assert (await send("type", "type", {**app, "text": "a@b.c"})).ok
        assert (await send("keyboardDelete", "keyboardDelete", app)).ok
        assert (await send("keyboardReturn", "keyboardReturn", app)).ok
        snap = (await send("snapshot", "snapshot", app)).data
        field = next(n for n in snap["nodes"] if n["label"] == "hoge@example.com")
        assert field["value"] == "a@b." and snap["quality"]["backend"] == "ios-wda"
        assert (await send("tap x2", "tap", {**app, "x": 10, "y": 300, "numberOfTaps": 2})).ok
        assert (await send("longPress", "longPress", {**app, "x": 10, "y": 300, "durationMs": 600})).ok
        assert (await send("drag", "drag", {**app, "fromX": 180, "fromY": 600, "toX": 180, "toY": 200})).ok
        shot = (await send("screenshot", "screenshot", {"scale": "css"})).data
        assert (shot["format"], shot["width"], shot["height"]) == ("png", 375, 667)
        apps = {a["appBundleId"]: a["state"] for a in (await send("listApps", "listApps")).data["apps"]}
        assert apps[FORM_APP] == "foreground"
        assert (await send("openUrl", "openUrl", {"url": "prefs:root=General"})).data["appBundleId"] == SETTINGS_APP
        # the form app is in the background now: a tap re-fronts it first and says so
        reactivated = await send("tap (background app)", "tap", {**app, "x": 10, "y": 300})
        assert reactivated.ok and reactivated.envelope.reactivated is True
        assert (await send("button home", "button", {"button": "home"})).ok
        with pytest.raises(ProtocolError) as back:
            await send("button back", "button", {"button": "back"})
        assert back.value.code == e.UNSUPPORTED_OPERATION and back.value.hint
        with pytest.raises(ProtocolError) as background:
            await send("snapshot (background)", "snapshot", app)
        assert background.value.code == e.APP_BACKGROUNDED
        assert (await send("reset", "reset")).data["reset"] is True
        assert (await send("terminateApp", "terminateApp", app)).data == {"appBundleId": FORM_APP, "wasRunning": True}
        status = (await send("status", "status")).data
        assert status["device"]["kind"] == "ios" and status["device"]["url"] == wda.url

    drive(wda, scenario)
    # a tap right after an observation (viewport, snapshot) of the app in front: one call, the tap itself
    assert per_command["tap"] == ["POST /wda/tap"]
    assert per_command["tap x2"] == ["POST /actions"]
    assert per_command["longPress"] == ["POST /wda/apps/state", "POST /wda/touchAndHold"]  # a tap came between
    assert per_command["type"] == ["POST /wda/apps/state", "GET /element/active", "POST /wda/keys"]
    assert per_command["snapshot"] == ["POST /wda/apps/state", "GET /source", "GET /alert/text"]
    assert per_command["tap (background app)"] == ["POST /wda/apps/state", "POST /wda/apps/activate", "POST /wda/tap"]
    assert per_command["status"] == []
    print("\nWDA calls per wire command:\n" + "\n".join(f"  {k}: {len(v)} {v}" for k, v in per_command.items()))


def test_a_lost_tap_reply_is_recovered_and_wda_saw_exactly_one_tap(wda: WdaDouble) -> None:
    def rule(_index: int, body: dict[str, Any]) -> Plan:
        return Plan(Fault.DROP_REPLY) if body.get("command") == "tap" else Plan(Fault.PASS)

    async def scenario(host: HostSession, _proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": SETTINGS_APP})
        reply = await host.send("tap", {"appBundleId": SETTINGS_APP, "x": 50, "y": 300})
        assert reply.ok and reply.recovered == r.RECOVERED_COMPLETED

    drive(wda, scenario, rule)
    assert wda.count("POST /wda/tap") == 1


def test_a_wda_that_stops_answering_fails_the_command_status_still_answers_and_it_recovers(wda: WdaDouble) -> None:
    async def scenario(host: HostSession, _proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": SETTINGS_APP})
        wda.stop_answering()
        with pytest.raises(ProtocolError) as failed:
            await host.send("tap", {"appBundleId": SETTINGS_APP, "x": 50, "y": 300})
        assert failed.value.code == e.DEVICE_UNAVAILABLE and "stopped answering" in failed.value.message
        assert failed.value.hint
        assert (await host.send("status")).ok  # the runner's loop is never blocked by WDA
        wda.resume()
        await asyncio.sleep(1.0)  # let the abandoned call drain
        again = await host.send("tap", {"appBundleId": SETTINGS_APP, "x": 60, "y": 300})
        assert again.ok

    drive(wda, scenario, scale=0.1)
    # The call that hung was the runner's app-state probe before the first tap, so that tap never reached WDA and was
    # never resent; the next tap arrived once.
    assert wda.bodies("POST /wda/tap") == [{"x": 60, "y": 300}]


def test_a_runner_without_a_wda_at_the_url_exits_with_a_clear_error() -> None:
    import socket

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    result = subprocess.run(
        [sys.executable, "-m", "phonewire", "runner", "--device", f"ios:http://127.0.0.1:{port}"],
        env=dict(os.environ, PHONEWIRE_RUNNER_PORT="0"), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode != 0 and "PHONEWIRE_RUNNER_LISTENING" not in result.stdout
    assert f"WebDriverAgent is not running at http://127.0.0.1:{port}" in result.stderr
