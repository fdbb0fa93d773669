"""Failure mapping (one table, every lower-layer exception mapped) and device discovery through the adb server."""

from __future__ import annotations

import asyncio
import http.client
import inspect
from typing import Any

import adbutils
import adbutils.errors as adb_errors
import pytest
import uiautomator2.exceptions as u2e
from android_agent_double import AgentDouble, FakeAdb

from phonewire.devices import create_device
from phonewire.devices.android.device import AndroidDevice
from phonewire.devices.android.discovery import AdbEntry, choose_serial, list_devices
from phonewire.devices.android.errors import ADB_LOST, AGENT_LOST, HELD, HINT_ADB, HINT_AGENT, HINT_HELD, map_exception
from phonewire.devices.android.hierarchy import HierarchyError
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

GENERIC_PREFIX = "the Android backend failed"


@pytest.mark.parametrize(
    ("exc", "code", "cause", "hint"),
    [
        (u2e.AccessibilityServiceAlreadyRegisteredError("already registered"), e.DEVICE_UNAVAILABLE, HELD, HINT_HELD),
        (u2e.UiAutomationNotConnectedError("UiAutomation not connected"), e.DEVICE_UNAVAILABLE, AGENT_LOST, HINT_AGENT),
        (u2e.LaunchUiAutomationError("server quit unexpectly"), e.DEVICE_UNAVAILABLE, AGENT_LOST, HINT_AGENT),
        (u2e.HTTPError("Unable to connect to uiautomator2 server"), e.DEVICE_UNAVAILABLE, AGENT_LOST, HINT_AGENT),
        (u2e.HTTPTimeoutError("timeout"), e.DEVICE_UNAVAILABLE, AGENT_LOST, HINT_AGENT),
        (http.client.RemoteDisconnected("closed"), e.DEVICE_UNAVAILABLE, AGENT_LOST, HINT_AGENT),
        (ConnectionResetError(104, "reset"), e.DEVICE_UNAVAILABLE, AGENT_LOST, HINT_AGENT),
        (TimeoutError("timed out"), e.DEVICE_UNAVAILABLE, AGENT_LOST, HINT_AGENT),
        (adbutils.AdbError("device 'x' not found"), e.DEVICE_UNAVAILABLE, ADB_LOST, HINT_ADB),
        (adbutils.AdbTimeout("adb read timeout"), e.DEVICE_UNAVAILABLE, ADB_LOST, HINT_ADB),
        (adb_errors.AdbConnectionError("connect to adb server failed"), e.DEVICE_UNAVAILABLE, ADB_LOST, HINT_ADB),
        (u2e.AdbShellError("shell failed"), e.DEVICE_UNAVAILABLE, ADB_LOST, HINT_ADB),
        (u2e.ConnectError("device x not online"), e.DEVICE_UNAVAILABLE, ADB_LOST, HINT_ADB),
        (u2e.HierarchyEmptyError("empty"), e.SNAPSHOT_FAILED, None, None),
        (HierarchyError("not XML"), e.SNAPSHOT_FAILED, None, None),
        (u2e.InputIMEError("install AdbKeyboard ime failed"), e.COMMAND_FAILED, None, None),
        (u2e.AdbBroadcastError("broadcast failed"), e.COMMAND_FAILED, None, None),
        (u2e.AppNotFoundError("App not installed", "com.x"), e.APP_UNKNOWN, None, None),
        (u2e.RPCUnknownError("Unknown RPC error: -32001"), e.COMMAND_FAILED, None, None),
        (RuntimeError("a bug"), e.COMMAND_FAILED, None, None),
    ],
)
def test_each_lower_layer_failure_maps_to_its_code_and_hint(
    exc: Exception, code: str, cause: str | None, hint: str | None
) -> None:
    mapped = map_exception(exc)
    assert mapped.error.code == code
    assert mapped.cause == cause
    if hint is not None:
        assert mapped.error.hint == hint
    assert mapped.error.hint, "every mapped error tells the agent what to do"


def test_every_uiautomator2_exception_class_has_a_specific_mapping() -> None:
    classes: list[Any] = [
        cls
        for _, cls in inspect.getmembers(u2e, inspect.isclass)
        if issubclass(cls, u2e.BaseException) and cls not in (u2e.BaseException, u2e.DeviceError, u2e.RPCError)
    ]
    assert len(classes) >= 19
    for cls in classes:
        mapped = map_exception(cls("x"))
        assert not mapped.error.message.startswith(GENERIC_PREFIX), cls.__name__
        assert mapped.error.code in e.RUNNER_CODES


def test_protocol_errors_pass_through_unchanged() -> None:
    original = ProtocolError(e.TEXT_INPUT_NOT_FOCUSED, "no focus", "tap a field")
    assert map_exception(original).error is original


# --- discovery ------------------------------------------------------------------------------------------------------
def unavailable(entries: list[AdbEntry], wanted: str | None) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        choose_serial(entries, wanted)
    assert info.value.code == e.DEVICE_UNAVAILABLE and info.value.hint
    return info.value


def test_the_only_ready_device_is_chosen_without_a_serial() -> None:
    assert choose_serial([AdbEntry("R58M123", "device"), AdbEntry("emulator-5556", "offline")], None) == "R58M123"


def test_a_named_serial_is_chosen_among_several() -> None:
    entries = [AdbEntry("R58M123", "device"), AdbEntry("emulator-5554", "device")]
    assert choose_serial(entries, "emulator-5554") == "emulator-5554"


def test_no_device_at_all() -> None:
    error = unavailable([], None)
    assert error.message == "no Android device is connected to adb"
    assert "USB debugging" in (error.hint or "")


def test_several_devices_without_a_serial_name_them_all() -> None:
    error = unavailable([AdbEntry("R58M123", "device"), AdbEntry("emulator-5554", "device")], None)
    assert "2 adb devices" in error.message
    assert "--device android:SERIAL" in (error.hint or "") and "R58M123, emulator-5554" in (error.hint or "")


def test_an_unauthorized_device_asks_for_the_prompt_to_be_accepted() -> None:
    for wanted in (None, "R58M123"):
        error = unavailable([AdbEntry("R58M123", "unauthorized")], wanted)
        assert error.message == "adb device R58M123 is unauthorized"
        assert "Allow USB debugging" in (error.hint or "")


def test_an_offline_device_asks_for_a_reconnect() -> None:
    error = unavailable([AdbEntry("emulator-5554", "offline")], "emulator-5554")
    assert error.message == "adb device emulator-5554 is offline"
    assert "adb reconnect" in (error.hint or "")


def test_a_serial_that_is_not_listed_names_the_ones_that_are() -> None:
    error = unavailable([AdbEntry("R58M123", "device")], "emulator-5554")
    assert "'emulator-5554'" in error.message and "R58M123 (device)" in (error.hint or "")


def test_an_unreachable_adb_server_is_device_unavailable() -> None:
    with pytest.raises(ProtocolError) as info:
        list_devices(FakeAdb(error=adb_errors.AdbConnectionError("connect to adb server failed")))
    assert info.value.code == e.DEVICE_UNAVAILABLE
    assert "adb server is not reachable" in info.value.message
    assert isinstance(info.value.__cause__, adb_errors.AdbConnectionError)


def test_open_refuses_an_unauthorized_device_without_starting_the_agent() -> None:
    connected: list[str] = []

    def connect(serial: str) -> AgentDouble:
        connected.append(serial)
        return AgentDouble()

    device = AndroidDevice(None, adb=FakeAdb(("R58M123", "unauthorized")), connect=connect)
    with pytest.raises(ProtocolError) as info:
        asyncio.run(device.open())
    assert info.value.code == e.DEVICE_UNAVAILABLE and connected == []


def test_an_agent_that_cannot_start_at_open_is_mapped() -> None:
    def connect(serial: str) -> AgentDouble:
        raise u2e.AccessibilityServiceAlreadyRegisteredError("UiAutomationService already registered!")

    device = AndroidDevice("R58M123", adb=FakeAdb(("R58M123", "device")), connect=connect)
    with pytest.raises(ProtocolError) as info:
        asyncio.run(device.open())
    assert (info.value.code, info.value.hint) == (e.DEVICE_UNAVAILABLE, HINT_HELD)


def test_the_device_spec_selects_the_serial() -> None:
    device = create_device("android:emulator-5554")
    assert isinstance(device, AndroidDevice) and device.kind == "android"
    assert device.describe()["serial"] is None  # nothing is touched before open()
    assert isinstance(create_device("android"), AndroidDevice)
