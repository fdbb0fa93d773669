"""The phone's repertoire through ``phonewire webdriver`` (issue 24), driven by the Appium Python client on the real
web phone, each asserted by the page's own observation: ``mobile: setClipboard`` / ``getClipboard`` (Appium's base64
shape), the orientation endpoints, ``mobile: setGeolocation``, ``mobile: setConnectivity`` (Appium's airplane mode),
``mobile: changePermissions`` and ``mobile: selectText``.  Every session has its own phone."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from appium import webdriver as appium_webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.wait import WebDriverWait
from web_runner import HostileSite
from web_runner import WebDriverServer as Server

pytestmark = pytest.mark.e2e


@pytest.fixture
def driver(server: Server, hostile_site: HostileSite) -> Iterator[appium_webdriver.Remote]:
    options = AppiumOptions()
    options.load_capabilities(
        {"platformName": "iOS", "appium:deviceName": "iPhone 15", "appium:app": hostile_site.url("repertoire.html")}
    )
    d = appium_webdriver.Remote(server.url, options=options)
    try:
        yield d
    finally:
        d.quit()


def text(d: appium_webdriver.Remote, ident: str) -> str:
    return str(d.find_element(AppiumBy.ID, ident).text)


def test_the_clipboard_in_appiums_shape_is_the_one_the_page_reads(driver: appium_webdriver.Remote) -> None:
    content = base64.b64encode("from WebDriver ✓".encode()).decode()
    driver.execute_script("mobile: setClipboard", {"content": content, "contentType": "plaintext"})
    assert base64.b64decode(driver.execute_script("mobile: getClipboard", {})).decode() == "from WebDriver ✓"
    driver.execute_script("mobile: changePermissions", {"permissions": ["clipboard"], "action": "grant"})
    driver.find_element(AppiumBy.ID, "read-clipboard").click()
    assert text(driver, "read") == '"from WebDriver ✓"'
    with pytest.raises(WebDriverException, match="plaintext"):
        driver.execute_script("mobile: setClipboard", {"content": content, "contentType": "image"})


def test_the_orientation_endpoints_turn_the_phone_and_the_page_sees_it(driver: appium_webdriver.Remote) -> None:
    assert driver.orientation == "PORTRAIT"
    driver.orientation = "LANDSCAPE"
    assert driver.orientation == "LANDSCAPE"
    assert text(driver, "orientation") == "landscape-primary"
    driver.orientation = "PORTRAIT"
    assert text(driver, "orientation") == "portrait-primary"


def test_geolocation_connectivity_and_permissions_by_mobile_commands(driver: appium_webdriver.Remote) -> None:
    driver.execute_script("mobile: changePermissions", {"permissions": ["geolocation"], "action": "grant"})
    driver.execute_script("mobile: setGeolocation", {"latitude": -33.8568, "longitude": 151.2153, "accuracy": 20})
    position = driver.find_element(AppiumBy.ID, "position")
    assert position.text == "none"
    driver.find_element(AppiumBy.ID, "locate").click()
    # the page's answer comes from its geolocation callback, after the click: wait for it as a suite would; the
    # element found before, whose text changed, is still the same element (a fresh clone once answered STALE_REF)
    WebDriverWait(driver, 10).until(lambda d: position.text != "none")
    assert position.text == "-33.8568,151.2153 ±20" == text(driver, "position")
    driver.execute_script("mobile: setConnectivity", {"airplaneMode": True})
    assert text(driver, "online") == "false"
    driver.execute_script("mobile: setConnectivity", {"wifi": True, "data": True})
    assert text(driver, "online") == "true"
    with pytest.raises(WebDriverException, match="latitude"):
        driver.execute_script("mobile: setGeolocation", {"latitude": 91, "longitude": 0})


def test_select_text_answers_the_text_the_page_sees_selected(driver: appium_webdriver.Remote) -> None:
    assert driver.execute_script("mobile: selectText", {"target": "id=quote", "from": 4, "to": 9}) == "quick"
    assert text(driver, "selection") == '"quick"'
