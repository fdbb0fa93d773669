"""Android view hierarchy dumps → snapshot :class:`RawNode` trees.  Pure: XML text in, nodes out, no I/O.

Two dump formats are read, because both occur in the wild (and in our fixtures):

* the classic ``uiautomator dump`` / ``UiDevice.dumpWindowHierarchy()`` format, which uiautomator2's
  ``dump_hierarchy()`` also emits: ``<hierarchy rotation="0"><node class="android.widget.Button" ...>``;
* the Appium UiAutomator2 page source: ``<hierarchy ... width height><android.widget.Button class=... >`` — the
  tag is the class name, ``displayed`` replaces ``visible-to-user``.

Every child of ``<hierarchy>`` is the root of one window (the status bar, the app, a system dialog, the keyboard).
The tree handed to :func:`phonewire.protocol.snapshot.build_snapshot` is::

    Application (identifier = the target app id, rect = the viewport)
     ├── Window (identifier = the window's package, rect = its root's bounds)   one per window, in dump order
     │    └── the window's views, mapped to the shared role vocabulary
     └── Keyboard (identifier = the input method's package)   the on-screen keyboard's window, when it shows

Bounds are pixels; they are divided by the display density (pixels per point, ``dpi / 160``) so that rects are
points, like every other backend.  Android-specific visibility is decided here, before the shared rules: a node
reported ``visible-to-user="false"`` / ``displayed="false"``, or with zero area, emits nothing (its children are
still walked; each carries its own flags).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Final

from phonewire.protocol.snapshot import TEXT_INPUT_ROLES, RawNode, Rect

# --- role mapping ----------------------------------------------------------------------------------------------
#: Simple class name (after the last ``.`` or ``$``) → role.  Framework widgets and their AppCompat / Material
#: subclasses; anything else falls through to the suffix rules and then to the node's flags.
CLASS_ROLES: Final[dict[str, str]] = {
    # buttons
    "Button": "Button", "ImageButton": "Button", "AppCompatButton": "Button", "AppCompatImageButton": "Button",
    "MaterialButton": "Button", "FloatingActionButton": "Button", "ExtendedFloatingActionButton": "Button",
    "Chip": "Button",
    # text input
    "EditText": "TextField", "AppCompatEditText": "TextField", "TextInputEditText": "TextField",
    "AutoCompleteTextView": "TextField", "AppCompatAutoCompleteTextView": "TextField",
    "MultiAutoCompleteTextView": "TextField", "MaterialAutoCompleteTextView": "TextField",
    "ExtractEditText": "TextField", "SearchAutoComplete": "SearchField",
    # toggles
    "Switch": "Switch", "SwitchCompat": "Switch", "SwitchMaterial": "Switch", "MaterialSwitch": "Switch",
    "ToggleButton": "Switch",
    "CheckBox": "CheckBox", "AppCompatCheckBox": "CheckBox", "MaterialCheckBox": "CheckBox",
    "CheckedTextView": "CheckBox",
    "RadioButton": "RadioButton", "AppCompatRadioButton": "RadioButton", "MaterialRadioButton": "RadioButton",
    # ranges
    "SeekBar": "Slider", "AppCompatSeekBar": "Slider", "RatingBar": "Slider", "AppCompatRatingBar": "Slider",
    "Slider": "Slider", "RangeSlider": "Slider",
    "ProgressBar": "ProgressIndicator", "ContentLoadingProgressBar": "ProgressIndicator",
    "CircularProgressIndicator": "ProgressIndicator", "LinearProgressIndicator": "ProgressIndicator",
    # containers
    "ScrollView": "ScrollView", "HorizontalScrollView": "ScrollView", "NestedScrollView": "ScrollView",
    "RecyclerView": "ScrollView", "ListView": "ScrollView", "GridView": "ScrollView",
    "ExpandableListView": "ScrollView",
    "WebView": "WebView",
    "Spinner": "ComboBox", "AppCompatSpinner": "ComboBox",
    "Toolbar": "Toolbar", "ActionBarContainer": "Toolbar",
    "TabWidget": "TabBar", "TabLayout": "TabBar", "BottomNavigationView": "TabBar", "NavigationBarView": "TabBar",
    "TabView": "Tab", "BottomNavigationItemView": "Tab", "NavigationBarItemView": "Tab",
    # content
    "TextView": "StaticText", "AppCompatTextView": "StaticText", "MaterialTextView": "StaticText",
    "ImageView": "Image", "AppCompatImageView": "Image", "ShapeableImageView": "Image",
}  # fmt: skip

#: Suffix rules for custom subclasses that keep the framework name (``com.example.FancyEditText``); first match.
SUFFIX_ROLES: Final[tuple[tuple[str, str], ...]] = (
    ("EditText", "TextField"),
    ("RadioButton", "RadioButton"),
    ("CheckBox", "CheckBox"),
    ("Switch", "Switch"),
    ("Button", "Button"),
    ("SeekBar", "Slider"),
    ("ScrollView", "ScrollView"),
    ("RecyclerView", "ScrollView"),
    ("ListView", "ScrollView"),
    ("GridView", "ScrollView"),
    ("WebView", "WebView"),
    ("TextView", "StaticText"),
    ("ImageView", "Image"),
)

TOGGLE_ROLES: Final = frozenset({"Switch", "CheckBox", "RadioButton"})
_OBFUSCATED_ID: Final = "_resource_name_obfuscated"
_BOUNDS_RE: Final = re.compile(r"^\s*\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]\s*$")


class HierarchyError(ValueError):
    """The dump is not a readable view hierarchy (the device layer maps it to SNAPSHOT_FAILED)."""


@dataclass(frozen=True, slots=True)
class Hierarchy:
    root: RawNode
    rotation: int  # 0..3, quarter turns from the natural orientation (``<hierarchy rotation>``)
    windows: int
    #: Where the on-screen keyboard's window is, in points, when the dump holds one (:func:`is_keyboard_window`).
    keyboard: Rect | None = None


#: Packages of the common on-screen keyboards (input methods): Gboard, AOSP's LatinIME, Samsung's, SwiftKey.
KEYBOARD_PACKAGES: Final = frozenset({
    "com.google.android.inputmethod.latin", "com.android.inputmethod.latin", "com.samsung.android.honeyboard",
    "com.sec.android.inputmethod", "com.touchtype.swiftkey", "com.google.android.apps.inputmethod.hindi",
})  # fmt: skip


def is_keyboard_window(package: str | None, app_id: str | None = None) -> bool:
    """Whether a window of the dump is the on-screen keyboard's: the window of an input method (Android's
    ``TYPE_INPUT_METHOD`` window), told apart in a uiautomator dump, which names no window types, by its package —
    a known keyboard's, or one with ``inputmethod`` in its name — that is not the app's own.  Unverified on a live
    phone: read from the documented dump shape (docs/android.md)."""
    if not package or package == app_id:
        return False
    return package in KEYBOARD_PACKAGES or ".inputmethod" in package


def simple_class_name(class_name: str) -> str:
    return re.split(r"[.$]", class_name)[-1]


def _flag(attrs: dict[str, str], name: str) -> bool | None:
    value = attrs.get(name)
    if value is None:
        return None
    return value.strip().lower() == "true"


def parse_bounds(text: str | None) -> tuple[int, int, int, int] | None:
    """``"[x1,y1][x2,y2]"`` → ``(x1, y1, x2, y2)`` in pixels, or None when malformed."""
    if not text:
        return None
    match = _BOUNDS_RE.match(text)
    if match is None:
        return None
    x1, y1, x2, y2 = (int(g) for g in match.groups())
    return x1, y1, x2, y2


def role_of(class_name: str, attrs: dict[str, str], *, in_scroll: bool, has_children: bool) -> str:
    """The shared role of one Android node (see docs/android.md for the table)."""
    name = simple_class_name(class_name)
    role = CLASS_ROLES.get(name)
    if role is None:
        role = next((r for suffix, r in SUFFIX_ROLES if name.endswith(suffix)), None)
    if role is None:
        if _flag(attrs, "scrollable"):
            role = "ScrollView"
        elif _flag(attrs, "checkable"):
            role = "CheckBox"
        elif _flag(attrs, "clickable") or _flag(attrs, "long-clickable"):
            # A clickable container in a scrolling list is a row; anywhere else it acts as a button.
            role = "Cell" if in_scroll and has_children else "Button"
        else:
            role = "Other"
    elif _flag(attrs, "scrollable") and role in ("Other", "StaticText", "Image"):
        role = "ScrollView"
    if role == "TextField" and _flag(attrs, "password"):
        role = "SecureTextField"
    return role


def _texts(role: str, attrs: dict[str, str]) -> tuple[str | None, str | None]:
    """(label, value) of one node.  Text fields keep their text as the value (masked in a password field) and
    their description or hint as the label; toggles report ``"1"``/``"0"``; elsewhere the content description
    wins the label and a different visible text is kept as the value."""
    text = attrs.get("text") or None
    desc = attrs.get("content-desc") or None
    hint = attrs.get("hint") or None
    if role in TEXT_INPUT_ROLES:
        value = None if text is not None and text == hint else text
        if role == "SecureTextField" and value:
            value = "•" * len(value)  # never put a password on the wire, whatever the dump reveals
        return desc or hint, value
    if role in TOGGLE_ROLES and (role == "Switch" or _flag(attrs, "checkable")):
        return desc or text, "1" if _flag(attrs, "checked") else "0"
    if desc and text and desc != text:
        return desc, text
    return desc or text, None


def _identifier(attrs: dict[str, str]) -> str | None:
    rid = attrs.get("resource-id") or None
    if rid is None or _OBFUSCATED_ID in rid:
        return None  # Play-protected apps obfuscate ids: all equal, they name nothing
    return rid


def _visible(attrs: dict[str, str], bounds: tuple[int, int, int, int] | None) -> bool:
    if _flag(attrs, "visible-to-user") is False or _flag(attrs, "displayed") is False:
        return False
    if bounds is not None:
        x1, y1, x2, y2 = bounds
        if x2 <= x1 or y2 <= y1:
            return False
    return True


def _rect(bounds: tuple[int, int, int, int] | None, density: float) -> Rect:
    if bounds is None:
        return Rect(0, 0, 0, 0)
    x1, y1, x2, y2 = bounds
    return Rect.of(x1 / density, y1 / density, (x2 - x1) / density, (y2 - y1) / density)


def _class_of(element: ET.Element) -> str:
    return element.get("class") or ("" if element.tag == "node" else element.tag)


#: Conversion stops here, like build_snapshot's walk (uiautomator2 itself caps dumps at 50 levels).
_MAX_DEPTH: Final = 100


def _convert_at(element: ET.Element, density: float, in_scroll: bool, depth: int) -> RawNode:
    attrs = dict(element.attrib)
    children = list(element) if depth < _MAX_DEPTH else []
    role = role_of(_class_of(element), attrs, in_scroll=in_scroll, has_children=bool(children))
    bounds = parse_bounds(attrs.get("bounds"))
    child_scroll = in_scroll or role == "ScrollView"
    mapped = [_convert_at(child, density, child_scroll, depth + 1) for child in children]
    if not _visible(attrs, bounds):
        return RawNode("Other", children=mapped)  # transparent: emits nothing, keeps its subtree
    label, value = _texts(role, attrs)
    clickable = bool(_flag(attrs, "clickable") or _flag(attrs, "long-clickable") or _flag(attrs, "checkable"))
    return RawNode(
        type=role,
        label=label,
        identifier=_identifier(attrs),
        value=value,
        rect=_rect(bounds, density),
        enabled=_flag(attrs, "enabled"),
        focused=_flag(attrs, "focused"),
        selected=_flag(attrs, "selected"),
        interactive=clickable,
        children=mapped,
    )


def _root_element(xml: str) -> ET.Element:
    start = xml.find("<hierarchy")
    if start < 0:
        raise HierarchyError("the dump has no <hierarchy> element")
    end = xml.rfind("</hierarchy>")
    if end > start:
        body = xml[start : end + len("</hierarchy>")]
    else:  # an empty, self-closing root; `uiautomator dump /dev/tty` appends a line after it
        close = xml.find("/>", start)
        body = xml[start : close + 2] if close > 0 else xml[start:]
    try:
        return ET.fromstring(body)
    except ET.ParseError as exc:
        raise HierarchyError(f"the dump is not well-formed XML: {exc}") from exc


def parse_hierarchy(xml: str, density: float, app_id: str | None = None) -> Hierarchy:
    """Parse one dump.  ``density`` is pixels per point (must be > 0)."""
    if not density > 0:
        raise HierarchyError(f"display density must be positive, got {density}")
    root_element = _root_element(xml)
    try:
        rotation = int(root_element.get("rotation") or 0) % 4
    except ValueError:
        rotation = 0
    windows: list[RawNode] = []
    keyboard: Rect | None = None
    for element in root_element:
        bounds = parse_bounds(element.get("bounds"))
        package = element.get("package") or None
        rect = _rect(bounds, density)
        if is_keyboard_window(package, app_id):
            # the keyboard, one node: its keys are the input method's business (typing goes through `type`)
            keyboard = rect if rect.width > 0 and rect.height > 0 else keyboard
            windows.append(RawNode("Keyboard", identifier=package, rect=rect))
            continue
        content = _convert_at(element, density, False, 0)
        windows.append(RawNode("Window", identifier=package, rect=rect, children=[content]))
    x_max = max((w.rect.x + w.rect.width for w in windows), default=0.0)
    y_max = max((w.rect.y + w.rect.height for w in windows), default=0.0)
    root = RawNode("Application", identifier=app_id, rect=Rect(0, 0, x_max, y_max), children=windows)
    return Hierarchy(root=root, rotation=rotation, windows=len(windows), keyboard=keyboard)


def has_focused_text_input(xml: str, *, or_any: bool = False) -> bool:
    """The focus probe: does some node that takes text (EditText and kin) have input focus?  ``or_any``: or any
    node at all (a button, a list item with focus: Enter activates it, as a hardware keyboard's does)."""
    root_element = _root_element(xml)
    for element in root_element.iter():
        attrs = dict(element.attrib)
        if not _flag(attrs, "focused"):
            continue
        role = role_of(_class_of(element), attrs, in_scroll=False, has_children=len(element) > 0)
        if or_any or role in TEXT_INPUT_ROLES:
            return True
    return False


# --- shell output parsers (``wm size`` / ``wm density``) ----------------------------------------------------------
def parse_wm_size(output: str) -> tuple[int, int] | None:
    """``Physical size: 1080x2400`` (and ``Override size:``, which wins) → natural-orientation pixels."""
    override = re.search(r"Override size:\s*(\d+)x(\d+)", output)
    physical = re.search(r"Physical size:\s*(\d+)x(\d+)", output)
    match = override or physical
    return (int(match.group(1)), int(match.group(2))) if match else None


def parse_wm_density(output: str) -> float | None:
    """``Physical density: 420`` (``Override density:`` wins) → pixels per point (dpi / 160)."""
    override = re.search(r"Override density:\s*(\d+)", output)
    physical = re.search(r"Physical density:\s*(\d+)", output)
    match = override or physical
    if match is None or int(match.group(1)) <= 0:
        return None
    return int(match.group(1)) / 160.0


# --- scrolling: which scroll container a scroll moves, and how far its content moved ------------------------------
#: Classes that scroll sideways, and classes that scroll up and down; any other ``scrollable`` element (a
#: RecyclerView, a Compose LazyRow/LazyColumn) scrolls across the scroller around it (a carousel in a vertical
#: feed, a page of a ViewPager), and at the top level along its longer side.  A guess from the dump: unverified on
#: a real phone.
_HORIZONTAL_CLASSES: Final = ("HorizontalScrollView", "ViewPager", "ViewPager2", "TabLayout")
_VERTICAL_CLASSES: Final = ("ScrollView", "NestedScrollView", "ListView", "GridView", "ExpandableListView")


@dataclass(frozen=True, slots=True)
class Scroller:
    """A ``scrollable="true"`` element of a dump: its box in points, how deep it is, which way it scrolls."""

    rect: Rect
    depth: int
    horizontal: bool


def scrollers(xml: str, density: float) -> list[Scroller]:
    out: list[Scroller] = []

    def visit(element: ET.Element, depth: int, around: bool | None) -> None:
        scrollable = element.get("scrollable") == "true"
        bounds = parse_bounds(element.get("bounds"))
        if scrollable and bounds is not None:
            rect = _rect(bounds, density)
            name = simple_class_name(_class_of(element))
            if name in _HORIZONTAL_CLASSES:
                horizontal = True
            elif name in _VERTICAL_CLASSES:
                horizontal = False
            elif around is not None:
                horizontal = not around  # a list inside a list scrolls the other way (a carousel in a feed)
            else:
                horizontal = rect.width > 2 * rect.height
            out.append(Scroller(rect, depth, horizontal))
            around = horizontal
        for child in element:
            visit(child, depth + 1, around)

    visit(_root_element(xml), 0, None)
    return out


def choose_scroller(found: list[Scroller], direction: str, at: tuple[float, float] | None) -> Scroller | None:
    """The scroller a scroll ``direction`` moves: around ``at``, the innermost one that scrolls along that axis;
    without ``at``, the largest one (the screen's main scroller).  ``None``: the screen has none."""
    sideways = direction in ("left", "right")
    fitting = [s for s in found if s.horizontal == sideways and s.rect.width > 0 and s.rect.height > 0]
    if at is not None:
        x, y = at
        around = [
            s for s in fitting if s.rect.x <= x <= s.rect.x + s.rect.width and s.rect.y <= y <= s.rect.y + s.rect.height
        ]
        return max(around, key=lambda s: s.depth, default=None)
    return max(fitting, key=lambda s: s.rect.width * s.rect.height, default=None)


def content_shift(before: str, after: str, box: Rect, density: float, *, sideways: bool) -> float | None:
    """How far (points) the content inside ``box`` moved towards the start (up, or left) between two dumps: the
    median movement of the elements that both dumps hold once each (same class, id, text and description) and that
    sat inside ``box`` before.  ``None`` when no element is in both (the content moved by more than a screen, or
    changed)."""

    def positions(xml: str) -> dict[tuple[str, str, str, str], float | None]:
        seen: dict[tuple[str, str, str, str], float | None] = {}
        for element in _root_element(xml).iter():
            bounds = parse_bounds(element.get("bounds"))
            key = (_class_of(element), element.get("resource-id") or "", element.get("text") or "",
                   element.get("content-desc") or "")  # fmt: skip
            if bounds is None or not any(key[1:]):
                continue
            left, top, right, bottom = bounds
            cx, cy = (left + right) / 2 / density, (top + bottom) / 2 / density
            inside = box.x <= cx <= box.x + box.width and box.y <= cy <= box.y + box.height
            # an element held twice is no landmark: None; one outside the box before counts in neither dump
            seen[key] = None if key in seen or not inside else (left if sideways else top) / density
        return seen

    then, now = positions(before), positions(after)
    shifts = sorted(
        then_at - now_at
        for key, then_at in then.items()
        if then_at is not None and (now_at := now.get(key)) is not None
    )
    if not shifts:
        return None
    return shifts[len(shifts) // 2]
