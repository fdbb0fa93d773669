"""Which image format a screenshot written to a file gets: the file's extension decides.

``.png`` → PNG, ``.jpg`` / ``.jpeg`` → JPEG (any case).  A format asked for explicitly must agree with the
extension (``x.jpg`` written as PNG would lie about its content); a path with another extension, or none, gets the
format asked for, else PNG.  Pure: no I/O.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

DEFAULT_FORMAT: Final = "png"
FORMAT_BY_SUFFIX: Final = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg"}


def format_for_path(path: str | PurePath, requested: str | None = None) -> str:
    """The format of a screenshot written to ``path``; ``requested`` is the format asked for (None: not asked)."""
    by_suffix = FORMAT_BY_SUFFIX.get(PurePath(path).suffix.lower())
    if by_suffix is None:
        return requested or DEFAULT_FORMAT
    if requested is not None and requested != by_suffix:
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"format {requested!r} does not match the file name {PurePath(path).name!r}",
            f"Name the file .{'jpg' if requested == 'jpeg' else requested}, or leave the format out: "
            "the extension chooses it (.png, .jpg, .jpeg).",
        )
    return by_suffix
