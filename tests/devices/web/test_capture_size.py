"""A screenshot's size is read from the image header (PNG IHDR, JPEG start of frame), exactly as a decoder sees it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from phonewire.devices.web.capture import image_size


def encoded(fmt: str, size: tuple[int, int], **options: object) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "teal").save(out, fmt, **options)
    return out.getvalue()


@pytest.mark.parametrize("size", [(1, 1), (393, 852), (1179, 2556), (2556, 1179)])
@pytest.mark.parametrize(
    ("fmt", "options"),
    [
        ("PNG", {}),
        ("JPEG", {"quality": 80}),
        ("JPEG", {"progressive": True}),
        ("JPEG", {"exif": b"Exif\x00\x00" + bytes(64)}),  # an APP1 segment before the frame header
    ],
)
def test_the_header_size_is_the_decoded_size(fmt: str, options: dict[str, object], size: tuple[int, int]) -> None:
    assert image_size(encoded(fmt, size, **options)) == size


@pytest.mark.parametrize("data", [b"", b"GIF89a....", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0\x00\x10JFIF"])
def test_neither_png_nor_a_whole_jpeg_header_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError, match="PNG or JPEG"):
        image_size(data)
