"""The rest of the phone's environment (issue 24 item 5) on the real web phone, each asserted by the page's own
observation: ``open --locale --timezone`` (the page reads ``navigator.language``, ``Intl``'s locale and time zone and
its own clock), through the API, the CLI, MCP, the bridge and WebDriver; bad launch options refused with a hint
before anything is launched.  The module has a phone of its own: launch options are the phone's business."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = pytest.mark.e2e

PAGE = "launch_env.html"


@pytest.fixture(scope="module")
def phone() -> Iterator[phonewire.Phone]:
    with phonewire.Phone("web") as phone:
        yield phone


def shown(phone: phonewire.Phone, ident: str) -> str:
    """The text of the page's element ``ident`` as the view shows it."""
    nodes = phone.snapshot(all=True).nodes
    return str(next(n for n in nodes if n.get("identifier") == ident).get("label") or "")


# -- locale and time zone on launch --------------------------------------------------------------------------------
def test_open_with_a_locale_and_a_time_zone_is_what_the_page_reads(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    result = phone.open(hostile_site.url(PAGE), locale="fr-FR", timezone="Asia/Tokyo")
    assert (result.data["locale"], result.data["timezone"]) == ("fr-FR", "Asia/Tokyo")
    assert shown(phone, "language") == "fr-FR"
    assert shown(phone, "intl") == "fr-FR"
    assert shown(phone, "zone") == "Asia/Tokyo"
    assert shown(phone, "hour") == "9"  # midnight UTC is 09:00 in Tokyo
    phone.open(hostile_site.url(PAGE))  # the next launch without them has the phone's own
    assert shown(phone, "zone") != "Asia/Tokyo" and shown(phone, "language") == "en-US"


def test_an_unknown_time_zone_is_refused_and_the_app_keeps_running(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url(PAGE), timezone="America/New_York")
    with pytest.raises(ProtocolError) as info:
        phone.open(hostile_site.url(PAGE), timezone="Mars/Olympus_Mons")
    assert info.value.code == e.INVALID_REQUEST and "Mars/Olympus_Mons" in info.value.message
    assert "Europe/Paris" in (info.value.hint or "")
    assert shown(phone, "zone") == "America/New_York"  # nothing was launched or stopped
    phone.open(hostile_site.url(PAGE), locale="de-DE")  # the refused zone left nothing behind
    assert shown(phone, "language") == "de-DE" and shown(phone, "zone") != "Mars/Olympus_Mons"


@pytest.mark.parametrize(("option", "value"), [("locale", "fr_FR"), ("locale", "french!"), ("timezone", "+02:00")])
def test_a_malformed_launch_option_is_refused_with_a_hint(phone: phonewire.Phone, option: str, value: str) -> None:
    with pytest.raises(ProtocolError) as info:
        phone._call(phone.session.open_app("dev.phonewire.demo", **{option: value}))
    assert info.value.code == e.INVALID_REQUEST and value in info.value.message
    assert ("fr-FR" if option == "locale" else "Europe/Paris") in (info.value.hint or "")


# -- the file chooser ----------------------------------------------------------------------------------------------
@pytest.fixture
def page(phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    phone.open(hostile_site.url(PAGE))
    return phone


def test_a_file_chooser_shows_as_the_phones_sheet_and_pick_file_hands_the_page_the_file(
    page: phonewire.Phone, tmp_path: Path
) -> None:
    photo = tmp_path / "holiday.png"
    photo.write_bytes(b"\x89PNG" + bytes(96))  # 100 bytes
    tapped = page.tap("id=photo")
    assert tapped.data.get("changed") is not False
    view = page.snapshot()
    assert 'Dialog "Choose a file"' in view.text and 'Button "Cancel"' in view.text
    covered = next(n for n in view.nodes if n.get("identifier") == "files")
    assert covered.get("coveredBy") == 'Dialog "Choose a file"'  # the sheet is modal, as the phone's is
    result = page.pick_file([str(photo)])
    assert result.data["files"] == [str(photo)]
    assert shown(page, "picked") == "photo holiday.png:100"  # the page's own change handler read name and size
    assert "Choose a file" not in page.snapshot().text


def test_a_multiple_input_takes_several_files_and_a_single_one_refuses_two(
    page: phonewire.Phone, tmp_path: Path
) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("one")
    second.write_text("three")
    page.tap("id=photo")
    with pytest.raises(ProtocolError) as info:
        page.pick_file([str(first), str(second)])
    assert info.value.code == e.INVALID_REQUEST and "one file" in info.value.message
    page.tap('role=Button label="Cancel"')
    assert "Choose a file" not in page.snapshot().text
    assert shown(page, "picked") == "cancelled photo"  # the page's own cancel handler ran, as a dismissed picker's
    page.tap("id=files")
    assert 'Dialog "Choose files"' in page.snapshot().text
    page.pick_file([str(first), str(second)])
    assert shown(page, "picked") == "files a.txt:3,b.txt:5"


def test_a_missing_file_and_no_chooser_are_refused_with_a_hint(page: phonewire.Phone, tmp_path: Path) -> None:
    with pytest.raises(ProtocolError) as info:
        page.pick_file([str(tmp_path / "a.txt")])
    assert info.value.code == e.INVALID_REQUEST and "no file chooser is open" in info.value.message
    assert "Tap the page's file input" in (info.value.hint or "")
    page.tap("id=photo")
    with pytest.raises(ProtocolError) as info:
        page.pick_file([str(tmp_path / "nowhere.png")])
    assert info.value.code == e.INVALID_REQUEST and "nowhere.png" in info.value.message and info.value.hint
    with pytest.raises(ProtocolError) as covered:
        page.tap("id=files")  # the page under the sheet takes no tap
    assert covered.value.code == e.ELEMENT_COVERED and 'Dialog "Choose a file"' in covered.value.message
    with pytest.raises(ProtocolError) as point:
        page.tap("20 20")  # nor a point on it
    assert point.value.code == e.ELEMENT_COVERED and "pick-file" in (point.value.hint or "")
    assert 'Dialog "Choose a file"' in page.snapshot().text  # still open: nothing was handed over
    assert shown(page, "picked") == "none"
    assert "dismissed the sheet" in str(page.press("back").data.get("message"))  # back is its Cancel, as on a phone
    assert "Choose a file" not in page.snapshot().text and shown(page, "picked") == "cancelled photo"


# -- the permission prompt a page's request opens ------------------------------------------------------------------
def test_a_location_request_shows_the_system_dialog_and_allow_gives_the_page_its_position(
    page: phonewire.Phone,
) -> None:
    page.location(35.6586, 139.7454)
    try:
        tapped = page.tap("id=locate")
        assert "permission dialog opened" in str(tapped.data.get("message")), tapped.data
        view = page.snapshot().text
        assert "Would Like to Use Your Current Location" in view
        assert 'Button "Allow"' in view and 'Button "Don\'t Allow"' in view
        assert shown_under(page, "position") == "none"  # the page waits for the answer
        page.tap('role=Button label="Allow"')
        page.wait('text="35.6586,139.7454"')  # the page's own success callback
        page.tap("id=locate")  # decided: no second dialog, as on a phone
        assert "Current Location" not in page.snapshot().text
    finally:
        page.permissions("reset", ["geolocation"])
        page.location_off()


def test_dont_allow_denies_the_pages_request_and_a_notification_prompt_is_the_same_dialog(
    page: phonewire.Phone,
) -> None:
    try:
        page.tap("id=locate")
        page.tap('role=Button label=="Don\'t Allow"')
        page.wait('text="error 1"')  # PERMISSION_DENIED, in the page's own error callback
        page.tap("id=notify")
        assert "Would Like to Send You Notifications" in page.snapshot().text
        page.press("back")  # dismisses the dialog: Don't Allow
        page.wait('text="denied"')
        page.permissions("reset", ["notifications"])
        page.tap("id=notify")
        page.tap('role=Button label="Allow"')
        page.wait('text="granted"')  # Notification.requestPermission resolved as the page awaited it
    finally:
        page.permissions("reset", ["geolocation", "notifications"])


def test_a_permission_the_phone_already_decided_asks_nobody(page: phonewire.Phone) -> None:
    try:
        page.permissions("grant", ["notifications"])
        tapped = page.tap("id=notify")
        assert "dialog opened" not in str(tapped.data.get("message"))
        page.wait('text="granted"')
    finally:
        page.permissions("reset", ["notifications"])


def test_a_watch_asks_once_and_then_follows_the_phone_as_it_moves(page: phonewire.Phone) -> None:
    """watchPosition: the page gets its id at once; the dialog asks; after Allow the page's own callback sees each
    position the phone reports, until it clears the watch."""
    page.location(48.8584, 2.2945)
    try:
        tapped = page.tap("id=follow")
        assert "permission dialog opened" in str(tapped.data.get("message")), tapped.data
        assert "Would Like to Use Your Current Location" in page.snapshot().text
        assert shown_under(page, "followed") == "none"
        page.tap('role=Button label="Allow"')
        page.wait('text="1: 48.8584,2.2945 (watch 1)"')
        page.location(51.5007, -0.1246)  # the phone moves: the same watch hears it
        page.wait("text~=/^\\d+: 51.5007,-0.1246 \\(watch 1\\)$/")
        page.tap("id=unfollow")
        stopped = shown(page, "followed")
        assert stopped.startswith("stopped after "), stopped
        page.location(40.6892, -74.0445)  # cleared: no callback any more
        page.tap("id=unfollow")
        assert shown(page, "followed") == stopped
    finally:
        page.permissions("reset", ["geolocation"])
        page.location_off()


def test_the_camera_and_the_microphone_ask_as_the_system_does_and_allow_gives_the_page_a_stream(
    page: phonewire.Phone,
) -> None:
    try:
        tapped = page.tap("id=camera")
        assert "permission dialog opened" in str(tapped.data.get("message")), tapped.data
        assert "Would Like to Access the Camera" in page.snapshot().text
        page.tap('role=Button label="Allow"')
        assert reads(page, "media", "video")  # a track of the phone's camera, in the page's own promise
        page.tap("id=media")  # (the next answer must be a new one)
        page.tap("id=camera")  # decided: nobody asked
        assert "Would Like" not in page.snapshot().text
        assert reads(page, "media", "video")
        page.tap("id=call")  # the microphone is undecided: one dialog for both
        assert "Would Like to Access the Camera and Microphone" in page.snapshot().text
        page.tap('role=Button label=="Don\'t Allow"')
        assert reads(page, "media", "NotAllowedError")
        page.tap("id=camera")  # Don't Allow denied both: the camera too, and nobody asks again
        assert "Would Like" not in page.snapshot().text
        assert reads(page, "media", "NotAllowedError")
    finally:
        page.permissions("reset", ["camera", "microphone"])


def reads(phone: phonewire.Phone, ident: str, text: str, timeout: float = 10.0) -> bool:
    """Whether the page's element ``ident`` reads ``text`` within ``timeout`` s (on the screen or below it)."""
    deadline = time.monotonic() + timeout
    while shown(phone, ident) != text:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def shown_under(phone: phonewire.Phone, ident: str) -> str:
    """The text of ``ident`` in the view under a dialog (the page's last walked view)."""
    node = next(n for n in phone.snapshot(all=True).nodes if n.get("identifier") == ident)
    return str(node.get("label") or "")


# -- pinch ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("scale", "says"), [(2.0, "2 fingers, apart x2.0"), (0.5, "2 fingers, together x0.5")])
def test_a_pinch_is_two_touches_the_pages_own_handlers_see(page: phonewire.Phone, scale: float, says: str) -> None:
    result = page.pinch("id=canvas", scale=scale)
    assert "two fingers" in str(result.data.get("message"))
    assert shown(page, "touches") == says
    # the page took the touches (touch-action: none): no zoom, and the reply says so; its diff shows what the page drew
    assert "zoomed" not in result.data and "the page's zoom stayed at scale" in str(result.data["message"])
    assert any(says in line for line in result.diff or []), result.diff


def test_a_pinch_near_the_screens_edge_still_ends_at_the_scale_asked_or_is_refused(page: phonewire.Phone) -> None:
    """The fingers stay level with the point and on the screen all the way: near the edge they start closer (before:
    the left finger stopped at the edge, and a spread of 2 reached the page as x1.7)."""
    rect = next(n for n in page.snapshot().nodes if n.get("identifier") == "canvas")["rect"]
    y = rect["y"] + rect["height"] / 2
    result = page.pinch(f"{rect['x'] + 8:g} {y:g}", scale=2.0)
    assert "two fingers" in str(result.data.get("message"))
    assert shown(page, "touches") == "2 fingers, apart x2.0"
    with pytest.raises(ProtocolError) as info:
        page.pinch(f"2 {y:g}", scale=2.0)  # two points from the edge: no room for two fingers
    assert info.value.code == e.INVALID_REQUEST and "edge" in info.value.message and info.value.hint
    assert shown(page, "touches") == "2 fingers, apart x2.0"  # nothing reached the page


def test_a_pinch_scale_out_of_range_is_refused_with_a_hint(page: phonewire.Phone) -> None:
    with pytest.raises(ProtocolError) as info:
        page._call(page.session.pinch("id=canvas", scale=50))
    assert info.value.code == e.INVALID_REQUEST and "50" in info.value.message and "spreads" in (info.value.hint or "")
    assert shown(page, "touches") == "none"
