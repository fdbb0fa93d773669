"""The in-page walk behind the web device's snapshot: the script (its layers, :data:`WALKER_LAYERS`, joined into one
function) and the expressions that run it, the focus probe, and :func:`snapshot_from_walk`, which turns the walk's
compact rows into the protocol's nodes.  Pure apart from reading the scripts once and drawing the name the walker is
stored under in pages (once per process)."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any, Final

from phonewire.devices.web import js
from phonewire.devices.web.roles import AX_TO_ROLE, vocabulary_role
from phonewire.protocol.snapshot import (
    INTERACTIVE_ROLES,
    NODE_CAP,
    SCROLL_ROLES,
    RawNode,
    Rect,
    Snapshot,
    build_snapshot,
    finite,
)

_F_DISABLED, _F_FOCUSED, _F_SELECTED, _F_INTERACTIVE = 1, 2, 4, 8
_F_SECURE, _F_MULTILINE, _F_SCROLLABLE, _F_EDITABLE = 16, 32, 64, 128
_F_READ_ONLY, _F_NAME_FROM_ROW, _F_EXPANDED, _F_COLLAPSED = 256, 512, 1024, 2048

#: The walk returns at most this many candidates; more than NODE_CAP visible ones still degrades the snapshot.
WALK_MAX_NODES = 2 * NODE_CAP
#: The most elements one walk reads, and the longest it runs (its own clock, not scaled): a document bigger than
#: that (10⁶ elements) is read in document order up to there, and the view says it was cut (reasonCode
#: ``walk_cut``), well inside the page-script budget (pages.PAGE_SCRIPT_BUDGET_S, 2 s) that would otherwise stop
#: the walk with nothing to show.  The count is the cut every machine makes alike; the clock, a slow machine's.
WALK_MAX_VISITS: Final = 50_000
WALK_BUDGET_S: Final = 1.5
#: The walker's layers, in the order they are joined into its one function: the spec (roles, names, states), the
#: named rules beyond it, perception (geometry, culling, hit tests), and the walk that joins them (last: it returns).
WALKER_LAYERS: Final = ("walker_spec.js", "walker_rules.js", "walker_perception.js", "walker.js")


_WALKER: Final = js.bundle(WALKER_LAYERS, params=("maxNodes", "cfg", "drawnSelect"))
#: The one rule for a select a library draws a box for (drawn_select.js): the walk and controls.js both take it.
DRAWN_SELECT_JS: Final = js.load("drawn_select.js").strip()
#: What the walk needs from the role table (roles.py) to hit-test the nodes a tap may aim at and to clip their tap
#: point the way agent/geometry.py's ``visible_box`` does: ax roles that are interactive, ax roles of lists and tables,
#: and ax roles that a scrollable element turns into a ScrollView.
_WALK_CONFIG: Final = {
    "tapRoles": sorted(ax for ax, role in AX_TO_ROLE.items() if role in INTERACTIVE_ROLES),
    "clipRoles": sorted(ax for ax, role in AX_TO_ROLE.items() if role in SCROLL_ROLES),
    "plainRoles": sorted({"generic", *(ax for ax, role in AX_TO_ROLE.items() if role in ("Other", "Group"))}),
    "maxVisits": WALK_MAX_VISITS,
    "budgetMs": WALK_BUDGET_S * 1000,
}
_CONFIG_JSON: Final = json.dumps(_WALK_CONFIG)

# The walker (~50 KB with drawn_select.js) is sent and compiled once per document, not once per snapshot: the first
# call defines it as a property of the page's window, under a registered symbol whose name is drawn per process,
# non-writable, non-configurable and non-enumerable (the page cannot replace or delete it, and neither Object.keys
# nor a for-in over its globals meets it); later calls look it up and call it.  Not hidden from the page, though:
# Object.getOwnPropertySymbols(window) lists the symbol and Symbol.keyFor names it, so a page that keeps the name
# can define a function of its own under it in a later document of the same runner, before the device's first walk
# there, and that function answers the document's later walks and tap probes (a page can mislead the walk anyway,
# by overriding the DOM API the walker calls: docs/web.md).  A new document has no walker: the call answers
# WALKER_MISSING, and the caller sends the defining call (:func:`walker_call` with ``define``).
_WALKER_KEY: Final = json.dumps(f"phonewire.walker.{secrets.token_hex(8)}")
WALKER_MISSING: Final = "phonewire: no walker in this document"
_DEFINE_WALKER: Final = (
    f"({js.load('define_walker.js').strip()})({_WALKER}, {DRAWN_SELECT_JS}, {_CONFIG_JSON}, {WALK_MAX_NODES}, "
    f"{_WALKER_KEY})"
)
_FIND_WALKER: Final = f"(window[Symbol.for({_WALKER_KEY})] || (() => {json.dumps(WALKER_MISSING)}))"


#: Defines the walker in a document that has none, and runs nothing: a snapshot that waits for the screen to settle
#: sends it while the quiet window runs, so the first walk of a new document finds the walker compiled.
DEFINE_WALKER: Final = f"({_DEFINE_WALKER}, 0)"


def walker_call(probe: Probe | None = None, *, define: bool = False, frame: object = None) -> str:
    """The expression that runs the walk (a promise: it runs after the tasks already queued — a hashchange, a
    click's follow-up — so a snapshot taken right after a tap sees that tap's effects), or with ``probe`` (a screen
    point, and the serial of the element a gesture there is aimed at) the walker's aim there (:func:`aim_of`'s
    input; synchronous).  It calls the walker stored in the page, or answers WALKER_MISSING where there is none;
    ``define``: defines it first.  ``frame``: the walk or aim is in a frame of another origin, drawn where this says
    (frames.py's ``at`` / ``scale`` / ``view``)."""
    run = _DEFINE_WALKER if define else _FIND_WALKER
    where = f", {json.dumps(frame)}" if frame is not None else ""
    if probe is not None:
        return f"{run}({json.dumps(list(probe))}{where})"
    return f"new Promise(r => setTimeout(r, 0)).then(() => {run}(null{where}))"


#: A probe: a screen point, or a screen point and the serial (``doc:n``) of the element a gesture there aims at,
#: and the change mark of the snapshot it was read from ("" for none).
Probe = tuple[float, float] | tuple[float, float, str] | tuple[float, float, str, str]


@dataclass(frozen=True, slots=True)
class Aim:
    """Perception's ``aim()`` at a screen point (walker_perception.js): where a gesture there lands — ``client``, the
    point in the page's client px, ``input``, the point DevTools input events are sent at — what it reaches
    (``hit``, :func:`describe`'s words), and for a gesture aimed at an element the ``verdict``: ``ok``, ``gone``,
    ``covered`` or ``moved`` (``now``: the element's rect in screen points), or ``changed`` (the screen changed
    after the snapshot whose mark came with it)."""

    hit: str | None
    client: tuple[float, float]
    input: tuple[float, float]
    scale: float
    verdict: str = "ok"
    now: tuple[float, float, float, float] | None = None
    #: Aimed at a frame of another origin: where its content is drawn now (``at``, ``scale``, ``view``: frames.py).
    frame: dict[str, Any] | None = None


def aim_of(value: object, x: float, y: float) -> Aim:
    """The walker's aim answer as an :class:`Aim`; an answer of another shape (a page that broke the walker) aims
    at the point as it is, unchecked."""
    if not isinstance(value, dict):
        return Aim(None, (x, y), (x, y), 1.0)
    client, sent, now = value.get("client"), value.get("input"), value.get("now")

    def pair(v: object) -> tuple[float, float]:
        return (finite(v[0]), finite(v[1])) if isinstance(v, list) and len(v) == 2 else (x, y)

    rect = tuple(finite(v) for v in now) if isinstance(now, list) and len(now) == 4 else None
    return Aim(
        describe(value.get("hit")),
        pair(client),
        pair(sent),
        finite(value.get("scale")) or 1.0,
        str(value.get("verdict") or "ok"),
        rect,  # type: ignore[arg-type]
        value.get("frame") if isinstance(value.get("frame"), dict) else None,
    )


#: Run in every page before its own scripts (Page.addScriptToEvaluateOnNewDocument): remembers, in a WeakSet the
#: walk reads, the elements that get click-like listeners — what makes a <span> or <div> a button to a person.
CLICKERS_JS: Final = js.load("clickers.js").strip()


#: Also before the page's scripts: a counter of what changes the screen (elements, attributes, text, values,
#: focus, scrolling) and a random id of the document (a new document is a new screen); CHANGE_MARK reads them.
CHANGES_JS: Final = js.load("changes.js").strip()
CHANGE_MARK: Final = js.load("change_mark.js").strip()
#: What every page runs before its own scripts.
PAGE_HOOKS_JS: Final = CLICKERS_JS + ";\n" + CHANGES_JS


def describe(raw: object) -> str | None:
    """``Role "name" id=…`` (or ``Role class="…"``) of an element the walker described as ``[axRole, name, id,
    classes]``: what covers a node, or what a tap hit."""
    if not isinstance(raw, list) or len(raw) != 4:
        return None
    ax_role, name, ident, classes = (str(v or "") for v in raw)
    parts = [vocabulary_role(ax_role)]
    if name:
        parts.append(json.dumps(name, ensure_ascii=False))
    if ident and ident != name:
        parts.append(f"id={ident}")
    if not name and not ident and classes:
        parts.append(f"class={json.dumps(classes, ensure_ascii=False)}")
    return " ".join(parts)


# Focus probe: the kind of the focused editable (descending into same-origin frames and shadow roots), "readonly" /
# "disabled" for a focused text field that takes no typing, or null.
FOCUS_PROBE: Final = f"({js.load('focus_probe.js').strip()})({js.ACTIVE_ELEMENT}())"


def _point(value: Any) -> tuple[float, float] | None:
    """The walk's ``[x, y]`` tap point (a node whose centre is covered but another part of it is not), else None."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        return finite(value[0]), finite(value[1])
    return None


def snapshot_from_walk(walk: dict[str, Any], backend: str, *, loading: str | None = None) -> Snapshot:
    """Turn the in-page walk's compact array into RawNodes and apply the shared snapshot rules.  Pure.

    ``loading``: why the screen is known not to be settled (a navigation still under way); a document that is
    still parsing (``readyState`` loading) counts too.  Either makes ``quality`` say so (reasonCode ``loading``)."""
    root = tree_from_walk(walk)
    snapshot = build_snapshot(root, root.rect, backend)
    page = page_shown(walk.get("shown"))
    if page is not None:
        snapshot["quality"]["page"] = page
    if isinstance(walk.get("mark"), str):
        snapshot["mark"] = walk["mark"]
    if loading is None and walk.get("ready") == "loading":
        loading = "the document was still loading"
    if loading is not None:
        degrade(snapshot, "loading", f"{loading}: the screen may change; take another snapshot, or `wait --idle` first")
    read = walk.get("cut")
    if isinstance(read, int) and not isinstance(read, bool) and read > 0:
        degrade(snapshot, "walk_cut", cut_reason(read))
    return snapshot


def cut_reason(read: int) -> str:
    """What a view cut by the walk's budget says (:data:`WALK_MAX_VISITS`, :data:`WALK_BUDGET_S`)."""
    return (
        f"the page is too big to read whole: the view was cut after {read} elements in document order (the walk's "
        "budget); what comes after them is missing from the view, even where it is on screen (a screenshot shows it)"
    )


def degrade(snapshot: Snapshot, code: str, reason: str) -> None:
    """Say ``reason`` in ``snapshot``'s quality: its reasonCode ``code`` where it was healthy, else added."""
    quality: Any = snapshot["quality"]
    if quality.get("state") == "healthy":
        quality.update(state="degraded", reasonCode=code, reason=reason)
    else:
        quality["reason"] = f"{quality.get('reason')}; {reason}"


def page_shown(shown: object) -> dict[str, float] | None:
    """How the page is shown on the screen (the walk's ``shown``), for a page that does not simply fit it: laid out
    wider than the screen shows, or at a scale other than 1 (a page laid out 980 px wide, a zoom).  ``width`` /
    ``height``: the page's size in its own px; ``left`` / ``top`` / ``visibleWidth`` / ``visibleHeight``: the part
    the screen shows; ``scale``: screen points per page px.  None for a page that fits."""
    if not isinstance(shown, dict):
        return None
    page = {k: round(finite(shown.get(k)), 3 if k == "scale" else 1) for k in
            ("scale", "width", "height", "left", "top", "visibleWidth", "visibleHeight")}  # fmt: skip
    if abs(page["scale"] - 1) < 0.01 and page["width"] <= page["visibleWidth"] + 1:
        return None
    return page


def _serial(number: object, doc: object) -> str | None:
    """A row's serial: ``doc:n`` of the walk's document, or whole as a frame's row carries it (frames.py)."""
    if isinstance(number, str):
        return number
    return f"{doc}:{number}" if number and isinstance(doc, str) and doc else None


def tree_from_walk(walk: dict[str, Any]) -> RawNode:
    """The walk's compact rows as a tree of RawNodes under an ``Application`` root whose rect is the viewport."""
    width, height = walk.get("w"), walk.get("h")
    viewport = Rect.of(0, 0, width, height)
    root = RawNode("Application", label=str(walk.get("title") or "") or None, rect=viewport)
    built: list[RawNode] = []
    raw_nodes = walk.get("nodes")
    doc = walk.get("doc")
    for item in raw_nodes if isinstance(raw_nodes, list) else []:
        try:
            parent, ax_role, name, ident, value, x, y, w, h, flags, *rest = item
            flags = int(flags)
            parent = int(parent)
        except (TypeError, ValueError):
            built.append(RawNode("Other"))
            continue
        # (a row of a frame of another origin carries its serial whole: frames.py joined it from that document)
        number = next((v for v in rest if isinstance(v, (int, str)) and not isinstance(v, bool)), 0)
        cover = [v for v in rest if isinstance(v, list)]
        tap = next((v["tap"] for v in rest if isinstance(v, dict) and "tap" in v), None)
        shaped = next((v["rules"] for v in rest if isinstance(v, dict) and "rules" in v), None)
        role = vocabulary_role(
            str(ax_role),
            secure=bool(flags & _F_SECURE),
            multiline=bool(flags & _F_MULTILINE),
            scrollable=bool(flags & _F_SCROLLABLE),
        )
        interactive = role in INTERACTIVE_ROLES or bool(flags & _F_INTERACTIVE)
        node = RawNode(
            role,
            label=str(name) if name else None,
            identifier=str(ident) if ident else None,
            value=str(value) if value else None,
            rect=Rect.of(x, y, w, h),
            enabled=(not flags & _F_DISABLED) if interactive else None,
            focused=bool(flags & _F_FOCUSED) if interactive else (True if flags & _F_FOCUSED else None),
            selected=bool(flags & _F_SELECTED) if interactive else (True if flags & _F_SELECTED else None),
            interactive=interactive,
            covered_by=describe(cover[0]) if cover else None,
            tap_point=_point(tap),
            read_only=bool(flags & _F_READ_ONLY),
            name_from="row" if flags & _F_NAME_FROM_ROW and name else None,
            expanded=True if flags & _F_EXPANDED else False if flags & _F_COLLAPSED else None,
            serial=_serial(number, doc),
            rules=tuple(str(r) for r in shaped) if isinstance(shaped, list) else (),
        )
        built.append(node)
        (built[parent] if 0 <= parent < len(built) - 1 else root).children.append(node)
    return root
