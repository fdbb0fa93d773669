"""A gesture reaches the agent at most once, even though uiautomator2 itself would resend it after some failures.

These tests use uiautomator2's real ``Device`` class (through ``SendOnceDevice``), with only the transport
function ``uiautomator2.core._jsonrpc_call`` and the agent start/stop replaced: no phone is needed.
"""

from __future__ import annotations

from typing import Any

import adbutils
import pytest
import uiautomator2.core as u2_core
import uiautomator2.exceptions as u2e

from phonewire.devices.android.send_once import GESTURE_METHODS, SendOnceDevice, never_delivered


class Wire:
    """Scripted replies of the agent's JSON-RPC endpoint; records every call that was sent."""

    def __init__(self, *replies: Any) -> None:
        self.replies = list(replies)
        self.sent: list[tuple[str, Any]] = []

    def __call__(self, dev: Any, port: int, method: str, params: Any, *rest: Any) -> Any:  # (…, timeout, debug)
        self.sent.append((method, params))
        reply = self.replies.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        return reply


def connect_failure() -> u2e.HTTPError:
    try:
        try:
            raise adbutils.AdbError("device offline")
        except adbutils.AdbError as cause:
            raise u2e.HTTPError(f"Unable to connect to uiautomator2 server: {cause}") from cause
    except u2e.HTTPError as exc:
        return exc


def device(monkeypatch: pytest.MonkeyPatch, wire: Wire) -> tuple[SendOnceDevice, list[str]]:
    monkeypatch.setattr(u2_core, "_jsonrpc_call", wire)
    d = object.__new__(SendOnceDevice)  # skip __init__: it would look for a phone and start the agent
    d._dev = None
    d._device_server_port = 9008
    d._debug = False
    lifecycle: list[str] = []
    d.stop_uiautomator = lambda *a, **k: lifecycle.append("stop")
    d.start_uiautomator = lambda *a, **k: lifecycle.append("start")
    d.__dict__["settings"] = {"operation_delay": (0, 0), "operation_delay_methods": []}
    return d, lifecycle


def test_a_tap_whose_reply_failed_is_not_sent_again(monkeypatch: pytest.MonkeyPatch) -> None:
    wire = Wire(u2e.HTTPError("HTTP request failed: 500 Internal Server Error"), True)
    d, lifecycle = device(monkeypatch, wire)
    with pytest.raises(u2e.HTTPError):
        d.click(100, 200)
    assert wire.sent == [("click", (100, 200))]
    assert lifecycle == []


def test_a_tap_that_never_reached_the_agent_is_sent_once_after_a_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    wire = Wire(connect_failure(), True)
    d, lifecycle = device(monkeypatch, wire)
    d.click(100, 200)
    assert wire.sent == [("click", (100, 200))] * 2
    assert lifecycle == ["stop", "start"]


def test_uiautomation_not_connected_means_nothing_was_injected(monkeypatch: pytest.MonkeyPatch) -> None:
    wire = Wire(u2e.UiAutomationNotConnectedError("UiAutomation not connected"), True)
    d, lifecycle = device(monkeypatch, wire)
    d.press("home")
    assert wire.sent == [("pressKey", ("home",))] * 2
    assert lifecycle == ["stop", "start"]


def test_reads_keep_uiautomator2s_own_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    wire = Wire(u2e.HTTPError("HTTP request failed: 500"), "<hierarchy/>")
    d, lifecycle = device(monkeypatch, wire)
    assert d.jsonrpc_call("dumpWindowHierarchy", (False, 50)) == "<hierarchy/>"
    assert len(wire.sent) == 2 and lifecycle == ["stop", "start"]


def test_the_gesture_set_covers_what_the_backend_sends() -> None:
    # tap/double tap/long press → click + injectInputEvent, drag → injectInputEvent, keys → pressKey,
    # clipboard typing → pasteClipboard
    assert {"click", "injectInputEvent", "pressKey", "pasteClipboard"} <= GESTURE_METHODS
    assert never_delivered(connect_failure())
    assert not never_delivered(u2e.HTTPError("HTTP request failed: 500"))
