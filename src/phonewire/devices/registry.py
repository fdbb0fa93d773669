"""The registry of device kinds: one :class:`Kind` per ``--device KIND[:ARG]``, read by everything that names one.

The runner builds its device here (:func:`create_device`), the daemon, the bridge, the MCP server and the Python
API check a spec before a runner is started for it (:func:`check_spec`), ``phonewire devices`` lists every kind's
devices (:func:`list_devices`), the runner's ``--help`` names the kinds (:func:`kinds_help`) and the launcher's
failure hint is the kind's (:func:`start_hint`).  An unknown kind is refused before anything is imported or
constructed; a kind's backend module is imported only when a device of that kind is built.

Adding a kind is one entry in :data:`REGISTRY`.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

if TYPE_CHECKING:
    from phonewire.devices.base import Device

ADB_HOST = "127.0.0.1"
ADB_PORT = 5037
ADB_PROBE_S = 0.2


def _web_spec(arg: str) -> str:
    from phonewire.devices.web.profiles import resolve_profile

    return f"web:{resolve_profile(arg or None).name}"


def web_devices() -> list[dict[str, Any]]:
    from phonewire.devices.web.browser import SANDBOX_OFF_ROOT, SANDBOX_ON, wants_sandbox
    from phonewire.devices.web.profiles import profile_names, resolve_profile

    sandbox = SANDBOX_ON if wants_sandbox() else SANDBOX_OFF_ROOT  # what a start will do for this user
    out = []
    for name in profile_names():
        p = resolve_profile(name)
        out.append({
            "device": f"web:{name}",
            "kind": "web",
            "description": f"{p.width}x{p.height} @{p.dpr:g}x {p.platform}, "
            + ("sandboxed" if sandbox == SANDBOX_ON else "no browser sandbox (root)"),
            "sandbox": sandbox,
        })  # fmt: skip
    return out


def _adb_answers(host: str = ADB_HOST, port: int = ADB_PORT) -> bool:
    import socket  # here: the runner reads this registry before it imports the rest of itself

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


def _ios_spec(arg: str) -> str:
    """``ios:http://HOST:PORT`` in its one canonical form (the daemon's key for the phone); ``ios[:UDID]`` as given."""
    if not arg.lower().startswith("http"):
        return f"ios:{arg}" if arg else "ios"
    from phonewire.devices.ios.client import canonical_url

    try:
        return f"ios:{canonical_url(arg)}"
    except ValueError as exc:
        raise ProtocolError(e.INVALID_REQUEST, str(exc), "Write it as --device ios:http://127.0.0.1:8100.") from exc


def ios_devices() -> list[dict[str, Any]]:
    from phonewire.devices.ios.discovery import ios_devices as listed

    return listed()


@dataclass(frozen=True, slots=True)
class Kind:
    """One device kind.  ``backend`` is ``"module:Class"``, imported lazily and called with ``argument=ARG``
    (``None`` when the spec has no ``:ARG``); a kind without a backend is named but refused (not built yet)."""

    name: str
    usage: str  # how a spec of this kind is written
    backend: str | None
    argument: str
    #: Checks ``ARG`` and returns the canonical spec (two names of one phone are one device); default: as given.
    canonical: Callable[[str], str] | None = None
    lister: Callable[[], list[dict[str, Any]]] | None = None
    #: What to check when a runner for this kind does not start.
    start_hint: str = ""
    #: Named to users (``double`` is phonewire's scripted test double).
    public: bool = True
    #: Why a kind without a backend is refused, and what to use instead.
    missing_hint: str = ""
    #: ``"module:function"`` called with ``ARG`` (or ``None``) by the runner before it imports the rest of itself,
    #: to start slow parts of opening the device early (the web kind starts Chromium); it must be light to import.
    prestart: str | None = None
    #: ``"module:function"`` the host calls (with no argument, from its event loop: it must be quick) once a runner
    #: of this kind has ended, to remove what a runner that was killed could not (the web kind: its browser's
    #: profile directory).
    leftovers: str | None = None


REGISTRY: Final[dict[str, Kind]] = {
    k.name: k
    for k in (
        Kind("web", "web[:PROFILE]", "phonewire.devices.web.device:WebDevice", "profile", canonical=_web_spec,
             lister=web_devices, prestart="phonewire.devices.web.browser:prelaunch",
             leftovers="phonewire.devices.web.browser:remove_dead_profiles",
             start_hint="The web device needs Chromium at /usr/bin/chromium. Check the message above, then try "
             "again."),
        Kind("android", "android[:SERIAL]", "phonewire.devices.android.device:AndroidDevice", "serial",
             lister=android_devices),
        Kind("double", "double", "phonewire.devices.double:DoubleDevice", "profile", public=False),
        Kind("ios", "ios[:UDID|:http://HOST:PORT]", "phonewire.devices.ios.device:IosDevice", "target",
             canonical=_ios_spec, lister=ios_devices,
             start_hint="The ios device needs a WebDriverAgent that answers: check `curl http://HOST:PORT/status` "
             "(docs/ios.md), then try again."),
    )
}  # fmt: skip

#: The kinds a user can name.
KINDS: Final = tuple(k.name for k in REGISTRY.values() if k.public and k.backend)


def kind_of(spec: str) -> Kind:
    """The kind ``spec`` names, or INVALID_REQUEST (unknown) / UNSUPPORTED_OPERATION (named, not built yet)."""
    name = spec.partition(":")[0]
    kind = REGISTRY.get(name)
    if kind is None:
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"unknown device kind {name!r}",
            f"Use one of: {', '.join(KINDS)} (e.g. --device web:pixel-7).",
        )
    if kind.backend is None:
        raise ProtocolError(
            e.UNSUPPORTED_OPERATION, f"this version of phonewire has no {kind.name} backend", kind.missing_hint
        )
    return kind


def check_spec(device: str) -> str:
    """Refuse a device spec that no runner could open (an unknown kind or web profile) before a runner is started
    for it: a typo is a usage error (INVALID_REQUEST with the runner's own hint), not a runner that failed.

    Returns the canonical spec, so that two names of one phone (``web`` and ``web:iphone-15``) are one device."""
    kind = kind_of(device)
    arg = device.partition(":")[2]
    return kind.canonical(arg) if kind.canonical is not None else device


def create_device(spec: str) -> Device:
    """The device ``spec`` names, not yet opened (its backend module is imported here, and only here)."""
    kind = kind_of(spec)
    assert kind.backend is not None
    module, _, cls = kind.backend.partition(":")
    factory = getattr(importlib.import_module(module), cls)
    device: Device = factory(**{kind.argument: spec.partition(":")[2] or None})
    return device


def prestart(spec: str) -> None:
    """Start the slow parts of opening ``spec``'s device early (see :attr:`Kind.prestart`).  Best effort: any
    failure is left for the device's own ``open`` to meet and report."""
    kind = REGISTRY.get(spec.partition(":")[0])
    if kind is None or kind.prestart is None:
        return
    module, _, function = kind.prestart.partition(":")
    with contextlib.suppress(Exception):  # an unknown profile, a missing browser: open() reports it properly
        getattr(importlib.import_module(module), function)(spec.partition(":")[2] or None)


def clean_leftovers(spec: str) -> None:
    """Remove what an ended runner of ``spec``'s kind left (see :attr:`Kind.leftovers`); best effort."""
    kind = REGISTRY.get(spec.partition(":")[0])
    if kind is None or kind.leftovers is None:
        return
    module, _, function = kind.leftovers.partition(":")
    with contextlib.suppress(Exception):
        getattr(importlib.import_module(module), function)()


# -- what front ends read of the kinds' vocabularies (they import no backend module themselves) --------------------
def web_profile_names() -> list[str]:
    """The web phone's profiles (``iphone-15`` …), as ``--device web:NAME`` takes them."""
    from phonewire.devices.web.profiles import profile_names

    return list(profile_names())


def android_class_role(class_name: str) -> str | None:
    """The role an Android view class (``android.widget.Button``, a subclass's simple name) maps to, if any."""
    from phonewire.devices.android.hierarchy import CLASS_ROLES, simple_class_name

    return CLASS_ROLES.get(simple_class_name(class_name))


def list_devices() -> list[dict[str, Any]]:
    """Every kind's devices, in registry order."""
    return [d for k in REGISTRY.values() if k.lister is not None for d in k.lister()]


def kinds_help() -> str:
    """The kinds a runner can serve, for ``phonewire runner --help``."""
    usages = [k.usage for k in REGISTRY.values() if k.backend]
    return ", ".join(usages[:-1]) + " or " + usages[-1]


def start_hint(device: str) -> str:
    """What to check when the runner for ``device`` did not start."""
    kind = REGISTRY.get(device.partition(":")[0])
    if kind is not None and kind.start_hint:
        return kind.start_hint
    return f"Check that the device {device!r} is connected and usable, then try again."
