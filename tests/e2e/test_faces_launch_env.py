"""``open --locale --timezone`` (issue 24 item 5) through every other front end on the real web phone — the CLI (a
daemon of its own), the bridge, MCP and WebDriver (``mobile: launchApp``) — each asserted by what the page reads
(Intl's time zone, ``navigator.language``), and a bad option refused in that front end's own shape."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from appium import webdriver as appium_webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy
from cli_harness import web_cli
from selenium.common.exceptions import WebDriverException
from test_bridge_web import serving_bridge
from test_mcp_web import mcp_session, text
from web_runner import HostileSite
from web_runner import WebDriverServer as Server

pytestmark = pytest.mark.e2e

PAGE = "launch_env.html"


def test_the_cli_takes_locale_and_timezone_as_options(
    tmp_path_factory: pytest.TempPathFactory, hostile_site: HostileSite
) -> None:
    with web_cli(tmp_path_factory, "cli-launch-env", "apps") as cli:
        res = cli("--device", "web", "open", hostile_site.url(PAGE), "--locale", "ja-JP", "--timezone", "Asia/Tokyo")
        assert res.code == 0, res.err
        nodes = cli("--device", "web", "--json", "snapshot", "--all").json()["data"]["nodes"]
        labels = {n.get("identifier"): n.get("label") for n in nodes}
        assert (labels["zone"], labels["language"], labels["hour"]) == ("Asia/Tokyo", "ja-JP", "9")
        bad = cli("--device", "web", "open", hostile_site.url(PAGE), "--timezone", "Mars/Olympus_Mons")
        assert bad.code != 0 and "Mars/Olympus_Mons" in bad.err and "hint:" in bad.err, bad.err
        bad = cli("--device", "web", "open", hostile_site.url(PAGE), "--locale", "en_GB")
        assert bad.code == 2 and "en_GB" in bad.err and "hint:" in bad.err, bad.err


def test_the_bridge_takes_them_on_open_app(hostile_site: HostileSite) -> None:
    for bridge in serving_bridge(hostile_site.url(PAGE)):
        result = bridge.result("open_app", bundle_identifier=hostile_site.url(PAGE), locale="de-DE",
                               timezone="America/New_York")  # fmt: skip
        assert "America/New_York" in result["tree"] and "de-DE" in result["tree"]
        reply = bridge.call("open_app", bundle_identifier=hostile_site.url(PAGE), locale="german!")
        assert "error" in reply and "german!" in str(reply["error"])


def test_mcp_takes_them_on_open_app(hostile_site: HostileSite) -> None:
    async def main() -> None:
        async with mcp_session(app=hostile_site.url(PAGE)) as session:
            opened = await session.call_tool(
                "open_app", {"app_id": hostile_site.url(PAGE), "locale": "pt-BR", "timezone": "America/Sao_Paulo"}
            )
            assert not opened.is_error, opened.content
            view = text(await session.call_tool("snapshot", {"all": True}))
            assert "America/Sao_Paulo" in view and "pt-BR" in view
            bad = await session.call_tool("open_app", {"app_id": hostile_site.url(PAGE), "timezone": "+02:00"})
            assert bad.is_error and "Europe/Paris" in text(bad)

    asyncio.run(main())


@pytest.fixture
def driver(server: Server, hostile_site: HostileSite) -> Iterator[appium_webdriver.Remote]:
    options = AppiumOptions()
    options.load_capabilities(
        {"platformName": "iOS", "appium:deviceName": "iPhone 15", "appium:app": hostile_site.url(PAGE)}
    )
    d = appium_webdriver.Remote(server.url, options=options)
    try:
        yield d
    finally:
        d.quit()


def test_webdriver_launch_app_takes_them(driver: appium_webdriver.Remote, hostile_site: HostileSite) -> None:
    args = {"appId": hostile_site.url(PAGE), "locale": "fr-CA", "timezone": "Europe/Berlin"}
    driver.execute_script("mobile: launchApp", args)
    assert driver.find_element(AppiumBy.ID, "zone").text == "Europe/Berlin"
    assert driver.find_element(AppiumBy.ID, "language").text == "fr-CA"
    with pytest.raises(WebDriverException) as info:
        driver.execute_script("mobile: launchApp", {**args, "timezone": "Mars/Olympus_Mons"})
    assert "Mars/Olympus_Mons" in str(info.value)
    assert driver.find_element(AppiumBy.ID, "zone").text == "Europe/Berlin"
