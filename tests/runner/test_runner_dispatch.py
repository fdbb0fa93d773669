"""The exception-to-wire boundary for device work."""

from __future__ import annotations

import asyncio

import pytest

from phonewire.devices.base import AppState, IssueCounters
from phonewire.devices.double import DoubleDevice
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import parse_request
from phonewire.runner.dispatch import Dispatcher, map_exception
from phonewire.runner.handlers import HANDLERS


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


def test_the_runner_never_retries_a_command() -> None:
    device = DoubleDevice()
    device.states["crash"] = AppState.FOREGROUND
    envelope = asyncio.run(
        Dispatcher(device).run(parse_request({"command": "tap", "appBundleId": "crash", "x": 1, "y": 1}))
    )
    assert envelope.error is not None and envelope.error.code == e.COMMAND_FAILED
    assert device.calls == [("tap", "crash")]


class _CounterFailsAfterWork(DoubleDevice):
    """Reports its issue counters once (before the command), then fails to (after it)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def counters(self) -> IssueCounters:
        self.reads += 1
        if self.reads > 1:
            raise RuntimeError("counter read failed")
        return super().counters()


def test_a_mutation_that_ran_is_never_reported_failed_because_the_counter_read_after_it_failed() -> None:
    """issue 2 / send-once: the reply must tell the truth about a tap that happened — a failure reported for it
    invites the agent to tap again.  The counter only decides the warning."""
    device = _CounterFailsAfterWork()
    device.states["app.a"] = AppState.FOREGROUND
    envelope = asyncio.run(
        Dispatcher(device).run(parse_request({"command": "tap", "appBundleId": "app.a", "x": 1, "y": 1}))
    )
    assert device.taps == {"app.a": 1}
    assert envelope.ok is True
    assert envelope.data == {"message": "tapped (1, 1)"}


@pytest.mark.parametrize("code", [e.RUNNER_BUSY, e.RUNNER_WEDGED, e.COMMAND_ALREADY_COMPLETED, e.TRANSPORT_FAILED])
def test_a_backend_cannot_claim_a_code_only_the_runner_or_host_can_vouch_for(code: str) -> None:
    """send-once: RUNNER_BUSY / RUNNER_WEDGED promise that nothing ran (a host resends on them), and
    COMMAND_ALREADY_COMPLETED that it ran earlier; a backend raising one mid-command would make the host repeat a
    tap.  The one mapping turns it into COMMAND_FAILED naming the code."""
    device = DoubleDevice()
    device.states[f"fail.{code}"] = AppState.FOREGROUND
    envelope = asyncio.run(
        Dispatcher(device).run(parse_request({"command": "tap", "appBundleId": f"fail.{code}", "x": 1, "y": 1}))
    )
    assert envelope.error is not None
    assert envelope.error.code == e.COMMAND_FAILED
    assert code in envelope.error.message


class _MarkedDevice(DoubleDevice):
    """A double whose screen is its tap count and typed text (its change mark)."""

    async def change_mark(self, app_id: str | None) -> str | None:
        return f"{self.taps.get(app_id or '', 0)}:{self.typed.get(app_id or '', '')}"


def test_an_action_reply_says_whether_the_screen_changed_when_the_device_can_tell() -> None:
    async def replies() -> list[object]:
        marked, plain = _MarkedDevice(), DoubleDevice()
        for device in (marked, plain):
            device.states["app.a"] = AppState.FOREGROUND
        out: list[object] = []
        for device in (marked, plain):
            dispatcher = Dispatcher(device)
            for body in ({"command": "tap", "x": 1, "y": 2}, {"command": "keyboardReturn"}, {"command": "viewport"}):
                env = await dispatcher.run(parse_request({**body, "appBundleId": "app.a"}))
                out.append((env.data or {}).get("changed"))
        return out

    # tap counts (a change), return changes nothing here, viewport is no action; a device without marks: no field
    assert asyncio.run(replies()) == [True, False, None, None, None, None]
