"""The Android backend under the runner's real dispatcher: wire requests in, envelopes out (phone replaced by the
recording double).  Checks the reactivation contract and that the runner keeps serving after device failures."""

from __future__ import annotations

import asyncio
from typing import Any

import uiautomator2.exceptions as u2e
from android_agent_double import LAUNCHER, AgentDouble
from test_android_device import SHOP, opened

from phonewire.protocol import errors as e
from phonewire.protocol.request import parse_request
from phonewire.runner.dispatch import Dispatcher


def send(dispatcher: Dispatcher, body: dict[str, Any]) -> dict[str, Any]:
    envelope = asyncio.run(dispatcher.run(parse_request(body)))
    return envelope.to_json()


def test_a_tap_on_a_background_app_refronts_it_and_is_stamped_reactivated() -> None:
    device, agent = opened(AgentDouble())
    agent.running.add(SHOP)  # running, launcher in front
    reply = send(Dispatcher(device), {"command": "tap", "appBundleId": SHOP, "x": 10, "y": 20})
    assert reply["ok"] is True and reply["reactivated"] is True
    assert agent.names()[-2:] == ["app_current", "click"]
    assert ("app_start", SHOP) in agent.calls and agent.foreground == SHOP


def test_a_snapshot_of_a_background_app_never_refronts_it() -> None:
    device, agent = opened(AgentDouble())
    agent.running.add(SHOP)
    reply = send(Dispatcher(device), {"command": "snapshot", "appBundleId": SHOP})
    assert reply["ok"] is False and reply["error"]["code"] == e.APP_BACKGROUNDED
    assert "app_start" not in agent.names() and agent.foreground == LAUNCHER


def test_commands_for_an_app_that_is_not_running_answer_app_not_available() -> None:
    device, agent = opened(AgentDouble())
    reply = send(Dispatcher(device), {"command": "tap", "appBundleId": "com.android.settings", "x": 1, "y": 1})
    assert reply["error"]["code"] == e.APP_NOT_AVAILABLE
    assert "click" not in agent.names()


def test_the_runner_keeps_serving_after_the_agent_dies() -> None:
    device, agent = opened(AgentDouble())
    dispatcher = Dispatcher(device)
    agent.fail["press"] = u2e.HTTPError("HTTP request failed: 500")
    first = send(dispatcher, {"command": "button", "button": "home"})
    assert first["ok"] is False and first["error"]["code"] == e.DEVICE_UNAVAILABLE
    assert "restarts it on the next command" in first["error"]["hint"]
    second = send(dispatcher, {"command": "button", "button": "home"})
    assert second == {"ok": True, "data": {"message": "pressed home"}}
    assert agent.names() == ["press", "start_uiautomator", "press"]


def test_launch_snapshot_and_list_apps_over_the_dispatcher() -> None:
    device, _ = opened(AgentDouble(xml='<hierarchy rotation="0"/>'))
    dispatcher = Dispatcher(device)
    launched = send(dispatcher, {"command": "launchApp", "appBundleId": SHOP})
    assert launched["data"] == {"appBundleId": SHOP, "state": "foreground", "wasRunning": False}
    snapshot = send(dispatcher, {"command": "snapshot", "appBundleId": SHOP})
    assert snapshot["data"]["nodes"][0]["identifier"] == SHOP
    apps = send(dispatcher, {"command": "listApps"})["data"]["apps"]
    assert {"appBundleId": SHOP, "state": "foreground"} in apps
