"""Device backends.  :func:`create_device` turns a ``KIND[:PROFILE]`` spec into a :class:`Device`.

Backends are imported lazily so that a runner for one kind never pays for another's imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

if TYPE_CHECKING:
    from phonewire.devices.base import Device

#: Device kinds a user can name (``double`` is the scripted test double, for phonewire's own tests).
KINDS = ("web", "android")


def create_device(spec: str) -> Device:
    kind, _, arg = spec.partition(":")
    if kind == "web":
        from phonewire.devices.web.device import WebDevice

        return WebDevice(profile=arg or None)
    if kind == "android":
        from phonewire.devices.android.device import AndroidDevice

        return AndroidDevice(serial=arg or None)
    if kind == "double":
        from phonewire.devices.double import DoubleDevice

        return DoubleDevice(profile=arg or None)
    if kind == "ios":
        raise ProtocolError(
            e.UNSUPPORTED_OPERATION,
            "this version of phonewire has no iOS backend",
            "Use --device web:iphone-15 for an emulated iPhone, or --device android on an Android phone.",
        )
    raise ProtocolError(
        e.INVALID_REQUEST,
        f"unknown device kind {kind!r}",
        f"Use one of: {', '.join(KINDS)} (e.g. --device web:pixel-7).",
    )
