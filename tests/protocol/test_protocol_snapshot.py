"""Snapshot builder rules: inclusion, visibility, dedup, caps, depth caps, totality."""

from __future__ import annotations

import math

from phonewire.protocol.snapshot import (
    EMIT_DEPTH_CAP,
    NODE_CAP,
    WALK_DEPTH_CAP,
    RawNode,
    Rect,
    build_snapshot,
    finite,
    key_coordinate,
)

VIEW = Rect(0, 0, 400, 800)


def build(*children: RawNode) -> list[dict[str, object]]:
    root = RawNode("Other", children=list(children))
    nodes: list[dict[str, object]] = build_snapshot(root, VIEW, "test")["nodes"]
    return nodes


def box(y: float = 10) -> Rect:
    return Rect(10, y, 100, 20)


def test_inclusion_interactive_scroll_and_labelled_nodes_only() -> None:
    nodes = build(
        RawNode("Button", rect=box(0)),
        RawNode("Other", rect=box(30), interactive=True),
        RawNode("List", rect=box(60)),
        RawNode("StaticText", label="hello", rect=box(90)),
        RawNode("Other", identifier="id", rect=box(120)),
        RawNode("Other", value="v", rect=box(150)),
        RawNode("Other", rect=box(180)),
        RawNode("StaticText", label="   ", rect=box(210)),
    )
    assert [(n["type"], n["label"], n["identifier"], n["value"]) for n in nodes] == [
        ("Button", None, None, None),
        ("Other", None, None, None),
        ("List", None, None, None),
        ("StaticText", "hello", None, None),
        ("Other", None, "id", None),
        ("Other", None, None, "v"),
    ]


def test_visibility_off_screen_nodes_are_dropped_geometry_less_nodes_are_kept() -> None:
    nodes = build(
        RawNode("Button", label="below", rect=Rect(10, 900, 50, 20)),
        RawNode("Button", label="right", rect=Rect(500, 10, 50, 20)),
        RawNode("Button", label="edge", rect=Rect(390, 790, 50, 50)),
        RawNode("Button", label="nowhere", rect=Rect(0, 0, 0, 0)),
    )
    assert [n["label"] for n in nodes] == ["edge", "nowhere"]


def test_dedup_by_type_texts_and_integer_geometry() -> None:
    nodes = build(
        RawNode("Button", label="Go", rect=Rect(10, 10, 50, 20)),
        RawNode("Button", label="Go", rect=Rect(10.2, 10.3, 50.1, 19.9)),
        RawNode("Button", label="Go", rect=Rect(10, 40, 50, 20)),
        RawNode("Link", label="Go", rect=Rect(10, 10, 50, 20)),
    )
    assert [(n["type"], n["rect"]) for n in nodes] == [
        ("Button", {"x": 10, "y": 10, "width": 50, "height": 20}),
        ("Button", {"x": 10, "y": 40, "width": 50, "height": 20}),
        ("Link", {"x": 10, "y": 10, "width": 50, "height": 20}),
    ]


def test_node_cap_degrades_the_snapshot() -> None:
    children = [RawNode("Button", label=f"b{i}", rect=Rect(0, i % 700, 10, 1)) for i in range(NODE_CAP + 5)]
    snap = build_snapshot(RawNode("Other", children=children), VIEW, "test")
    assert len(snap["nodes"]) == NODE_CAP
    assert snap["quality"]["state"] == "degraded"
    assert snap["quality"]["reasonCode"] == "node_cap"
    assert snap["quality"]["backend"] == "test"


def test_under_the_cap_quality_is_healthy_without_reason() -> None:
    snap = build_snapshot(RawNode("Button", label="one", rect=box()), VIEW, "web")
    assert snap["quality"] == {"state": "healthy", "backend": "web"}


def chain(depth: int) -> RawNode:
    root = RawNode("Other")
    node = root
    for level in range(1, depth + 1):
        child = RawNode("Button", label=f"d{level}", rect=box())
        node.children.append(child)
        node = child
    return root


def test_emission_stops_at_depth_60_without_degrading() -> None:
    snap = build_snapshot(chain(80), VIEW, "test")
    depths = [n["depth"] for n in snap["nodes"]]
    assert max(depths) == EMIT_DEPTH_CAP
    assert len(depths) == EMIT_DEPTH_CAP
    assert snap["quality"]["state"] == "healthy"


def test_walk_stops_at_depth_100() -> None:
    root = chain(WALK_DEPTH_CAP + 20)
    # Re-root a labelled node near the bottom as shallow content: it is never reached, so never emitted.
    snap = build_snapshot(root, VIEW, "test")
    assert all(n["depth"] <= EMIT_DEPTH_CAP for n in snap["nodes"])
    deep = RawNode("Other")
    node = deep
    for _ in range(WALK_DEPTH_CAP + 5):
        nxt = RawNode("Other")
        node.children.append(nxt)
        node = nxt
    node.children.append(RawNode("Button", label="too deep", rect=box()))
    assert build_snapshot(deep, VIEW, "test")["nodes"] == []


def test_parent_index_links_emitted_ancestors() -> None:
    root = RawNode(
        "List", rect=Rect(0, 0, 400, 800), children=[RawNode("Other", children=[RawNode("Button", rect=box())])]
    )
    nodes = build_snapshot(root, VIEW, "test")["nodes"]
    assert [(n["index"], n["type"], n["parentIndex"], n["depth"]) for n in nodes] == [
        (0, "List", None, 0),
        (1, "Button", 0, 2),
    ]


def test_non_finite_geometry_encodes_as_zero_and_never_raises() -> None:
    rect = Rect.of(math.nan, math.inf, -math.inf, None)
    assert rect == Rect(0, 0, 0, 0)
    nodes = build(RawNode("Button", label="weird", rect=Rect(math.nan, math.inf, 10, 10)))
    assert nodes[0]["rect"] == {"x": 0, "y": 0, "width": 10, "height": 10}
    assert finite(math.nan) == 0.0 and finite(None) == 0.0 and finite(2.5) == 2.5
    assert key_coordinate(1e300) == 1_000_000_000
    assert key_coordinate(-1e300) == -1_000_000_000
    assert key_coordinate(math.inf) == 0


def test_texts_are_whitespace_normalised() -> None:
    nodes = build(RawNode("StaticText", label="  two\n  words ", rect=box()))
    assert nodes[0]["label"] == "two words"


def test_values_are_kept_as_the_field_holds_them() -> None:
    """Issue 23: a field holding "…vitae purus " read without its trailing space, and an agent copying it failed;
    the wire carries a value as the field holds it (the text view may shorten it), only an empty one is null."""
    nodes = build(
        RawNode("TextView", label="Notes", value="\n Line  one \r\nLine two\n\n", rect=box()),
        RawNode("TextField", label="Title", value="vitae purus ", rect=box(40)),
        RawNode("TextField", label="Empty", value="", rect=box(80)),
    )
    assert [n["value"] for n in nodes] == ["\n Line  one \r\nLine two\n\n", "vitae purus ", None]


def test_a_node_says_which_rules_shaped_it() -> None:
    nodes = build(
        RawNode("CheckBox", label="Remember me", rect=box(), rules=("drawn-toggle",)),
        RawNode("Button", label="Save", rect=box(40)),
    )
    assert nodes[0]["rules"] == ["drawn-toggle"] and "rules" not in nodes[1]
