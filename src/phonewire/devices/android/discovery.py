"""Which phone to drive: the adb server's device list and the serial asked for → one serial, or a clear error.

:func:`choose_serial` is pure (a list in, a serial or a ``ProtocolError`` out); :func:`list_devices` is the one
call to the adb server (``host:devices``, through adbutils), with its failure mapped here.

======================================  ============================================================================
situation                               answer (all DEVICE_UNAVAILABLE, each with its own message and hint)
======================================  ============================================================================
adb server not reachable                start it (``adb start-server``)
no device at all                        connect one, enable USB debugging
serial asked for, not listed            the serials that are listed
several ready devices, no serial        ``--device android:SERIAL`` with the serials
device ``unauthorized``                 accept the RSA-key prompt on the phone
device ``offline`` / other state        replug, ``adb reconnect``
======================================  ============================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

READY: str = "device"


@dataclass(frozen=True, slots=True)
class AdbEntry:
    serial: str
    state: str  # device | unauthorized | offline | authorizing | connecting | bootloader | recovery | ...


class AdbLister(Protocol):
    """What discovery needs from adbutils' ``AdbClient``: ``list()`` of entries with ``serial`` and ``state``."""

    def list(self) -> Sequence[Any]: ...


def _unavailable(message: str, hint: str) -> ProtocolError:
    return ProtocolError(e.DEVICE_UNAVAILABLE, message, hint)


def _state_error(entry: AdbEntry) -> ProtocolError:
    if entry.state == "unauthorized":
        return _unavailable(
            f"adb device {entry.serial} is unauthorized",
            "Unlock the phone and accept the 'Allow USB debugging?' prompt (tick 'Always allow'), then start the "
            "runner again. No prompt? Revoke USB-debugging authorizations in Developer options and replug.",
        )
    if entry.state == "offline":
        return _unavailable(
            f"adb device {entry.serial} is offline",
            "Replug the cable or run `adb reconnect`, wait until `adb devices` shows it as `device`, then start "
            "the runner again.",
        )
    return _unavailable(
        f"adb device {entry.serial} is not ready (state {entry.state!r})",
        "Wait until `adb devices` shows it as `device` (it may be booting, authorizing or in recovery), then start "
        "the runner again.",
    )


def choose_serial(entries: Sequence[AdbEntry], wanted: str | None) -> str:
    """The serial to drive, or DEVICE_UNAVAILABLE saying exactly why there is none."""
    listed = ", ".join(f"{x.serial} ({x.state})" for x in entries) or "none"
    if wanted:
        match = next((x for x in entries if x.serial == wanted), None)
        if match is None:
            raise _unavailable(
                f"no adb device with serial {wanted!r}",
                f"`adb devices` lists: {listed}. Use one of those serials (--device android:SERIAL), or connect "
                "the phone and enable USB debugging.",
            )
        if match.state != READY:
            raise _state_error(match)
        return match.serial
    ready = [x for x in entries if x.state == READY]
    if len(ready) == 1:
        return ready[0].serial
    if len(ready) > 1:
        serials = ", ".join(x.serial for x in ready)
        raise _unavailable(
            f"{len(ready)} adb devices are connected and none was chosen",
            f"Start the runner with --device android:SERIAL, SERIAL one of: {serials}.",
        )
    if entries:
        # Nothing ready, but something is attached: say what is wrong with it.
        raise _state_error(entries[0]) if len(entries) == 1 else _several_not_ready(listed)
    raise _unavailable(
        "no Android device is connected to adb",
        "Connect a phone with USB debugging enabled (Settings > Developer options) or start an emulator, check "
        "that `adb devices` lists it as `device`, then start the runner again.",
    )


def _several_not_ready(listed: str) -> ProtocolError:
    return _unavailable(
        "no adb device is ready",
        f"`adb devices` lists: {listed}. Accept the USB-debugging prompt on an unauthorized phone, replug an "
        "offline one, then start the runner again.",
    )


def list_devices(client: AdbLister) -> list[AdbEntry]:
    """Ask the adb server for every attached device, ready or not."""
    try:
        infos = client.list()
    except Exception as exc:  # adbutils raises AdbError/AdbTimeout, or OSError when it cannot start a server
        raise _unavailable(
            f"the adb server is not reachable ({type(exc).__name__}: {exc})",
            "Install adb (Debian: `apt install adb`) and run `adb start-server`, or set ANDROID_ADB_SERVER_PORT to "
            "the port of a running server, then start the runner again.",
        ) from exc
    return [AdbEntry(str(info.serial), str(info.state)) for info in infos]
