"""``POST /session`` capabilities → what phonewire opens.  Pure.

W3C capability processing, reduced to what a phone needs: ``alwaysMatch`` merged with each ``firstMatch`` entry in
turn (a key in both is ``invalid argument``), the first merged set that phonewire can serve wins.

=========================  =================================================================================
capability                 meaning
=========================  =================================================================================
``phonewire:device``       a device spec, as ``--device`` takes it (``web``, ``web:pixel-7``, ``android:SERIAL``)
``appium:deviceName``      a web phone profile (``iphone-15``, ``pixel-7``, ``iPhone 15``, ``Pixel 7 landscape``);
                           ``phonewire:device`` wins when both are given
``appium:app``             the app to open: ``dev.phonewire.demo``, an http(s) URL, a package or bundle id
``appium:bundleId``        the same (first of app, bundleId, appPackage that is set)
``appium:appPackage``      the same
``appium:newCommandTimeout``  seconds without a command after which the server ends the session itself
``platformName``           any (a web phone serves every platform); answered as given
``unhandledPromptBehavior``  what a command other than the alert routes does when a page's JavaScript dialog is
                           open: ``dismiss and notify`` (the default), ``accept and notify``, ``dismiss``,
                           ``accept``, ``ignore`` (W3C "User prompts")
=========================  =================================================================================

No device capability means the default web phone.  A device name that is no profile is ``session not created``,
with the profiles listed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from phonewire.frontends.webdriver.errors import INVALID_ARGUMENT, SESSION_NOT_CREATED, WebDriverError
from phonewire.protocol.errors import ProtocolError

DEVICE: Final = "phonewire:device"
DEVICE_NAME: Final = "appium:deviceName"
APP_KEYS: Final = ("appium:app", "appium:bundleId", "appium:appPackage")
NEW_COMMAND_TIMEOUT: Final = "appium:newCommandTimeout"
PROMPT_BEHAVIOR: Final = "unhandledPromptBehavior"
PROMPT_BEHAVIORS: Final = ("dismiss and notify", "accept and notify", "dismiss", "accept", "ignore")


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a new session asks for."""

    device: str
    app: str | None
    #: Seconds without a command before the server ends the session (``None``: the server's default).
    idle_timeout_s: float | None
    #: The capabilities answered to the client.
    answered: dict[str, Any] = field(default_factory=dict)
    #: ``unhandledPromptBehavior``: one of :data:`PROMPT_BEHAVIORS`.
    prompt_behavior: str = PROMPT_BEHAVIORS[0]


def _merged(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    caps = body.get("capabilities")
    if caps is None:
        caps = {}
    if not isinstance(caps, dict):
        raise WebDriverError(INVALID_ARGUMENT, "capabilities must be an object")
    # absent (or null) is the default; anything else that is no object ([], "", 0) is refused, never read as {}
    always = {} if caps.get("alwaysMatch") is None else caps["alwaysMatch"]
    first = [{}] if caps.get("firstMatch") is None else caps["firstMatch"]
    if (
        not isinstance(always, dict)
        or not isinstance(first, list)
        or not first
        or not all(isinstance(f, dict) for f in first)
    ):
        raise WebDriverError(
            INVALID_ARGUMENT, "alwaysMatch must be an object and firstMatch a non-empty list of objects"
        )
    merged = []
    for entry in first:
        both = set(always) & set(entry)
        if both:
            raise WebDriverError(INVALID_ARGUMENT, f"capabilities in both alwaysMatch and firstMatch: {sorted(both)}")
        merged.append({**always, **entry})
    return merged


def profile_spec(device_name: str) -> str:
    """``iPhone 15`` → ``web:iphone-15``; SESSION_NOT_CREATED (listing the profiles) for a name that is none."""
    from phonewire.devices.registry import web_profile_names

    profiles = web_profile_names()
    key = "-".join(device_name.strip().lower().replace("_", " ").split())
    if key in profiles:
        return f"web:{key}"
    raise WebDriverError(
        SESSION_NOT_CREATED,
        f"{DEVICE_NAME} {device_name!r} is not a phonewire phone; use one of: {', '.join(profiles)} "
        f"(or {DEVICE} with a device spec such as web:pixel-7)",
    )


def _one(caps: Mapping[str, Any]) -> Wanted:
    device: str
    if caps.get(DEVICE) is not None:
        if not isinstance(caps[DEVICE], str) or not caps[DEVICE].strip():
            raise WebDriverError(INVALID_ARGUMENT, f"{DEVICE} must be a device spec such as web:pixel-7")
        from phonewire.devices.registry import check_spec

        try:
            device = check_spec(caps[DEVICE].strip())
        except ProtocolError as exc:
            raise WebDriverError(
                SESSION_NOT_CREATED, f"{exc.message} ({exc.hint})" if exc.hint else exc.message
            ) from exc
    elif caps.get(DEVICE_NAME) is not None:
        if not isinstance(caps[DEVICE_NAME], str):
            raise WebDriverError(INVALID_ARGUMENT, f"{DEVICE_NAME} must be a string")
        device = profile_spec(caps[DEVICE_NAME])
    else:
        device = "web"
    app = next((caps[k] for k in APP_KEYS if caps.get(k) is not None), None)
    if app is not None and (not isinstance(app, str) or not app.strip()):
        raise WebDriverError(INVALID_ARGUMENT, f"the app capability must be an app id or URL, got {app!r}")
    timeout = caps.get(NEW_COMMAND_TIMEOUT)
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or not math.isfinite(timeout) or timeout < 0
    ):
        raise WebDriverError(INVALID_ARGUMENT, f"{NEW_COMMAND_TIMEOUT} must be a number of seconds, got {timeout!r}")
    behavior = caps.get(PROMPT_BEHAVIOR, PROMPT_BEHAVIORS[0])
    if behavior not in PROMPT_BEHAVIORS:
        raise WebDriverError(
            INVALID_ARGUMENT, f"{PROMPT_BEHAVIOR} must be one of {', '.join(PROMPT_BEHAVIORS)}, got {behavior!r}"
        )
    answered = {**caps, DEVICE: device, PROMPT_BEHAVIOR: behavior}
    answered.setdefault(DEVICE_NAME, device.partition(":")[2] or device)
    answered.setdefault("platformName", caps.get("platformName") or "web")
    idle = float(timeout) if timeout else None  # 0 means "never" in Appium: the server's default applies
    return Wanted(device, app.strip() if isinstance(app, str) else None, idle, answered, str(behavior))


def wanted(body: Mapping[str, Any]) -> Wanted:
    """The first merged capability set phonewire can serve; the last refusal when none can."""
    refusal: WebDriverError | None = None
    for caps in _merged(body):
        try:
            return _one(caps)
        except WebDriverError as exc:
            refusal = exc
    assert refusal is not None
    raise refusal
