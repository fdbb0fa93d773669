"""Set-of-marks: each ref's box is drawn where its element is, scaled from points to pixels."""

from __future__ import annotations

import io

from PIL import Image

from phonewire.agent.overlay import draw_refs


def blank(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (255, 255, 255)).save(out, format="PNG")
    return out.getvalue()


def test_boxes_are_drawn_at_the_elements_rects_in_device_pixels() -> None:
    node = {"rect": {"x": 10, "y": 40, "width": 50, "height": 20}}
    marked = draw_refs(blank(300, 300), {"e1": node}, {"x": 0, "y": 0, "width": 100, "height": 100})
    with Image.open(io.BytesIO(marked)) as img:
        rgb = img.convert("RGB")
        assert img.format == "PNG" and img.size == (300, 300)
        # the box spans x 30..180, y 120..180 in pixels (3 pixels per point)
        assert rgb.getpixel((105, 179)) != (255, 255, 255)  # its bottom edge
        assert rgb.getpixel((105, 150)) == (255, 255, 255)  # inside it: untouched
        assert rgb.getpixel((250, 250)) == (255, 255, 255)  # far away: untouched


def test_a_geometry_less_node_gets_no_box_and_jpeg_stays_jpeg() -> None:
    node = {"rect": {"x": 0, "y": 0, "width": 0, "height": 0}}
    marked = draw_refs(blank(50, 50), {"e1": node}, {"x": 0, "y": 0, "width": 50, "height": 50}, format="jpeg")
    with Image.open(io.BytesIO(marked)) as img:
        assert img.format == "JPEG"
        pixel = img.convert("RGB").getpixel((1, 1))
        assert isinstance(pixel, tuple) and pixel[0] > 240
