"""Command kinds, budgets, windows and the sets the runner and host decide by."""

from __future__ import annotations

import pytest

from phonewire.protocol import commands as c


@pytest.mark.parametrize("command", c.ALL_COMMANDS)
@pytest.mark.parametrize("scale", [1.0, 0.01, 3.0])
def test_every_client_window_strictly_exceeds_its_runner_budget(command: str, scale: float) -> None:
    timing = c.Timing(scale)
    assert timing.window(command) > timing.budget(command) > 0


@pytest.mark.parametrize(
    ("command", "budget", "window"),
    [
        ("type", 55, 60),
        ("tap", 75, 90),
        ("longPress", 75, 90),
        ("drag", 75, 90),
        ("snapshot", 30, 45),
        ("viewport", 30, 45),
        ("screenshot", 30, 45),
        ("launchApp", 30, 45),
    ],
)
def test_budgets_and_windows_are_those_of_the_protocol(command: str, budget: float, window: float) -> None:
    assert (c.Timing().budget(command), c.Timing().window(command)) == (budget, window)


def test_time_scale_multiplies_budgets_windows_and_the_wedge_threshold() -> None:
    timing = c.Timing(0.5)
    assert (timing.budget("tap"), timing.window("tap"), timing.wedge_threshold) == (37.5, 45.0, 60.0)


@pytest.mark.parametrize(("raw", "value"), [("", 1.0), ("0.02", 0.02), (" 2 ", 2.0)])
def test_time_scale_from_the_environment(raw: str, value: float) -> None:
    assert c.time_scale({"PHONEWIRE_TIME_SCALE": raw}) == value
    assert c.time_scale({}) == 1.0


@pytest.mark.parametrize("raw", ["0", "-1", "nan", "inf", "fast"])
def test_time_scale_must_be_positive_and_finite(raw: str) -> None:
    with pytest.raises(ValueError, match="PHONEWIRE_TIME_SCALE"):
        c.time_scale({"PHONEWIRE_TIME_SCALE": raw})


def test_command_sets_are_consistent() -> None:
    every = set(c.ALL_COMMANDS)
    assert len(every) == len(c.ALL_COMMANDS)
    assert set(c.EXTENSION_COMMANDS) == {
        "uptime",
        "launchApp",
        "terminateApp",
        "listApps",
        "openUrl",
        "reset",
        "key",
        "setValue",
        "scroll",
        "logs",
        "network",
        "recordStart",
        "recordStop",
        "selectText",
        "getClipboard",
        "setClipboard",
        "rotate",
        "setLocation",
        "setConnectivity",
        "setPermissions",
        "setAppearance",
        "pickFile",
        "pinch",
        "hideKeyboard",
    }
    for subset in (c.APP_SCOPED, c.APP_LIFECYCLE, c.READ_ONLY, c.TRANSPORT_PATH, c.NOT_RETAINED, c.MUTATING):
        assert subset <= every
    assert not c.READ_ONLY & c.MUTATING
    assert every == c.READ_ONLY | c.MUTATING
    assert {"snapshot", "screenshot", "logs", "network"} == c.NOT_RETAINED
    assert c.NOT_RETAINED <= c.READ_ONLY
    assert {"status", "uptime"} == c.TRANSPORT_PATH
    assert not c.APP_SCOPED & c.APP_LIFECYCLE


def test_journal_and_framing_limits() -> None:
    assert (c.JOURNAL_MAX_ENTRIES, c.JOURNAL_MAX_RETAINED_BYTES, c.MAX_REQUEST_BYTES) == (64, 16384, 2097152)
    assert c.WEDGE_THRESHOLD_S == 120.0
