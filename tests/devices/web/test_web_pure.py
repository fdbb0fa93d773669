"""Pure parts of the web device: profiles, role mapping, the walk → snapshot conversion (no browser)."""

from __future__ import annotations

import math

import pytest

from phonewire.agent.geometry import centre
from phonewire.agent.refs import Index
from phonewire.devices.web import scrolling
from phonewire.devices.web.cdp import CdpClosed, CdpProtocolError, CdpSession
from phonewire.devices.web.device import WebDevice
from phonewire.devices.web.profiles import resolve_profile
from phonewire.devices.web.roles import vocabulary_role
from phonewire.devices.web.target import Page as _Page
from phonewire.devices.web.walk import snapshot_from_walk
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import ROLES


def test_default_profile_is_a_phone() -> None:
    p = resolve_profile(None)
    assert p.width < p.height < 1000 and p.dpr >= 2


def test_landscape_profile_swaps_the_screen() -> None:
    portrait, landscape = resolve_profile("pixel-7"), resolve_profile("pixel-7-landscape")
    assert (landscape.width, landscape.height) == (portrait.height, portrait.width)
    assert landscape.landscape and landscape.dpr == portrait.dpr


@pytest.mark.parametrize("name", ["iphone-15", "pixel-7", "ipad", "ipad-landscape", "IPHONE-15"])
def test_known_profiles_resolve(name: str) -> None:
    assert resolve_profile(name).width > 0


def test_unknown_profile_is_invalid_request_with_a_hint() -> None:
    with pytest.raises(ProtocolError) as info:
        resolve_profile("nokia-3310")
    assert info.value.code == e.INVALID_REQUEST and "pixel-7" in (info.value.hint or "")


@pytest.mark.parametrize(
    ("ax", "kw", "role"),
    [
        ("button", {}, "Button"),
        ("link", {}, "Link"),
        ("textbox", {}, "TextField"),
        ("textbox", {"secure": True}, "SecureTextField"),
        ("textbox", {"multiline": True}, "TextView"),
        ("searchbox", {}, "SearchField"),
        ("switch", {}, "Switch"),
        ("slider", {}, "Slider"),
        ("listitem", {}, "Cell"),
        ("generic", {"scrollable": True}, "ScrollView"),
        ("generic", {}, "Other"),
        ("no-such-role", {}, "Other"),
    ],
)
def test_roles_map_to_the_shared_vocabulary(ax: str, kw: dict[str, bool], role: str) -> None:
    assert vocabulary_role(ax, **kw) == role
    assert role in ROLES


def _walk(nodes: list[list[object]]) -> dict[str, object]:
    return {"w": 390, "h": 844, "title": "T", "nodes": nodes}


def test_walk_nesting_becomes_parent_index_and_depth() -> None:
    snap = snapshot_from_walk(
        _walk(
            [[-1, "list", "", "rows", "", 0, 0, 390, 800, 64], [0, "button", "Like 1", "like-1", "", 10, 10, 80, 30, 0]]
        ),
        "web",
    )
    nodes = {n["identifier"]: n for n in snap["nodes"]}
    assert nodes["rows"]["type"] == "ScrollView" or nodes["rows"]["type"] == "List"
    assert nodes["like-1"]["parentIndex"] == nodes["rows"]["index"]
    assert nodes["like-1"]["depth"] == nodes["rows"]["depth"] + 1


def test_a_walk_cut_by_its_budget_degrades_the_view_and_says_how_much_it_read() -> None:
    cut = snapshot_from_walk({**_walk([[-1, "button", "Go", "go", "", 0, 0, 50, 50, 8]]), "cut": 50000}, "web")
    assert cut["quality"]["state"] == "degraded" and cut["quality"]["reasonCode"] == "walk_cut"
    assert "cut after 50000 elements in document order" in cut["quality"]["reason"]
    for whole in (0, False, True, "50000", None):  # no cut, or a page's answer of another shape: not cut
        assert snapshot_from_walk({**_walk([]), "cut": whole}, "web")["quality"].get("reasonCode") != "walk_cut"


def test_walk_flags_become_states_of_interactive_nodes() -> None:
    snap = snapshot_from_walk(_walk([[-1, "button", "Go", "go", "", 0, 0, 50, 50, 1 | 2]]), "web")
    (go,) = [n for n in snap["nodes"] if n["identifier"] == "go"]
    assert (go["enabled"], go["focused"], go["selected"]) == (False, True, False)


def test_non_finite_or_malformed_walk_entries_never_raise() -> None:
    snap = snapshot_from_walk(
        _walk(
            [
                [-1, "button", "Inf", "", "", math.inf, math.nan, None, "x", 0],
                ["bad"],
                [99, "link", "L", "", "", 1, 1, 1, 1, 0],
            ]
        ),
        "web",
    )
    inf = next(n for n in snap["nodes"] if n["label"] == "Inf")
    assert inf["rect"] == {"x": 0, "y": 0, "width": 0, "height": 0}
    assert any(n["label"] == "L" for n in snap["nodes"])


# -- the error boundary: every lower-layer failure maps to one protocol code ----------------------------------------
@pytest.mark.parametrize(
    ("raised", "code"),
    [
        (CdpClosed("socket closed"), e.DEVICE_UNAVAILABLE),
        (CdpProtocolError("Runtime.evaluate", -32000, "Session with given id not found"), e.APP_NOT_AVAILABLE),
        (CdpProtocolError("Input.dispatchTouchEvent", -32602, "Invalid parameters"), e.COMMAND_FAILED),
        (OSError("broken pipe"), e.COMMAND_FAILED),
        (TimeoutError(), e.COMMAND_FAILED),
        (ProtocolError(e.TEXT_INPUT_NOT_FOCUSED, "kept"), e.TEXT_INPUT_NOT_FOCUSED),
    ],
)
def test_lower_layer_failures_map_to_one_code_each(raised: Exception, code: str) -> None:
    device = WebDevice(None)  # never opened: no browser, healthy by construction
    device._apps["https://app.test/"] = _Page("https://app.test/", "T1", CdpSession(None, "S1"), "https://app.test/")  # type: ignore[arg-type]
    with pytest.raises(ProtocolError) as info, device._mapped("https://app.test/"):
        raise raised
    assert info.value.code == code
    if code != e.TEXT_INPUT_NOT_FOCUSED:
        assert info.value.__cause__ is raised


def test_a_vanished_target_is_forgotten_so_the_app_reads_not_running() -> None:
    device = WebDevice(None)
    device._apps["https://app.test/"] = _Page("https://app.test/", "T1", CdpSession(None, "S1"), "https://app.test/")  # type: ignore[arg-type]
    with pytest.raises(ProtocolError), device._mapped("https://app.test/"):
        raise CdpProtocolError("Page.navigate", -32000, "Target closed")
    assert "https://app.test/" not in device._apps


def test_a_covered_row_from_the_walk_becomes_covered_by_with_the_covers_role_and_name() -> None:
    snap = snapshot_from_walk(
        _walk([
            [-1, "button", "Save", "save", "", 10, 10, 80, 40, 0, ["dialog", "Menu", "drawer", ""]],
            [-1, "link", "Home", "", "", 10, 60, 80, 40, 0, ["generic", "", "", "backdrop dim"]],
            [-1, "button", "Close", "", "", 10, 110, 80, 40, 0],
        ]),
        "web",
    )  # fmt: skip
    covered = {n["label"]: n.get("coveredBy") for n in snap["nodes"][1:]}
    assert covered == {"Save": 'Dialog "Menu" id=drawer', "Home": 'Other class="backdrop dim"', "Close": None}
    assert snap["quality"]["state"] == "healthy"


def test_a_partly_covered_row_from_the_walk_carries_its_tap_point_and_a_gesture_uses_it() -> None:
    snap = snapshot_from_walk(
        _walk([
            [-1, "button", "Row", "row", "", 0, 20, 390, 44, 0, 7, {"tap": [325.04, 42]}],
            [-1, "button", "Bad", "", "", 0, 80, 390, 44, 0, 8, {"tap": ["x", 1]}],
        ]),
        "web",
    )  # fmt: skip
    row, bad = snap["nodes"][1:]
    assert row["tapPoint"] == {"x": 325.0, "y": 42} and "coveredBy" not in row
    assert "tapPoint" not in bad
    index = Index(snap["nodes"])
    assert centre(row, index) == (325.0, 42.0)
    assert centre(bad, index) == (195.0, 102.0)


def test_the_read_only_and_name_from_row_flags_become_optional_node_fields() -> None:
    snap = snapshot_from_walk(
        _walk([
            [-1, "textbox", "Date", "date", "", 10, 10, 80, 40, 256],
            [-1, "checkbox", "B second", "", "0", 10, 60, 40, 40, 512],
            [-1, "textbox", "Name", "name", "", 10, 110, 80, 40, 0],
        ]),
        "web",
    )  # fmt: skip
    fields = {n["label"]: (n.get("readOnly"), n.get("nameFrom")) for n in snap["nodes"][1:]}
    assert fields == {"Date": (True, None), "B second": (None, "row"), "Name": (None, None)}
    assert all("readOnly" not in n and "nameFrom" not in n for n in snap["nodes"] if n.get("label") == "Name")


def test_a_walk_of_a_document_still_loading_or_a_navigation_under_way_says_so_in_quality() -> None:
    loading = snapshot_from_walk({**_walk([]), "ready": "loading"}, "web")
    assert (loading["quality"]["state"], loading["quality"]["reasonCode"]) == ("degraded", "loading")
    assert "still loading" in loading["quality"]["reason"] and "wait --idle" in loading["quality"]["reason"]
    moving = snapshot_from_walk({**_walk([]), "ready": "complete"}, "web", loading="a navigation was under way")
    assert moving["quality"]["reasonCode"] == "loading" and "navigation" in moving["quality"]["reason"]
    assert snapshot_from_walk({**_walk([]), "ready": "interactive"}, "web")["quality"]["state"] == "healthy"


def test_finds_selector_terms_become_what_the_page_checks() -> None:
    """scrolling.reveal_terms: alternatives of [key, value]; a role as the Chromium roles that show as it; what the
    page cannot check (booleans, roles any element may have) left out — the agent checks it on the snapshot."""
    terms = scrolling.reveal_terms(["role=Button", "label=Delete  person 150", "||", "role=Other", "||", "id=a  b"])
    assert terms is not None and len(terms) == 2  # the alternative of role=Other alone says nothing the page checks
    (role, roles), label = terms[0]
    assert role == "role" and {"button", "clickable", "togglebutton"} <= set(roles) and "link" not in roles
    assert label == ["label", "delete person 150"]  # folded as the page folds its text (protocol/folding.py)
    assert scrolling.reveal_terms(['text=Deselect "Sums.ipynb":']) == [[["text", "deselect sums.ipynb"]]]
    assert terms[1] == [["id", "a  b"]]  # an identifier is exact
    assert "textbox" in scrolling.ax_roles("textfield") and scrolling.ax_roles("Cell")
    assert scrolling.reveal_terms(None) is None and scrolling.reveal_terms(["role=Group"]) is None
