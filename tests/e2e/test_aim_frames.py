"""Frames of another origin in the view (issue 22 item 2): a frame of another port of the same host (another origin,
the same site) and a frame of another host (another site) are walked in their own documents and shown where they
are drawn; taps, fills and long presses reach their elements (the frame's own handlers record it), or are refused.

Each test runs twice: on the session's runner, whose Chromium keeps a page's frames of every site in the page's
renderer (it isolates no sites by default), and on a runner whose Chromium isolates every site
(``--site-per-process``: a frame of another site runs in a renderer of its own, reached through its own DevTools
session, as desktop Chrome does).

The bad input of issue 22: a ref into a frame that was removed, a frame that navigates while a gesture is sent,
a point outside the screen — each a specific refusal, nothing sent twice, the runner serving on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from aim_site import AimSite
from web_runner import RunnerProc, SharedRunner, attached_phone

import phonewire
from phonewire.devices.web.browser import browser_binary

pytestmark = pytest.mark.e2e

_FRAME = (
    '<!doctype html><html><head><meta name="viewport" content="width=device-width"><script src="/recorder.js">'
    '</script></head><body style="margin:0" data-leave="{leave}">'
    '<button id="{p}-a" data-aim="{p}-a" style="position:absolute;left:10px;top:10px;width:120px;height:40px">'
    "{p} one</button>"
    '<button id="{p}-b" data-aim="{p}-b" style="position:absolute;left:150px;top:10px;width:120px;height:40px">'
    "{p} two</button>"
    '<input id="{p}-field" aria-label="{p} field" style="position:absolute;left:10px;top:70px;width:200px">'
    '<p id="{p}-words" style="position:absolute;left:10px;top:100px;margin:0">{p} plain words</p>'
    '<a id="{p}-link" href="/fr-next.html" style="position:absolute;left:200px;top:100px">{p} link</a>'
    "<script>{script}</script></body></html>"
)
#: The frame's own records (to the same store as recorder.js's clicks): what was typed into its field (each input
#: event: ``ID=value``), a press of its second button held 500 ms or more (``ID:long``), and, on a page that leaves
#: (``data-leave``), the touch that makes it leave (``ID:start``, then it navigates: mid-gesture).
_FRAME_JS = """
const rec = (id) => { const x = new XMLHttpRequest(); x.open("POST", "/record", false);
  x.setRequestHeader("Content-Type", "application/json"); x.send(JSON.stringify({id})); };
const field = document.querySelector("input"), b = document.querySelectorAll("button")[1];
field.addEventListener("input", () => rec(field.id + "=" + field.value));
let t0 = 0;
b.addEventListener("touchstart", () => {
  t0 = performance.now();
  const leave = document.body.dataset.leave;
  if (leave) { rec(b.id + ":start"); location.href = leave; }
});
b.addEventListener("touchend", () => { if (performance.now() - t0 >= 500) rec(b.id + ":long"); });
const a = document.querySelector("button");
a.addEventListener("click", () => { a.dataset.tapped = String(Number(a.dataset.tapped || 0) + 1); });
"""


def _frame(prefix: str, leave: str = "") -> str:
    return _FRAME.format(p=prefix, leave=leave, script=_FRAME_JS)


def _top(frames: dict[str, str], *, below: int = 0) -> str:
    """The page: a button, a button that removes the frame ``fr-far``, the frames (``below`` px further down)."""
    boxes = "".join(
        f'<iframe id="fr-{name}" src="{src}" style="position:absolute;left:20px;top:{below + 120 + 170 * i}px;'
        'width:320px;height:140px;border:4px solid #999;padding:3px"></iframe>'
        for i, (name, src) in enumerate(frames.items())
    )
    return (
        '<!doctype html><html><head><meta name="viewport" content="width=device-width">'
        '<script src="/recorder.js"></script><title>frames</title></head><body style="margin:0">'
        '<button id="top" data-aim="top" style="position:absolute;left:10px;top:40px;width:120px;height:40px">'
        "top button</button>"
        '<button id="drop" style="position:absolute;left:150px;top:40px;width:120px;height:40px" '
        "onclick=\"document.getElementById('fr-far').remove()\">drop frame</button>"
        f'{boxes}<div style="height:{below + 600}px"></div></body></html>'
    )


@pytest.fixture(scope="module")
def isolated_phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[phonewire.Phone]:
    """A phone on a runner of its own whose Chromium isolates every site (the same binary, ``--site-per-process``
    added by a wrapper named as the browser to start)."""
    folder = tmp_path_factory.mktemp("isolated")
    wrapper = folder / "chromium-site-per-process"
    wrapper.write_text(f'#!/bin/sh\nexec {browser_binary()} --site-per-process "$@"\n')
    wrapper.chmod(0o700)
    runner = RunnerProc(env={"PHONEWIRE_CHROMIUM": str(wrapper)})
    try:
        with attached_phone(runner, Path(folder) / "state") as phone:
            yield phone
    finally:
        runner.stop()


@pytest.fixture(scope="module")
def shared_phone_here(
    shared_runner: SharedRunner, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[phonewire.Phone]:
    with attached_phone(shared_runner.get(), tmp_path_factory.mktemp("state")) as phone:
        yield phone


@pytest.fixture(params=["shared-renderer", "site-per-process"])
def frames_phone(request: pytest.FixtureRequest) -> phonewire.Phone:
    """The phone of one of the two process models: the session's runner, or the one that isolates every site."""
    phone: phonewire.Phone = request.getfixturevalue(
        "isolated_phone" if request.param == "site-per-process" else "shared_phone_here"
    )
    return phone


def _oopif_base(site: AimSite) -> str:
    """The second origin by another host name: another site, so Chromium runs its frames out of process."""
    return site.other.replace("127.0.0.1", "localhost")


def _open(phone: phonewire.Phone, site: AimSite, name: str = "frames", *, below: int = 0, leave: bool = False) -> None:
    far_next = f"{_oopif_base(site)}/fr-next.html"
    site.put("fr-next.html", _frame("next"))
    site.put("fr-same-site.html", _frame("near", f"{site.other}/fr-next.html" if leave else ""))
    site.put("fr-other-site.html", _frame("far", far_next if leave else ""))
    frames = {"near": f"{site.other}/fr-same-site.html", "far": f"{_oopif_base(site)}/fr-other-site.html"}
    phone.open(site.put(f"{name}.html", _top(frames, below=below)))


def _refs(phone: phonewire.Phone) -> dict[str, str]:
    view = phone.snapshot()
    return {str(n.get("identifier")): ref for ref, n in view.refs.items() if n.get("identifier")}


def test_both_kinds_of_cross_origin_frame_are_in_the_view_and_taps_reach_their_buttons(
    frames_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = frames_phone
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


def test_the_runner_tells_a_tap_that_changed_only_a_frames_page_changed_the_screen(
    shared_runner: SharedRunner, site: AimSite, tmp_path: Path
) -> None:
    runner = shared_runner.get()
    with attached_phone(runner, tmp_path / "state") as phone:
        _open(phone, site, "frames-mark")
        view = phone.snapshot()
        app = phone.app_id
        for prefix in ("near", "far"):
            rect = next(n["rect"] for n in view.nodes if n.get("identifier") == f"{prefix}-a")
            x, y = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2
            runner.ok("tap", app, x=x, y=y)  # focus moves into the frame: the page's own mark changes
            site.clear()
            again = runner.ok("tap", app, x=x, y=y)  # only an attribute of the frame's button changes
            assert site.clicks() == [f"{prefix}-a"]
            assert again.get("changed") is True, again


def test_fill_long_press_and_selectors_reach_the_elements_of_both_kinds_of_frame(
    frames_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = frames_phone
    _open(phone, site, "frames-fill")
    for prefix in ("near", "far"):
        site.clear()
        phone.fill(f"id={prefix}-field", "hello there")
        typed = [c for c in site.clicks() if c and c.startswith(f"{prefix}-field=")]
        assert typed and typed[-1] == f"{prefix}-field=hello there", site.clicks()
        site.clear()
        phone.tap(f'"{prefix} one"')  # by its text
        assert site.clicks() == [f"{prefix}-a"], site.clicks()
        site.clear()
        phone.long_press(f"id={prefix}-b", duration_ms=700)
        assert site.clicks() == [f"{prefix}-b:long"], site.clicks()  # held, and no click: a phone's long press
    # the view says what the frame's field holds now
    values = {str(n.get("identifier")): n.get("value") for n in phone.snapshot().nodes}
    assert values.get("far-field") == "hello there", values


def test_a_long_press_in_a_frame_selects_its_word_or_opens_its_links_menu_and_clicks_nothing(
    frames_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = frames_phone
    _open(phone, site, "frames-press")
    for prefix in ("near", "far"):
        site.clear()
        phone.long_press(f'"{prefix} plain words"')
        words = next(n for n in phone.snapshot().nodes if n.get("identifier") == f"{prefix}-words")
        assert words.get("selectedText") == "plain", words  # the word under the finger (the text's middle)
        held = phone.long_press(f"id={prefix}-link")
        assert "a link menu opened" in str(held.data.get("message")), held.data
        assert "fr-next.html" in str(held.data.get("message"))
        phone.press("back")  # the menu closed, nothing chosen: the frame still shows its own page
        assert f"{prefix}-link" in {str(n.get("identifier")) for n in phone.snapshot().nodes}
        assert site.clicks() == [], site.clicks()  # no click reached the words or the link


def test_find_scrolls_a_frame_below_the_fold_onto_the_screen_and_its_button_takes_the_tap(
    frames_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = frames_phone
    _open(phone, site, "frames-below", below=1400)
    assert "far-a" not in _refs(phone)  # the frame is below the screen: none of its content shows
    phone.find("id=far-a")
    site.clear()
    phone.tap("id=far-a")
    assert site.clicks() == ["far-a"], site.clicks()


def test_a_ref_into_a_frame_that_was_removed_is_refused_and_nothing_is_sent(
    frames_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = frames_phone
    _open(phone, site, "frames-drop")
    view = phone.snapshot()
    refs = {str(n.get("identifier")): ref for ref, n in view.refs.items() if n.get("identifier")}
    far = view.refs[refs["far-a"]]
    centre = (far["rect"]["x"] + far["rect"]["width"] / 2, far["rect"]["y"] + far["rect"]["height"] / 2)
    phone.tap(f"@{refs['drop']}")  # the page removes the out-of-process frame
    site.clear()
    # the ref: the agent re-finds it on the screen as it is now, where it is not
    with pytest.raises(phonewire.ProtocolError) as stale:
        phone.tap(f"@{refs['far-a']}")
    assert stale.value.code == "STALE_REF" and stale.value.hint, stale.value
    # the element's serial sent with its point (WebDriver's element click): the device finds its frame gone
    with pytest.raises(phonewire.ProtocolError) as refused:
        phone._call(phone.session.tap_point(*centre, element=str(far["serial"])))
    assert refused.value.code == "FRAME_CHANGED", refused.value
    assert "no longer on the page (it was removed or replaced)" in refused.value.message, refused.value.message
    assert refused.value.hint, refused.value
    assert site.clicks() == []
    # the runner serves on: the other frame's button still takes a tap
    phone.tap("id=near-a")
    assert site.clicks() == ["near-a"]


@pytest.mark.parametrize("prefix", ["near", "far"])
@pytest.mark.parametrize("gesture", ["tap", "long press"])
def test_a_frame_that_navigates_while_a_gesture_is_sent_is_refused_and_nothing_is_sent_twice(
    frames_phone: phonewire.Phone, site: AimSite, prefix: str, gesture: str
) -> None:
    phone = frames_phone
    _open(phone, site, f"frames-leave-{prefix}", leave=True)
    ref = _refs(phone)[f"{prefix}-b"]
    site.clear()
    with pytest.raises(phonewire.ProtocolError) as refused:
        if gesture == "tap":
            phone.tap(f"@{ref}")
        else:
            phone.long_press(f"@{ref}", duration_ms=600)
    assert refused.value.code == "FRAME_CHANGED", refused.value
    assert "navigated while it was being sent" in refused.value.message, refused.value.message
    assert "Nothing was sent again" in (refused.value.hint or "")
    assert site.clicks().count(f"{prefix}-b:start") == 1, site.clicks()  # the touch went out once, not again
    # the runner serves on: the frame's new page is in the view and takes a tap
    phone.wait("id=next-a")
    site.clear()
    phone.tap("id=next-a")
    assert site.clicks() == ["next-a"], site.clicks()


def test_a_gesture_at_a_point_outside_the_screen_is_refused_before_anything_is_sent(
    frames_phone: phonewire.Phone, site: AimSite
) -> None:
    phone = frames_phone
    _open(phone, site, "frames-off")
    screen = phone.viewport()
    site.clear()
    for point in (f"{screen['width'] + 5:g} 200", "100 -3", f"100 {screen['height'] + 40:g}"):
        with pytest.raises(phonewire.ProtocolError) as refused:
            phone.tap(point)
        assert refused.value.code == "INVALID_REQUEST", refused.value
        assert "off the screen" in refused.value.message or "outside the screen" in refused.value.message
        assert refused.value.hint, refused.value
        with pytest.raises(phonewire.ProtocolError) as pressed:
            phone.long_press(point)
        assert pressed.value.code == "INVALID_REQUEST", pressed.value
    assert site.clicks() == []
    phone.tap("id=far-a")
    assert site.clicks() == ["far-a"]


@pytest.mark.parametrize("prefix", ["near", "far"])
def test_a_tap_on_a_frames_link_follows_it_and_says_ok(
    frames_phone: phonewire.Phone, site: AimSite, prefix: str
) -> None:
    """The frame navigates because the tap followed its link (after the finger lifted): that is what was asked,
    not a frame that left while the touch was sent (it answered FRAME_CHANGED, exit 3, for a tap that worked)."""
    phone = frames_phone
    _open(phone, site, f"frames-link-{prefix}")
    result = phone.tap(f"id={prefix}-link")
    assert result.data.get("message", "").startswith("tapped"), result.data
    phone.wait("id=next-a")
    site.clear()
    phone.tap("id=next-a")
    assert site.clicks() == ["next-a"], site.clicks()
