"""WDA page sources → snapshot nodes, on the real recorded XML sources in fixtures/ (origin in fixtures/README.md).

The JSON-source checks use JSON DERIVED from those XML sources by the WDA double (no real full-screen JSON source
exists in permissively licensed data), plus the one real JSON node in fixtures/wda/.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from wda_double import FIXTURES, WDA, json_node

from phonewire.devices.ios.source import (
    SourceError,
    make_rect,
    parse_frame,
    parse_json_source,
    parse_xml_source,
    role_of,
    walk,
)
from phonewire.protocol.snapshot import ROLES, Rect, build_snapshot

XMLS = sorted(FIXTURES.glob("*.xml"))
HOME = "ios-settings-home-appium-xcuitest.xml"
KEYBOARDS = "ios-settings-general-keyboards-appium-xcuitest.xml"
FORM = "ios-signup-form-textfields-appium-xcuitest.xml"
CALENDAR = "ios-calendar-day-view-japanese-appium-xcuitest.xml"
ACCESSIBILITY = "ios-settings-accessibility-appium-xcuitest.xml"


def xml_of(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def snap_xml(name: str) -> dict[str, Any]:
    tree = parse_xml_source(xml_of(name), "app.id")
    return build_snapshot(tree, tree.rect, "ios-wda")


def derived_json(name: str) -> dict[str, Any]:
    root = ET.fromstring(xml_of(name).encode())
    return json_node(next(iter(root)))


def snap_json(name: str) -> dict[str, Any]:
    tree = parse_json_source(derived_json(name), "app.id")
    return build_snapshot(tree, tree.rect, "ios-wda")


def find(nodes: list[dict[str, Any]], **want: Any) -> dict[str, Any]:
    hits = [n for n in nodes if all(n.get(k) == v for k, v in want.items())]
    assert len(hits) == 1, f"{want}: {len(hits)} matches"
    return hits[0]


@pytest.mark.parametrize("path", XMLS, ids=lambda p: p.name)
def test_every_fixture_element_becomes_exactly_one_raw_node_with_a_shared_role(path: Path) -> None:
    xml = path.read_text(encoding="utf-8")
    tree = parse_xml_source(xml)
    assert len(walk(tree)) == xml.count("<XCUIElementType")
    assert {n.type for n in walk(tree)} <= set(ROLES)


@pytest.mark.parametrize("path", XMLS, ids=lambda p: p.name)
def test_xml_and_json_sources_of_one_screen_give_the_same_nodes(path: Path) -> None:
    assert snap_xml(path.name) == snap_json(path.name)
    assert snap_xml(path.name)["quality"] == {"state": "healthy", "backend": "ios-wda"}


def test_settings_home_cells_labels_values_identifiers_and_the_invisible_image() -> None:
    nodes = snap_xml(HOME)["nodes"]
    assert nodes[0]["type"] == "Application" and nodes[0]["label"] == "Settings"
    assert nodes[0]["identifier"] == "app.id" and nodes[0]["rect"] == {"x": 0, "y": 0, "width": 390, "height": 844}
    cell = find(nodes, type="Cell", label="Sign in to your iPhone")
    assert cell["value"] == "Set up iCloud, the App Store, and more."
    assert cell["rect"] == {"x": 0, "y": 143, "width": 390, "height": 71} and cell["enabled"] is True
    # name differs from label: it is the accessibilityIdentifier; the value that repeats the label is dropped
    text = find(nodes, type="StaticText", identifier="APPLE_ACCOUNT")
    assert text["label"] == "Sign in to your iPhone" and text["value"] is None
    assert not any(n["identifier"] == "SilhouetteMonogram" for n in nodes)  # visible="false"
    assert Counter(n["type"] for n in nodes)["Cell"] == 13


def test_keyboard_settings_switches_carry_1_or_0() -> None:
    nodes = snap_xml(KEYBOARDS)["nodes"]
    switches = [n for n in nodes if n["type"] == "Switch"]
    assert switches and {n["value"] for n in switches} <= {"0", "1"}
    assert find(nodes, type="Switch", label="Auto-Correction")["value"] == "0"
    assert find(nodes, type="Switch", label="Smart Punctuation")["value"] == "1"
    in_source = [e for e in ET.fromstring(xml_of(KEYBOARDS).encode()).iter("XCUIElementTypeSwitch")]
    # the four of them below the fold are reported visible="false" (with a bogus y=91): they are culled
    on_screen = [e for e in in_source if e.get("visible") == "true"]
    assert (len(in_source), len(switches)) == (14, len(on_screen)) == (14, 10)


def test_signup_form_text_fields_secure_fields_and_the_hidden_field() -> None:
    nodes = snap_xml(FORM)["nodes"]
    mail = find(nodes, type="TextField", label="hoge@example.com")
    assert mail["value"] is None and mail["rect"] == {"x": 16, "y": 108, "width": 343, "height": 44}
    assert [n["label"] for n in nodes if n["type"] == "SecureTextField"] == ["password1", "password2"]
    assert [n["value"] for n in nodes if n["type"] == "TextField" and n["label"] is None] == ["First Name", "Last Name"]
    # the TextField at y=719 is visible="false" in the source: it emits nothing
    assert not any(n["type"] == "TextField" and n["rect"]["y"] == 719 for n in nodes)


def test_japanese_calendar_keeps_its_labels_and_scroll_views() -> None:
    nodes = snap_xml(CALENDAR)["nodes"]
    assert nodes[0]["label"] == "カレンダー"
    assert Counter(n["type"] for n in nodes)["ScrollView"] == 3
    assert all(n["rect"]["y"] < 844 for n in nodes)


def test_the_real_json_node_shape_string_booleans_frame_and_null_raw_identifier() -> None:
    node = json.loads((WDA / "xcuitest-driver_json-source-node_elementAttributes.json").read_text())[
        "elementAttributes"
    ]
    tree = parse_json_source(node, "app.id")
    text = tree.children[0]
    assert (text.type, text.label, text.identifier, text.value) == ("StaticText", "Some Button", None, None)
    assert text.rect == Rect(129, 65, 135, 18) and text.enabled is True and text.focused is False
    del node["rect"]  # the frame string alone gives the same rect
    assert parse_json_source(node).children[0].rect == Rect(129, 65, 135, 18)


def test_placeholder_broken_rect_secure_masking_and_off_screen_culling() -> None:
    source = {
        "type": "Application", "label": "A", "rect": {"x": 0, "y": 0, "width": 390, "height": 844}, "isVisible": "1",
        "children": [
            {"type": "TextField", "rawIdentifier": "email", "name": "email", "label": "", "value": "Email",
             "placeholderValue": "Email", "rect": {"x": 10, "y": 10, "width": 300, "height": 40}, "isVisible": "1",
             "isEnabled": "1", "isFocused": "1"},
            {"type": "SecureTextField", "label": "Password", "value": "••••", "rawIdentifier": None,
             "rect": {"x": 10, "y": 60, "width": 300, "height": 40}, "isVisible": "1"},
            {"type": "Button", "label": "Broken", "frame": "{{-1, -1}, {0, 0}}", "isVisible": "1"},
            {"type": "Button", "label": "Below", "rect": {"x": 0, "y": 2000, "width": 100, "height": 40},
             "isVisible": "1"},
            {"type": "Toggle", "label": "Wi-Fi", "value": "on", "rect": {"x": 0, "y": 120, "width": 50, "height": 30},
             "isVisible": "1"},
        ],
    }  # fmt: skip
    tree = parse_json_source(json.dumps(source), "a.b")
    nodes = build_snapshot(tree, tree.rect, "ios-wda")["nodes"]
    field = find(nodes, identifier="email")
    assert (field["label"], field["value"], field["focused"]) == ("Email", None, True)  # placeholder, not a value
    assert find(nodes, type="SecureTextField")["value"] == "••••"
    broken = find(nodes, label="Broken")  # geometry unknown: kept, at 0,0,0,0
    assert broken["rect"] == {"x": 0, "y": 0, "width": 0, "height": 0}
    assert not any(n["label"] == "Below" for n in nodes)  # off-screen
    assert find(nodes, type="Switch")["value"] == "1"


def test_helpers_roles_frames_and_rects() -> None:
    assert role_of("XCUIElementTypeCell") == "Cell" and role_of("Cell") == "Cell"
    assert role_of("XCUIElementTypeSomethingNew") == "Other"
    assert parse_frame("{{129, 65}, {135, 18}}") == Rect(129, 65, 135, 18)
    assert parse_frame("{{nan, 1}, {2, 3}}") is None and parse_frame("garbage") is None
    assert make_rect(-1, -1, 0, 0) is None and make_rect("inf", 0, 1, 1) is None


@pytest.mark.parametrize("bad", ["", "<AppiumAUT>", "<AppiumAUT></AppiumAUT>", "not xml"])
def test_malformed_xml_sources_raise_source_error(bad: str) -> None:
    with pytest.raises(SourceError):
        parse_xml_source(bad)


@pytest.mark.parametrize("bad", ["", "[]", "{}", "null", '{"children": []}'])
def test_malformed_json_sources_raise_source_error(bad: str) -> None:
    with pytest.raises(SourceError):
        parse_json_source(bad)
