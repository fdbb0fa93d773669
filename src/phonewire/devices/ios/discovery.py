"""Which iPhone: ``ios`` / ``ios:UDID`` through the tools that list them, and the WDA URL to reach it.

Sources, each an external command run only when it is on PATH (none of them is needed for ``ios:http://…``)::

    booted simulators   xcrun simctl list devices booted --json          {"devices": {RUNTIME: [{udid, name, state}]}}
    real devices        xcrun devicectl list devices --json-output FILE  {"result": {"devices": [{hardwareProperties:
                        (Xcode 15+)                                        {udid, platform, reality}, deviceProperties:
                                                                           {name, osVersionNumber, developerModeStatus},
                                                                           connectionProperties: {pairingState,
                                                                           tunnelState, transportType}}]}}
                        else go-ios: ios list --details                   {"deviceList": [{Udid, ProductName,
                                                                           ProductType, ProductVersion}]}

``ios`` picks the only usable phone among them, ``ios:UDID`` that one.  A simulator shares the Mac's loopback and a
real device's WDA is reached through a port forward (``iproxy 8100 8100`` / ``ios forward 8100 8100``), so either way
the URL is ``http://127.0.0.1:8100`` (``PHONEWIRE_WDA_URL`` overrides).  This module does not start WDA or the
forward.  A device the tools list but cannot use (not paired, Developer Mode off, not connected) is refused with
what to do on the phone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

DEFAULT_WDA_URL: Final = "http://127.0.0.1:8100"
TOOL_TIMEOUT_S: Final = 15.0
NO_TOOLS_HINT: Final = (
    "Discovery needs Xcode (xcrun) on a Mac, or go-ios (`ios`) for real devices. Elsewhere name the WebDriverAgent "
    "directly: --device ios:http://HOST:8100."
)


@dataclass(frozen=True, slots=True)
class Phone:
    udid: str
    name: str
    simulator: bool
    os_version: str
    source: str  # "simctl" | "devicectl" | "go-ios"
    #: Why the phone cannot be driven now (None: usable), and what to do about it.
    problem: str | None = None
    fix: str = ""

    def describe(self) -> str:
        kind = "simulator" if self.simulator else "device"
        text = f"{self.name} ({kind}, iOS {self.os_version})" if self.os_version else f"{self.name} ({kind})"
        return f"{text}: {self.problem}" if self.problem else text


@dataclass(frozen=True, slots=True)
class Found:
    udid: str
    url: str
    simulator: bool = True


def _unavailable(message: str, hint: str) -> ProtocolError:
    return ProtocolError(e.DEVICE_UNAVAILABLE, message, hint)


def _run(argv: list[str], what: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=TOOL_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise _unavailable(f"{what} failed ({exc})", f"Run `{' '.join(argv[:4])}` in a terminal to see why.") from exc


def _json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise _unavailable(f"{what} printed no JSON ({text.strip()[:120]!r})", f"Run `{what}` in a terminal.") from exc


# --- simulators -------------------------------------------------------------------------------------------------------
def booted_simulators(xcrun: str | None = None) -> list[Phone]:
    """The booted simulators; DEVICE_UNAVAILABLE without Xcode or when simctl fails."""
    xcrun = xcrun or shutil.which("xcrun")
    if xcrun is None:
        raise _unavailable("xcrun is not on PATH (no Xcode here)", NO_TOOLS_HINT)
    result = _run([xcrun, "simctl", "list", "devices", "booted", "--json"], "xcrun simctl")
    if result.returncode != 0:
        raise _unavailable(
            f"xcrun simctl failed: {result.stderr.strip()[:200]}",
            "Select an Xcode with simulators (`sudo xcode-select -s /Applications/Xcode.app`).",
        )
    listing = _json(result.stdout, "xcrun simctl list devices booted --json")
    out = []
    for runtime, devices in ((listing.get("devices") or {}) if isinstance(listing, dict) else {}).items():
        version = str(runtime).rsplit("iOS-", 1)[-1].replace("-", ".") if "iOS-" in str(runtime) else ""
        for device in devices or []:
            if isinstance(device, dict) and device.get("state") == "Booted":
                out.append(Phone(str(device.get("udid")), str(device.get("name")), True, version, "simctl"))
    return out


# --- real devices -----------------------------------------------------------------------------------------------------
def _devicectl_problem(connection: dict[str, Any], properties: dict[str, Any]) -> tuple[str | None, str]:
    if connection.get("pairingState") not in (None, "paired"):
        return "not paired", "Connect it, unlock it and answer Trust This Computer on the phone, then try again."
    if properties.get("developerModeStatus") == "disabled":
        return "Developer Mode is off", "Turn it on in Settings > Privacy & Security > Developer Mode, then restart."
    if connection.get("tunnelState") == "unavailable":
        return "not connected", "Plug it in (or join the Mac's network) and unlock it, then try again."
    return None, ""


def devicectl_devices(xcrun: str) -> list[Phone] | None:
    """Real iPhones/iPads through ``xcrun devicectl``; None when this Xcode has no devicectl (before 15)."""
    with tempfile.TemporaryDirectory(prefix="phonewire-devicectl-") as tmp:
        out_file = Path(tmp) / "devices.json"
        result = _run([xcrun, "devicectl", "list", "devices", "--json-output", str(out_file)], "xcrun devicectl")
        if result.returncode != 0 and "unable to find utility" in (result.stderr + result.stdout):
            return None
        if result.returncode != 0 or not out_file.exists():
            raise _unavailable(f"xcrun devicectl failed: {(result.stderr or result.stdout).strip()[:200]}",
                               "Run `xcrun devicectl list devices` in a terminal to see why.")  # fmt: skip
        listing = _json(out_file.read_text(encoding="utf-8"), "xcrun devicectl list devices")
    devices = (listing.get("result") or {}).get("devices") if isinstance(listing, dict) else None
    out = []
    for device in devices or []:
        hardware = device.get("hardwareProperties") or {}
        properties = device.get("deviceProperties") or {}
        connection = device.get("connectionProperties") or {}
        if hardware.get("platform") != "iOS" or hardware.get("reality", "physical") != "physical":
            continue  # watches, TVs, visionOS, Macs
        udid = str(hardware.get("udid") or device.get("identifier") or "")
        if not udid:
            continue
        problem, fix = _devicectl_problem(connection, properties)
        out.append(Phone(udid, str(properties.get("name") or hardware.get("marketingName") or udid), False,
                         str(properties.get("osVersionNumber") or ""), "devicectl", problem, fix))  # fmt: skip
    return out


def go_ios_devices(ios: str) -> list[Phone]:
    """Real devices through go-ios (it lists only devices connected and visible to usbmuxd)."""
    result = _run([ios, "list", "--details"], "go-ios")
    if result.returncode != 0:
        raise _unavailable(f"go-ios failed: {(result.stderr or result.stdout).strip()[:200]}",
                           "Run `ios list --details` in a terminal; go-ios needs usbmuxd (on Linux: the usbmuxd "
                           "service).")  # fmt: skip
    listing = _json(result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "", "ios list --details")
    out = []
    for device in (listing.get("deviceList") if isinstance(listing, dict) else None) or []:
        if isinstance(device, dict) and device.get("Udid"):
            name = device.get("DeviceName") or device.get("ProductType") or device["Udid"]
            out.append(Phone(str(device["Udid"]), str(name), False, str(device.get("ProductVersion") or ""), "go-ios"))
    return out


# --- together ---------------------------------------------------------------------------------------------------------
def phones(notes: list[str] | None = None) -> list[Phone]:
    """Every phone the tools on PATH list: booted simulators, then real devices.  DEVICE_UNAVAILABLE when there is
    no tool at all or simctl fails; a failing real-device lister only adds its error to ``notes`` (the simulators
    it did not affect stay usable)."""
    xcrun, go_ios = shutil.which("xcrun"), shutil.which("ios")
    if xcrun is None and go_ios is None:
        raise _unavailable("neither xcrun (Xcode) nor go-ios (`ios`) is on PATH", NO_TOOLS_HINT)
    found: list[Phone] = []
    real: list[Phone] | None = None
    if xcrun is not None:
        found += booted_simulators(xcrun)
        try:
            real = devicectl_devices(xcrun)
        except ProtocolError as exc:
            if notes is not None:
                notes.append(exc.message)
    if real is None and go_ios is not None:
        try:
            real = go_ios_devices(go_ios)
        except ProtocolError as exc:
            if notes is not None:
                notes.append(exc.message)
    return found + (real or [])


def resolve(udid: str | None, environ: dict[str, str] | None = None) -> Found:
    env = os.environ if environ is None else environ
    notes: list[str] = []
    listed = phones(notes)
    names = ", ".join(f"{p.udid} ({p.describe()})" for p in listed)
    also = f" (also: {'; '.join(notes)})" if notes else ""
    if udid:
        chosen = [p for p in listed if p.udid.lower() == udid.lower()]
        if not chosen:
            raise _unavailable(
                f"no booted simulator or connected device with UDID {udid!r}{also}",
                (f"Listed: {names}." if listed else "Boot a simulator (xcrun simctl boot UDID) or connect the phone.")
                + " Any phone can also be named by its WDA URL: --device ios:http://127.0.0.1:8100.",
            )
    else:
        chosen = [p for p in listed if p.problem is None] or listed
        if not chosen:
            hint = "Boot one (xcrun simctl boot UDID) or connect an iPhone, and start WDA on it."
            raise _unavailable(f"no simulator is booted and no device is connected{also}", hint)
        if len(chosen) > 1:
            raise _unavailable(f"{len(chosen)} phones are available and none was chosen",
                               f"Use --device ios:UDID with one of: {names}.")  # fmt: skip
    phone = chosen[0]
    if phone.problem is not None:
        raise _unavailable(f"{phone.name} ({phone.udid}) cannot be used: {phone.problem}", phone.fix)
    url = env.get("PHONEWIRE_WDA_URL") or DEFAULT_WDA_URL
    return Found(phone.udid, url, phone.simulator)


def ios_devices() -> list[dict[str, Any]]:
    """For ``phonewire devices``: booted simulators and listed real devices; empty (quietly) without the tools."""
    try:
        listed = phones()
    except ProtocolError:
        return []
    return [{"device": f"ios:{p.udid}", "kind": "ios", "description": p.describe()} for p in listed]
