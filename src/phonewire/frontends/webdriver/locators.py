"""The platform locators that map cleanly onto the page source: ``-ios predicate string`` and
``-android uiautomator``.  Pure: a selector in, the page-source attributes it requires out (every one must match).

Taken (anything else is ``invalid selector`` with a hint to use ``accessibility id``, ``id`` or ``xpath``)::

    -ios predicate string    KEY == 'VALUE' [AND KEY == 'VALUE' …]     (also "…", ==[c] is not taken)
                             KEY: label, name, value, type (XCUIElementTypeButton or Button)
    -android uiautomator     [new UiSelector()].text("X").description("X").resourceId("X").className("X")
                             any of the four, chained (all must hold); a trailing ``;`` is fine

``description`` is the accessibility id (the ``name`` attribute); ``resourceId`` matches the identifier, also when
written ``package:id/NAME``; ``className`` takes an Android widget class (``android.widget.Button``, mapped by the
Android backend's class table) or a phonewire role (``Button``).
"""

from __future__ import annotations

import re
from typing import Final

from phonewire.devices.registry import android_class_role
from phonewire.frontends.webdriver.errors import INVALID_SELECTOR, WebDriverError
from phonewire.protocol.snapshot import ROLES

IOS_PREDICATE: Final = "-ios predicate string"
ANDROID_UIAUTOMATOR: Final = "-android uiautomator"

#: One requirement: the page-source attribute and the value it must equal.
Condition = tuple[str, str]

_QUOTED: Final = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"""
_PREDICATE_TERM: Final = re.compile(r"^\s*(\w+)\s*==\s*" + _QUOTED + r"\s*$")
#: Linear: a run of spaces is only tried from its start (``\s+AND`` from every space of a long run was quadratic).
_PREDICATE_AND: Final = re.compile(r"(?<!\s)\s+(?:AND|and)\s+|&&")
_PREDICATE_KEYS: Final = {"label": "label", "name": "name", "value": "value", "type": "type"}
_UI_CALL: Final = re.compile(r'\.?\s*(\w+)\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)\s*')
_UI_KEYS: Final = {"text": "text", "description": "name", "resourceId": "resource-id", "className": "type"}
_XCUI_PREFIX: Final = "XCUIElementType"
_ROLE_NAMES: Final = frozenset(ROLES)

_PREDICATE_HINT: Final = (
    "phonewire takes label/name/value/type == 'X' joined by AND "
    "(e.g. type == 'XCUIElementTypeButton' AND label == 'Like 0'); use accessibility id, id or xpath for more"
)
_UIAUTOMATOR_HINT: Final = (
    'phonewire takes new UiSelector() with .text("X"), .description("X"), .resourceId("X"), .className("X"); '
    "use accessibility id, id or xpath for more"
)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _role(given: str, selector: str, hint: str) -> str:
    if given in _ROLE_NAMES:
        return given
    if given.startswith(_XCUI_PREFIX) and given[len(_XCUI_PREFIX) :] in _ROLE_NAMES:
        return given[len(_XCUI_PREFIX) :]
    role = android_class_role(given)
    if role is not None and "." in given:
        return role
    raise WebDriverError(INVALID_SELECTOR, f"{selector!r}: no phonewire role for the type {given!r}; {hint}")


def ios_predicate(selector: str) -> list[Condition]:
    """``label == 'X' AND type == 'XCUIElementTypeButton'`` → ``[("label", "X"), ("type", "Button")]``."""
    conditions: list[Condition] = []
    for term in _PREDICATE_AND.split(selector.strip()):
        match = _PREDICATE_TERM.match(term)
        if match is None or match.group(1) not in _PREDICATE_KEYS:
            raise WebDriverError(INVALID_SELECTOR, f"predicate {selector!r} is not supported: {_PREDICATE_HINT}")
        value = _unescape(match.group(2) if match.group(2) is not None else match.group(3))
        key = _PREDICATE_KEYS[match.group(1)]
        conditions.append((key, _role(value, selector, _PREDICATE_HINT) if key == "type" else value))
    return conditions


def android_uiautomator(selector: str) -> list[Condition]:
    """``new UiSelector().text("X").className("android.widget.Button")`` → ``[("text", "X"), ("type", "Button")]``."""
    rest = selector.strip().removesuffix(";").strip()
    rest = re.sub(r"^new\s+UiSelector\s*\(\s*\)\s*", "", rest)
    conditions: list[Condition] = []
    while rest:
        match = _UI_CALL.match(rest)
        if match is None or match.group(1) not in _UI_KEYS:
            raise WebDriverError(INVALID_SELECTOR, f"UiSelector {selector!r} is not supported: {_UIAUTOMATOR_HINT}")
        key, value = _UI_KEYS[match.group(1)], _unescape(match.group(2))
        conditions.append((key, _role(value, selector, _UIAUTOMATOR_HINT) if key == "type" else value))
        rest = rest[match.end() :]
    if not conditions:
        raise WebDriverError(INVALID_SELECTOR, f"UiSelector {selector!r} names nothing to match: {_UIAUTOMATOR_HINT}")
    return conditions


def matches(attrs: dict[str, str], conditions: list[Condition]) -> bool:
    """Every condition holds for one element's page-source attributes."""
    for key, wanted in conditions:
        expected = wanted.split(":id/", 1)[1] if key == "resource-id" and ":id/" in wanted else wanted
        if attrs.get(key) != expected:
            return False
    return True
