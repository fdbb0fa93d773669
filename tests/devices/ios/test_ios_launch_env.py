"""Launch options on iOS (issue 24 item 5) against the WDA double (``/wda/apps/launch`` as WebDriverAgent documents
it: ``arguments`` and ``environment`` for the process it starts): ``--locale`` is the app's ``-AppleLanguages`` /
``-AppleLocale`` launch arguments, ``--timezone`` its ``TZ``; a zone no tz database names is INVALID_REQUEST before
anything is sent (WDA would start the app in UTC without a word)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_ios_device import run, since
from wda_double import WdaDouble

from phonewire.devices.ios.device import IosDevice
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

APP = "com.apple.Preferences"


@pytest.fixture
def wda() -> Iterator[WdaDouble]:
    with WdaDouble.with_fixture_apps() as double:
        yield double


def test_locale_and_time_zone_are_the_apps_launch_arguments_and_environment(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> dict[str, object]:
        return await device.launch_app(APP, locale="fr-FR", timezone="Europe/Paris")

    reply = run(wda, scenario)
    assert (reply["locale"], reply["timezone"]) == ("fr-FR", "Europe/Paris")
    body = wda.bodies("POST /wda/apps/launch")[-1]
    assert body["arguments"] == ["-AppleLanguages", "(fr-FR)", "-AppleLocale", "fr_FR"]
    assert body["environment"] == {"TZ": "Europe/Paris"}


def test_a_launch_without_them_gives_the_app_nothing_of_the_kind(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> dict[str, object]:
        return await device.launch_app(APP)

    run(wda, scenario)
    assert wda.bodies("POST /wda/apps/launch")[-1] | {"bundleId": APP} == {
        "bundleId": APP, "arguments": [], "environment": {}
    }  # fmt: skip


def test_an_unknown_time_zone_is_refused_before_anything_is_sent(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> tuple[ProtocolError, list[str]]:
        mark = len(wda.routes())
        with pytest.raises(ProtocolError) as info:
            await device.launch_app(APP, timezone="Mars/Olympus_Mons")
        return info.value, since(wda, mark)

    error, sent = run(wda, scenario)
    assert error.code == e.INVALID_REQUEST and "Europe/Paris" in (error.hint or "")
    assert sent == []


def test_pick_file_is_unsupported_and_sends_nothing(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> tuple[ProtocolError, list[str]]:
        mark = len(wda.routes())
        with pytest.raises(ProtocolError) as info:
            await device.pick_file(APP, ["/tmp/a.png"])
        with pytest.raises(ProtocolError):
            await device.pinch(APP, 100, 100, 2.0, 300)
        return info.value, since(wda, mark)

    error, sent = run(wda, scenario)
    assert error.code == e.UNSUPPORTED_OPERATION and "file chooser" in error.message and sent == []
