"""The on-screen keyboard through ``phonewire webdriver`` (issue 24, item 3), driven by the Appium Python client on
the real web phone and asserted by the page's own observation: a click on a text field raises the keyboard (the
page's visualViewport shrinks), a touch action under it is ``element click intercepted`` (KEYBOARD_COVERS) and the
page sees no click; Appium's ``hide_keyboard`` (its ``/appium/device/hide_keyboard`` route) and
``mobile: hideKeyboard`` lower it, and the same touch then lands."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from appium import webdriver as appium_webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from web_runner import HostileSite
from web_runner import WebDriverServer as Server

from phonewire.devices.web.profiles import resolve_profile

pytestmark = pytest.mark.e2e

PROFILE = resolve_profile(None)
BELOW = (int(PROFILE.width / 2), PROFILE.height - 40)  # the low button, under the keyboard when it is up


@pytest.fixture
def driver(server: Server, hostile_site: HostileSite) -> Iterator[appium_webdriver.Remote]:
    options = AppiumOptions()
    options.load_capabilities(
        {"platformName": "iOS", "appium:deviceName": "iPhone 15", "appium:app": hostile_site.url("keyboard.html")}
    )
    d = appium_webdriver.Remote(server.url, options=options)
    try:
        yield d
    finally:
        d.quit()


def text(d: appium_webdriver.Remote, ident: str) -> str:
    return str(d.find_element(AppiumBy.ID, ident).text)


def touch(d: appium_webdriver.Remote, x: int, y: int) -> None:
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")  # type: ignore[no-untyped-call]
    actions = ActionBuilder(d, mouse=finger)
    actions.pointer_action.move_to_location(x, y).pointer_down().pause(0.05).pointer_up()  # type: ignore[no-untyped-call]
    actions.perform()


@pytest.mark.parametrize("how", ["appium route", "mobile command"])
def test_a_touch_under_the_keyboard_is_intercepted_until_the_keyboard_is_hidden(
    driver: appium_webdriver.Remote, how: str
) -> None:
    driver.find_element(AppiumBy.ID, "name").click()
    assert text(driver, "heights") == f"{PROFILE.height} {PROFILE.height - PROFILE.keyboard}"
    with pytest.raises(WebDriverException) as info:
        touch(driver, *BELOW)
    assert "intercepted" in str(info.value.msg) and "keyboard" in str(info.value.msg)
    assert text(driver, "clicks") == "0"
    if how == "appium route":
        driver.hide_keyboard()
    else:
        driver.execute_script("mobile: hideKeyboard", {})
    assert text(driver, "focus") == "blur name"
    touch(driver, *BELOW)
    assert text(driver, "clicks") == "1"
