"""``phonewire devices``: the web profiles, and the Android devices an adb server reports (if one answers fast)."""

from __future__ import annotations

import socket
from typing import Any

ADB_HOST = "127.0.0.1"
ADB_PORT = 5037
ADB_PROBE_S = 0.2


def check_spec(device: str) -> str:
    """Refuse a device spec that no runner could open (an unknown kind or web profile) before a runner is started
    for it: a typo is a usage error (INVALID_REQUEST with the runner's own hint), not a runner that failed.

    Returns the canonical spec, so that two names of one phone (``web`` and ``web:iphone-15``) are one device."""
    kind, _, profile = device.partition(":")
    if kind == "web":
        from phonewire.devices.web.profiles import resolve_profile

        return f"web:{resolve_profile(profile or None).name}"
    if kind not in ("android", "double"):
        from phonewire.devices import create_device

        create_device(device)  # raises the runner's error for this kind
    return device


def web_devices() -> list[dict[str, Any]]:
    from phonewire.devices.web.profiles import profile_names, resolve_profile

    out = []
    for name in profile_names():
        p = resolve_profile(name)
        out.append({
            "device": f"web:{name}",
            "kind": "web",
            "description": f"{p.width}x{p.height} @{p.dpr:g}x {p.platform}",
        })  # fmt: skip
    return out


def _adb_answers(host: str = ADB_HOST, port: int = ADB_PORT) -> bool:
    try:
        with socket.create_connection((host, port), timeout=ADB_PROBE_S):
            return True
    except OSError:
        return False


def android_devices() -> list[dict[str, Any]]:
    """Attached Android devices; empty (quickly) when no adb server listens."""
    if not _adb_answers():
        return []
    try:
        import adbutils

        client = adbutils.AdbClient(host=ADB_HOST, port=ADB_PORT, socket_timeout=2)
        listed = client.list()
    except Exception:  # adbutils raises its own errors and OSError; a broken adb just lists nothing
        return []
    return [
        {"device": f"android:{d.serial}", "kind": "android", "description": str(getattr(d, "state", ""))}
        for d in listed
    ]


def list_devices() -> list[dict[str, Any]]:
    return web_devices() + android_devices()
