"""The iOS backend against the WDA double over real loopback HTTP: every command maps to the right WDA calls.

The double's screens are the recorded XML sources; its JSON source is derived from them (see wda_double.py).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest
from PIL import Image
from wda_double import CALENDAR_APP, FORM_APP, SETTINGS_APP, WdaDouble

from phonewire.devices.base import AppState
from phonewire.devices.ios.device import STATE_FRESH_S, IosDevice
from phonewire.devices.ios.source import parse_xml_source
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import build_snapshot

T = TypeVar("T")


@pytest.fixture
def wda() -> Iterator[WdaDouble]:
    with WdaDouble.with_fixture_apps() as double:
        yield double


def run(double: WdaDouble, scenario: Callable[[IosDevice], Awaitable[T]], *, scale: float = 1.0) -> T:
    async def main() -> T:
        device = IosDevice(double.url, scale=scale)
        await device.open()
        try:
            return await scenario(device)
        finally:
            await device.close()

    return asyncio.run(main())


def since(double: WdaDouble, mark: int) -> list[str]:
    return double.routes()[mark:]


def test_open_checks_status_and_opens_one_session_without_an_app_with_wrapped_settings(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> dict[str, Any]:
        return device.describe()

    described = run(wda, scenario)
    assert wda.routes() == ["GET /status", "POST /session", "POST /appium/settings", "GET /wda/screen", "DELETE "]
    caps = wda.capabilities[0]["capabilities"]["alwaysMatch"]
    assert "bundleId" not in caps and caps["shouldWaitForQuiescence"] is False
    assert wda.bodies("POST /appium/settings")[0]["settings"]["animationCoolOffTimeout"] == 0
    assert described["url"] == wda.url and described["simulator"] is True and described["screenScale"] == 2
    assert not wda.sessions  # close deleted it


def test_one_tap_sends_exactly_one_wda_tap_at_the_point(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> list[str]:
        await device.launch_app(SETTINGS_APP)
        mark = len(wda.calls)
        await device.tap(SETTINGS_APP, 195.5, 178)
        return since(wda, mark)

    assert run(wda, scenario) == ["POST /wda/tap"]
    assert wda.bodies("POST /wda/tap") == [{"x": 195.5, "y": 178}]


def test_a_double_tap_is_one_w3c_pointer_sequence_never_tap_with_number_of_taps(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> list[str]:
        await device.launch_app(SETTINGS_APP)
        mark = len(wda.calls)
        await device.tap(SETTINGS_APP, 100, 200, taps=2)
        return since(wda, mark)

    assert run(wda, scenario) == ["POST /actions"]
    steps = wda.bodies("POST /actions")[0]["actions"][0]["actions"]
    assert [s["type"] for s in steps].count("pointerDown") == 2 and steps[0] == {
        "type": "pointerMove", "duration": 0, "x": 100, "y": 200}  # fmt: skip
    assert not any("tapWithNumberOfTaps" in r for r in wda.routes())


def test_long_press_and_drag_use_touch_and_hold_and_press_and_drag_with_velocity(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> None:
        await device.long_press(SETTINGS_APP, 10, 20, 800)
        await device.drag(SETTINGS_APP, (200, 700), (200, 300), duration_ms=500, hold_ms=100, settle_ms=50)

    run(wda, scenario)
    assert wda.bodies("POST /wda/touchAndHold") == [{"x": 10, "y": 20, "duration": 0.8}]
    assert wda.bodies("POST /wda/pressAndDragWithVelocity") == [{
        "fromX": 200, "fromY": 700, "toX": 200, "toY": 300, "pressDuration": 0.1, "holdDuration": 0.05,
        "velocity": 800.0}]  # fmt: skip


def test_typing_needs_a_focused_element_and_then_edits_it(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> list[dict[str, Any]]:
        await device.launch_app(FORM_APP)
        with pytest.raises(ProtocolError) as info:
            await device.type_text(FORM_APP, "lost")
        assert info.value.code == e.TEXT_INPUT_NOT_FOCUSED and info.value.hint
        assert wda.count("POST /wda/keys") == 0  # WDA would type into nothing: the probe stopped it
        await device.tap(FORM_APP, 300, 115)  # the mail field
        mark = len(wda.calls)
        await device.type_text(FORM_APP, "me@example.org")
        assert since(wda, mark) == ["GET /element/active", "POST /wda/keys"]
        await device.keyboard_delete(FORM_APP)
        await device.keyboard_return(FORM_APP)
        nodes: list[dict[str, Any]] = (await device.snapshot(FORM_APP))["nodes"]
        return nodes

    nodes = run(wda, scenario)
    field = next(n for n in nodes if n["type"] == "TextField" and n["label"] == "hoge@example.com")
    assert field["value"] == "me@example.or" and field["focused"] is True
    assert wda.bodies("POST /wda/keys") == [{"value": ["me@example.org"]}, {"value": ["\b"]}, {"value": ["\n"]}]


def test_snapshot_is_the_json_source_plus_an_alert_probe_and_matches_the_xml_fixture(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> tuple[dict[str, Any], list[str]]:
        await device.launch_app(CALENDAR_APP)
        mark = len(wda.calls)
        snap = await device.snapshot(CALENDAR_APP)
        return snap, since(wda, mark)

    snap, routes = run(wda, scenario)
    assert routes == ["GET /source", "GET /alert/text"]
    assert wda.apps[CALENDAR_APP].screen is not None
    expected = parse_xml_source(_xml(wda), CALENDAR_APP)
    assert snap == build_snapshot(expected, expected.rect, "ios-wda")


def _xml(double: WdaDouble) -> str:
    return str(double._source({"format": ["xml"]}))


def centre(node: dict[str, Any]) -> tuple[float, float]:
    r = node["rect"]
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2


NOTIFICATIONS = ("“Settings” Would Like to Send You Notifications", ["Don’t Allow", "Allow"])


def test_a_system_alert_is_an_alert_with_tappable_buttons_and_one_tap_is_one_accept(wda: WdaDouble) -> None:
    """SpringBoard's alert is not in the app's source: the probe finds it, the snapshot shows it as an Alert whose
    buttons have refs and rects, the app under it is covered, and a tap on a button is one POST /alert/accept."""

    async def scenario(device: IosDevice) -> tuple[list[dict[str, Any]], list[str], str | None, list[str]]:
        await device.launch_app(SETTINGS_APP)
        wda.alert = NOTIFICATIONS
        mark = len(wda.calls)
        nodes: list[dict[str, Any]] = (await device.snapshot(SETTINGS_APP))["nodes"]
        snap_routes = since(wda, mark)
        allow = next(n for n in nodes if n["type"] == "Button" and n["label"] == "Allow")
        mark = len(wda.calls)
        hit = await device.tap(SETTINGS_APP, *centre(allow))
        return nodes, snap_routes, hit, since(wda, mark)

    nodes, snap_routes, hit, tap_routes = run(wda, scenario)
    assert snap_routes == ["GET /source", "GET /alert/text", "GET /wda/alert/buttons"]
    alert = next(n for n in nodes if n["type"] == "Alert")
    assert alert["label"].startswith("“Settings” Would Like") and alert["identifier"] == "wda-alert"
    buttons = [n for n in nodes if n["parentIndex"] == alert["index"]]
    assert [b["label"] for b in buttons] == ["Don’t Allow", "Allow"]
    assert all(b["rect"]["width"] > 0 and b["rect"]["y"] > alert["rect"]["y"] for b in buttons)
    general = next(n for n in nodes if n["label"] == "General")
    assert general["coveredBy"] == 'Alert "“Settings” Would Like to Send You Notifications"'
    assert "coveredBy" not in buttons[1]
    assert tap_routes == ["POST /alert/accept"] and wda.bodies("POST /alert/accept") == [{"name": "Allow"}]
    assert wda.alert is None and wda.alert_answers == ["Allow"] and wda.count("POST /wda/tap") == 0
    assert hit == 'Button "Allow" of the alert'


def test_an_apps_own_alert_is_in_the_source_so_the_snapshot_makes_no_extra_call(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
        await device.launch_app(SETTINGS_APP)
        wda.show_app_alert("Reset Settings?", "This cannot be undone.", ["Cancel", "Reset"])
        mark = len(wda.calls)
        nodes: list[dict[str, Any]] = (await device.snapshot(SETTINGS_APP))["nodes"]
        routes = since(wda, mark)
        cancel = next(n for n in nodes if n["type"] == "Button" and n["label"] == "Cancel")
        await device.tap(SETTINGS_APP, *centre(cancel))
        after: list[dict[str, Any]] = (await device.snapshot(SETTINGS_APP))["nodes"]
        return nodes, routes, after

    nodes, routes, after = run(wda, scenario)
    assert routes == ["GET /source"]  # the alert came with the source: no probe
    alert = next(n for n in nodes if n["type"] == "Alert")
    assert alert["label"] == "Reset Settings?"
    inside = [n["label"] for n in nodes if n["index"] > alert["index"]]
    assert inside == ["Reset Settings?", "This cannot be undone.", "Cancel", "Reset"]
    assert next(n for n in nodes if n["label"] == "General")["coveredBy"] == 'Alert "Reset Settings?"'
    assert wda.bodies("POST /alert/accept") == [{"name": "Cancel"}] and wda.alert_answers == ["Cancel"]
    assert not any(n["type"] == "Alert" for n in after) and not any("coveredBy" in n for n in after)


def test_a_tap_on_an_alert_that_went_away_fails_once_and_says_so(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> None:
        await device.launch_app(SETTINGS_APP)
        wda.alert = NOTIFICATIONS
        nodes = (await device.snapshot(SETTINGS_APP))["nodes"]
        allow = next(n for n in nodes if n["label"] == "Allow")
        wda.alert = None  # answered by hand on the phone
        with pytest.raises(ProtocolError) as info:
            await device.tap(SETTINGS_APP, *centre(allow))
        assert info.value.code == e.COMMAND_FAILED and "alert is gone" in (info.value.hint or "")
        mark = len(wda.calls)
        await device.tap(SETTINGS_APP, *centre(allow))  # no alert seen since: an ordinary tap
        assert since(wda, mark) == ["POST /wda/tap"]

    run(wda, scenario)
    assert wda.count("POST /alert/accept") == 1 and wda.alert_answers == []


def test_a_prompt_alerts_field_is_filled_by_tapping_it_and_typing(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> list[dict[str, Any]]:
        await device.launch_app(SETTINGS_APP)
        wda.show_app_alert("Rename", "Enter a name", ["Cancel", "Save"], field="Name")
        nodes = (await device.snapshot(SETTINGS_APP))["nodes"]
        field = next(n for n in nodes if n["type"] == "TextField")
        assert field["label"] == "Name" and field["value"] is None and "coveredBy" not in field
        await device.tap(SETTINGS_APP, *centre(field))  # not a button: a coordinate tap, which focuses the field
        await device.type_text(SETTINGS_APP, "Home")
        after: list[dict[str, Any]] = (await device.snapshot(SETTINGS_APP))["nodes"]
        return after

    after = run(wda, scenario)
    assert next(n for n in after if n["type"] == "TextField")["value"] == "Home"
    assert wda.bodies("POST /wda/keys") == [{"value": ["Home"]}] and wda.count("POST /alert/accept") == 0


def test_the_foreground_answer_is_reused_only_until_a_mutation_or_the_freshness_bound(wda: WdaDouble) -> None:
    """One tap after a snapshot is one /wda/tap; every mutation, and time, makes the next check ask WDA again; a
    foreground app changed behind the runner's back is seen once the bound has passed."""
    now = [100.0]

    async def scenario(device: IosDevice) -> dict[str, list[str]]:
        device.clock = lambda: now[0]
        out: dict[str, list[str]] = {}

        async def step(label: str, work: Callable[[], Awaitable[Any]]) -> Any:
            mark = len(wda.calls)
            result = await work()
            out[label] = since(wda, mark)
            return result

        await device.launch_app(SETTINGS_APP)
        await step("check", lambda: device.app_state(SETTINGS_APP))
        await step("check again", lambda: device.app_state(SETTINGS_APP))
        await step("tap", lambda: device.tap(SETTINGS_APP, 10, 10))
        await step("check after tap", lambda: device.app_state(SETTINGS_APP))
        await step("other app", lambda: device.app_state(FORM_APP))
        now[0] += STATE_FRESH_S + 0.1
        await step("check after the bound", lambda: device.app_state(SETTINGS_APP))
        wda._front(FORM_APP, launch=True)  # the user opened another app on the phone
        # the documented blind spot: within the bound, a change no command of ours caused is not seen
        assert await step("blind spot", lambda: device.app_state(SETTINGS_APP)) == AppState.FOREGROUND
        now[0] += STATE_FRESH_S + 0.1
        assert await step("changed behind our back", lambda: device.app_state(SETTINGS_APP)) == AppState.BACKGROUND
        await step("still background", lambda: device.app_state(SETTINGS_APP))
        return out

    out = run(wda, scenario)
    assert out["check"] == ["POST /wda/apps/state"] and out["check again"] == []
    assert out["tap"] == ["POST /wda/tap"] and out["check after tap"] == ["POST /wda/apps/state"]
    assert out["other app"] == ["POST /wda/apps/state"]  # a different bundle id is never answered from the cache
    assert out["check after the bound"] == ["POST /wda/apps/state"]
    assert out["blind spot"] == [] and out["changed behind our back"] == ["POST /wda/apps/state"]
    assert out["still background"] == ["POST /wda/apps/state"]  # only "foreground" is ever remembered


def test_app_states_launch_activate_terminate_and_list(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> None:
        assert await device.app_state(SETTINGS_APP) == AppState.NOT_RUNNING
        assert await device.launch_app(SETTINGS_APP) == {
            "appBundleId": SETTINGS_APP, "state": "foreground", "wasRunning": False}  # fmt: skip
        await device.launch_app(FORM_APP)
        assert await device.app_state(SETTINGS_APP) == AppState.BACKGROUND
        await device.activate(SETTINGS_APP)
        assert await device.app_state(SETTINGS_APP) == AppState.FOREGROUND
        listed = {a.app_id: a.state for a in await device.list_apps()}
        assert listed[SETTINGS_APP] == AppState.FOREGROUND and listed[FORM_APP] == AppState.BACKGROUND
        assert await device.terminate_app(FORM_APP) == {"appBundleId": FORM_APP, "wasRunning": True}
        assert await device.terminate_app(FORM_APP) == {"appBundleId": FORM_APP, "wasRunning": False}
        assert (await device.open_url("prefs:root=General"))["appBundleId"] == SETTINGS_APP
        assert (await device.viewport(SETTINGS_APP)).width == 390

    run(wda, scenario)
    assert wda.count("POST /wda/apps/terminate") == 1  # the second terminate found it not running
    assert wda.bodies("POST /url") == [{"url": "prefs:root=General"}]


def test_a_launch_with_clear_state_is_refused_and_sends_nothing_to_wda(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> tuple[ProtocolError, list[str]]:
        mark = len(wda.calls)
        with pytest.raises(ProtocolError) as refused:
            await device.launch_app(SETTINGS_APP, clear_state=True)
        return refused.value, since(wda, mark)

    error, routes = run(wda, scenario)
    assert error.code == e.UNSUPPORTED_OPERATION
    assert "clear" in error.message and "without clearState" in str(error.hint)
    assert routes == []  # not launched, not half-done


def test_unknown_apps_and_bad_ids_answer_app_unknown(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> None:
        mark = len(wda.calls)
        with pytest.raises(ProtocolError) as bad:
            await device.app_state("not a bundle id")
        assert bad.value.code == e.APP_UNKNOWN and since(wda, mark) == []
        with pytest.raises(ProtocolError) as missing:
            await device.launch_app("com.example.missing")
        assert missing.value.code == e.APP_UNKNOWN and missing.value.hint

    run(wda, scenario)


def test_buttons_home_only_on_the_simulator_back_never(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> None:
        await device.launch_app(SETTINGS_APP)
        await device.button("home")
        assert await device.app_state(SETTINGS_APP) == AppState.BACKGROUND
        for name in ("back", "volumeUp", "actionButton"):
            with pytest.raises(ProtocolError) as info:
                await device.button(name)
            assert info.value.code == e.UNSUPPORTED_OPERATION and info.value.hint

    run(wda, scenario)
    assert wda.bodies("POST /wda/pressButton") == [{"name": "home"}]


def test_volume_buttons_are_pressed_on_a_real_device() -> None:
    with WdaDouble.with_fixture_apps(simulator=False) as wda:
        run(wda, lambda device: device.button("volumeUp"))
        assert wda.bodies("POST /wda/pressButton") == [{"name": "volumeup"}]


def test_screenshot_is_wdas_png_and_css_scale_divides_by_the_screen_scale(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> tuple[Any, Any, Any]:
        await device.launch_app(SETTINGS_APP)
        return (await device.screenshot(), await device.screenshot(scale="css"),
                await device.screenshot(format="jpeg", scale="css"))  # fmt: skip

    full, css, jpeg = run(wda, scenario)
    assert (full.format, full.width, full.height) == ("png", 780, 1688)
    assert full.data == base64.b64decode(wda._png())
    assert (css.width, css.height) == (390, 844) and Image.open(io.BytesIO(css.data)).size == (390, 844)
    assert jpeg.format == "jpeg" and jpeg.data[:2] == b"\xff\xd8"


def test_an_expired_session_is_recreated_and_the_refused_tap_is_sent_once_more(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> list[str]:
        await device.launch_app(FORM_APP)
        wda.expire_sessions()
        mark = len(wda.calls)
        await device.tap(FORM_APP, 300, 115)
        return since(wda, mark)

    routes = run(wda, scenario)
    assert routes == ["POST /wda/tap", "GET /status", "POST /session", "POST /appium/settings", "POST /wda/tap"]
    assert wda.focused is not None and wda.focused.get("label") == "hoge@example.com"


def test_a_wda_that_stops_answering_fails_the_tap_once_and_never_resends_it(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> list[str]:
        await device.launch_app(SETTINGS_APP)
        wda.stop_answering()
        with pytest.raises(ProtocolError) as info:
            await device.tap(SETTINGS_APP, 10, 10)
        assert info.value.code == e.DEVICE_UNAVAILABLE and "stopped answering" in info.value.message
        assert device.describe()["lastFailure"] == info.value.message
        wda.resume()
        mark = len(wda.calls)
        await device.tap(SETTINGS_APP, 20, 20)
        assert device.describe()["lastFailure"] is None
        return since(wda, mark)

    routes = run(wda, scenario, scale=0.2)  # 10 s call timeout → 2 s
    # The hung request's fate was unknown, so it was never resent: WDA got it once (answered late, after resume) —
    # or, on a machine so loaded that the 2 s ran out before it was even written, not at all; never twice.
    taps = [b["x"] for b in wda.bodies("POST /wda/tap")]
    assert taps.count(10) <= 1 and taps.count(20) == 1 and taps[-1] == 20, taps
    assert {"GET /status", "POST /session"} <= set(routes)  # the next command re-checked WDA and opened a session


def test_wda_gone_is_device_unavailable_naming_the_url() -> None:
    double = WdaDouble.with_fixture_apps().start()
    url = double.url
    device = IosDevice(url)

    async def scenario() -> None:
        await device.open()
        double.stop()
        with pytest.raises(ProtocolError) as info:
            await device.snapshot(SETTINGS_APP)
        assert info.value.code == e.DEVICE_UNAVAILABLE and url in info.value.message
        assert f"curl {url}/status" in (info.value.hint or "")
        await device.close()

    asyncio.run(scenario())


def test_a_wda_that_is_not_ready_refuses_to_open() -> None:
    with WdaDouble.with_fixture_apps(ready=False) as wda:
        with pytest.raises(ProtocolError) as info:
            asyncio.run(IosDevice(wda.url).open())
        assert info.value.code == e.DEVICE_UNAVAILABLE and "not ready" in info.value.message
        assert wda.routes() == ["GET /status"]


def test_an_unknown_route_is_unsupported_operation(wda: WdaDouble) -> None:
    wda.fail_next("POST /wda/touchAndHold", 404, "unknown command", "Unhandled endpoint: /wda/touchAndHold")

    async def scenario(device: IosDevice) -> None:
        with pytest.raises(ProtocolError) as info:
            await device.long_press(SETTINGS_APP, 1, 2, 500)
        assert info.value.code == e.UNSUPPORTED_OPERATION and "/wda/touchAndHold" in (info.value.hint or "")

    run(wda, scenario)


def test_discovery_without_xcode_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ProtocolError) as info:
        asyncio.run(IosDevice(None).open())
    assert info.value.code == e.DEVICE_UNAVAILABLE and "xcrun" in info.value.message
    assert "ios:http://" in (info.value.hint or "")


def test_source_json_is_well_formed_wda_envelope(wda: WdaDouble) -> None:
    """The double's own reply shape: {"value": …, "sessionId": …} (what the client unwraps)."""
    status, value, _ = wda.handle("GET", "/status", b"")
    assert status == 200 and value["ready"] is True and json.dumps(value)


def test_an_alert_probe_that_wda_does_not_support_does_not_fail_the_snapshot(wda: WdaDouble) -> None:
    wda.fail_next("GET /alert/text", 404, "unknown command", "Unhandled endpoint: /alert/text")

    async def scenario(device: IosDevice) -> int:
        await device.launch_app(SETTINGS_APP)
        return len((await device.snapshot(SETTINGS_APP))["nodes"])

    assert run(wda, scenario) > 20
