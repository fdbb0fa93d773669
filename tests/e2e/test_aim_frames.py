"""Frames of another origin in the view (issue 22 item 2): a frame of another port of the same host (another origin,
the same site: it runs in the page's renderer) and a frame of another host (another site: Chromium runs it in a
renderer of its own, site isolation) are walked in their own documents and shown where they are drawn; taps,
fills and long presses reach their elements (the frame's own handlers record it), or are refused.

The bad input of issue 22: a ref into a frame that was removed, a frame that navigates while a gesture is sent,
a point outside the screen — each a specific refusal, nothing sent twice, the runner serving on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from aim_site import AimSite

import phonewire

pytestmark = pytest.mark.e2e

_FRAME = (
    '<!doctype html><html><head><meta name="viewport" content="width=device-width"><script src="/recorder.js">'
    '</script></head><body style="margin:0">'
    '<button id="{p}-a" data-aim="{p}-a" style="position:absolute;left:10px;top:10px;width:120px;height:40px">'
    "{p} one</button>"
    '<button id="{p}-b" data-aim="{p}-b" style="position:absolute;left:150px;top:10px;width:120px;height:40px">'
    "{p} two</button>"
    '<input id="{p}-field" aria-label="{p} field" style="position:absolute;left:10px;top:70px;width:200px">'
    "</body></html>"
)


def _top(frames: dict[str, str]) -> str:
    boxes = "".join(
        f'<iframe id="fr-{name}" src="{src}" style="position:absolute;left:20px;top:{120 + 170 * i}px;width:320px;'
        'height:140px;border:4px solid #999;padding:3px"></iframe>'
        for i, (name, src) in enumerate(frames.items())
    )
    return (
        '<!doctype html><html><head><meta name="viewport" content="width=device-width">'
        '<script src="/recorder.js"></script><title>frames</title></head><body style="margin:0">'
        '<button id="top" data-aim="top" style="position:absolute;left:10px;top:40px;width:120px;height:40px">'
        f"top button</button>{boxes}</body></html>"
    )


@pytest.fixture(scope="module")
def site() -> Iterator[AimSite]:
    s = AimSite()
    try:
        yield s
    finally:
        s.close()


def _oopif_base(site: AimSite) -> str:
    """The second origin by another host name: another site, so Chromium runs its frames out of process."""
    return site.other.replace("127.0.0.1", "localhost")


def _open(phone: phonewire.Phone, site: AimSite, name: str = "frames") -> None:
    site.put("fr-same-site.html", _FRAME.format(p="near"))
    site.put("fr-other-site.html", _FRAME.format(p="far"))
    frames = {"near": f"{site.other}/fr-same-site.html", "far": f"{_oopif_base(site)}/fr-other-site.html"}
    phone.open(site.put(f"{name}.html", _top(frames)))


def _refs(phone: phonewire.Phone) -> dict[str, str]:
    view = phone.snapshot()
    return {str(n.get("identifier")): ref for ref, n in view.refs.items() if n.get("identifier")}


def test_both_kinds_of_cross_origin_frame_are_in_the_view_and_taps_reach_their_buttons(
    module_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = module_phone
    _open(phone, site)
    view = phone.snapshot()
    refs = {str(n.get("identifier")): (ref, n) for ref, n in view.refs.items() if n.get("identifier")}
    for ident in ("near-a", "near-b", "far-a", "far-b"):
        assert ident in refs, f"{ident} not in the view:\n{view.text}"
    # where it is drawn: the frame's box (left 20 + border 4 + padding 3) plus the button's place in the frame
    for prefix, top in (("near", 120), ("far", 290)):
        rect = refs[f"{prefix}-a"][1]["rect"]
        assert (rect["x"], rect["y"], rect["width"], rect["height"]) == (37, top + 17, 120, 40), rect
    for ident in ("near-a", "far-b", "top", "far-a", "near-b"):
        site.clear()
        phone.tap(f"@{refs[ident][0]}")
        assert site.clicks() == [ident], (ident, site.clicks())
