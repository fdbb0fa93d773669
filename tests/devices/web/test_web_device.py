"""WebDevice against real headless Chromium: apps, touch, text, snapshot, screenshot, lifecycle.

Effects are read back from the demo app's visible counters through the device's own snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal

import pytest
from PIL import Image
from web_phone import Phone, requires_chromium

from phonewire.devices.base import AppState
from phonewire.devices.web.home import DEMO_APP_ID
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = requires_chromium
DEMO = DEMO_APP_ID


def label(phone: Phone, identifier: str) -> str:
    return str(phone.node(identifier)["label"])


def test_list_screen_shows_the_top_rows_only(phone: Phone) -> None:
    phone.goto("list")
    snap = phone.snapshot()
    ids = {n["identifier"] for n in snap["nodes"]}
    assert {"like-1", "like-5"} <= ids and "like-300" not in ids
    assert snap["quality"] == {"state": "healthy", "backend": "web"}
    assert phone.node("rows")["type"] == "List" and phone.node("screen-list")["type"] == "ScrollView"


def test_tap_increments_a_row_counter_exactly_once(phone: Phone) -> None:
    phone.goto("list")
    before = label(phone, "like-2")
    phone.tap_node("like-2")
    assert before == "Like 0" and label(phone, "like-2") == "Like 1"


def test_two_taps_are_a_real_double_tap(phone: Phone) -> None:
    phone.goto("detail/1")
    phone.tap_node("double-tap-target", taps=2)
    assert label(phone, "double-taps") == "1"


def test_long_press_holds_the_touch(phone: Phone) -> None:
    phone.goto("detail/1")
    r = phone.node("hold-target")["rect"]
    phone.run(phone.device.long_press(DEMO, r["x"] + 20, r["y"] + 20, 700))
    assert label(phone, "long-presses") == "1"


def test_drag_reorders_with_touch_moves(phone: Phone) -> None:
    phone.goto("reorder")
    a = phone.node("task-alpha")["rect"]
    c = phone.node("task-charlie")["rect"]
    x = a["x"] + 40
    phone.run(phone.device.drag(DEMO, (x, a["y"] + 20), (x, c["y"] + 20), duration_ms=300, hold_ms=50, settle_ms=50))
    assert label(phone, "task-order").startswith("Bravo Charlie Alpha")
    assert label(phone, "move-count") == "1"


def test_drag_scrolls_a_scroll_view(phone: Phone) -> None:
    phone.goto("list")
    phone.eval("document.getElementById('screen-list').scrollTop = 0")
    phone.run(phone.device.drag(DEMO, (150, 600), (150, 200), duration_ms=300, hold_ms=0, settle_ms=100))
    assert phone.eval("document.getElementById('screen-list').scrollTop") > 100


def test_type_needs_a_focused_editable(phone: Phone) -> None:
    phone.goto("form")
    phone.eval("document.activeElement && document.activeElement.blur()")
    with pytest.raises(ProtocolError) as info:
        phone.run(phone.device.type_text(DEMO, "x"))
    assert info.value.code == e.TEXT_INPUT_NOT_FOCUSED
    with pytest.raises(ProtocolError) as info:
        phone.run(phone.device.keyboard_return(DEMO))
    assert info.value.code == e.TEXT_INPUT_NOT_FOCUSED


def test_type_delete_and_return_submit_the_form(phone: Phone) -> None:
    phone.goto("form")
    phone.tap_node("name")
    assert phone.node("name")["focused"] is True
    phone.run(phone.device.type_text(DEMO, "Adax"))
    phone.run(phone.device.keyboard_delete(DEMO))
    assert phone.node("name")["value"] == "Ada"
    phone.run(phone.device.keyboard_return(DEMO))
    assert label(phone, "signin-count") == "1" and label(phone, "signin-user") == "Ada"


def test_password_is_a_secure_field_with_a_masked_value(phone: Phone) -> None:
    phone.goto("form")
    phone.tap_node("password")
    phone.run(phone.device.type_text(DEMO, "hunter2"))
    node = phone.node("password")
    assert node["type"] == "SecureTextField" and node["value"] == "•" * 7


def test_search_field_submits_with_the_return_key(phone: Phone) -> None:
    phone.goto("form")
    assert phone.node("search")["type"] == "SearchField"
    phone.tap_node("search")
    phone.run(phone.device.type_text(DEMO, "lamp"))
    phone.run(phone.device.keyboard_return(DEMO))
    assert label(phone, "search-last") == "lamp" and label(phone, "search-count") == "1"


def test_switch_value_follows_checked(phone: Phone) -> None:
    phone.goto("controls")
    assert phone.node("notifications")["type"] == "Switch"
    assert phone.node("notifications")["value"] == "0"
    phone.tap_node("notifications")
    assert phone.node("notifications")["value"] == "1" and label(phone, "switch-count") == "1"


def test_modal_dialog_hides_what_is_behind_it(phone: Phone) -> None:
    phone.goto("controls")
    phone.tap_node("open-dialog")
    ids = {n["identifier"] for n in phone.snapshot()["nodes"]}
    assert "dialog-confirm" in ids and "open-dialog" not in ids
    phone.tap_node("dialog-confirm")
    assert label(phone, "dialog-confirms") == "1"


def test_viewport_is_the_profile_in_css_px(phone: Phone) -> None:
    rect = phone.run(phone.device.viewport(DEMO))
    assert (rect.width, rect.height) == (phone.device.profile.width, phone.device.profile.height)


def test_screenshot_png_device_scale_and_jpeg_css_scale(phone: Phone) -> None:
    p = phone.device.profile
    png = phone.run(phone.device.screenshot())
    assert png.data.startswith(b"\x89PNG") and (png.width, png.height) == (
        round(p.width * p.dpr),
        round(p.height * p.dpr),
    )
    jpeg = phone.run(phone.device.screenshot(format="jpeg", scale="css", quality=50))
    assert jpeg.data.startswith(b"\xff\xd8") and (jpeg.width, jpeg.height) == (p.width, p.height)
    assert Image.open(io.BytesIO(jpeg.data)).size == (p.width, p.height)


def test_unknown_app_id_is_app_unknown(phone: Phone) -> None:
    with pytest.raises(ProtocolError) as info:
        phone.run(phone.device.app_state("com.example.nope"))
    assert info.value.code == e.APP_UNKNOWN


def test_volume_and_action_buttons_are_unsupported(phone: Phone) -> None:
    for name in ("volumeUp", "volumeDown", "actionButton"):
        with pytest.raises(ProtocolError) as info:
            phone.run(phone.device.button(name))
        assert info.value.code == e.UNSUPPORTED_OPERATION


def test_home_backgrounds_and_freezes_the_app(phone: Phone) -> None:
    phone.goto("controls")
    phone.run(phone.device.button("home"))
    assert phone.run(phone.device.app_state(DEMO)) is AppState.BACKGROUND
    frozen_at = phone.eval("Number(document.getElementById('ticks').textContent)")
    phone.run(asyncio.sleep(0.6))
    assert phone.eval("Number(document.getElementById('ticks').textContent)") == frozen_at  # timers stopped
    phone.run(phone.device.activate(DEMO))
    assert phone.run(phone.device.app_state(DEMO)) is AppState.FOREGROUND
    phone.run(asyncio.sleep(0.3))
    assert phone.eval("Number(document.getElementById('ticks').textContent)") > frozen_at  # running again


def test_a_backgrounded_app_is_hidden_and_shown_again_when_fronted_so_taps_land(phone: Phone) -> None:
    # chromium-headless-shell leaves a page hidden after it was frozen (Page.bringToFront shows nothing there), and a
    # hidden page draws no frames: every touch then waited forever for its ack.  Both browsers must show it again.
    phone.goto("list")
    phone.eval("document.getElementById('screen-list').scrollTop = 0")  # the phone is shared: the top rows show
    assert phone.eval("document.visibilityState") == "visible"
    phone.run(phone.device.button("home"))
    assert phone.eval("document.visibilityState") == "hidden"  # a background app is hidden, as on a phone
    phone.run(phone.device.activate(DEMO))
    assert phone.eval("document.visibilityState") == "visible"
    before = int(label(phone, "like-3").split()[-1])
    phone.run(asyncio.wait_for(phone.device.tap(DEMO, *centre(phone.node("like-3")["rect"])), 10))
    assert label(phone, "like-3") == f"Like {before + 1}"


def centre(rect: dict[str, float]) -> tuple[float, float]:
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


def test_back_button_goes_back_in_history(phone: Phone) -> None:
    phone.goto("list")
    phone.eval("document.getElementById('screen-list').scrollTop = 0")
    phone.tap_node("open-4")
    assert label(phone, "detail-heading") == "Item 4"
    phone.run(phone.device.button("back"))
    assert "like-1" in {n["identifier"] for n in phone.snapshot()["nodes"]}


def test_back_on_an_apps_first_page_backgrounds_it_and_never_leaves_its_page(phone: Phone) -> None:
    # A launched app's history starts at its own page: the blank page its target was created with is not an
    # entry that back can return to (going there would blank the app instead of showing home).
    url = phone.device.describe()["demoUrl"] + "?first-page"
    phone.run(phone.device.launch_app(url))
    try:
        phone.run(phone.device.button("back"))
        apps = {a.app_id: a for a in phone.run(phone.device.list_apps())}
        assert apps[url].state is AppState.BACKGROUND
        assert apps[url].title == "phonewire demo"
    finally:
        phone.run(phone.device.terminate_app(url))
        phone.run(phone.device.activate(DEMO))


def test_uncaught_page_exceptions_count_as_suppressed_issues(phone: Phone) -> None:
    before = phone.device.counters().suppressed
    phone.eval("setTimeout(() => { throw new Error('boom'); }, 0); 1")
    phone.run(asyncio.sleep(0.2))
    assert phone.device.counters().suppressed == before + 1


def test_url_apps_terminate_and_list(phone: Phone) -> None:
    url = phone.device.describe()["demoUrl"] + "#form"
    phone.run(phone.device.launch_app(url))
    states = {a.app_id: a.state for a in phone.run(phone.device.list_apps())}
    assert states[url] is AppState.FOREGROUND and states[DEMO] is AppState.BACKGROUND
    assert phone.run(phone.device.terminate_app(url)) == {"appBundleId": url, "wasRunning": True}
    assert phone.run(phone.device.app_state(url)) is AppState.NOT_RUNNING
    with pytest.raises(ProtocolError) as info:
        phone.run(phone.device.tap(url, 10, 10))
    assert info.value.code == e.APP_NOT_AVAILABLE
    phone.run(phone.device.activate(DEMO))


def test_relaunch_starts_the_app_afresh(phone: Phone) -> None:
    phone.goto("list")
    phone.eval("document.getElementById('screen-list').scrollTop = 0")
    phone.tap_node("like-9")
    assert label(phone, "like-9") == "Like 1"
    result = phone.run(phone.device.launch_app(DEMO))
    assert result["relaunched"] is True and label(phone, "like-9") == "Like 0"


def test_a_launch_waits_for_the_load_without_restarting_the_pages_quiet_clock(phone: Phone) -> None:
    """The launch's own "loaded" hook is no reaction of the page: the next snapshot's quiet window counts from the
    page's last change (the demo builds its rows while it parses, before its load event), not from the hook."""
    phone.run(phone.device.launch_app(DEMO))
    clock = phone.eval(
        "(() => { const n = performance.getEntriesByType('navigation')[0]; "
        "return {last: window.__phonewireQuiet.last, load: n.loadEventStart, end: n.loadEventEnd}; })()"
    )
    assert clock["end"] > 0, "launchApp answered before the load event ended"
    assert clock["last"] <= clock["load"], clock


def test_killed_browser_makes_the_device_unavailable() -> None:
    p = Phone()
    try:
        p.run(p.device.launch_app(DEMO))
        os.kill(p.device.describe()["browserPid"], signal.SIGKILL)
        p.run(asyncio.sleep(0.5))
        assert p.device.health() is not None
        with pytest.raises(ProtocolError) as info:
            p.run(p.device.snapshot(DEMO))
        assert info.value.code == e.DEVICE_UNAVAILABLE
    finally:
        p.close()


def test_landscape_profile_gives_a_landscape_viewport() -> None:
    p = Phone("pixel-7-landscape")
    try:
        p.run(p.device.launch_app(DEMO))
        rect = p.run(p.device.viewport(DEMO))
        assert (rect.width, rect.height) == (915, 412)
        assert p.eval("navigator.userAgent").find("Android") > 0
        assert p.eval("navigator.maxTouchPoints") > 0
    finally:
        p.close()


def test_three_taps_are_three_separate_taps(phone: Phone) -> None:
    phone.goto("detail/2")
    before = int(label(phone, "single-taps"))
    phone.tap_node("double-tap-target", taps=3)
    assert int(label(phone, "single-taps")) == before + 3


def test_a_crashed_renderer_is_a_recorded_failure_and_the_app_stops() -> None:
    p = Phone()
    try:
        url = p.device.describe()["demoUrl"] + "#crash"
        p.run(p.device.open_url(url))
        session = p.device._live(url).session

        async def crash() -> None:
            call = asyncio.ensure_future(session.send("Page.crash"))  # the renderer may die before answering
            for _ in range(100):
                if p.device.counters().recorded:
                    break
                await asyncio.sleep(0.05)
            call.cancel()
            with contextlib.suppress(BaseException):
                await call

        p.run(crash())
        assert p.device.counters().recorded == 1
        with pytest.raises(ProtocolError) as told:  # said once, with what happened (issue 28) ...
            p.run(p.device.app_state(url))
        assert told.value.code == e.APP_CRASHED and "renderer crashed" in told.value.message and told.value.hint
        assert p.run(p.device.app_state(url)) is AppState.NOT_RUNNING  # ... then the app is not running
        assert p.device.health() is None  # the browser itself is fine
        p.run(p.device.launch_app(DEMO))
        assert p.node("like-1")["label"] == "Like 0"
    finally:
        p.close()


def test_a_page_that_breaks_the_focus_probe_answers_command_failed_with_a_hint(phone: Phone) -> None:
    url = phone.device.describe()["demoUrl"] + "?broken-probe"
    phone.run(phone.device.launch_app(url))
    try:
        phone.eval(
            "Object.defineProperty(Document.prototype, 'activeElement', {get() { throw new Error('no'); }}); 1", url
        )
        with pytest.raises(ProtocolError) as info:
            phone.run(phone.device.type_text(url, "x"))
        assert info.value.code == e.COMMAND_FAILED and "in-page script failed" in info.value.message
        assert info.value.hint and "screenshot" in info.value.hint
    finally:
        phone.run(phone.device.terminate_app(url))
        phone.run(phone.device.activate(DEMO))
