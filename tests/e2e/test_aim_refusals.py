"""Bad aims (issue 22): a gesture at a point off the screen, aimed at an element that moved, went or was covered
since the view, a ref into a frame that was closed, a frame that navigates under the tap — each a specific
refusal with a hint, nothing sent (the page's own click record, aim/recorder.js, saw nothing), the runner goes on
serving; never an ok that reached another element.  On tests/e2e/aim/moving.html, through the real runner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from aim_site import AimSite
from web_runner import RunnerProc, SharedRunner

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


def _node(runner: RunnerProc, app: str, ident: str) -> dict[str, Any]:
    return next(n for n in runner.ok("snapshot", app)["nodes"] if n.get("identifier") == ident)


def _centre(node: dict[str, Any]) -> tuple[float, float]:
    r = node["rect"]
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2


@pytest.fixture
def page(shared_runner: SharedRunner, site: AimSite) -> Iterator[tuple[RunnerProc, str]]:
    runner, url = shared_runner.get(), site.url("moving.html")
    runner.ok("launchApp", url)
    try:
        yield runner, url
    finally:
        runner.send("terminateApp", url)


def test_a_tap_off_the_screen_is_refused_and_sends_nothing(page: tuple[RunnerProc, str], site: AimSite) -> None:
    runner, url = page
    site.clear()
    for x, y in ((500, 100), (-1, 100), (100, 900)):
        envelope = runner.send("tap", url, x=x, y=y)
        assert envelope["ok"] is False and envelope["error"]["code"] == e.INVALID_REQUEST, envelope
        assert "outside the screen (393 x 852 points)" in envelope["error"]["message"]
        assert "snapshot" in envelope["error"]["hint"]
    assert site.clicks() == []
    assert runner.ok("snapshot", url)["nodes"]  # still serving


def test_a_tap_aimed_at_an_element_that_moved_is_element_moved_and_reaches_nothing(
    page: tuple[RunnerProc, str], site: AimSite
) -> None:
    runner, url = page
    target = _node(runner, url, "target")
    x, y = _centre(target)
    runner.ok("tap", url, x=_centre(_node(runner, url, "mover"))[0], y=_centre(_node(runner, url, "mover"))[1])
    site.clear()
    envelope = runner.send("tap", url, x=x, y=y, element=target["serial"])
    assert envelope["ok"] is False and envelope["error"]["code"] == e.ELEMENT_MOVED, envelope
    assert "is not at" in envelope["error"]["message"] and "it is at (" in envelope["error"]["message"]
    assert "Nothing was sent" in envelope["error"]["hint"]
    assert site.clicks() == []
    # at its new place the same aim lands, once
    envelope = runner.send("tap", url, x=_centre(_node(runner, url, "target"))[0],
                           y=_centre(_node(runner, url, "target"))[1], element=target["serial"])  # fmt: skip
    assert envelope["ok"] is True, envelope
    assert site.clicks() == ["target"]


def test_a_tap_aimed_at_a_covered_or_removed_element_is_refused(page: tuple[RunnerProc, str], site: AimSite) -> None:
    runner, url = page
    target = _node(runner, url, "target")
    x, y = _centre(target)
    runner.ok("tap", url, x=_centre(_node(runner, url, "coverer"))[0], y=_centre(_node(runner, url, "coverer"))[1])
    site.clear()
    envelope = runner.send("tap", url, x=x, y=y, element=target["serial"])
    assert envelope["error"]["code"] == e.ELEMENT_COVERED, envelope
    assert "id=cover" in envelope["error"]["message"]
    runner.ok("tap", url, x=_centre(_node(runner, url, "remover"))[0], y=_centre(_node(runner, url, "remover"))[1])
    site.clear()
    envelope = runner.send("tap", url, x=x, y=y, element=target["serial"])
    assert envelope["error"]["code"] == e.ELEMENT_MOVED, envelope
    assert "no longer on the page" in envelope["error"]["message"]
    envelope = runner.send("longPress", url, x=x, y=y, element=target["serial"], durationMs=100)
    assert envelope["error"]["code"] == e.ELEMENT_MOVED, envelope
    assert site.clicks() == []


def test_refs_to_an_element_that_moved_went_or_was_covered(shared_phone: phonewire.Phone, site: AimSite) -> None:
    """Through the agent: a ref whose element moved is tapped where it is now (re-found on a fresh snapshot after
    the device refused the old place), a covered one is ELEMENT_COVERED, a removed one STALE_REF; the page saw
    exactly the taps that landed."""
    phone = shared_phone
    phone.open(site.url("moving.html"))
    refs = {n.get("identifier"): r for r, n in phone.snapshot().refs.items()}
    phone.tap(f"@{refs['mover']}")
    site.clear()
    phone.tap(f"@{refs['target']}")
    assert site.clicks() == ["target"]
    phone.open(site.url("moving.html"))
    refs = {n.get("identifier"): r for r, n in phone.snapshot().refs.items()}
    phone.tap(f"@{refs['coverer']}")
    site.clear()
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap(f"@{refs['target']}")
    assert info.value.code == e.ELEMENT_COVERED
    phone.tap(f"@{refs['remover']}")
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap(f"@{refs['target']}")
    assert info.value.code == e.STALE_REF
    assert site.clicks() == ["remover"]


def test_a_ref_into_a_frame_that_was_closed_is_stale_and_a_frame_that_navigates_under_a_tap_takes_it_once(
    shared_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = shared_phone
    phone.open(site.url("moving.html"))
    refs = {n.get("identifier"): r for r, n in phone.snapshot().refs.items()}
    assert "in-frame" in refs  # the same-origin frame's button is in the view
    site.clear()
    phone.tap(f"@{refs['in-frame']}")  # its click navigates the frame
    assert site.clicks() == ["in-frame"]
    refs = {n.get("identifier"): r for r, n in phone.snapshot().refs.items()}
    assert "next-in-frame" in refs and "in-frame" not in refs
    phone.tap(f"@{refs['closer']}")
    site.clear()
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap(f"@{refs['next-in-frame']}")
    assert info.value.code == e.STALE_REF
    assert site.clicks() == []
    assert phone.snapshot().nodes  # still serving
