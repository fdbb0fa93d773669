"""Which iPhone: ``ios`` / ``ios:UDID`` through ``xcrun simctl`` (booted simulators), WDA on a known URL.

``xcrun simctl list devices booted --json`` lists the booted simulators; ``ios`` picks the only one, ``ios:UDID``
that one.  A simulator shares the Mac's loopback, so its WebDriverAgent answers on ``http://127.0.0.1:8100``
(``PHONEWIRE_WDA_URL`` overrides).  Real devices are named by their WDA URL (``ios:http://127.0.0.1:8100`` after
``iproxy 8100 8100``); this module does not start WDA.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any, Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

DEFAULT_WDA_URL: Final = "http://127.0.0.1:8100"
SIMCTL_TIMEOUT_S: Final = 15.0


@dataclass(frozen=True, slots=True)
class Found:
    udid: str
    url: str


def _unavailable(message: str, hint: str) -> ProtocolError:
    return ProtocolError(e.DEVICE_UNAVAILABLE, message, hint)


def booted_simulators() -> list[dict[str, Any]]:
    """``[{"udid", "name", "runtime"}]`` of the booted simulators; DEVICE_UNAVAILABLE without Xcode."""
    xcrun = shutil.which("xcrun")
    if xcrun is None:
        raise _unavailable(
            "xcrun is not on PATH (no Xcode here)",
            "Discovery needs Xcode on a Mac. Elsewhere name the WebDriverAgent directly: "
            "--device ios:http://HOST:8100.",
        )
    try:
        result = subprocess.run(
            [xcrun, "simctl", "list", "devices", "booted", "--json"],
            capture_output=True, text=True, timeout=SIMCTL_TIMEOUT_S, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise _unavailable(f"xcrun simctl failed ({exc})", "Check `xcrun simctl list` in a terminal.") from exc
    if result.returncode != 0:
        raise _unavailable(
            f"xcrun simctl failed: {result.stderr.strip()[:200]}",
            "Select an Xcode with simulators (`sudo xcode-select -s /Applications/Xcode.app`).",
        )
    try:
        listing = json.loads(result.stdout)
    except ValueError as exc:
        raise _unavailable("xcrun simctl printed no JSON", "Check `xcrun simctl list --json`.") from exc
    out = []
    for runtime, devices in (listing.get("devices") or {}).items():
        for device in devices or []:
            if isinstance(device, dict) and device.get("state") == "Booted":
                out.append({"udid": str(device.get("udid")), "name": str(device.get("name")), "runtime": runtime})
    return out


def resolve(udid: str | None, environ: dict[str, str] | None = None) -> Found:
    env = os.environ if environ is None else environ
    booted = booted_simulators()
    names = ", ".join(f"{d['udid']} ({d['name']})" for d in booted)
    if udid:
        chosen = [d for d in booted if d["udid"] == udid]
        if not chosen:
            raise _unavailable(
                f"no booted simulator with UDID {udid!r}",
                (f"Booted: {names}." if booted else "Boot one: xcrun simctl boot UDID.")
                + " A real device is named by its WDA URL: --device ios:http://127.0.0.1:8100.",
            )
    else:
        chosen = booted
        if not chosen:
            raise _unavailable("no simulator is booted", "Boot one (xcrun simctl boot UDID) and start WDA on it.")
        if len(chosen) > 1:
            raise _unavailable(f"{len(chosen)} simulators are booted and none was chosen",
                               f"Use --device ios:UDID with one of: {names}.")  # fmt: skip
    return Found(chosen[0]["udid"], env.get("PHONEWIRE_WDA_URL") or DEFAULT_WDA_URL)


def ios_devices() -> list[dict[str, Any]]:
    """For ``phonewire devices``: booted simulators; empty (quietly) without Xcode."""
    try:
        booted = booted_simulators()
    except ProtocolError:
        return []
    return [{"device": f"ios:{d['udid']}", "kind": "ios", "description": f"{d['name']} (simulator)"} for d in booted]
