"""The aim property (issue 22): on generated pages of every shape (aim_pages.py) a tap on an element of the view
reaches exactly that element, as the page's own click handler records it, or it is refused with nothing reaching
anything.  No tap answers ok having reached another element or nothing.

Each page is tapped element by element through the real runner and Chromium, by the refs of one snapshot (a tap
may open a widget that scrolls the page: later refs then land where their elements went, or are refused).  The
seeds are fixed (the run is the same every time, and bounded); the counts are printed.
"""

from __future__ import annotations

import pytest
from aim_pages import generate
from aim_site import AimSite

import phonewire
from phonewire.devices.web.profiles import resolve_profile
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e

SEEDS = tuple(range(1, 17))
#: The default phone's screen, in points: every tap of the view is sent inside it.
SCREEN = resolve_profile(None)
#: What a tap that would not reach its element answers (nothing is sent).
REFUSALS = frozenset({e.ELEMENT_COVERED, e.STALE_REF, e.NOT_FOUND, getattr(e, "ELEMENT_MOVED", "ELEMENT_MOVED")})


def _open(phone: phonewire.Phone, site: AimSite, seed: int) -> tuple[str, list[str], list[str]]:
    # the second origin by another host name: another site (test_aim_frames.py runs frames of another site in the
    # page's renderer and, under site isolation, in one of their own)
    page = generate(seed, frame_base=site.base, other_base=site.other.replace("127.0.0.1", "localhost"))
    for kind, html in page.frame_html.items():
        site.put(f"gen-frame-{seed}-{kind}.html", html)
    phone.open(site.put(f"gen-{seed}.html", page.html))
    return page.shape, page.buttons, page.frame_buttons


#: The seeds in groups, one test each (each well inside the per-test timeout on a loaded machine).
GROUPS = [SEEDS[i : i + 4] for i in range(0, len(SEEDS), 4)]


@pytest.mark.parametrize("seeds", GROUPS, ids=[f"seeds-{g[0]}-{g[-1]}" for g in GROUPS])
def test_every_tap_of_the_view_reaches_its_element_or_is_refused(
    module_phone: phonewire.Phone, site: AimSite, seeds: tuple[int, ...]
) -> None:
    phone = module_phone
    landed, refused, wrong = 0, 0, []
    for seed in seeds:
        shape, _, _ = _open(phone, site, seed)
        view = phone.snapshot(interactive=True)
        targets = [(ref, str(n.get("identifier"))) for ref, n in view.refs.items() if n.get("identifier")]
        assert targets, f"seed {seed} ({shape}): no element of the page in the view:\n{view.text}"
        for ref, ident in targets:
            site.clear()
            try:
                reply = phone.tap(f"@{ref}")
            except phonewire.ProtocolError as exc:
                if exc.code not in REFUSALS:
                    wrong.append(f"seed {seed} ({shape}): tap @{ref} ({ident}) failed with {exc.code}: {exc.message}")
                elif site.clicks():
                    wrong.append(f"seed {seed} ({shape}): tap @{ref} ({ident}) refused but reached {site.clicks()}")
                refused += 1
                continue
            point = reply.data.get("target") or {}
            x, y = float(point.get("x", -1)), float(point.get("y", -1))
            if not (0 <= x <= SCREEN.width and 0 <= y <= SCREEN.height):
                wrong.append(f"seed {seed} ({shape}): tap @{ref} ({ident}) answered ok at ({x}, {y}), off the screen")
            elif site.clicks() != [ident]:
                wrong.append(
                    f"seed {seed} ({shape}): tap @{ref} ({ident}) answered {reply.data.get('message')!r} "
                    f"but the page saw {site.clicks()}"
                )
            else:
                landed += 1
    print(
        f"aim property, seeds {seeds}: {len(seeds)} pages, {landed} taps landed, {refused} refused, {len(wrong)} wrong"
    )
    assert not wrong, "\n".join(wrong)
    # a phone that refused everything would pass the lines above: most elements of a view are there to be tapped
    assert landed >= 2 * refused, f"{landed} landed, {refused} refused"


def _frame_buttons_listed(phone: phonewire.Phone, site: AimSite, kind: str) -> tuple[int, int, list[str]]:
    """Per seed with a frame of ``kind`` ("same" or "cross" origin): its buttons that the view lists, and a tap on
    each (by ref) — it reaches the button (the frame's own click handler records it) or is refused."""
    listed, landed, missing = 0, 0, []
    for seed in SEEDS:
        shape, _, frame_buttons = _open(phone, site, seed)
        mine = [b for b in frame_buttons if f"-{kind}" in b]
        if not mine:
            continue
        view = phone.snapshot()
        refs = {str(n.get("identifier")): ref for ref, n in view.refs.items()}
        # a frame the screen shows whole: its buttons must be listed (a frame partly or not at all on the screen
        # shows what of it is there, which may be none of its buttons)
        k = 1 if kind == "cross" and any("-same" in b for b in frame_buttons) else 0  # (aim_pages: same first)
        frames = [n for n in view.nodes if n.get("identifier") == f"g{seed}-f{k}"]
        whole = any(
            n["rect"]["x"] >= 0
            and n["rect"]["y"] >= 0
            and n["rect"]["x"] + n["rect"]["width"] <= SCREEN.width
            and n["rect"]["y"] + n["rect"]["height"] <= SCREEN.height
            and n["rect"]["width"] > 0
            for n in frames
        )
        for ident in mine:
            if ident not in refs and not whole:
                continue
            if ident not in refs:
                missing.append(f"seed {seed} ({shape}): {ident} not in the view")
                continue
            listed += 1
            site.clear()
            try:
                phone.tap(f"@{refs[ident]}")
            except phonewire.ProtocolError as exc:
                assert exc.code in REFUSALS, exc
                assert site.clicks() == [], f"seed {seed}: {ident} refused but the page saw {site.clicks()}"
                continue
            if site.clicks() == [ident]:
                landed += 1
            else:
                missing.append(f"seed {seed} ({shape}): tap on {ident} reached {site.clicks()}")
    return listed, landed, missing


def test_a_same_origin_frames_buttons_are_in_the_view_and_taps_reach_them(
    module_phone: phonewire.Phone, site: AimSite
) -> None:
    listed, landed, wrong = _frame_buttons_listed(module_phone, site, "same")
    print(f"aim property, same-origin frames: {listed} buttons listed, {landed} taps landed")
    assert not wrong, "\n".join(wrong)
    assert landed


def test_a_cross_origin_frames_buttons_are_in_the_view_and_taps_reach_them(
    module_phone: phonewire.Phone, site: AimSite
) -> None:
    listed, landed, wrong = _frame_buttons_listed(module_phone, site, "cross")
    print(f"aim property, cross-origin frames: {listed} buttons listed, {landed} taps landed")
    assert not wrong, "\n".join(wrong)
    assert landed
