"""Device backends: the :class:`~phonewire.devices.base.Device` interface, one module tree per kind, and the
registry of kinds (:mod:`phonewire.devices.registry`), whose :func:`create_device` turns a ``KIND[:ARG]`` spec
into a device.

Backends are imported lazily so that a runner for one kind never pays for another's imports.
"""

from __future__ import annotations

from phonewire.devices.registry import KINDS, create_device

__all__ = ["KINDS", "create_device"]
