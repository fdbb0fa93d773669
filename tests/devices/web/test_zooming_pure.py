"""Where a double tap zooms to (zooming.py), worked out without a browser: the scale that fits a block, the part of
the page shown after zooming in on it, and the zoom out about the finger.  The e2e tests
(tests/e2e/test_web_double_tap_zoom.py) check the same on real Chromium through the page's own handlers."""

from __future__ import annotations

import pytest

from phonewire.devices.web.zooming import LEGIBLE_SCALE, MARGIN, anchored_view, block_view, zoom_in_scale
from phonewire.runner.handlers import zoom_noted


def test_a_block_wider_than_the_screen_is_fitted_with_its_margins() -> None:
    assert zoom_in_scale(766, 393) == pytest.approx((393 - 2 * MARGIN) / 766)


def test_a_narrow_block_is_zoomed_to_the_pages_own_size_and_no_further() -> None:
    assert zoom_in_scale(200, 393) == LEGIBLE_SCALE
    assert zoom_in_scale(0, 393) == LEGIBLE_SCALE  # an empty box: no division by zero


def test_a_block_smaller_than_the_screen_is_centred_each_way() -> None:
    left, top = block_view((800, 100, 200, 50), (900, 120), (393, 852))
    assert (left, top) == (800 - (393 - 200) / 2, 100 - (852 - 50) / 2)


def test_a_block_larger_than_the_screen_shows_from_its_start_unless_the_finger_would_be_off_it() -> None:
    block = (10, 0, 1000, 3000)
    assert block_view(block, (50, 200), (393, 852)) == (10, 0)
    left, top = block_view(block, (900, 2000), (393, 852))  # the finger far into it: moved on as far as keeps it
    assert (left, top) == (900 + MARGIN - 393, 2000 + MARGIN - 852)


def test_a_zoom_out_keeps_the_point_under_the_finger() -> None:
    left, top = anchored_view((600, 300), (196, 100), 0.5)
    assert (600 - left) * 0.5 == 196 and (300 - top) * 0.5 == 100


def test_the_reply_says_what_the_zoom_did() -> None:
    data = {"message": "tapped (10, 20) 2 times"}
    zoomed = zoom_noted(data, {"from": 0.327, "to": 1.0, "how": "block"})
    assert zoomed["zoomed"]["from"] == 0.327 and zoomed["zoomed"]["to"] == 1.0
    assert zoomed["zoomed"]["note"] == (
        "the page zoomed in to scale 1 (was 0.327) to fit the block under the finger: a double tap there again zooms "
        "back out"
    )
    assert zoomed["message"] == data["message"]
    out = zoom_noted(data, {"from": 1.0, "to": 0.327, "how": "out"})
    assert out["zoomed"]["note"] == "the page zoomed out to scale 0.327 (was 1), the least it goes to"
    fitted = zoom_noted(data, {"from": 1.48, "to": 1.0, "how": "block"})  # after a pinch: down to fit the block
    assert fitted["zoomed"]["note"].startswith("the page zoomed out to scale 1 (was 1.48) to fit the block")
    none = zoom_noted(data, {"from": 0.327, "to": 0.327, "how": "none"})
    assert none["zoomed"]["note"].startswith("the page did not zoom")
