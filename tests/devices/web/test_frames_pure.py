"""frames.py's pure parts: the state kept from the browser's events, and the grafting of a frame's rows under its
frame's row (the e2e tests, tests/e2e/test_aim_frames.py, drive it all on real Chromium)."""

from __future__ import annotations

from typing import Any

from phonewire.devices.web import frames
from phonewire.devices.web.cdp import CdpConnection, CdpSession


def _session(sid: str) -> CdpSession:
    connection = CdpConnection.__new__(CdpConnection)  # never sends: the state only keeps sessions
    return CdpSession(connection, sid)


def test_contexts_follow_the_default_worlds_of_frames_and_go_with_them() -> None:
    state, page = frames.Frames(), _session("P")
    created: dict[str, Any] = {"context": {"id": 7, "auxData": {"frameId": "F1", "isDefault": True}}}
    state.on_event("Runtime.executionContextCreated", created, page)
    isolated = {"context": {"id": 8, "auxData": {"frameId": "F1", "isDefault": False}}}
    state.on_event("Runtime.executionContextCreated", isolated, page)  # an isolated world is not the frame's own
    assert state.contexts == {"F1": frames.Where(page, 7)}
    state.on_event("Runtime.executionContextDestroyed", {"executionContextId": 7}, page)
    assert state.contexts == {}


def test_a_frame_in_a_renderer_of_its_own_is_its_session_until_it_detaches() -> None:
    state, page = frames.Frames(), _session("P")
    attached = {"sessionId": "C", "targetInfo": {"type": "iframe", "targetId": "F2"}}
    child = state.on_event("Target.attachedToTarget", attached, page)
    assert child is not None and child.session_id == "C"
    assert state.contexts["F2"] == frames.Where(child)
    state.on_event("Target.detachedFromTarget", {"sessionId": "C"}, page)
    assert "F2" not in state.contexts and state.navigations["F2"] == 1


def test_navigations_are_counted_per_frame() -> None:
    state, page = frames.Frames(), _session("P")
    state.on_event("Page.frameRequestedNavigation", {"frameId": "F1"}, page)
    state.on_event("Page.frameNavigated", {"frame": {"id": "F1"}}, page)
    assert state.navigations == {"F1": 2}


def test_a_frames_rows_hang_under_its_row_with_whole_serials() -> None:
    nodes: list[Any] = [[-1, "Iframe", "", "f", "", 0, 0, 300, 200, 0, 4]]
    sub = {"doc": "D", "nodes": [[-1, "button", "a", "", "", 10, 10, 50, 20, 8, 1],
                                 [0, "StaticText", "a", "", "", 10, 10, 50, 20, 0, 0]]}  # fmt: skip
    frames._graft(nodes, sub, 0)
    assert [n[0] for n in nodes] == [-1, 0, 1]
    assert [n[10] for n in nodes] == [4, "D:1", 0]


def test_the_chain_of_an_element_is_that_of_its_document() -> None:
    state = frames.Frames()
    state.docs["D"] = (("top:4", "F1"),)
    assert state.chain("D:1") == (("top:4", "F1"),)
    assert state.chain("top:2") == () and state.chain(None) == ()
