"""The screenshot file rule: the extension chooses the format; an explicit format must agree with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from phonewire.agent.imagefile import format_for_path
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


@pytest.mark.parametrize(
    ("path", "expected"),
    [("x.png", "png"), ("x.jpg", "jpeg"), ("x.jpeg", "jpeg"), ("OUT/X.JPG", "jpeg"), ("a.b/c.PNG", "png")],
)
def test_the_extension_chooses_the_format(path: str, expected: str) -> None:
    assert format_for_path(path) == expected
    assert format_for_path(Path(path)) == expected
    assert format_for_path(path, expected) == expected  # asked for and agreeing


@pytest.mark.parametrize("path", ["shot", "shot.img", "shot.webp", ".png.d/shot"])
def test_another_extension_gets_the_format_asked_for_else_png(path: str) -> None:
    assert format_for_path(path) == "png"
    assert format_for_path(path, "jpeg") == "jpeg"


@pytest.mark.parametrize(("path", "asked"), [("x.jpg", "png"), ("x.png", "jpeg"), ("x.JPEG", "png")])
def test_a_format_that_contradicts_the_extension_is_refused(path: str, asked: str) -> None:
    with pytest.raises(ProtocolError) as info:
        format_for_path(path, asked)
    assert info.value.code == e.INVALID_REQUEST
    assert info.value.hint and "extension" in info.value.hint
