"""The Android hierarchy parser on every real dump in fixtures/ (see fixtures/README.md for their origin).

Density 2.625 (420 dpi, the Pixel emulators these dumps come from) unless a test says otherwise; viewports are the
screen sizes the catalogue gives for each dump.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from phonewire.devices.android.hierarchy import (
    CLASS_ROLES,
    SUFFIX_ROLES,
    HierarchyError,
    has_focused_text_input,
    parse_bounds,
    parse_hierarchy,
    parse_wm_density,
    parse_wm_size,
    role_of,
)
from phonewire.protocol.snapshot import NODE_CAP, ROLES, RawNode, Rect, build_snapshot

FIXTURES = Path(__file__).parent / "fixtures"
DENSITY = 2.625

# file -> (XML elements per the catalogue, screen pixels, windows)
DUMPS: dict[str, tuple[int, tuple[int, int], int]] = {
    "android-settings-home-appium-uiautomator2.xml": (80, (1080, 2088), 1),
    "android-playstore-games-tab-appium-uiautomator2.xml": (94, (1080, 2088), 1),
    "android-clock-alarms-list-appium-uiautomator2.xml": (63, (1080, 2088), 1),
    "android-settings-datetime-japanese-appium-uiautomator2.xml": (52, (1080, 2088), 1),
    "android-anr-system-dialog-appium-uiautomator2.xml": (13, (1080, 2088), 1),
    "android-signup-form-textfields-appium-uiautomator2.xml": (63, (1080, 2088), 1),
    "android-launcher-home-api27-uiautomator-dump.xml": (30, (1080, 1794), 1),
    "android-launcher-all-apps-drawer-uiautomator-dump.xml": (47, (1080, 2340), 1),
    "android-compose-triage-form-uiautomator-dump.xml": (73, (1080, 2340), 1),
    "android-gmail-welcome-tour-uiautomator-dump.xml": (21, (1080, 1794), 1),
    "android-homee-welcome-multiwindow-dumpwindowhierarchy.xml": (51, (1080, 2400), 2),
}

# file -> wire nodes in the snapshot (regression figures, each checked by hand against the dump once)
SNAPSHOT_COUNTS = {
    "android-settings-home-appium-uiautomator2.xml": 65,
    "android-playstore-games-tab-appium-uiautomator2.xml": 36,
    "android-clock-alarms-list-appium-uiautomator2.xml": 56,
    "android-settings-datetime-japanese-appium-uiautomator2.xml": 38,
    "android-anr-system-dialog-appium-uiautomator2.xml": 11,
    "android-signup-form-textfields-appium-uiautomator2.xml": 45,
    "android-launcher-home-api27-uiautomator-dump.xml": 25,
    "android-launcher-all-apps-drawer-uiautomator-dump.xml": 45,
    "android-compose-triage-form-uiautomator-dump.xml": 46,
    "android-gmail-welcome-tour-uiautomator-dump.xml": 10,
    "android-homee-welcome-multiwindow-dumpwindowhierarchy.xml": 37,
}


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def snapshot_of(name: str, app_id: str = "app.under.test") -> dict[str, Any]:
    _, (width, height), _ = DUMPS[name]
    hierarchy = parse_hierarchy(read(name), DENSITY, app_id)
    return build_snapshot(hierarchy.root, Rect(0, 0, width / DENSITY, height / DENSITY), "uiautomator2")


def count(node: RawNode) -> int:
    return 1 + sum(count(child) for child in node.children)


def nodes_where(snapshot: dict[str, Any], **fields: object) -> list[dict[str, Any]]:
    return [n for n in snapshot["nodes"] if all(n[k] == v for k, v in fields.items())]


def test_every_fixture_in_the_directory_is_covered() -> None:
    assert sorted(p.name for p in FIXTURES.glob("*.xml")) == sorted(DUMPS)


@pytest.mark.parametrize("name", sorted(DUMPS))
def test_every_view_in_the_dump_becomes_exactly_one_raw_node(name: str) -> None:
    elements, _, windows = DUMPS[name]
    assert sum(1 for _ in ET.fromstring(read(name).encode()).iter()) == elements  # the catalogue's count
    hierarchy = parse_hierarchy(read(name), DENSITY, "app")
    assert hierarchy.windows == windows
    # Application + one Window per window + every element but <hierarchy> itself
    assert count(hierarchy.root) == 1 + windows + (elements - 1)


@pytest.mark.parametrize("name", sorted(DUMPS))
def test_snapshot_node_count_and_shape(name: str) -> None:
    snapshot = snapshot_of(name)
    nodes = snapshot["nodes"]
    assert len(nodes) == SNAPSHOT_COUNTS[name]
    assert snapshot["quality"] == {"state": "healthy", "backend": "uiautomator2"}
    assert nodes[0]["type"] == "Application" and nodes[0]["identifier"] == "app.under.test"
    assert all(n["type"] in ROLES for n in nodes)
    assert all(n["parentIndex"] is None or n["parentIndex"] < n["index"] for n in nodes)
    keys = [(n["type"], n["label"], n["identifier"], n["value"], tuple(n["rect"].values())) for n in nodes]
    assert len(keys) == len(set(keys)), "dedup by type + texts + geometry"


def test_rects_are_pixels_divided_by_the_density() -> None:
    # <android.widget.Switch ... bounds="[882,573][1036,705]"> in the Japanese date & time screen
    name = "android-settings-datetime-japanese-appium-uiautomator2.xml"
    element = next(el for el in ET.fromstring(read(name).encode()).iter() if el.get("class") == "android.widget.Switch")
    x1, y1, x2, y2 = (int(v) for v in re.findall(r"-?\d+", element.get("bounds", "")))
    switch = nodes_where(snapshot_of(name), type="Switch")[0]
    assert switch["rect"] == {
        "x": round(x1 / DENSITY, 1),
        "y": round(y1 / DENSITY, 1),
        "width": round((x2 - x1) / DENSITY, 1),
        "height": round((y2 - y1) / DENSITY, 1),
    }
    other = parse_hierarchy(read(name), 1.0, "app").root.children[0].rect
    assert (other.width, other.height) == (1080, 2088)  # density 1: points are pixels


def test_switches_report_checked_as_value_one_or_zero_and_japanese_labels_survive() -> None:
    snapshot = snapshot_of("android-settings-datetime-japanese-appium-uiautomator2.xml")
    assert [n["value"] for n in nodes_where(snapshot, type="Switch")] == ["1", "1", "0"]
    labels = {n["label"] for n in snapshot["nodes"]}
    assert {"日付と時刻", "日時を自動的に設定", "タイムゾーン", "GMT+09:00 日本標準時"} <= labels
    assert nodes_where(snapshot, type="Button")[0]["label"] == "上へ移動"  # ImageButton "navigate up"


def test_list_rows_are_cells_inside_the_scroll_view() -> None:
    snapshot = snapshot_of("android-settings-datetime-japanese-appium-uiautomator2.xml")
    (scroll,) = nodes_where(snapshot, type="ScrollView")
    assert scroll["identifier"] == "com.android.settings:id/recycler_view"
    cells = nodes_where(snapshot, type="Cell")
    assert len(cells) == 7 and all(c["parentIndex"] == scroll["index"] for c in cells)


def test_text_fields_password_fields_and_masking() -> None:
    snapshot = snapshot_of("android-signup-form-textfields-appium-uiautomator2.xml")
    assert len(nodes_where(snapshot, type="TextField")) == 3
    secure = nodes_where(snapshot, type="SecureTextField")
    assert len(secure) == 2
    assert secure[0]["value"] == "•" * len("password1"), "a password never reaches the wire"
    assert nodes_where(snapshot, type="TextField")[0]["value"] == "hoge@example.com"
    assert "password1" not in str(snapshot)


def test_the_system_dialog_has_its_title_and_two_buttons() -> None:
    snapshot = snapshot_of("android-anr-system-dialog-appium-uiautomator2.xml")
    assert [n["label"] for n in nodes_where(snapshot, type="Button")] == ["Close app", "Wait"]
    assert nodes_where(snapshot, type="StaticText")[0]["label"] == "Settings isn't responding"
    assert nodes_where(snapshot, type="Window")[0]["identifier"] == "android"


def test_thin_space_and_no_break_space_collapse_to_one_ascii_space_on_the_wire() -> None:
    raw = parse_hierarchy(read("android-clock-alarms-list-appium-uiautomator2.xml"), DENSITY, "app").root
    labels: list[str] = []
    stack = [raw]
    while stack:
        node = stack.pop()
        labels.append(node.label or "")
        stack.extend(node.children)
    assert "8:30\u200aAM" in labels  # the parser keeps the dump's text as it is
    snapshot = snapshot_of("android-clock-alarms-list-appium-uiautomator2.xml")
    assert [n["label"] for n in nodes_where(snapshot, type="StaticText") if "AM" in (n["label"] or "")] == [
        "8:30 AM",
        "9:00 AM",
    ]
    homee = snapshot_of("android-homee-welcome-multiwindow-dumpwindowhierarchy.xml")
    assert "Own your day with Homee: manage your tasks and maintain a daily routine" in {
        n["label"] for n in homee["nodes"]
    }  # its trailing U+00A0 is gone


def test_obfuscated_resource_ids_are_not_identifiers() -> None:
    assert read("android-playstore-games-tab-appium-uiautomator2.xml").count("_resource_name_obfuscated") == 71
    snapshot = snapshot_of("android-playstore-games-tab-appium-uiautomator2.xml")
    assert not [n for n in snapshot["nodes"] if "obfuscated" in (n["identifier"] or "")]
    assert len(nodes_where(snapshot, type="ScrollView")) == 5
    labels = {n["label"] for n in snapshot["nodes"]}
    assert "App: Gardenscapes Casual Puzzle Star rating: 4.3" in labels  # &#10; became a space
    assert "ねこと共に過ごす最高のなつやすみ" in {n["value"] or n["label"] for n in snapshot["nodes"]}


def test_zero_size_nodes_emit_nothing() -> None:
    xml = read("android-gmail-welcome-tour-uiautomator-dump.xml")
    assert 'resource-id="android:id/navigationBarBackground"' in xml and "[0,0][0,0]" in xml
    identifiers = {n["identifier"] for n in snapshot_of("android-gmail-welcome-tour-uiautomator-dump.xml")["nodes"]}
    assert "android:id/navigationBarBackground" not in identifiers
    assert "android:id/statusBarBackground" in identifiers  # same kind of node, but it has an area


def test_multi_window_dump_keeps_each_window_with_its_package() -> None:
    snapshot = snapshot_of("android-homee-welcome-multiwindow-dumpwindowhierarchy.xml")
    windows = nodes_where(snapshot, type="Window")
    assert [w["identifier"] for w in windows] == ["com.android.systemui", "de.vorwerk.homee.homee"]
    assert all(w["parentIndex"] == 0 for w in windows)
    clock = nodes_where(snapshot, identifier="com.android.systemui:id/clock")[0]
    assert (clock["label"], clock["value"]) == ("6:44 PM", "6:44")  # description wins; the text is kept as value
    log_in = nodes_where(snapshot, label="Log In")[0]
    assert log_in["type"] == "Button"  # a clickable Flutter view outside any list
    assert log_in["index"] > windows[1]["index"]
    assert windows[1]["rect"] == {"x": 0, "y": 0, "width": 411.4, "height": 914.3}


def test_compose_screen_maps_views_to_roles() -> None:
    snapshot = snapshot_of("android-compose-triage-form-uiautomator-dump.xml")
    (field,) = nodes_where(snapshot, type="TextField")
    assert field["value"] is None and field["enabled"] is True and field["focused"] is False
    assert len(nodes_where(snapshot, type="ScrollView")) == 1
    assert {"Home", "Cardio", "Settings"} <= {n["label"] for n in nodes_where(snapshot, type="StaticText")}
    assert len(nodes_where(snapshot, type="Button")) == 10


def test_launcher_dumps() -> None:
    home = snapshot_of("android-launcher-home-api27-uiautomator-dump.xml")
    assert "56°F" in {n["label"] for n in home["nodes"]}
    drawer = snapshot_of("android-launcher-all-apps-drawer-uiautomator-dump.xml")
    (grid,) = nodes_where(drawer, type="ScrollView")  # android.widget.GridView
    (search,) = nodes_where(drawer, type="TextField")
    assert search["value"] == "Search web and more"
    apps = [n for n in nodes_where(drawer, type="StaticText") if n["parentIndex"] is not None]
    assert grid["identifier"] is not None and len(apps) == 23


def test_a_window_listed_twice_is_deduplicated() -> None:
    name = "android-clock-alarms-list-appium-uiautomator2.xml"
    xml = read(name)
    body = xml[xml.index("<hierarchy") :]
    inner = body[body.index(">") + 1 : body.rindex("</hierarchy>")]
    doubled = xml.replace("</hierarchy>", inner + "</hierarchy>")
    hierarchy = parse_hierarchy(doubled, DENSITY, "app")
    assert hierarchy.windows == 2
    snapshot = build_snapshot(hierarchy.root, Rect(0, 0, 1080 / DENSITY, 2088 / DENSITY), "uiautomator2")
    assert len(snapshot["nodes"]) == SNAPSHOT_COUNTS[name]


def test_more_than_1500_nodes_degrade_the_snapshot_with_node_cap() -> None:
    # 2000 copies of the real "Alarm" row, each labelled differently so dedup keeps them all.
    xml = read("android-clock-alarms-list-appium-uiautomator2.xml")
    row = re.search(r'<android\.widget\.TextView [^>]*text="Alarm"[^>]*/>', xml)
    assert row is not None
    rows = "".join(row.group(0).replace('text="Alarm"', f'text="Alarm {i}"') for i in range(2000))
    hierarchy = parse_hierarchy(f'<hierarchy rotation="0"><node bounds="[0,0][1080,2088]">{rows}</node></hierarchy>', 1)
    snapshot = build_snapshot(hierarchy.root, Rect(0, 0, 1080, 2088), "uiautomator2")
    assert len(snapshot["nodes"]) == NODE_CAP
    assert snapshot["quality"]["state"] == "degraded" and snapshot["quality"]["reasonCode"] == "node_cap"


# --- edge cases of the format ----------------------------------------------------------------------------------
def node(cls: str, bounds: str = "[0,0][100,100]", **attrs: str) -> str:
    extra = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<node class="{cls}" bounds="{bounds}" {extra}/>'


def parse_one(xml_node: str) -> RawNode:
    return parse_hierarchy(f'<hierarchy rotation="0">{xml_node}</hierarchy>', 1.0).root.children[0].children[0]


def test_appium_tags_name_the_class_when_the_class_attribute_is_missing() -> None:
    raw = parse_one('<android.widget.CheckBox bounds="[0,0][10,10]" checkable="true" checked="true" text="Agree"/>')
    assert (raw.type, raw.label, raw.value) == ("CheckBox", "Agree", "1")


def test_text_equal_to_the_hint_is_a_placeholder_not_a_value() -> None:
    raw = parse_one(node("android.widget.EditText", text="Email", hint="Email"))
    assert (raw.type, raw.label, raw.value) == ("TextField", "Email", None)


def test_views_reported_invisible_emit_nothing_but_keep_their_children() -> None:
    for flag in ('visible-to-user="false"', 'displayed="false"'):
        xml = f'<hierarchy><node class="android.widget.Button" text="Hidden" bounds="[0,0][9,9]" {flag}>'
        xml += node("android.widget.TextView", text="Child") + "</node></hierarchy>"
        snapshot = build_snapshot(parse_hierarchy(xml, 1.0, "app").root, Rect(0, 0, 100, 100), "uiautomator2")
        assert [n["label"] for n in snapshot["nodes"] if n["label"]] == ["Child"]


@pytest.mark.parametrize(
    ("cls", "attrs", "role"),
    [
        ("com.example.FancyEditText", {}, "TextField"),
        ("android.widget.EditText", {"password": "true"}, "SecureTextField"),
        ("androidx.appcompat.widget.SwitchCompat", {}, "Switch"),
        ("android.widget.ToggleButton", {}, "Switch"),
        ("android.widget.RadioButton", {}, "RadioButton"),
        ("android.widget.SeekBar", {}, "Slider"),
        ("android.webkit.WebView", {}, "WebView"),
        ("androidx.core.widget.NestedScrollView", {}, "ScrollView"),
        ("android.widget.ListView", {}, "ScrollView"),
        ("com.example.Carousel", {"scrollable": "true"}, "ScrollView"),
        ("android.view.View", {"checkable": "true"}, "CheckBox"),
        ("android.view.View", {"clickable": "true"}, "Button"),
        ("android.widget.FrameLayout", {}, "Other"),
        ("com.google.android.material.tabs.TabLayout$TabView", {}, "Tab"),
    ],
)
def test_role_mapping(cls: str, attrs: dict[str, str], role: str) -> None:
    assert role_of(cls, attrs, in_scroll=False, has_children=False) == role


def test_a_clickable_container_in_a_list_is_a_cell_and_elsewhere_a_button() -> None:
    attrs = {"clickable": "true"}
    assert role_of("android.widget.LinearLayout", attrs, in_scroll=True, has_children=True) == "Cell"
    assert role_of("android.widget.LinearLayout", attrs, in_scroll=False, has_children=True) == "Button"


def test_every_mapped_role_is_in_the_shared_vocabulary() -> None:
    assert set(CLASS_ROLES.values()) | {r for _, r in SUFFIX_ROLES} <= set(ROLES)


def test_unreadable_dumps_raise_hierarchy_error() -> None:
    with pytest.raises(HierarchyError):
        parse_hierarchy("<hierarchy><node></hierarchy>", 1.0)
    with pytest.raises(HierarchyError):
        parse_hierarchy("ERROR: could not get idle state.", 1.0)
    with pytest.raises(HierarchyError):
        parse_hierarchy("<hierarchy/>", 0.0)


def test_an_empty_dump_with_trailing_tool_output_parses_to_no_windows() -> None:
    dump = "<?xml version='1.0' ?><hierarchy rotation=\"1\" />UI hierchary dumped to: /dev/tty"
    hierarchy = parse_hierarchy(dump, 2.0)
    assert (hierarchy.windows, hierarchy.rotation) == (0, 1)


def test_malformed_bounds_give_a_geometry_less_node() -> None:
    assert parse_bounds("[1,2][3,4]") == (1, 2, 3, 4)
    assert parse_bounds("[1,2][3]") is None
    assert parse_one('<node class="android.widget.Button" text="B" bounds="oops"/>').rect == Rect(0, 0, 0, 0)


def test_focus_probe_finds_a_focused_text_field_only() -> None:
    signup = read("android-signup-form-textfields-appium-uiautomator2.xml")
    assert has_focused_text_input(signup) is False
    edit = re.sub(
        r'(<android\.widget\.EditText [^>]*?)focused="false"',
        r'\1focused="true"',
        signup,
        count=1,
    )
    assert has_focused_text_input(edit) is True
    button_focused = re.sub(
        r'(<android\.widget\.ImageButton [^>]*?)focused="false"', r'\1focused="true"', signup, count=1
    )
    assert has_focused_text_input(button_focused) is False


def test_wm_size_and_density_parsers() -> None:
    assert parse_wm_size("Physical size: 1080x2400\n") == (1080, 2400)
    assert parse_wm_size("Physical size: 1080x2400\nOverride size: 720x1600\n") == (720, 1600)
    assert parse_wm_size("error") is None
    assert parse_wm_density("Physical density: 420\n") == 2.625
    assert parse_wm_density("Physical density: 420\nOverride density: 480\n") == 3.0
    assert parse_wm_density("Physical density: 0") is None


def test_the_role_table_in_docs_android_md_lists_every_mapped_class() -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "android.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip(): line.split("|")[2]
        for line in doc.splitlines()
        if line.startswith("| ") and line.count("|") == 3
    }
    for cls, role in CLASS_ROLES.items():
        assert f"`{cls}`" in rows.get(role, ""), f"{cls} -> {role} is missing from docs/android.md"
    for suffix, _ in SUFFIX_ROLES:
        assert f"`{suffix}`" in doc
