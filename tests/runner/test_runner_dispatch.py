"""The exception-to-wire boundary for device work."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from phonewire.devices.base import AppState
from phonewire.devices.double import DoubleDevice
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import parse_request
from phonewire.runner.dispatch import HANDLERS, Dispatcher, map_exception


@pytest.mark.parametrize("exc", [RuntimeError("x"), KeyError("k"), OSError(5, "io"), TimeoutError(), ValueError("v")])
def test_every_non_protocol_exception_maps_to_command_failed_naming_it(exc: Exception) -> None:
    mapped = map_exception(exc)
    assert mapped.code == e.COMMAND_FAILED
    assert type(exc).__name__ in mapped.message
    assert mapped.hint


def test_a_protocol_error_keeps_its_code_message_and_hint() -> None:
    original = ProtocolError(e.TEXT_INPUT_NOT_FOCUSED, "no focus", "tap a field")
    assert map_exception(original) is original


def test_every_device_command_has_exactly_one_handler() -> None:
    assert set(HANDLERS) == set(c.ALL_COMMANDS) - {c.STATUS, c.UPTIME, c.SHUTDOWN}


def test_warning_is_never_stamped_on_read_only_commands() -> None:
    device = DoubleDevice()
    device.states["noisy"] = AppState.FOREGROUND

    async def both() -> tuple[bool, bool]:
        dispatcher = Dispatcher(device)
        read = await dispatcher.run(parse_request({"command": "viewport", "appBundleId": "noisy"}))
        write = await dispatcher.run(parse_request({"command": "keyboardReturn", "appBundleId": "noisy"}))
        return read.warning is None, write.warning is not None

    assert asyncio.run(both()) == (True, True)
    assert device.suppressed == 2


class FlakySnapshots(DoubleDevice):
    """Snapshots fail with the scripted errors first, then succeed."""

    def __init__(self, failures: list[Exception]) -> None:
        super().__init__()
        self.failures = failures
        self.snapshots = 0
        self.states["app.flaky"] = AppState.FOREGROUND

    async def snapshot(self, app_id: str) -> dict[str, Any]:
        self.snapshots += 1
        if self.failures:
            raise self.failures.pop(0)
        return await super().snapshot(app_id)


def snapshot_with(failures: list[Exception]) -> tuple[Envelope, int]:
    device = FlakySnapshots(failures)
    dispatcher = Dispatcher(device, snapshot_retry_pause=0.0)
    envelope = asyncio.run(dispatcher.run(parse_request({"command": "snapshot", "appBundleId": "app.flaky"})))
    return envelope, device.snapshots


def test_a_snapshot_capture_that_throws_is_retried_once() -> None:
    envelope, attempts = snapshot_with([RuntimeError("tree changed")])
    assert envelope.ok
    assert attempts == 2


def test_a_snapshot_failing_twice_reports_the_second_failure() -> None:
    envelope, attempts = snapshot_with([RuntimeError("one"), ProtocolError(e.SNAPSHOT_FAILED, "two")])
    assert envelope.error is not None
    assert (envelope.error.code, envelope.error.message) == (e.SNAPSHOT_FAILED, "two")
    assert attempts == 2


def test_a_snapshot_protocol_error_other_than_snapshot_failed_is_not_retried() -> None:
    envelope, attempts = snapshot_with([ProtocolError(e.APP_UNKNOWN, "gone")])
    assert envelope.error is not None and envelope.error.code == e.APP_UNKNOWN
    assert attempts == 1


def test_no_other_command_retries() -> None:
    device = DoubleDevice()
    device.states["crash"] = AppState.FOREGROUND
    envelope = asyncio.run(
        Dispatcher(device).run(parse_request({"command": "tap", "appBundleId": "crash", "x": 1, "y": 1}))
    )
    assert envelope.error is not None and envelope.error.code == e.COMMAND_FAILED
    assert device.calls == [("tap", "crash")]
