"""``open --locale --timezone`` and ``pick-file`` (issue 24 item 5) through every other front end on the real web
phone — the CLI (a daemon of its own), the bridge, MCP and WebDriver (``mobile: launchApp``, ``mobile: pickFile``) —
each asserted by what the page reads (Intl's time zone, ``navigator.language``, the picked file's name and size in its
own change handler), and bad input refused in that front end's own shape."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from appium import webdriver as appium_webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy
from cli_harness import web_cli
from selenium.common.exceptions import InvalidArgumentException, WebDriverException
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
        # pick-file: a relative path is the caller's, resolved against its working directory
        work = tmp_path_factory.mktemp("cli-pick")
        (work / "notes.txt").write_text("seven b")
        cli.monkeypatch.chdir(work)
        assert cli("--device", "web", "tap", "id=photo").code == 0
        assert 'Dialog "Choose a file"' in cli("--device", "web", "snapshot").out
        res = cli("--device", "web", "pick-file", "notes.txt")
        assert res.code == 0 and "picked notes.txt" in res.out, res.err
        nodes = cli("--device", "web", "--json", "snapshot", "--all").json()["data"]["nodes"]
        assert next(n for n in nodes if n.get("identifier") == "picked")["label"] == "photo notes.txt:7"
        bad = cli("--device", "web", "pick-file", "notes.txt")
        assert bad.code == 2 and "no file chooser is open" in bad.err and "hint:" in bad.err, bad.err
        res = cli("--device", "web", "pinch", "id=canvas", "--scale", "0.5")
        assert res.code == 0 and "two fingers" in res.out, res.err
        nodes = cli("--device", "web", "--json", "snapshot", "--all").json()["data"]["nodes"]
        assert next(n for n in nodes if n.get("identifier") == "touches")["label"] == "2 fingers, together x0.5"
        bad = cli("--device", "web", "pinch", "id=canvas", "--scale", "20")
        assert bad.code == 2 and "hint:" in bad.err, bad.err


def test_the_bridge_takes_them_on_open_app(hostile_site: HostileSite) -> None:
    for bridge in serving_bridge(hostile_site.url(PAGE)):
        result = bridge.result("open_app", bundle_identifier=hostile_site.url(PAGE), locale="de-DE",
                               timezone="America/New_York")  # fmt: skip
        assert "America/New_York" in result["tree"] and "de-DE" in result["tree"]
        reply = bridge.call("open_app", bundle_identifier=hostile_site.url(PAGE), locale="german!")
        assert "error" in reply and "german!" in str(reply["error"])
        bridge.result("tap", target="id=photo")
        picked = bridge.result("pick_file", files=[__file__])
        assert f"photo {Path(__file__).name}:{Path(__file__).stat().st_size}" in picked["tree"]


def test_mcp_takes_them_on_open_app(hostile_site: HostileSite) -> None:
    name = f"{Path(__file__).name}:{Path(__file__).stat().st_size}"

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
            missing = await session.call_tool("pick_file", {"files": [__file__]})
            assert missing.is_error and "no file chooser is open" in text(missing)
            await session.call_tool("tap", {"target": "id=files"})
            assert not (await session.call_tool("pick_file", {"files": [__file__, __file__]})).is_error
            assert f"files {name},{name}" in text(await session.call_tool("snapshot", {"all": True}))

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


def test_webdriver_pick_file_takes_names_in_its_files_dir_only(hostile_site: HostileSite, tmp_path: Path) -> None:
    (tmp_path / "scan.pdf").write_bytes(bytes(12))
    server = Server("--files-dir", str(tmp_path))
    try:
        options = AppiumOptions()
        options.load_capabilities({"platformName": "iOS", "appium:app": hostile_site.url(PAGE)})
        d = appium_webdriver.Remote(server.url, options=options)
        try:
            d.find_element(AppiumBy.ID, "photo").click()
            with pytest.raises(InvalidArgumentException) as outside:
                d.execute_script("mobile: pickFile", {"files": ["/etc/hostname"]})
            assert "files directory" in str(outside.value)
            assert d.execute_script("mobile: pickFile", {"files": ["scan.pdf"]}) == "picked scan.pdf"
            assert d.find_element(AppiumBy.ID, "picked").text == "photo scan.pdf:12"
            d.execute_script("mobile: pinch", {"target": "id=canvas", "scale": 3})
            assert d.find_element(AppiumBy.ID, "touches").text == "2 fingers, apart x3.0"
        finally:
            d.quit()
    finally:
        server.stop()
