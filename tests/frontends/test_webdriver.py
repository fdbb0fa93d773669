"""The WebDriver front end without a browser: the error table, capabilities, the XML source and its finders, W3C
actions → gestures, and the service's routes over a scripted agent session (tests/agent_fakes.py)."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from agent_fakes import FakeSender, row, screen
from phonewire.agent import selectors
from phonewire.agent.core import AgentSession
from phonewire.agent.operations import OPERATIONS
from phonewire.frontends.webdriver import actions as a
from phonewire.frontends.webdriver import source
from phonewire.frontends.webdriver.capabilities import Wanted, wanted
from phonewire.frontends.webdriver.errors import PHONEWIRE_TO_W3C, W3C_STATUS, WebDriverError, to_w3c
from phonewire.frontends.webdriver.mobile import MOBILE
from phonewire.frontends.webdriver.routes import NOT_OFFERED, ROUTES, Service, operations
from phonewire.frontends.webdriver.session import crop
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

ROOT = Path(__file__).resolve().parents[2]


# --- the error table -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("code", e.ALL_CODES)
def test_every_phonewire_error_code_maps_to_a_w3c_error_with_its_status(code: str) -> None:
    assert PHONEWIRE_TO_W3C[code] in W3C_STATUS
    status, body = to_w3c(ProtocolError(code, "it failed", "do this"))
    value = json.loads(body)["value"]
    assert (status, value["error"], value["message"]) == (W3C_STATUS[PHONEWIRE_TO_W3C[code]], PHONEWIRE_TO_W3C[code],
                                                          "it failed")  # fmt: skip
    assert value["stacktrace"] == f"phonewire {code}: do this"


def test_the_table_maps_nothing_that_is_not_a_phonewire_code() -> None:
    assert set(PHONEWIRE_TO_W3C) == set(e.ALL_CODES)


def test_stale_refs_are_stale_element_references_and_covered_elements_intercepted_clicks() -> None:
    assert to_w3c(ProtocolError(e.STALE_REF, "gone"))[0] == 404
    assert json.loads(to_w3c(ProtocolError(e.STALE_REF, "gone"))[1])["value"]["error"] == "stale element reference"
    assert PHONEWIRE_TO_W3C[e.ELEMENT_COVERED] == "element click intercepted"


def test_a_server_bug_is_an_unknown_error_without_a_traceback() -> None:
    status, body = to_w3c(KeyError("x"))
    value = json.loads(body)["value"]
    assert (status, value["error"]) == (500, "unknown error")
    assert "Traceback" not in value["message"] and value["stacktrace"] == ""


# --- capabilities ----------------------------------------------------------------------------------------------
def _caps(always: dict[str, Any], first: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    caps: dict[str, Any] = {"alwaysMatch": always}
    if first is not None:
        caps["firstMatch"] = first
    return {"capabilities": caps}


def test_phonewire_device_wins_over_the_appium_device_name() -> None:
    w = wanted(_caps({"phonewire:device": "web:pixel-7", "appium:deviceName": "iPhone 15", "platformName": "iOS"}))
    assert (w.device, w.answered["platformName"]) == ("web:pixel-7", "iOS")


def test_an_appium_device_name_is_a_web_profile_spelled_loosely() -> None:
    assert wanted(_caps({"appium:deviceName": "Pixel 7 Landscape"})).device == "web:pixel-7-landscape"


def test_a_device_name_that_is_no_profile_is_session_not_created_listing_the_profiles() -> None:
    with pytest.raises(WebDriverError) as caught:
        wanted(_caps({"appium:deviceName": "Galaxy S24"}))
    assert caught.value.error == "session not created"
    assert "iphone-15" in caught.value.message and "pixel-7" in caught.value.message


def test_the_app_comes_from_app_bundle_id_or_app_package_and_first_match_entries_are_tried_in_order() -> None:
    w = wanted(_caps({"appium:bundleId": "dev.phonewire.demo"}, [{"appium:deviceName": "nope"}, {}]))
    assert (w.app, w.device) == ("dev.phonewire.demo", "web")


def test_a_capability_in_both_always_match_and_first_match_is_invalid() -> None:
    with pytest.raises(WebDriverError) as caught:
        wanted(_caps({"appium:app": "a"}, [{"appium:app": "b"}]))
    assert caught.value.error == "invalid argument"


# --- source and finders -----------------------------------------------------------------------------------------
def _demo() -> list[dict[str, Any]]:
    return screen(
        RawNode("Heading", label="Inbox", identifier="title", rect=Rect(10, 10, 100, 30)),
        RawNode("Button", label="Like 0", identifier="like-1", rect=Rect(300, 100, 80, 40)),
        RawNode("TextField", label="Name", identifier="name", value="Ada", rect=Rect(10, 200, 300, 40)),
    )


def test_the_source_is_xml_with_role_elements_and_appium_attributes() -> None:
    xml = source.page_source(_demo())
    assert xml.startswith("<?xml")
    assert '<Button type="Button" name="like-1" label="Like 0" text="Like 0" resource-id="like-1"' in xml
    assert 'bounds="[300,100][380,140]"' in xml
    assert 'text="Ada"' in xml  # a text field's text is its value


def test_accessibility_id_matches_the_identifier_or_else_the_label_and_id_the_identifier() -> None:
    nodes = _demo()
    assert [n["label"] for n in source.find("accessibility id", "like-1", nodes)] == ["Like 0"]
    assert [n["label"] for n in source.find("accessibility id", "Inbox", nodes)] == []  # it has an identifier
    assert [n["identifier"] for n in source.find("id", "name", nodes)] == ["name"]


def test_a_checked_checkbox_is_selected_to_webdriver() -> None:
    """Issue 23: ``is_selected()`` answered false on a checked checkbox (page source ``value="1" selected="false"``)."""
    nodes = [
        {"index": 0, "type": "CheckBox", "label": "Terms", "value": "1", "selected": False, "rect": {}},
        {"index": 1, "type": "Switch", "label": "Wi-Fi", "value": "0", "selected": False, "rect": {}},
        {"index": 2, "type": "Cell", "label": "Row", "value": None, "selected": True, "rect": {}},
    ]
    assert [source.attributes(n)["selected"] for n in nodes] == ["true", "false", "true"]


def test_xpath_runs_over_the_source_with_functions() -> None:
    nodes = _demo()
    found = source.find("xpath", "//*[contains(@label, 'Like')]", nodes)
    assert [n["identifier"] for n in found] == ["like-1"]
    assert [n["identifier"] for n in source.find("xpath", "//TextField[@value='Ada']", nodes)] == ["name"]


def test_a_malformed_xpath_is_an_invalid_selector() -> None:
    with pytest.raises(WebDriverError) as caught:
        source.find("xpath", "//*[", _demo())
    assert caught.value.error == "invalid selector"


@pytest.mark.parametrize(
    ("selector", "found"),
    [
        ("label == 'Like 0'", ["like-1"]),
        ('name == "like-1"', ["like-1"]),
        ("type == 'XCUIElementTypeButton' AND label == 'Like 0'", ["like-1"]),
        ("type == 'XCUIElementTypeStaticText' AND label == 'Like 0'", []),
        ("value == 'Ada' && type == 'TextField'", ["name"]),
        ("label == \"Like 0\" AND name == 'like-1'", ["like-1"]),
        ("label == 'Like 0' AND name == 'title'", []),
    ],
)
def test_ios_predicates_of_the_simple_forms_match_on_the_page_source(selector: str, found: list[str]) -> None:
    assert [n["identifier"] for n in source.find("-ios predicate string", selector, _demo())] == found


@pytest.mark.parametrize(
    ("selector", "found"),
    [
        ('new UiSelector().text("Like 0")', ["like-1"]),
        ('new UiSelector().description("like-1");', ["like-1"]),
        ('new UiSelector().resourceId("like-1")', ["like-1"]),
        ('new UiSelector().resourceId("dev.phonewire.demo:id/like-1")', ["like-1"]),
        ('new UiSelector().className("android.widget.EditText")', ["name"]),
        ('new UiSelector().className("Button").text("Like 0")', ["like-1"]),
        ('new UiSelector().className("android.widget.Button").text("Inbox")', []),
    ],
)
def test_uiautomator_selectors_of_the_simple_forms_match_on_the_page_source(selector: str, found: list[str]) -> None:
    assert [n["identifier"] for n in source.find("-android uiautomator", selector, _demo())] == found


@pytest.mark.parametrize(
    ("strategy", "selector"),
    [
        ("-ios predicate string", "label BEGINSWITH 'Like'"),
        ("-ios predicate string", "label == 'A' OR label == 'B'"),
        ("-ios predicate string", "rect.x == '1'"),
        ("-ios predicate string", "type == 'XCUIElementTypeWidget'"),
        ("-android uiautomator", 'new UiSelector().textContains("Like")'),
        ("-android uiautomator", "new UiScrollable(new UiSelector().scrollable(true))"),
        ("-android uiautomator", "new UiSelector()"),
        ("-android uiautomator", 'new UiSelector().className("com.example.Gauge")'),
    ],
)
def test_other_platform_locators_are_invalid_selectors_with_a_hint(strategy: str, selector: str) -> None:
    with pytest.raises(WebDriverError) as caught:
        source.find(strategy, selector, _demo())
    assert caught.value.error == "invalid selector"
    assert "use accessibility id, id or xpath" in caught.value.message


def test_an_element_screenshot_is_the_elements_part_of_the_screen_in_device_pixels() -> None:
    canvas = Image.new("RGB", (60, 40), (255, 255, 255))
    canvas.paste((255, 0, 0), (20, 10, 40, 30))  # the element, at scale 2: points (10, 5) sized 10 x 10
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    part = Image.open(io.BytesIO(crop(out.getvalue(), (10, 5, 10, 10), {"x": 0, "y": 0, "width": 30, "height": 20})))
    assert part.size == (20, 20)
    assert part.convert("RGB").getcolors() == [(400, (255, 0, 0))]


# --- actions ---------------------------------------------------------------------------------------------------
def _finger(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"actions": [{"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
                         "actions": list(steps)}]}  # fmt: skip


def _move(x: float, y: float, duration: int = 0) -> dict[str, Any]:
    return {"type": "pointerMove", "x": x, "y": y, "duration": duration, "origin": "viewport"}


DOWN = {"type": "pointerDown", "button": 0}
UP = {"type": "pointerUp", "button": 0}


def _pause(ms: int) -> dict[str, Any]:
    return {"type": "pause", "duration": ms}


def test_down_and_up_in_place_is_one_tap_and_twice_quickly_is_a_double_tap() -> None:
    assert a.gestures(_finger(_move(10, 20), DOWN, _pause(50), UP)) == [a.Tap(10, 20)]
    double = _finger(_move(10, 20), DOWN, UP, _pause(80), DOWN, UP)
    assert a.gestures(double) == [a.Tap(10, 20, 2)]


def test_a_hold_in_place_is_a_long_press_for_as_long_as_it_was_held() -> None:
    assert a.gestures(_finger(_move(10, 20), DOWN, _pause(900), UP)) == [a.LongPress(10, 20, 900)]


def test_a_press_that_moves_is_a_swipe_over_the_time_it_took() -> None:
    body = _finger(_move(200, 600), DOWN, _pause(100), _move(200, 200, 400), UP)
    assert a.gestures(body) == [a.Swipe(200, 600, 200, 200, 500)]


def test_element_origins_are_relative_to_the_elements_centre() -> None:
    origin = {a.ELEMENT_KEY: "el-1"}
    body = _finger({"type": "pointerMove", "x": 5, "y": 0, "origin": origin, "duration": 0}, DOWN, UP)
    assert a.element_origins(body) == {"el-1"}
    assert a.gestures(body, {"el-1": (100.0, 50.0)}) == [a.Tap(105, 50)]


def test_two_fingers_down_at_once_is_an_unsupported_operation() -> None:
    one = _finger(_move(10, 10), DOWN, _pause(100), UP)["actions"][0]
    two = {**one, "id": "finger2"}
    with pytest.raises(WebDriverError) as caught:
        a.gestures({"actions": [one, two]})
    assert caught.value.error == "unsupported operation"


def test_key_sources_type_text_and_press_enter() -> None:
    keys = [{"type": "keyDown", "value": c} for c in "hi\ue007"]
    body = {"actions": [{"type": "key", "id": "kb", "actions": keys}]}
    assert a.gestures(body) == [a.TypeText("hi"), a.PressKey("enter")]


# --- the service over a scripted phone -------------------------------------------------------------------------
class Harness:
    def __init__(self) -> None:
        self.sender = FakeSender(screen(row(1, 100), row(2, 144)))
        self.service = Service(self._open)
        self.opened: list[Wanted] = []
        self.loop = asyncio.new_event_loop()  # one loop for the harness's life: sessions outlive a call

    @asynccontextmanager
    async def _open(self, w: Wanted) -> AsyncIterator[AgentSession]:
        self.opened.append(w)
        yield AgentSession(self.sender, app_id=w.app or "dev.phonewire.demo")
        await self.sender.close()

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.loop.run_until_complete(self.service.handle(method, path, body or {}))

    def fails(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, str]:
        try:
            self.call(method, path, body)
        except Exception as exc:
            status, raw = to_w3c(exc)
            return status, json.loads(raw)["value"]["error"]
        raise AssertionError("no error")


@pytest.fixture
def h() -> Iterator[Harness]:
    harness = Harness()
    yield harness
    harness.loop.run_until_complete(harness.service.aclose())
    harness.loop.close()


def _session(h: Harness) -> str:
    sid: str = h.call("POST", "/session", {"capabilities": {"alwaysMatch": {"appium:app": "dev.phonewire.demo"}}})[
        "sessionId"
    ]
    return sid


def test_a_click_taps_the_elements_current_centre_once(h: Harness) -> None:
    sid = _session(h)
    found = h.call("POST", f"/session/{sid}/elements", {"using": "class name", "value": "Button"})
    assert len(found) == 2
    h.call("POST", f"/session/{sid}/element/{found[1][a.ELEMENT_KEY]}/click")
    assert h.sender.commands("tap") == [{"x": 350.0, "y": 166.0, "appBundleId": "dev.phonewire.demo"}]


def test_an_element_whose_row_is_gone_is_a_stale_element_reference_and_nothing_is_tapped(h: Harness) -> None:
    sid = _session(h)
    found = h.call("POST", f"/session/{sid}/element", {"using": "accessibility id", "value": "Row 2"})
    h.sender.nodes = screen(row(1, 100))  # row 2 scrolled away
    assert h.fails("POST", f"/session/{sid}/element/{found[a.ELEMENT_KEY]}/click") == (404, "stale element reference")
    assert h.sender.commands("tap") == []


def test_finding_an_element_again_answers_the_same_id(h: Harness) -> None:
    sid = _session(h)
    locator = {"using": "xpath", "value": "//StaticText[@label='Row 2']"}
    first = h.call("POST", f"/session/{sid}/element", locator)
    assert h.call("POST", f"/session/{sid}/element", locator) == first


def test_no_match_is_no_such_element_and_an_unknown_session_invalid_session_id(h: Harness) -> None:
    sid = _session(h)
    assert h.fails("POST", f"/session/{sid}/element", {"using": "id", "value": "nope"}) == (404, "no such element")
    assert h.fails("GET", "/session/nope/source") == (404, "invalid session id")


def test_an_unknown_path_is_unknown_command_and_a_wrong_method_unknown_method(h: Harness) -> None:
    assert h.fails("GET", "/nope") == (404, "unknown command")
    assert h.fails("DELETE", "/status") == (405, "unknown method")


def test_deleting_a_session_ends_its_phone_and_the_id(h: Harness) -> None:
    sid = _session(h)
    h.call("DELETE", f"/session/{sid}")
    assert h.sender.closed
    assert h.call("GET", "/sessions") == []


def test_execute_runs_mobile_commands_only(h: Harness) -> None:
    sid = _session(h)
    state = h.call("POST", f"/session/{sid}/execute/sync",
                   {"script": "mobile: queryAppState", "args": [{"bundleId": "dev.phonewire.demo"}]})  # fmt: skip
    assert state == 4
    assert h.fails("POST", f"/session/{sid}/execute/sync", {"script": "return 1", "args": []}) == (
        500,
        "unsupported operation",
    )


def test_an_idle_session_is_ended_by_the_server(h: Harness) -> None:
    h.service.idle_timeout_s = 0.01

    async def run() -> None:
        await h.service.create({})
        h.service.start_reaper()
        for _ in range(40):
            await asyncio.sleep(0.05)
            if not h.service.sessions:
                break

    h.loop.run_until_complete(run())
    assert h.service.sessions == {} and h.sender.closed


# --- every operation is reachable through WebDriver --------------------------------------------------------------
def test_every_agent_operation_is_reachable_through_a_route_or_a_mobile_command_or_named_as_lacking() -> None:
    """The routes and mobile: commands declare the operations they perform (routes.operations()); docs/webdriver.md
    names each of them, and each operation WebDriver lacks with its reason."""
    offered = operations()
    assert offered | set(NOT_OFFERED) == set(OPERATIONS) and not offered & set(NOT_OFFERED)
    doc = (ROOT / "docs" / "webdriver.md").read_text(encoding="utf-8")
    reachable = doc[doc.index("Every agent operation is reachable") :].split("\n\n", 1)[0]
    for name in OPERATIONS:
        assert f"`{name}`" in reachable, name


def test_the_docs_list_every_route_and_every_mobile_command() -> None:
    doc = (ROOT / "docs" / "webdriver.md").read_text(encoding="utf-8")
    for route in ROUTES:
        assert f"`{route.method} {route.path}`" in doc, route.path
    for name in MOBILE:
        assert f"`mobile: {name}`" in doc, name
    for strategy in source.STRATEGIES:
        assert f"| `{strategy}` |" in doc, strategy


@pytest.mark.parametrize(
    ("strategy", "value", "selector"),
    [
        ("accessibility id", "like-150", 'id="like-150" || label="like-150"'),
        ("name", 'say "hi"', 'id="say \\"hi\\"" || label="say \\"hi\\""'),
        ("id", "likes-total", 'id="likes-total"'),
        ("css selector", '[id="a b"]', 'id="a b"'),
        ("class name", "Button", "role=Button"),
        ("class name", "NoSuchRole", None),
        ("xpath", "//Button", None),
        ("-ios predicate string", "name == 'x'", None),
    ],
)
def test_a_locator_the_view_can_match_becomes_the_selector_a_find_off_screen_looks_for(
    strategy: str, value: str, selector: str | None
) -> None:
    assert source.as_selector(strategy, value) == selector
    if selector is not None:  # and it parses, and names what the locator names
        named = "a b" if strategy == "css selector" else value
        node = {"index": 0, "type": "Button", "label": named, "identifier": named, "rect": {}}
        assert selectors.match(selectors.parse(selector), [node]) == [node]


def test_unhandled_prompt_behavior_defaults_to_dismiss_and_notify_is_answered_and_checked() -> None:
    assert wanted(_caps({})).prompt_behavior == "dismiss and notify"
    w = wanted(_caps({"unhandledPromptBehavior": "accept"}))
    assert w.prompt_behavior == "accept" and w.answered["unhandledPromptBehavior"] == "accept"
    with pytest.raises(WebDriverError) as info:
        wanted(_caps({"unhandledPromptBehavior": "shrug"}))
    assert info.value.error == "invalid argument" and "dismiss and notify" in info.value.message


def test_unexpected_alert_open_carries_the_dialogs_text_as_selenium_reads_it() -> None:
    status, body = to_w3c(WebDriverError("unexpected alert open", "a dialog was open", data={"text": "Sure?"}))
    assert status == 500
    assert json.loads(body)["value"]["data"] == {"text": "Sure?"}
    status, body = to_w3c(WebDriverError("no such alert", "no dialog is open"))
    assert status == 404 and "data" not in json.loads(body)["value"]
