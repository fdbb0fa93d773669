"""The phone's repertoire on iOS (issue 24) against the WDA double (WebDriverAgent's documented routes and reply
shapes): the pasteboard as base64 plain text, the orientation route (the window turns); what WDA offers no route
for is UNSUPPORTED_OPERATION with nothing sent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_ios_device import run, since
from wda_double import WdaDouble

from phonewire.devices.ios.device import IosDevice
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


@pytest.fixture
def wda() -> Iterator[WdaDouble]:
    with WdaDouble.with_fixture_apps() as double:
        yield double


def test_the_pasteboard_is_set_and_read_as_base64_plain_text(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> str:
        await device.set_clipboard("two  spaces ✓")
        return str((await device.get_clipboard())["text"])

    assert run(wda, scenario) == "two  spaces ✓"
    assert wda.pasteboard == "two  spaces ✓"
    assert wda.bodies("POST /wda/setPasteboard")[-1]["contentType"] == "plaintext"


def test_rotate_is_the_orientation_route_and_the_viewport_turns(wda: WdaDouble) -> None:
    async def scenario(device: IosDevice) -> tuple[float, float, float, float]:
        before = await device.viewport("com.apple.Preferences")
        await device.rotate("landscape")
        after = await device.viewport("com.apple.Preferences")
        return before.width, before.height, after.width, after.height

    w, h, w2, h2 = run(wda, scenario)
    assert (w2, h2) == (h, w) and wda.orientation == "LANDSCAPE"
    assert wda.bodies("POST /orientation") == [{"orientation": "LANDSCAPE"}]


@pytest.mark.parametrize("what", ["select", "combo", "location", "connectivity", "permissions"])
def test_what_wda_has_no_route_for_is_unsupported_and_sends_nothing(wda: WdaDouble, what: str) -> None:
    async def scenario(device: IosDevice) -> tuple[ProtocolError, list[str]]:
        mark = len(wda.routes())
        calls = {
            "select": lambda: device.select_text("com.apple.Preferences", 10, 10, "word"),
            "combo": lambda: device.key_combo("com.apple.Preferences", "a", ["meta"]),
            "location": lambda: device.set_location((1.0, 2.0, 3.0)),
            "connectivity": lambda: device.set_connectivity("offline"),
            "permissions": lambda: device.set_permissions("grant", ["camera"]),
        }
        with pytest.raises(ProtocolError) as info:
            await calls[what]()
        return info.value, since(wda, mark)

    error, sent = run(wda, scenario)
    assert error.code == e.UNSUPPORTED_OPERATION and error.hint and sent == []
