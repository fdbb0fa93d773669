"""The W3C's ARIA Authoring Practices examples (vendored in tests/apg/, served on loopback) operated by taps
through the real runner and Chromium, as an agent would: open the example page, `find` its example, and tap each
element of the example that the view lists, by its ref.  The page's own click record (aim/apg_recorder.js) says
what each tap reached.  A tap passes when it reached the element it named (the element or an ancestor of what it
reached carries the node's name) or was refused; it fails when it answered ok and reached another element, or
nothing, or was sent off the screen.

``APG_EXAMPLES`` lists the example pages; the figure (examples where every tap passed, and at least one landed) is
printed by ``python tests/e2e/test_apg.py`` too, for docs/snapshot.md's before/after.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from aim_site import APG_DIR, ApgSite

import phonewire
from phonewire.devices.web.profiles import resolve_profile
from phonewire.protocol import errors as e
from phonewire.protocol.snapshot import INTERACTIVE_ROLES

pytestmark = pytest.mark.e2e

APG_EXAMPLES = sorted(str(p.relative_to(APG_DIR)) for p in APG_DIR.glob("patterns/*/examples/*.html"))
SCREEN = resolve_profile(None)
REFUSALS = frozenset({e.ELEMENT_COVERED, e.STALE_REF, e.NOT_FOUND, getattr(e, "ELEMENT_MOVED", "ELEMENT_MOVED")})
#: At most this many elements of one example are tapped (the grids and the toolbar list many more).
MAX_TAPS = 12


@dataclass
class Sweep:
    example: str
    landed: int = 0
    refused: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def operable(self) -> bool:
        return not self.wrong and self.landed > 0


#: The example's heading (a page of one example, or the first of several) and the heading of the section after them.
STARTS = ("ex_label", "ex1_label", "start")
ENDS = ("Accessibility Features", "Keyboard Support")


def _to_example(phone: phonewire.Phone, site: ApgSite, example: str) -> None:
    """Open the page and scroll its example's heading onto the screen, as an agent would with `find` (a page with
    no such heading — the feed's article page — is the example itself)."""
    phone.open(site.url(example))
    source = (APG_DIR / example).read_text(errors="replace")
    start = next((s for s in STARTS if f'id="{s}"' in source), None)
    if start is not None:
        phone.find(f"id={start}")


def _example_targets(view: phonewire.View) -> list[tuple[str, dict[str, object]]]:
    """The refs of the view's interactive nodes after the example's heading and before the next section's."""
    out: list[tuple[str, dict[str, object]]] = []
    inside = not any(n.get("identifier") in STARTS for n in view.refs.values())
    for ref, n in view.refs.items():
        if n.get("identifier") in STARTS:
            inside = True
            continue
        if n.get("type") == "Heading" and n.get("label") in ENDS:
            break
        if inside and n.get("type") in INTERACTIVE_ROLES and not n.get("coveredBy"):
            out.append((ref, dict(n)))
    return out


def _judged(reply: phonewire.ActionResult, clicks: list[dict[str, Any]], what: str, label: str) -> str | None:
    """What is wrong with a tap that answered ok (None: it reached the element it named)."""
    point = reply.data.get("target") or {}
    x, y = float(point.get("x", -1)), float(point.get("y", -1))
    if not (0 <= x <= SCREEN.width and 0 <= y <= SCREEN.height):
        return f"{what}: ok at ({x}, {y}), off the screen; the page saw {len(clicks)} click(s)"
    if not clicks:
        return f"{what}: ok at ({x}, {y}) but the page saw no click"
    if label and not any(label in str(name) for name in clicks[0].get("names", [])):
        return f"{what}: ok at ({x}, {y}) but the click reached {clicks[0].get('names', [])[:3]}"
    return None


def _targets(phone: phonewire.Phone) -> list[tuple[str, dict[str, object]]]:
    targets = _example_targets(phone.snapshot())
    for _ in range(3):  # the heading at the screen's bottom edge: the example is below it, as a person scrolls on
        if targets:
            break
        phone.scroll("down", amount=0.5)
        targets = _example_targets(phone.snapshot())
    return targets


def sweep(phone: phonewire.Phone, site: ApgSite, example: str) -> Sweep:
    result = Sweep(example)
    _to_example(phone, site, example)
    for ref, n in _targets(phone)[:MAX_TAPS]:
        label = str(n.get("label") or "")
        what = f"@{ref} {n.get('type')} {label!r}"
        site.clear()
        try:
            reply = phone.tap(f"@{ref}")
        except phonewire.ProtocolError as exc:
            result.refused += 1
            if exc.code not in REFUSALS:
                result.wrong.append(f"{what}: {exc.code} {exc.message}")
            elif site.clicks():
                result.wrong.append(f"{what}: refused ({exc.code}) but the page saw a click")
            continue
        clicks = site.clicks()
        wrong = _judged(reply, clicks, what, label)
        if wrong is None:
            result.landed += 1
        else:
            result.wrong.append(wrong)
        if any(c.get("away") for c in clicks):
            _to_example(phone, site, example)  # it followed a link: back to the example (refs of it stay valid)
    return result


@pytest.mark.parametrize("example", APG_EXAMPLES)
def test_every_tap_on_an_apg_example_reaches_what_it_names(
    module_phone: phonewire.Phone, apg_site: ApgSite, example: str
) -> None:
    result = sweep(module_phone, apg_site, example)
    assert result.operable, f"{example}: {result.landed} landed, {result.refused} refused\n" + "\n".join(result.wrong)
