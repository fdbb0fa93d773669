"""AndroidDevice's command mapping, with uiautomator2's device object replaced by a recording double.

Density 420 dpi (2.625 px per point) and a 1080x2400 px screen unless a test says otherwise.
"""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import adbutils
import pytest
import uiautomator2.exceptions as u2e
from android_agent_double import LAUNCHER, AgentDouble, FakeAdb, FakeClock
from PIL import Image

from phonewire.devices.android.device import FOREGROUND_WAIT_S, AndroidDevice
from phonewire.devices.android.errors import HINT_ADB, HINT_AGENT, HINT_HELD
from phonewire.devices.android.hierarchy import parse_hierarchy
from phonewire.devices.base import AppInfo, AppState
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Rect, build_snapshot

FIXTURES = Path(__file__).parent / "fixtures"
SIGNUP = (FIXTURES / "android-signup-form-textfields-appium-uiautomator2.xml").read_text(encoding="utf-8")
HOMEE = (FIXTURES / "android-homee-welcome-multiwindow-dumpwindowhierarchy.xml").read_text(encoding="utf-8")
SHOP = "com.example.shop"
T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def focused(xml: str) -> str:
    """The sign-up form with its first EditText focused."""
    head, sep, tail = xml.partition('class="android.widget.EditText"')
    return head + sep + tail.replace('focused="false"', 'focused="true"', 1)


def opened(agent: AgentDouble | None = None, serial: str | None = None) -> tuple[AndroidDevice, AgentDouble]:
    agent = agent or AgentDouble()
    clock = agent.clock or FakeClock()
    agent.clock = clock
    connected: list[str] = []

    def connect(s: str) -> AgentDouble:
        connected.append(s)
        return agent

    device = AndroidDevice(
        serial, adb=FakeAdb(("emulator-5554", "device")), connect=connect, sleep=clock.sleep, clock=clock
    )
    run(device.open())
    assert connected == ["emulator-5554"]
    agent.calls.clear()
    return device, agent


def protocol_error(coro: Coroutine[Any, Any, Any]) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        run(coro)
    return info.value


# --- open, describe, close -----------------------------------------------------------------------------------------
def test_open_reads_size_and_density_from_wm() -> None:
    device, _ = opened()
    assert device.serial == "emulator-5554"
    assert device.density == 2.625
    assert device.describe() == {
        "kind": "android",
        "serial": "emulator-5554",
        "backend": "uiautomator2",
        "density": 2.625,
        "screen": {"width": 411.4, "height": 914.3},
        "lastFailure": None,
    }
    assert device.health() is None


def test_without_wm_density_the_agents_display_info_gives_pixels_per_dp() -> None:
    device, _ = opened(AgentDouble(dpi=0))  # "Physical density: 0" is unusable
    assert device.density == 1080 / 411


def test_close_stops_the_agent_once_and_never_raises() -> None:
    device, agent = opened()
    agent.fail["stop_uiautomator"] = u2e.HTTPError("gone")
    run(device.close())
    run(device.close())
    assert agent.calls == [("stop_uiautomator", False)]
    assert device.health() == "the Android device was closed"
    error = protocol_error(device.tap(SHOP, 1, 1))
    assert error.code == e.DEVICE_UNAVAILABLE and "closed" in error.message


# --- gestures: points in, pixels out ---------------------------------------------------------------------------
def test_tap_converts_points_to_pixels_and_clicks_once() -> None:
    device, agent = opened()
    run(device.tap(SHOP, 100, 200.5))
    assert agent.calls == [("click", 262, 526)]  # 100 x 2.625 = 262.5 -> 262 (banker's), 200.5 x 2.625 = 526.3


def test_two_taps_are_one_double_tap_and_more_are_separate_taps() -> None:
    device, agent = opened()
    run(device.tap(SHOP, 10, 10, taps=2))
    assert agent.names() == ["double_click"]
    agent.calls.clear()
    run(device.tap(SHOP, 10, 10, taps=3))
    assert agent.calls == [("click", 26, 26)] * 3


def test_long_press_holds_for_the_duration_in_seconds() -> None:
    device, agent = opened()
    run(device.long_press(SHOP, 40, 80, 800))
    assert agent.calls == [("long_click", 105, 210, 0.8)]


def test_drag_holds_moves_at_the_implied_velocity_settles_then_lifts() -> None:
    device, agent = opened()
    clock = agent.clock
    assert clock is not None
    began = clock.now
    run(device.drag(SHOP, (100, 400), (100, 100), duration_ms=300, hold_ms=500, settle_ms=200))
    assert agent.calls[0] == ("touch.down", 262, 1050)
    assert agent.calls[-1] == ("touch.up", 262, 262)
    moves = [c for c in agent.calls if c[0] == "touch.move"]
    assert moves[-1] == ("touch.move", 262, 262)
    ys = [m[2] for m in moves]
    assert ys == sorted(ys, reverse=True) and len(moves) >= 10  # monotonic, in small steps
    assert clock.slept[0] == 0.5 and clock.slept[-1] == 0.2  # hold first, settle last
    assert clock.now - began == pytest.approx(0.5 + 0.3 + 0.2)


def test_drag_ends_even_when_the_clock_stands_still() -> None:
    device, agent = opened()
    device._clock = lambda: 5.0  # a clock that never moves must not make the drag spin forever
    run(device.drag(SHOP, (0, 0), (100, 0), duration_ms=1000, hold_ms=0, settle_ms=0))
    moves = [c for c in agent.calls if c[0] == "touch.move"]
    assert len(moves) == int(1.0 / 0.016) + 2 and moves[-1] == ("touch.move", 262, 0)
    assert agent.names()[-1] == "touch.up"


def test_drag_lifts_the_finger_even_when_a_move_fails() -> None:
    device, agent = opened()
    agent.fail["touch.move"] = u2e.HTTPError("connection reset")
    error = protocol_error(device.drag(SHOP, (1, 1), (2, 2), duration_ms=100, hold_ms=0, settle_ms=0))
    assert error.code == e.DEVICE_UNAVAILABLE
    assert agent.names()[-1] == "touch.up"


# --- typing and keys -------------------------------------------------------------------------------------------------
def test_type_sends_full_unicode_through_the_agent_after_the_focus_probe() -> None:
    device, agent = opened(AgentDouble(xml=focused(SIGNUP)))
    text = "日本語 ß café 👋 \u200a"
    run(device.type_text(SHOP, text))
    assert agent.calls == [("dump_hierarchy",), ("send_keys", text)]


def test_type_without_a_focused_text_field_answers_text_input_not_focused_and_types_nothing() -> None:
    device, agent = opened(AgentDouble(xml=SIGNUP))
    error = protocol_error(device.type_text(SHOP, "hello"))
    assert error.code == e.TEXT_INPUT_NOT_FOCUSED and error.hint
    assert "send_keys" not in agent.names()


def test_a_focus_probe_that_fails_does_not_block_typing() -> None:
    device, agent = opened(AgentDouble(xml=SIGNUP))
    agent.fail["dump_hierarchy"] = u2e.RPCUnknownError("dump failed")
    run(device.type_text(SHOP, "x"))
    assert agent.names() == ["dump_hierarchy", "send_keys"]


def test_keyboard_return_and_delete_press_enter_and_del_behind_the_probe() -> None:
    device, agent = opened(AgentDouble(xml=focused(SIGNUP)))
    run(device.keyboard_return(SHOP))
    run(device.keyboard_delete(SHOP))
    assert [c for c in agent.calls if c[0] == "press"] == [("press", "enter"), ("press", "del")]
    agent.xml = SIGNUP
    assert protocol_error(device.keyboard_delete(SHOP)).code == e.TEXT_INPUT_NOT_FOCUSED
    assert protocol_error(device.keyboard_return(SHOP)).code == e.TEXT_INPUT_NOT_FOCUSED


@pytest.mark.parametrize(
    ("button", "key"), [("home", "home"), ("back", "back"), ("volumeUp", "volume_up"), ("volumeDown", "volume_down")]
)
def test_buttons_press_their_key(button: str, key: str) -> None:
    device, agent = opened()
    run(device.button(button))
    assert agent.calls == [("press", key)]


def test_the_action_button_is_unsupported_and_presses_nothing() -> None:
    device, agent = opened()
    assert protocol_error(device.button("actionButton")).code == e.UNSUPPORTED_OPERATION
    assert agent.calls == []


# --- observation ---------------------------------------------------------------------------------------------------
def test_snapshot_is_the_parsed_dump_against_the_viewport_in_points() -> None:
    device, agent = opened(AgentDouble(xml=HOMEE))
    snapshot = run(device.snapshot("de.vorwerk.homee.homee"))
    assert agent.calls == [("dump_hierarchy",)]
    expected = build_snapshot(
        parse_hierarchy(HOMEE, 2.625, "de.vorwerk.homee.homee").root, Rect(0, 0, 1080 / 2.625, 2400 / 2.625), "x"
    )
    assert len(snapshot["nodes"]) == len(expected["nodes"]) == 37
    assert snapshot["nodes"][0]["rect"] == {"x": 0, "y": 0, "width": 411.4, "height": 914.3}
    assert snapshot["quality"] == {"state": "healthy", "backend": "uiautomator2"}


def test_snapshot_of_a_rotated_screen_swaps_the_viewport() -> None:
    device, _ = opened(AgentDouble(xml=HOMEE.replace('<hierarchy rotation="0">', '<hierarchy rotation="1">')))
    snapshot = run(device.snapshot("de.vorwerk.homee.homee"))
    assert snapshot["nodes"][0]["rect"] == {"x": 0, "y": 0, "width": 914.3, "height": 411.4}


def test_an_unreadable_dump_answers_snapshot_failed() -> None:
    device, _ = opened(AgentDouble(xml="<hierarchy><node></hierarchy>"))
    error = protocol_error(device.snapshot(SHOP))
    assert error.code == e.SNAPSHOT_FAILED
    assert device.health() is None


def test_viewport_is_the_window_size_in_points() -> None:
    device, agent = opened(AgentDouble(size=(1080, 2400)))
    assert run(device.viewport(SHOP)) == Rect(0, 0, 1080 / 2.625, 2400 / 2.625)
    assert agent.calls == [("window_size",)]


@pytest.mark.parametrize(
    ("fmt", "scale", "magic", "size"),
    [
        ("png", "device", b"\x89PNG\r\n\x1a\n", (1080, 2400)),
        ("png", "css", b"\x89PNG\r\n\x1a\n", (411, 914)),
        ("jpeg", "device", b"\xff\xd8\xff", (1080, 2400)),
    ],
)
def test_screenshot_formats_and_scales(fmt: str, scale: str, magic: bytes, size: tuple[int, int]) -> None:
    device, _ = opened()
    shot = run(device.screenshot(format=fmt, scale=scale, quality=60))
    assert shot.data.startswith(magic)
    assert (shot.format, shot.width, shot.height) == (fmt, *size)


def test_a_css_screenshot_of_a_tablet_at_density_1_fits_1568_on_its_long_side() -> None:
    """2560 × 1600 pixels at 160 dpi is 2560 × 1600 points: scaled to 1568 × 980, not sent at 2560."""
    device, _ = opened(AgentDouble(size=(2560, 1600), dpi=160))
    shot = run(device.screenshot(format="jpeg", scale="css"))
    assert (shot.width, shot.height) == (1568, 980)
    assert Image.open(io.BytesIO(shot.data)).size == (1568, 980)
    full = run(device.screenshot(format="png", scale="device"))
    assert (full.width, full.height) == (2560, 1600)  # device scale is never capped


# --- apps ---------------------------------------------------------------------------------------------------------
def test_app_state_from_the_foreground_package_and_running_processes() -> None:
    device, agent = opened()
    assert run(device.app_state(LAUNCHER)) is AppState.FOREGROUND
    assert run(device.app_state("com.android.settings")) is AppState.NOT_RUNNING
    agent.running.add(SHOP)
    assert run(device.app_state(SHOP)) is AppState.BACKGROUND
    agent.foreground = "com.android.systemui"  # the notification shade or a system dialog in front
    assert run(device.app_state(SHOP)) is AppState.FOREGROUND
    error = protocol_error(device.app_state("com.example.missing"))
    assert error.code == e.APP_UNKNOWN


def test_no_focused_window_means_nothing_is_in_front_not_a_lost_phone() -> None:
    device, agent = opened()
    agent.running.add(SHOP)
    agent.fail["app_current"] = adbutils.AdbError("Couldn't get focused app")
    assert run(device.app_state(SHOP)) is AppState.BACKGROUND


def test_an_app_id_that_is_not_a_package_name_is_unknown_without_touching_the_phone() -> None:
    device, agent = opened()
    for bad in ("https://example.com", "shop; reboot", "noDots"):
        assert protocol_error(device.app_state(bad)).code == e.APP_UNKNOWN
    assert agent.calls == []


def test_launch_app_starts_it_and_waits_until_it_is_in_front() -> None:
    device, agent = opened()
    reply = run(device.launch_app(SHOP))
    assert reply == {"appBundleId": SHOP, "state": "foreground", "wasRunning": False}
    assert ("app_start", SHOP) in agent.calls
    assert agent.foreground == SHOP


def test_launch_app_with_clear_state_clears_its_data_with_pm_clear_before_starting_it() -> None:
    device, agent = opened()
    agent.running.add(SHOP)
    run(device.launch_app(SHOP))
    assert agent.data[SHOP] == {"cart", "cookies"}  # a plain launch keeps what the app stored
    reply = run(device.launch_app(SHOP, clear_state=True))
    assert reply == {"appBundleId": SHOP, "state": "foreground", "wasRunning": True, "stateCleared": True}
    assert SHOP not in agent.data
    clear = agent.calls.index(("shell", ("pm", "clear", SHOP)))
    assert agent.calls.index(("app_start", SHOP), clear) > clear  # cleared first, then started
    assert agent.foreground == SHOP


def test_launch_app_whose_data_cannot_be_cleared_fails_and_starts_nothing() -> None:
    device, agent = opened(AgentDouble(protected={SHOP}))
    error = protocol_error(device.launch_app(SHOP, clear_state=True))
    assert error.code == e.COMMAND_FAILED
    assert "pm clear" in error.message
    assert "app_start" not in agent.names()
    assert agent.data[SHOP] == {"cart", "cookies"}


def test_launch_app_of_an_uninstalled_package_is_unknown_and_starts_nothing() -> None:
    device, agent = opened()
    assert protocol_error(device.launch_app("com.example.missing")).code == e.APP_UNKNOWN
    assert "app_start" not in agent.names()


def test_an_app_that_never_reaches_the_front_fails_after_the_wait() -> None:
    device, agent = opened(AgentDouble(fronts_on_start=False))
    clock = agent.clock
    assert clock is not None
    began = clock.now
    error = protocol_error(device.launch_app(SHOP))
    assert error.code == e.COMMAND_FAILED
    assert clock.now - began >= FOREGROUND_WAIT_S


def test_activate_brings_a_running_app_to_the_front() -> None:
    device, agent = opened()
    agent.running.add(SHOP)
    run(device.activate(SHOP))
    assert agent.calls[0] == ("app_start", SHOP)
    assert agent.foreground == SHOP


def test_terminate_app_stops_it_and_says_whether_it_ran() -> None:
    device, agent = opened()
    agent.running.add(SHOP)
    assert run(device.terminate_app(SHOP)) == {"appBundleId": SHOP, "wasRunning": True}
    assert ("app_stop", SHOP) in agent.calls
    assert run(device.terminate_app(SHOP)) == {"appBundleId": SHOP, "wasRunning": False}


def test_list_apps_gives_running_and_third_party_apps_with_states() -> None:
    device, _ = opened()
    apps = run(device.list_apps())
    assert apps == [
        AppInfo("com.android.systemui", AppState.BACKGROUND),
        AppInfo(SHOP, AppState.NOT_RUNNING),
        AppInfo(LAUNCHER, AppState.FOREGROUND),
    ]


def test_open_url_sends_a_view_intent_and_names_the_app_that_shows_it() -> None:
    device, agent = opened()
    url = "https://example.com/a?b=1&c=ü"
    assert run(device.open_url(url)) == {"appBundleId": "com.android.chrome", "url": url}
    assert agent.calls[0] == ("shell", ("am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", url))


def test_open_url_without_a_handler_or_scheme() -> None:
    device, agent = opened(AgentDouble(url_activity=""))
    assert protocol_error(device.open_url("market://details?id=x")).code == e.APP_UNKNOWN
    agent.calls.clear()
    assert protocol_error(device.open_url("example.com")).code == e.INVALID_REQUEST
    assert agent.calls == []


def test_reset_rereads_the_display_and_restarts_the_agent_if_needed() -> None:
    device, agent = opened()
    agent.dpi = 480
    assert run(device.reset()) == {"reset": True, "density": 3.0}
    assert agent.names() == ["start_uiautomator", "shell", "shell"]


# --- failures: mapped once, the device keeps serving -----------------------------------------------------------------
def test_agent_death_is_device_unavailable_and_the_next_command_restarts_the_agent() -> None:
    device, agent = opened()
    cause = u2e.HTTPError("Unable to connect to uiautomator2 server")
    agent.fail["click"] = cause
    error = protocol_error(device.tap(SHOP, 1, 1))
    assert (error.code, error.hint) == (e.DEVICE_UNAVAILABLE, HINT_AGENT)
    assert error.__cause__ is cause
    assert device.health() is None, "the runner keeps serving: the next command is the recovery"
    assert device.describe()["lastFailure"] == error.message
    run(device.tap(SHOP, 1, 1))
    assert agent.names() == ["click", "start_uiautomator", "click"]
    assert device.describe()["lastFailure"] is None
    run(device.tap(SHOP, 1, 1))
    assert agent.names().count("start_uiautomator") == 1


def test_adb_disconnect_is_device_unavailable_with_the_adb_hint() -> None:
    device, agent = opened()
    agent.fail["app_current"] = adbutils.AdbError("device 'emulator-5554' not found")
    error = protocol_error(device.app_state(SHOP))
    assert (error.code, error.hint) == (e.DEVICE_UNAVAILABLE, HINT_ADB)


def test_uiautomation_held_by_another_client_has_its_own_hint() -> None:
    device, agent = opened()
    agent.fail["dump_hierarchy"] = u2e.AccessibilityServiceAlreadyRegisteredError("already registered")
    error = protocol_error(device.snapshot(SHOP))
    assert (error.code, error.hint) == (e.DEVICE_UNAVAILABLE, HINT_HELD)


def test_a_failed_restart_is_reported_and_tried_again_on_the_following_command() -> None:
    device, agent = opened()
    agent.fail["click"] = ConnectionResetError("reset by peer")
    protocol_error(device.tap(SHOP, 1, 1))
    agent.fail["start_uiautomator"] = u2e.LaunchUiAutomationError("server not ready")
    assert protocol_error(device.tap(SHOP, 1, 1)).code == e.DEVICE_UNAVAILABLE
    run(device.tap(SHOP, 1, 1))
    assert agent.names() == ["click", "start_uiautomator", "start_uiautomator", "click"]


def test_library_calls_run_in_a_worker_thread_and_never_block_the_event_loop() -> None:
    release = threading.Event()
    device, agent = opened()
    loop_thread: list[int] = []
    call_thread: list[int] = []

    def blocking_click(x: int, y: int) -> None:
        call_thread.append(threading.get_ident())
        release.wait(5)

    agent.click = blocking_click  # type: ignore[method-assign]

    async def scenario() -> int:
        loop_thread.append(threading.get_ident())
        ticks = 0
        tap = asyncio.ensure_future(device.tap(SHOP, 1, 1))
        while not call_thread:
            await asyncio.sleep(0.001)
        for _ in range(5):  # the loop keeps running while the click blocks its thread
            await asyncio.sleep(0)
            ticks += 1
        release.set()
        await tap
        return ticks

    assert run(scenario()) == 5
    assert call_thread[0] != loop_thread[0]
