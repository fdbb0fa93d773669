"""``phonewire webdriver`` as a process, driven by the Appium Python client and by plain Selenium on the real web
phone (the demo app): what a test author's script sees."""

from __future__ import annotations

import base64
import io
import time
from collections.abc import Iterator

import pytest
from appium import webdriver as appium_webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy
from PIL import Image
from procs import children, wait_gone
from selenium import webdriver as selenium_webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    InvalidSelectorException,
    InvalidSessionIdException,
    NoSuchElementException,
    SessionNotCreatedException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions
from web_runner import HostileSite
from web_runner import WebDriverServer as Server

pytestmark = pytest.mark.e2e

DEMO = "dev.phonewire.demo"


def appium(server: Server, **caps: object) -> appium_webdriver.Remote:
    options = AppiumOptions()
    options.load_capabilities({"platformName": "iOS", "appium:deviceName": "iPhone 15", "appium:app": DEMO, **caps})
    return appium_webdriver.Remote(server.url, options=options)


@pytest.fixture
def driver(server: Server) -> Iterator[appium_webdriver.Remote]:
    d = appium(server)
    try:
        yield d
    finally:
        d.quit()


def likes(d: appium_webdriver.Remote) -> int:
    return int(d.find_element(AppiumBy.ID, "likes-total").text)


def test_appium_find_by_accessibility_id_and_click_adds_exactly_one_like(driver: appium_webdriver.Remote) -> None:
    before = likes(driver)
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "like-1").click()
    assert likes(driver) == before + 1
    button = driver.find_element(AppiumBy.XPATH, "//Button[@resource-id='like-1']")
    assert button.text == f"Like {before + 1}"
    assert button.get_attribute("label") == f"Like {before + 1}"
    assert button.is_displayed() and button.is_enabled() and not button.is_selected()
    assert button.rect["width"] > 0


def test_appium_send_keys_clear_and_enter_on_the_account_form(driver: appium_webdriver.Remote) -> None:
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "tab-form").click()
    name = driver.find_element(AppiumBy.ID, "name")
    name.send_keys("Ada")
    assert driver.find_element(AppiumBy.ID, "name").text == "Ada"
    name.clear()
    assert driver.find_element(AppiumBy.ID, "name").get_attribute("value") is None
    name.send_keys("Grace")
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "sign-in").click()
    assert driver.find_element(AppiumBy.ID, "signin-user").text == "Grace"


def test_appium_source_and_screenshot(driver: appium_webdriver.Remote) -> None:
    source = driver.page_source
    assert source.startswith("<?xml") and 'resource-id="like-1"' in source
    png = driver.get_screenshot_as_png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert base64.b64decode(driver.get_screenshot_as_base64())[:4] == b"\x89PNG"
    rect = driver.get_window_rect()
    assert (rect["width"], rect["height"]) == (393, 852)


def test_a_w3c_swipe_scrolls_the_list_and_the_first_rows_element_goes_stale(driver: appium_webdriver.Remote) -> None:
    row1 = driver.find_element(AppiumBy.ID, "open-1")
    driver.swipe(200, 650, 200, 250, 400)
    with pytest.raises(StaleElementReferenceException):
        row1.click()
    assert driver.find_elements(AppiumBy.ID, "open-1") == []
    driver.execute_script("mobile: scroll", {"direction": "up", "amount": 1.0})
    driver.execute_script("mobile: scroll", {"direction": "up", "amount": 1.0})
    assert len(driver.find_elements(AppiumBy.ID, "open-1")) == 1


def test_mobile_commands_and_back(driver: appium_webdriver.Remote) -> None:
    assert driver.execute_script("mobile: queryAppState", {"bundleId": DEMO}) == 4
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "open-2").click()
    assert driver.find_element(AppiumBy.ID, "title").text == "Item 2"
    driver.back()
    assert driver.find_element(AppiumBy.ID, "title").text == "Inbox"
    assert driver.execute_script("mobile: terminateApp", {"bundleId": DEMO}) is True
    assert driver.execute_script("mobile: queryAppState", {"bundleId": DEMO}) == 1
    driver.execute_script("mobile: launchApp", {"bundleId": DEMO})
    assert driver.find_element(AppiumBy.ID, "title").text == "Inbox"


def test_long_press_and_double_tap_by_w3c_actions(driver: appium_webdriver.Remote) -> None:
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "open-1").click()
    hold = driver.find_element(AppiumBy.ID, "hold-target")
    actions = ActionChains(driver)
    actions.w3c_actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "touch"))  # type: ignore[no-untyped-call]
    actions.w3c_actions.pointer_action.move_to(hold).pointer_down().pause(1).release()  # type: ignore[no-untyped-call]
    actions.perform()
    assert driver.find_element(AppiumBy.ID, "long-presses").text == "1"
    pad = driver.find_element(AppiumBy.ID, "double-tap-target")
    actions = ActionChains(driver)
    actions.w3c_actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "touch"))  # type: ignore[no-untyped-call]
    actions.w3c_actions.pointer_action.move_to(pad).click().pause(0.05).click()  # type: ignore[no-untyped-call]
    actions.perform()
    assert driver.find_element(AppiumBy.ID, "double-taps").text == "1"


def test_find_element_scrolls_to_an_element_below_the_screen_and_find_elements_lists_what_shows(
    driver: appium_webdriver.Remote,
) -> None:
    before = likes(driver)
    assert driver.find_elements(AppiumBy.ACCESSIBILITY_ID, "like-150") == []  # a listing: what shows, nothing moves
    assert len(driver.find_elements(AppiumBy.ID, "likes-total")) == 1
    button = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "like-150")  # below the screen: scrolled into view
    assert button.is_displayed() and button.text.startswith("Like ")
    count = int(button.text.split()[1])
    button.click()
    assert driver.find_element(AppiumBy.ID, "like-150").text == f"Like {count + 1}"
    assert driver.find_elements(AppiumBy.ID, "likes-total") == []  # scrolled away from the top
    assert likes(driver) == before + 1  # found above the screen: scrolled back to it, exactly one more like
    with pytest.raises(NoSuchElementException):
        driver.find_element(AppiumBy.ID, "like-999")  # nowhere: nothing moves
    assert len(driver.find_elements(AppiumBy.ID, "likes-total")) == 1


def test_no_such_element_and_no_such_device(server: Server, driver: appium_webdriver.Remote) -> None:
    with pytest.raises(NoSuchElementException):
        driver.find_element(AppiumBy.ACCESSIBILITY_ID, "nothing-like-this")
    with pytest.raises(SessionNotCreatedException, match="pixel-7"):
        appium(server, **{"appium:deviceName": "Galaxy S24"})


# Selenium's own Remote(url) path warns about its own internals; the URL form is what users write.
@pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")
def test_plain_selenium_drives_a_phone_and_quit_stops_it(server: Server) -> None:
    options = ArgOptions()
    options.set_capability("platformName", "android")
    options.set_capability("phonewire:device", "web:pixel-7")
    options.set_capability("appium:app", DEMO)
    d = selenium_webdriver.Remote(server.url, options=options)
    before = int(d.find_element(By.ID, "likes-total").text)
    d.find_element(By.XPATH, "//*[@name='like-2']").click()
    assert int(d.find_element(By.ID, "likes-total").text) == before + 1
    assert d.find_element(By.ID, "like-2").get_dom_attribute("label") == f"Like {before + 1}"
    d.quit()
    with pytest.raises(InvalidSessionIdException):
        d.find_element(By.ID, "likes-total")


def test_every_session_has_its_own_phone(server: Server) -> None:
    one, two = appium(server), appium(server)
    try:
        one.find_element(AppiumBy.ACCESSIBILITY_ID, "like-3").click()
        assert one.find_element(AppiumBy.ID, "likes-total").text == "1"
        assert two.find_element(AppiumBy.ID, "likes-total").text == "0"
    finally:
        one.quit()
        two.quit()


def test_sigterm_ends_the_server_and_the_runner_of_an_open_session() -> None:
    s = Server()
    appium(s)  # left open: the server must end it
    runners = _children(s.proc.pid)
    assert runners, "a session starts a runner"
    s.stop()
    assert s.proc.returncode == 0
    assert all(wait_gone(pid) for pid in runners)


def _children(pid: int) -> list[int]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        found = children(pid)
        if found:
            return found
        time.sleep(0.05)
    return []


def test_platform_locators_find_the_like_button_and_its_element_screenshot_is_its_part_of_the_screen(
    driver: appium_webdriver.Remote,
) -> None:
    before = likes(driver)
    by_predicate = driver.find_element(
        AppiumBy.IOS_PREDICATE, f"type == 'XCUIElementTypeButton' AND label == 'Like {before}'"
    )
    by_uiautomator = driver.find_element(AppiumBy.ANDROID_UIAUTOMATOR, 'new UiSelector().resourceId("like-1")')
    assert by_predicate == by_uiautomator  # the same element id: it was already known
    by_uiautomator.click()
    assert likes(driver) == before + 1
    with pytest.raises(InvalidSelectorException, match="use accessibility id, id or xpath"):
        driver.find_element(AppiumBy.IOS_PREDICATE, "label BEGINSWITH 'Like'")
    button = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "like-1")
    part = Image.open(io.BytesIO(button.screenshot_as_png))
    screen = Image.open(io.BytesIO(driver.get_screenshot_as_png()))
    scale = screen.width / driver.get_window_rect()["width"]
    rect = button.rect
    assert part.size == (round(rect["width"] * scale), round(rect["height"] * scale))
    x, y = round(rect["x"] * scale), round(rect["y"] * scale)
    same_part = screen.convert("RGB").crop((x, y, x + part.width, y + part.height))
    assert part.convert("RGB").tobytes() == same_part.tobytes()


def test_element_click_on_a_select_option_chooses_it_as_w3c_says(server: Server, hostile_site: HostileSite) -> None:
    """Findings 2, D1: the option (listed under its closed select, without a place) is chosen; nothing is tapped at
    the page's origin."""
    d = appium(server, **{"appium:app": hostile_site.url("findings2.html")})
    try:
        d.find_element(AppiumBy.XPATH, '//*[@label="Cherry"]').click()
        assert d.find_element(AppiumBy.ID, "fruit").get_attribute("value") == "Cherry"
        assert d.find_element(AppiumBy.ID, "changes").text == "1"
    finally:
        d.quit()


def test_element_click_on_a_row_whose_centre_is_under_a_popup_lands_on_its_visible_part(
    server: Server, hostile_site: HostileSite
) -> None:
    """Findings 2, D8: the click uses the point of the row the device found in the open (its tapPoint); the row's
    counter goes up by one, the popup's does not; a button wholly under the popup is not clicked."""
    d = appium(server, **{"appium:app": hostile_site.url("occlusion.html")})
    try:
        d.find_element(AppiumBy.ID, "row1").click()
        assert [d.find_element(AppiumBy.ID, f"n-{n}").text for n in ("row1", "under", "popup")] == ["1", "0", "0"]
        with pytest.raises(ElementClickInterceptedException) as info:
            d.find_element(AppiumBy.ID, "under").click()
        assert 'Dialog "Column menu" id=popup' in str(info.value)
        assert [d.find_element(AppiumBy.ID, f"n-{n}").text for n in ("row1", "under", "popup")] == ["1", "0", "0"]
    finally:
        d.quit()
