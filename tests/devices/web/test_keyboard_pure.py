"""The web phone's keyboard without a browser: each profile's keyboard height (held either way), the metrics the
page gets while it is up, where it is and which points it covers, the Keyboard node a snapshot gets and its line in
the agent view, and the drawn screenshot's size."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from phonewire.agent.view import node_line, select_lines
from phonewire.devices.base import Screenshot
from phonewire.devices.web import keyboard
from phonewire.devices.web.profiles import PROFILES, metrics, resolve_profile
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Snapshot, add_keyboard, keyboard_over, refuse_under


@pytest.mark.parametrize(("name", "portrait", "landscape"), [("iphone-15", 336, 209), ("pixel-7", 300, 220),
                                                             ("ipad", 320, 405)])  # fmt: skip
def test_every_profile_has_its_keyboard_held_either_way(name: str, portrait: int, landscape: int) -> None:
    assert resolve_profile(name).keyboard == portrait
    turned = resolve_profile(f"{name}-landscape")
    assert turned.keyboard == landscape and resolve_profile(turned.name.removesuffix("-landscape")).keyboard == portrait


def test_the_view_above_the_keyboard_is_the_screen_less_the_keyboard_the_screen_unchanged() -> None:
    p = PROFILES["iphone-15"]
    up, down = metrics(p, keyboard=True), metrics(p)
    assert (up["height"], up["screenHeight"], up["width"]) == (852 - 336, 852, 393)
    assert (down["height"], down["screenHeight"]) == (852, 852)


def test_the_keyboard_covers_the_bottom_of_the_screen_and_only_that() -> None:
    p = PROFILES["pixel-7"]
    assert keyboard.rect(p).y == 915 - 300
    assert keyboard.under(p, 10, 915 - 300) is not None and keyboard.under(p, 10, 914) is not None
    assert keyboard.under(p, 10, 915 - 301) is None


def test_the_snapshot_lists_the_keyboard_last_and_the_view_says_how_to_dismiss_it() -> None:
    snapshot: Snapshot = {"nodes": [{"index": 0, "type": "Application", "label": "app", "identifier": None,
                                     "value": None, "rect": {"x": 0, "y": 0, "width": 393, "height": 516},
                                     "enabled": None, "focused": None, "selected": None, "depth": 0,
                                     "parentIndex": None}], "quality": {"state": "healthy"}}  # fmt: skip
    add_keyboard(snapshot, keyboard.rect(PROFILES["iphone-15"]))
    board = snapshot["nodes"][-1]
    assert (board["type"], board["index"], board["parentIndex"]) == ("Keyboard", 1, 0)
    assert node_line(board) == "Keyboard (covers the screen below y=516: `keyboard hide` dismisses it)"
    assert 1 in select_lines(snapshot["nodes"], interactive=True)  # -i lists it too
    assert keyboard_over(snapshot["nodes"], 200, 600) is not None and keyboard_over(snapshot["nodes"], 200, 500) is None
    with pytest.raises(ProtocolError) as info:
        refuse_under(keyboard.rect(PROFILES["iphone-15"]), 200, 600, "tap")
    assert info.value.code == e.KEYBOARD_COVERS and "tap was not sent" in info.value.message


@pytest.mark.parametrize(("css", "size"), [(None, (1179, 2556)), ((393, 852), (393, 852))])
def test_a_screenshot_with_the_keyboard_up_is_the_whole_screens_size(
    css: tuple[int, int] | None, size: tuple[int, int]
) -> None:
    p = PROFILES["iphone-15"]
    view = (size[0], round((852 - 336) * size[0] / 393))
    out = io.BytesIO()
    Image.new("RGB", view, (255, 0, 0)).save(out, format="PNG")
    drawn = keyboard.drawn(Screenshot(out.getvalue(), "png", *view), p, css)
    with Image.open(io.BytesIO(drawn.data)) as img:
        assert img.size == size == (drawn.width, drawn.height)
        rgb = img.convert("RGB")
        assert rgb.getpixel((1, 1)) == (255, 0, 0)  # the page's view on top
        assert rgb.getpixel((1, size[1] - 2)) != (255, 0, 0)  # the keyboard below it
