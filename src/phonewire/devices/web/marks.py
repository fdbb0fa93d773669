"""The page's text selection in the view: which node of a snapshot holds it (``selectedText``).  Pure."""

from __future__ import annotations

from typing import Any, Final

from phonewire.protocol.snapshot import TEXT_INPUT_ROLES, Node, Snapshot, rect_of

#: A selection's text in the view is cut at this many characters.
MAX_SELECTION_CHARS: Final = 200


def mark_selection(snapshot: Snapshot, *selections: Any) -> Snapshot:
    """``snapshot`` with ``selectedText`` on the node that holds each of ``selections`` (selection.js's answers: the
    page's, or each frame's of another origin, whose documents hold their own)."""
    for selection in selections:
        snapshot = _mark(snapshot, selection)
    return snapshot


def _mark(snapshot: Snapshot, selection: Any) -> Snapshot:
    """``snapshot`` with ``selectedText`` on the node that holds ``selection``: the text field whose box is the
    field's, else the smallest node around the first selected box's centre (a StaticText first)."""
    if not isinstance(selection, dict) or not isinstance(selection.get("rect"), dict):
        return snapshot
    text = str(selection.get("text") or "")[:MAX_SELECTION_CHARS]
    r = selection["rect"]
    try:
        x, y = float(r["x"]) + float(r["width"]) / 2, float(r["y"]) + float(r["height"]) / 2
    except (KeyError, TypeError, ValueError):
        return snapshot
    nodes = snapshot["nodes"]
    best: Node | None = None
    if selection.get("field"):
        best = next((n for n in nodes if n.get("type") in TEXT_INPUT_ROLES and _same(n, r)), None)
    if best is None:
        around = [n for n in nodes if _contains(n, x, y) and n.get("type") not in ("Application", "Window")]
        around.sort(key=lambda n: (n.get("type") != "StaticText", _area(n)))
        best = around[0] if around else None
    if best is not None:
        best["selectedText"] = text
    return snapshot


def _same(node: Node, r: dict[str, Any]) -> bool:
    box = rect_of(node)
    return all(abs(float(box[k]) - float(r[k])) <= 1.0 for k in ("x", "y", "width", "height"))


def _contains(node: Node, x: float, y: float) -> bool:
    box = rect_of(node)
    return box["width"] > 0 and box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"]


def _area(node: Node) -> float:
    box = rect_of(node)
    return float(box["width"]) * float(box["height"])
