"""WebDriverAgent page sources → snapshot :class:`RawNode` trees.  Pure: text or JSON in, nodes out, no I/O.

WDA serves one element tree in two formats, and both are read so that the same screen gives the same nodes:

* ``GET /source?format=json`` (what the device asks for): nested objects ``{"type": "Button", "label", "name",
  "value", "rawIdentifier", "placeholderValue", "rect": {x, y, width, height}, "frame": "{{x, y}, {w, h}}",
  "isEnabled": "1", "isVisible": "1", "isFocused": "0", "isSelected": "0", "children": [...]}`` — booleans are the
  strings ``"1"`` / ``"0"``;
* ``GET /source?format=xml`` (what Appium and the recorded fixtures hold): ``<XCUIElementTypeButton type=… name=…
  label=… value=… enabled="true" visible="true" x y width height>``, optionally wrapped in Appium's ``<AppiumAUT>``.

Mapping (docs/ios.md documents it)::

    type (XCUIElementType…, prefix dropped)  → role, one table (:data:`TYPE_ROLES`); unknown types → Other
    label                                    → label; a text field without one is labelled by its placeholder
    value                                    → value, unless it repeats the label or the placeholder; secure
                                               fields are masked; Switch / CheckBox values normalised to "1"/"0"
    rawIdentifier (JSON)                     → identifier; XML has no rawIdentifier, and WDA's ``name`` is
                                               "identifier, else label", so a name that differs from the label
                                               (or stands without one) is the identifier
    rect / frame / x y width height          → rect in points; WDA's broken frame ``-1,-1,0,0`` (and any
                                               non-finite one) is "geometry unknown"
    enabled / focused / selected             → the same states

Visibility is WDA's own ``visible`` flag plus a positive area: an invisible or empty element emits nothing, its
children are still walked (each carries its own flag).  The shared builder then culls what lies off-screen.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any, Final

from phonewire.protocol.snapshot import TEXT_INPUT_ROLES, RawNode, Rect

TYPE_PREFIX: Final = "XCUIElementType"

#: XCUIElementType (without the prefix) → shared role.  Anything else is Other.
TYPE_ROLES: Final[dict[str, str]] = {
    "Application": "Application", "Window": "Window", "Other": "Other", "Group": "Group",
    "StaticText": "StaticText", "Image": "Image", "Icon": "Image",
    "Button": "Button", "Key": "Button", "PopUpButton": "ComboBox", "MenuButton": "Button",
    "Link": "Link",
    "TextField": "TextField", "SecureTextField": "SecureTextField", "SearchField": "SearchField",
    "TextView": "TextView",
    "Switch": "Switch", "Toggle": "Switch", "CheckBox": "CheckBox", "RadioButton": "RadioButton",
    "Slider": "Slider", "Stepper": "Stepper", "ComboBox": "ComboBox", "Picker": "ComboBox",
    "PickerWheel": "ComboBox", "DatePicker": "ComboBox", "SegmentedControl": "Group",
    "Cell": "Cell", "Table": "Table", "CollectionView": "List", "Outline": "List", "Browser": "List",
    "ScrollView": "ScrollView",
    "TabBar": "TabBar", "TabGroup": "TabBar", "Tab": "Tab",
    "NavigationBar": "NavigationBar", "Toolbar": "Toolbar", "StatusBar": "Other",
    "Alert": "Alert", "Sheet": "Dialog", "Dialog": "Dialog", "Popover": "Dialog",
    "Menu": "Menu", "MenuBar": "Menu", "MenuItem": "MenuItem", "MenuBarItem": "MenuItem",
    "ActivityIndicator": "ProgressIndicator", "ProgressIndicator": "ProgressIndicator",
    "WebView": "WebView", "Keyboard": "Keyboard",
}  # fmt: skip

#: Roles whose value is a 0/1 state.
TOGGLE_ROLES: Final = frozenset({"Switch", "CheckBox", "RadioButton"})
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_FALSE: Final = frozenset({"0", "false", "no", "off"})
_FRAME_RE: Final = re.compile(
    r"\{\{\s*([-\d.eE+naif]+),\s*([-\d.eE+naif]+)\},\s*\{\s*([-\d.eE+naif]+),\s*([-\d.eE+naif]+)\}\}"
)
#: WDA's JSON source and XML both stop at WDA's ``snapshotMaxDepth``; conversion stops here like the builder.
_MAX_DEPTH: Final = 100


class SourceError(ValueError):
    """The page source is not a readable WDA element tree (the device maps it to SNAPSHOT_FAILED)."""


def role_of(element_type: str | None) -> str:
    name = (element_type or "").removeprefix(TYPE_PREFIX)
    return TYPE_ROLES.get(name, "Other")


def flag(value: object) -> bool | None:
    """WDA booleans: ``"1"``/``"0"`` (JSON source), ``"true"``/``"false"`` (XML), real booleans; else None."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


def _number(value: object) -> float | None:
    try:
        f = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None
    return f if math.isfinite(f) else None


def make_rect(x: object, y: object, width: object, height: object) -> Rect | None:
    """Points; None for "no geometry" (WDA's broken ``-1,-1,0,0`` frame, missing or non-finite numbers)."""
    nums = [_number(v) for v in (x, y, width, height)]
    if any(n is None for n in nums):
        return None
    fx, fy, fw, fh = (n for n in nums if n is not None)
    if (fx, fy, fw, fh) == (-1.0, -1.0, 0.0, 0.0):
        return None
    return Rect.of(fx, fy, fw, fh)


def parse_frame(frame: str | None) -> Rect | None:
    """``"{{129, 65}, {135, 18}}"`` → Rect, or None."""
    if not frame:
        return None
    match = _FRAME_RE.match(frame.strip())
    return make_rect(*match.groups()) if match else None


def _text(value: object) -> str | None:
    if value is None:
        return None
    text = str(value)
    return text if text.strip() else None


def _texts(role: str, label: str | None, value: str | None, placeholder: str | None) -> tuple[str | None, str | None]:
    if role in TEXT_INPUT_ROLES:
        if value is not None and value == placeholder:
            value = None  # XCUITest reports the placeholder as the value of an empty field
        if role == "SecureTextField" and value:
            value = "•" * len(value)  # never put a password on the wire (WDA already sends bullets)
        return label or placeholder, value
    if role in TOGGLE_ROLES:
        state = flag(value)
        return label, None if state is None else ("1" if state else "0")
    if value is not None and value == label:
        return label, None
    return label, value


def _identifier(raw_identifier: str | None, name: str | None, label: str | None, *, has_raw: bool) -> str | None:
    if has_raw:
        return raw_identifier
    if name is not None and name != label:
        return name  # WDA's name is "identifier, else label": a different name can only be the identifier
    return None


def _node(
    element_type: str | None,
    *,
    name: str | None,
    label: str | None,
    value: str | None,
    placeholder: str | None,
    raw_identifier: str | None,
    has_raw: bool,
    rect: Rect | None,
    visible: bool | None,
    enabled: bool | None,
    focused: bool | None,
    selected: bool | None,
    children: list[RawNode],
    app_id: str | None,
) -> RawNode:
    role = role_of(element_type)
    if role == "Application":
        # The app's own node: identified by the bundle id the runner asked for, labelled by the app's name.
        return RawNode("Application", label=label or name, identifier=app_id, rect=rect or Rect(0, 0, 0, 0),
                       children=children)  # fmt: skip
    empty = rect is not None and (rect.width <= 0 or rect.height <= 0)
    if visible is False or empty:
        return RawNode("Other", children=children)  # transparent: emits nothing, keeps its subtree
    if role == "Keyboard":  # the on-screen keyboard, one node: its keys are typing's business (`type`, `press`)
        return RawNode("Keyboard", label=label, rect=rect or Rect(0, 0, 0, 0))
    shown_label, shown_value = _texts(role, label, value, placeholder)
    return RawNode(
        type=role,
        label=shown_label,
        identifier=_identifier(raw_identifier, name, label, has_raw=has_raw),
        value=shown_value,
        rect=rect or Rect(0, 0, 0, 0),
        enabled=enabled,
        focused=focused,
        selected=selected,
        children=children,
    )


# --- JSON source ---------------------------------------------------------------------------------------------------
def _from_json(obj: Mapping[str, Any], depth: int, app_id: str | None) -> RawNode:
    kids = obj.get("children") if depth < _MAX_DEPTH else None
    children = (
        [_from_json(k, depth + 1, app_id) for k in kids if isinstance(k, Mapping)] if isinstance(kids, list) else []
    )
    rect_obj = obj.get("rect")
    rect = (
        make_rect(rect_obj.get("x"), rect_obj.get("y"), rect_obj.get("width"), rect_obj.get("height"))
        if isinstance(rect_obj, Mapping)
        else parse_frame(obj.get("frame") if isinstance(obj.get("frame"), str) else None)
    )
    return _node(
        str(obj.get("type") or ""),
        name=_text(obj.get("name")),
        label=_text(obj.get("label")),
        value=_text(obj.get("value")),
        placeholder=_text(obj.get("placeholderValue")),
        raw_identifier=_text(obj.get("rawIdentifier")),
        has_raw="rawIdentifier" in obj,
        rect=rect,
        visible=flag(obj.get("isVisible")),
        enabled=flag(obj.get("isEnabled")),
        focused=flag(obj.get("isFocused")),
        selected=flag(obj.get("isSelected")),
        children=children,
        app_id=app_id,
    )


def parse_json_source(source: object, app_id: str | None = None) -> RawNode:
    """The ``value`` of ``GET /source?format=json`` (a dict, or its JSON text) → the app's RawNode tree."""
    if isinstance(source, (str, bytes)):
        try:
            source = json.loads(source)
        except ValueError as exc:
            raise SourceError(f"the JSON source is not JSON: {exc}") from exc
    if not isinstance(source, Mapping) or not source.get("type"):
        raise SourceError("the JSON source has no root element")
    return _wrap(_from_json(source, 0, app_id), app_id)


# --- XML source ----------------------------------------------------------------------------------------------------
def _from_xml(element: ET.Element, depth: int, app_id: str | None) -> RawNode:
    a = element.attrib
    children = [_from_xml(k, depth + 1, app_id) for k in element] if depth < _MAX_DEPTH else []
    return _node(
        a.get("type") or element.tag,
        name=_text(a.get("name")),
        label=_text(a.get("label")),
        value=_text(a.get("value")),
        placeholder=_text(a.get("placeholderValue")),
        raw_identifier=None,
        has_raw=False,
        rect=make_rect(a.get("x"), a.get("y"), a.get("width"), a.get("height")),
        visible=flag(a.get("visible")),
        enabled=flag(a.get("enabled")),
        focused=flag(a.get("focused")),
        selected=flag(a.get("selected")),
        children=children,
        app_id=app_id,
    )


def parse_xml_source(xml: str, app_id: str | None = None) -> RawNode:
    """WDA's XML source (bare, or inside Appium's ``<AppiumAUT>``) → the app's RawNode tree."""
    try:
        root = ET.fromstring(xml.strip().encode("utf-8"))
    except ET.ParseError as exc:
        raise SourceError(f"the XML source is not well-formed: {exc}") from exc
    if not root.tag.startswith(TYPE_PREFIX):  # a wrapper (<AppiumAUT>): its first element child is the app
        inner = next(iter(root), None)
        if inner is None:
            raise SourceError(f"the XML source <{root.tag}> holds no element")
        root = inner
    return _wrap(_from_xml(root, 0, app_id), app_id)


def _wrap(node: RawNode, app_id: str | None) -> RawNode:
    """The tree always starts at an Application node (WDA's root is the app; a subtree source is wrapped)."""
    if node.type == "Application":
        return node
    return RawNode("Application", identifier=app_id, rect=node.rect, children=[node])


def walk(node: RawNode) -> list[RawNode]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(n.children))
    return out


def keyboard_rect(root: RawNode) -> Rect | None:
    """Where the on-screen keyboard (``XCUIElementTypeKeyboard``) is in a parsed source, when it shows."""
    return next((n.rect for n in walk(root) if n.type == "Keyboard" and n.rect.width > 0 and n.rect.height > 0), None)
