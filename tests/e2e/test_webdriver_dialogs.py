"""W3C "User prompts" on the real web phone through ``phonewire webdriver``, driven by plain Selenium
(``driver.switch_to.alert``) on a page of our own (tests/e2e/hostile/dialogs.html): findings 3, E1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium import webdriver as selenium_webdriver
from selenium.common.exceptions import (
    ElementNotInteractableException,
    NoAlertPresentException,
    UnexpectedAlertPresentException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions
from web_runner import HostileSite
from web_runner import WebDriverServer as Server

pytestmark = [pytest.mark.e2e, pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")]


def session(server: Server, site: HostileSite, page: str = "dialogs.html", **caps: str) -> selenium_webdriver.Remote:
    options = ArgOptions()
    options.set_capability("phonewire:device", "web")
    options.set_capability("appium:app", site.url(page))
    for key, value in caps.items():
        options.set_capability(key, value)
    return selenium_webdriver.Remote(server.url, options=options)


@pytest.fixture
def driver(server: Server, hostile_site: HostileSite) -> Iterator[selenium_webdriver.Remote]:
    d = session(server, hostile_site)
    try:
        yield d
    finally:
        d.quit()


def count(d: selenium_webdriver.Remote, ident: str) -> str:
    return str(d.find_element(By.ID, ident).text)


def test_a_click_that_opens_confirm_answers_and_the_alert_routes_accept_it_once(
    driver: selenium_webdriver.Remote,
) -> None:
    with pytest.raises(NoAlertPresentException):
        _ = driver.switch_to.alert.text
    driver.find_element(By.ID, "delete").click()  # answers at once: no 75 s timeout
    alert = driver.switch_to.alert
    assert alert.text == "Delete this record?"
    alert.accept()
    assert count(driver, "deleted") == "1" and count(driver, "kept") == "0"
    driver.find_element(By.ID, "delete").click()
    driver.switch_to.alert.dismiss()
    assert count(driver, "kept") == "1" and count(driver, "deleted") == "1"


def test_send_keys_to_a_prompt_then_accept_sends_the_text(driver: selenium_webdriver.Remote) -> None:
    driver.find_element(By.ID, "ask").click()
    alert = driver.switch_to.alert
    assert alert.text == "Your name?"
    alert.send_keys("Grace")
    alert.accept()
    assert count(driver, "name") == "Grace"
    driver.find_element(By.ID, "delete").click()
    with pytest.raises(ElementNotInteractableException):
        driver.switch_to.alert.send_keys("no field")  # a confirm takes no text
    driver.switch_to.alert.dismiss()


def test_another_command_under_a_dialog_is_unexpected_alert_open_and_dismisses_it(
    driver: selenium_webdriver.Remote,
) -> None:
    driver.find_element(By.ID, "delete").click()
    with pytest.raises(UnexpectedAlertPresentException) as info:
        driver.find_element(By.ID, "kept")
    assert info.value.alert_text == "Delete this record?"
    assert count(driver, "kept") == "1" and count(driver, "deleted") == "0"  # dismissed, once
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.accept()


def test_unhandled_prompt_behavior_accept_answers_ok_and_the_command_goes_on(
    server: Server, hostile_site: HostileSite
) -> None:
    d = session(server, hostile_site, unhandledPromptBehavior="accept")
    try:
        assert d.capabilities["unhandledPromptBehavior"] == "accept"
        d.find_element(By.ID, "delete").click()
        assert count(d, "deleted") == "1" and count(d, "kept") == "0"  # the find went on after OK
    finally:
        d.quit()


def test_a_page_message_box_is_no_alert_and_the_alert_routes_answer_only_the_page_dialog(
    server: Server, hostile_site: HostileSite
) -> None:
    """Findings 3, E20: a flash message (role=alert, a close ×) is not a user prompt: ``no such alert`` and the
    message stays; with a confirm open beside it, the alert routes answer the confirm, not the message."""
    d = session(server, hostile_site, "flash_dialog.html")
    try:
        with pytest.raises(NoAlertPresentException):
            _ = d.switch_to.alert.text
        with pytest.raises(NoAlertPresentException):
            d.switch_to.alert.accept()
        assert len(d.find_elements(By.ID, "flash")) == 1  # accept tapped no ×: the message is still there
        d.find_element(By.ID, "delete").click()
        alert = d.switch_to.alert
        assert alert.text == "Delete this record?"
        alert.accept()
        assert count(d, "deleted") == "1"
        assert len(d.find_elements(By.ID, "flash")) == 1
    finally:
        d.quit()
