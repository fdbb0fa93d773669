"""The snapshot as an Appium-style XML page source, and the finders over it.  Pure: nodes in, XML or nodes out.

One XML element per snapshot node, nested by ``parentIndex``, under an ``<AppiumAUT>`` root (as Appium's iOS
driver does).  The element's name is the phonewire role (``Button``, ``StaticText``, ``TextField`` …, the shared
vocabulary of docs/snapshot.md); its attributes::

    type        the role again (Appium's iOS source has it too)
    name        the accessibility id: the identifier, else the label (what ``accessibility id`` matches)
    label       the label                 resource-id   the identifier (what ``id`` matches)
    value       the value                 text          the value of a text field, else the label
    enabled, visible, selected, focused   "true" / "false" (selected: also a checked checkbox, radio or switch,
                                          as Appium's drivers answer isSelected)
    x, y, width, height                   the rect in screen points (integers)
    bounds      "[x1,y1][x2,y2]" (Android's spelling)
    index       the node's index in the snapshot (how a match maps back to a node)

Absent texts are absent attributes.  XPath runs over this document with lxml (the ``webdriver`` extra).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from phonewire.frontends.webdriver import locators
from phonewire.frontends.webdriver.errors import INVALID_ARGUMENT, INVALID_SELECTOR, WebDriverError
from phonewire.protocol.snapshot import ROLES, TEXT_INPUT_ROLES, Node, rect_of

#: Roles whose value says on or off (``"1"``/``"0"``): checked is selected to WebDriver.
_TOGGLES: Final = frozenset({"CheckBox", "RadioButton", "Switch"})

#: Locator strategies and what they compare.
ACCESSIBILITY_ID: Final = "accessibility id"
ID: Final = "id"
XPATH: Final = "xpath"
CLASS_NAME: Final = "class name"
NAME: Final = "name"
#: Only the forms plain Selenium sends for By.ID, By.NAME and By.CLASS_NAME (``[id="x"]``, ``[name="x"]``,
#: ``.Role``), plus ``#id`` and a bare role.
CSS: Final = "css selector"
IOS_PREDICATE: Final = locators.IOS_PREDICATE
ANDROID_UIAUTOMATOR: Final = locators.ANDROID_UIAUTOMATOR
#: The longest locator value taken: every find parses it once per poll of the implicit wait, in the server's loop.
MAX_LOCATOR_CHARS: Final = 4096
STRATEGIES: Final = (ACCESSIBILITY_ID, ID, XPATH, CLASS_NAME, NAME, CSS, IOS_PREDICATE, ANDROID_UIAUTOMATOR)
_CSS_ATTR: Final = re.compile(r'^\[(id|name)\s*=\s*"((?:[^"\\]|\\.)*)"\]$')
_CSS_SIMPLE: Final = re.compile(r"^([#.]?)([A-Za-z_][\w-]*)$")

_ROLE_NAMES: Final = frozenset(ROLES)


#: What XML 1.0 cannot hold (C0 controls but tab and newlines, lone surrogates, U+FFFE/U+FFFF): lxml refuses the
#: whole document for one of them, and a web page's text can carry any.
_NOT_XML: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(node: Node, key: str) -> str | None:
    """A node's text as an attribute value: what XML cannot hold becomes U+FFFD."""
    value = node.get(key)
    return _NOT_XML.sub("\ufffd", str(value)) if value not in (None, "") else None


def _number(value: object) -> int:
    try:
        return round(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return 0


def attributes(node: Node) -> dict[str, str]:
    """The XML attributes of one node (see the module docstring), in document order."""
    role = str(node.get("type") or "Other")
    label, identifier, value = _text(node, "label"), _text(node, "identifier"), _text(node, "value")
    rect = rect_of(node)
    x, y = _number(rect.get("x")), _number(rect.get("y"))
    w, h = _number(rect.get("width")), _number(rect.get("height"))
    attrs: dict[str, str] = {"type": role}
    name = identifier or label
    if name:
        attrs["name"] = name
    if label:
        attrs["label"] = label
    if value:
        attrs["value"] = value
    text = value if role in TEXT_INPUT_ROLES else (label or value)
    if text:
        attrs["text"] = text
    if identifier:
        attrs["resource-id"] = identifier
    attrs["enabled"] = _bool(node.get("enabled", True))
    attrs["visible"] = _bool(w > 0 and h > 0)
    checked = role in _TOGGLES and str(value or "").lower() in ("1", "true", "on")
    attrs["selected"] = _bool(node.get("selected", False) or checked)
    attrs["focused"] = _bool(node.get("focused", False))
    attrs.update(x=str(x), y=str(y), width=str(w), height=str(h), bounds=f"[{x},{y}][{x + w},{y + h}]")
    attrs["index"] = str(node.get("index", 0))
    return attrs


def _bool(value: object) -> str:
    return "true" if value else "false"


def _tag(node: Node) -> str:
    role = str(node.get("type") or "Other")
    return role if role in _ROLE_NAMES else "Other"


def build_tree(nodes: Sequence[Node]) -> Any:
    """The lxml element tree of a snapshot (``<AppiumAUT>`` root)."""
    etree = _etree()
    root = etree.Element("AppiumAUT")
    made: dict[int, Any] = {}
    for node in nodes:  # a parent precedes its children in snapshot order
        parent = made.get(_number(node.get("parentIndex", -1)), root) if node.get("parentIndex") is not None else root
        element = etree.SubElement(parent, _tag(node))
        for key, value in attributes(node).items():
            element.set(key, value)
        made[_number(node.get("index"))] = element
    return root


def page_source(nodes: Sequence[Node]) -> str:
    etree = _etree()
    body: bytes = etree.tostring(build_tree(nodes), pretty_print=True, encoding="UTF-8", xml_declaration=True)
    return body.decode("utf-8")


def find(strategy: str, selector: str, nodes: Sequence[Node], *, within: Node | None = None) -> list[Node]:
    """The nodes ``strategy``/``selector`` matches, in document order (``within``: only that node's descendants)."""
    if strategy not in STRATEGIES:
        raise WebDriverError(
            INVALID_ARGUMENT,
            f"locator strategy {strategy!r} is not supported; use one of: {', '.join(STRATEGIES)}",
        )
    if not isinstance(selector, str):
        raise WebDriverError(INVALID_ARGUMENT, "the locator's value must be a string")
    if len(selector) > MAX_LOCATOR_CHARS:
        raise WebDriverError(
            INVALID_ARGUMENT,
            f"the locator's value is {len(selector)} characters; at most {MAX_LOCATOR_CHARS} are taken "
            "(name the element by accessibility id or id instead)",
        )
    if strategy == XPATH:
        return _xpath(selector, nodes, within)
    if strategy == CSS:
        strategy, selector = _css(selector)
    pool = list(nodes) if within is None else _descendants(within, nodes)
    if strategy in (IOS_PREDICATE, ANDROID_UIAUTOMATOR):
        parse = locators.ios_predicate if strategy == IOS_PREDICATE else locators.android_uiautomator
        conditions = parse(selector)
        return [n for n in pool if locators.matches(attributes(n), conditions)]
    if strategy == ACCESSIBILITY_ID:
        return [n for n in pool if attributes(n).get("name") == selector]
    if strategy in (ID, NAME):
        key = "resource-id" if strategy == ID else "name"
        return [n for n in pool if attributes(n).get(key) == selector]
    return [n for n in pool if _tag(n) == selector]  # class name: the role


def as_selector(strategy: str, value: str) -> str | None:
    """The phonewire selector that matches what ``strategy``/``value`` names, where the view can say it (what a
    find off screen looks for): accessibility id and name → the identifier, else the label; id → the identifier;
    class name → the role; css in the forms :func:`_css` takes.  None for xpath and the platforms' predicates."""
    if not isinstance(value, str) or not value or len(value) > MAX_LOCATOR_CHARS:
        return None
    if strategy == CSS:
        try:
            strategy, value = _css(value)
        except WebDriverError:
            return None
    quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if strategy in (ACCESSIBILITY_ID, NAME):
        return f"id={quoted} || label={quoted}"
    if strategy == ID:
        return f"id={quoted}"
    if strategy == CLASS_NAME and value in _ROLE_NAMES:
        return f"role={value}"
    return None


def _css(selector: str) -> tuple[str, str]:
    text = selector.strip()
    attr = _CSS_ATTR.match(text)
    if attr:
        value = re.sub(r"\\(.)", r"\1", attr.group(2))
        return (ID if attr.group(1) == "id" else NAME), value
    simple = _CSS_SIMPLE.match(text)
    if simple:
        return {"#": ID, ".": CLASS_NAME, "": CLASS_NAME}[simple.group(1)], simple.group(2)
    raise WebDriverError(
        INVALID_SELECTOR,
        f'css selector {selector!r} is not supported: phonewire takes [id="…"], [name="…"], #id, .Role or Role '
        "(use xpath for more)",
    )


def _descendants(ancestor: Node, nodes: Sequence[Node]) -> list[Node]:
    inside = {_number(ancestor.get("index"))}
    found: list[Node] = []
    for node in nodes:
        if node.get("parentIndex") is not None and _number(node.get("parentIndex")) in inside:
            inside.add(_number(node.get("index")))
            found.append(node)
    return found


def _xpath(selector: str, nodes: Sequence[Node], within: Node | None) -> list[Node]:
    etree = _etree()
    root = build_tree(nodes)
    context = root
    if within is not None:
        wanted = str(within.get("index"))
        context = next((el for el in root.iter() if el.get("index") == wanted), root)
    try:
        result = context.xpath(selector)
    except (etree.XPathError, ValueError) as exc:
        raise WebDriverError(INVALID_SELECTOR, f"invalid xpath {selector!r}: {exc}") from exc
    if not isinstance(result, list):
        raise WebDriverError(INVALID_SELECTOR, f"xpath {selector!r} does not select elements (it gives {result!r})")
    by_index = {str(n.get("index")): n for n in nodes}
    found: list[Node] = []
    for item in result:
        if not isinstance(item, etree._Element):
            raise WebDriverError(INVALID_SELECTOR, f"xpath {selector!r} selects {type(item).__name__}, not elements")
        node = by_index.get(item.get("index") or "")
        if node is not None:
            found.append(node)
    return found


def _etree() -> Any:
    try:
        from lxml import etree
    except ImportError as exc:  # pragma: no cover - the dev and webdriver extras install it
        raise WebDriverError(
            INVALID_SELECTOR, "xpath and page source need lxml: pip install 'phonewire[webdriver]'"
        ) from exc
    return etree
