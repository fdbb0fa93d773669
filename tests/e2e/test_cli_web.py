"""The CLI end to end: thin client → daemon → host session → runner process → real Chromium → the demo app.

One daemon (and so one runner and one browser) serves the whole module; each test uses its own ``--session``
and relaunches the demo, so tests do not see each other's state.  The daemon is stopped by pid at the end and
its runner with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import Cli, Result, web_cli
from PIL import Image
from web_runner import HostileSite

pytestmark = pytest.mark.e2e

DEMO = "dev.phonewire.demo"


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    with web_cli(tmp_path_factory, "cli-web", "--session", "warmup", "open", DEMO) as cli:
        yield cli


class Session:
    def __init__(self, cli: Cli, name: str) -> None:
        self.cli = cli
        self.name = name

    def __call__(self, *argv: str, stdin: str | None = None) -> Result:
        return self.cli("--device", "web", "--session", self.name, *argv, stdin=stdin)

    def sub(self, *argv: str) -> Result:
        return self.cli.sub("--device", "web", "--session", self.name, *argv)

    def ok(self, *argv: str) -> str:
        res = self(*argv)
        assert res.code == 0, res.err
        return res.out

    def node(self, identifier: str) -> dict[str, object]:
        nodes = self("--json", "snapshot").json()["data"]["nodes"]
        return next(n for n in nodes if n["identifier"] == identifier)


@pytest.fixture
def s(web: Cli, request: pytest.FixtureRequest) -> Session:
    session = Session(web, request.node.name[:40])
    session.ok("open", DEMO)  # relaunch: a fresh demo for every test
    return session


def ref_of(view: str, pattern: str) -> str:
    for line in view.splitlines():
        if re.search(pattern, line):
            return line.split()[0]
    raise AssertionError(f"no line matches {pattern!r} in:\n{view}")


def test_a_ref_tap_likes_exactly_one_row_exactly_once(s: Session) -> None:
    view = s.ok("snapshot", "-i")
    assert view.splitlines()[0] == '@e1 Heading "Inbox" id=title'
    like2 = ref_of(view, r'Button "Like 0" id=like-2$')
    # the point once (issue 22: it read `ok tapped (327, 177.9) @e5 Button "Like 0" at 327,177.9`)
    assert s.ok("tap", like2).splitlines()[0] == f'ok tapped (327, 177.9) {like2} Button "Like 0"'
    # the same ref again: re-found although its label now reads "Like 1"
    assert s.ok("tap", like2).splitlines()[0] == f'ok tapped (327, 177.9) {like2} Button "Like 1"'
    assert s.node("like-2")["label"] == "Like 2"  # (a new snapshot: it issues new refs)
    assert s.node("like-1")["label"] == "Like 0"
    assert s.node("likes-total")["label"] == "2"


def test_the_subprocess_cli_drives_the_same_session(s: Session) -> None:
    res = s.sub("tap", "id=like-3")
    assert res.code == 0 and 'Button "Like 0"' in res.out
    assert s.node("like-3")["label"] == "Like 1"
    diff = s.sub("snapshot", "--diff")
    assert diff.code == 0


def test_a_ref_from_before_a_navigation_is_stale_and_taps_nothing(s: Session) -> None:
    view = s.ok("snapshot", "-i")
    like1 = ref_of(view, r"id=like-1$")
    s.ok("tap", ref_of(view, r'Link "Item 1"$'))  # navigates to the detail screen (-i: no id beside a label)
    stale = s("tap", like1)  # still a ref of the list snapshot: its element is gone
    assert stale.code == 3
    assert stale.err.startswith(f'error STALE_REF: {like1} (Button "Like 0") is no longer on screen')
    assert "snapshot" in stale.err.split("hint:")[1]
    assert s.node("detail-heading")["label"] == "Item 1"
    for counter in ("cart-count", "double-taps", "single-taps", "long-presses"):
        assert s.node(counter)["label"] == "0"  # nothing on the detail screen was tapped
    s.ok("press", "back")
    assert s.node("like-1")["label"] == "Like 0"


def test_an_ambiguous_selector_lists_refs_and_a_listed_ref_then_works(s: Session) -> None:
    res = s("tap", "role=Button text=Like")
    assert res.code == 3
    assert res.err.startswith("error AMBIGUOUS_MATCH: 'role=Button text=Like' matches ")
    listed = re.findall(r'(@e\d+) Button "Like 0" id=(like-\d+)', res.err)
    assert len(listed) == 10  # the first ten candidates, then "(+N more)"
    assert "more)" in res.err
    ref, identifier = listed[4]
    s.ok("tap", ref)
    assert s.node(identifier)["label"] == "Like 1"
    assert s.node("likes-total")["label"] == "1"


def test_fill_clears_the_field_and_the_form_submits(s: Session) -> None:
    s.ok("tap", "id=tab-form")
    assert s.ok("fill", "label=Name", "Ada").startswith("ok filled 3 character(s) into")
    s.ok("fill", "label=Name", "Bob")  # replaces, does not append
    assert s.node("name")["value"] == "Bob"
    s.ok("fill", "role=SecureTextField", "secret")
    s.ok("tap", "Sign in")
    assert s.node("signin-count")["label"] == "1"
    assert s.node("signin-user")["label"] == "Bob"


def test_type_and_press_enter_submit_the_search(s: Session) -> None:
    s.ok("tap", "id=tab-form")
    s.ok("tap", "role=SearchField")
    s.ok("type", "lamp")
    s.ok("press", "enter")
    assert s.node("search-count")["label"] == "1"
    assert s.node("search-last")["label"] == "lamp"


def items_on_screen(view: str) -> list[int]:
    return [int(n) for n in re.findall(r'Link "Item (\d+)"', view)]


def test_scroll_down_reveals_rows_below_the_fold(s: Session) -> None:
    before = items_on_screen(s.ok("snapshot", "-i"))
    assert before[0] == 1
    scrolled = s.ok("scroll", "down")
    assert re.fullmatch(r"ok scrolled down \d+ pt", scrolled.splitlines()[0])
    # under the ok line, its settled diff: the first row left, later rows came in (with the refs to act on)
    assert '- Link "Item 1" id=open-1' in scrolled.splitlines()
    assert any(re.fullmatch(rf'\+ @e\d+ Link "Item {before[-1] + 1}" id=open-{before[-1] + 1}', line)
               for line in scrolled.splitlines())  # fmt: skip
    after = items_on_screen(s.ok("snapshot", "-i"))
    assert after[0] > 1 and after[-1] > before[-1]  # the list moved up: row 1 left, later rows came in
    assert re.fullmatch(
        r"ok scrolled up \d+ pt(, reached the end)?\n", s.ok("--quiet", "scroll", "up", "--amount", "1")
    )
    assert items_on_screen(s.ok("snapshot", "-i"))[0] < after[0]


def test_a_scroll_amount_out_of_range_is_refused_with_the_range_and_scrolls_nothing(s: Session) -> None:
    """Issue 22 trial: `scroll --amount 5` said "must be at most 1" and only the usage line; the hint says the range."""
    before = items_on_screen(s.ok("snapshot", "-i"))
    for amount, said in (("5", "at most 1, got 5"), ("0", "at least 0.01, got 0")):
        res = s("scroll", "down", "--amount", amount)
        assert res.code == 2 and res.out == "", res
        message, hint = res.err.splitlines()
        assert message.startswith(f"error INVALID_REQUEST: scroll --amount must be {said}"), res.err
        assert hint == "hint: --amount takes a number from 0.01 to 1, default 0.6; usage: phonewire scroll DIR " \
            "[TARGET] [--amount F]", res.err  # fmt: skip
    assert items_on_screen(s.ok("snapshot", "-i")) == before  # nothing scrolled


def test_find_reaches_row_150_of_300_in_two_calls_after_open_and_under_300_characters(s: Session) -> None:
    # issue 10: 23 calls and 18.9 k characters the blind way (snapshot, scroll, snapshot, …); target ≤ 4 / ≤ 5 k
    found = s.ok("find", "Item 150")
    assert re.fullmatch(r'ok (@e\d+) Link "Item 150" id=open-150 after \d scroll\(s\), \d+ pt\n', found), found
    tapped = s.ok("--quiet", "tap", found.split()[1])  # the ok line alone: the new screen's diff left out
    assert s.node("detail-heading")["label"] == "Item 150"
    assert len(found) + len(tapped) < 300
    still = s("find", "Item 999")  # the detail screen does not scroll: the end at once
    assert (
        still.code != 0 and "NOT_FOUND" in still.err and "after 1 scroll(s) down (0 pt): reached the end" in still.err
    )
    s.ok("press", "back")
    missing = s("find", "Nobody here", "--max-scrolls", "1")
    assert missing.code != 0 and "NOT_FOUND" in missing.err and "max_scrolls=1" in missing.err
    past = s("find", "Item 999")  # a numbered row past the last: one jump to where it would be, the end
    assert past.code != 0 and "after 1 scroll(s) down" in past.err and "reached the end" in past.err


def test_interactive_view_is_smaller_and_keeps_every_control(s: Session) -> None:
    full = s.ok("snapshot")
    small = s.ok("snapshot", "-i")
    assert len(small) < len(full)
    # refs are kept across a session's snapshots: every control of the full view has its ref in -i too
    controls = re.findall(r"^ *(@e\d+) (?:Button|Link) ", full, re.MULTILINE)
    assert len(controls) >= 10 and all(re.search(rf"^ *{ref} ", small, re.MULTILINE) for ref in controls)


def test_screenshot_overlay_refs_is_a_png_of_the_device_screen(s: Session, tmp_path: Path) -> None:
    out = s.ok("screenshot", str(tmp_path / "marks.png"), "--overlay-refs")
    assert out == f"ok screenshot {tmp_path / 'marks.png'}\n"
    vp = s.ok("viewport").split()
    with Image.open(tmp_path / "marks.png") as marked:
        marked.load()
        assert marked.format == "PNG"
        assert marked.width / float(vp[2]) == pytest.approx(3.0)  # iphone-15 is @3x
    plain = s("--json", "screenshot", str(tmp_path / "plain.png"), "--scale", "css").json()
    assert plain["data"]["path"] == str(tmp_path / "plain.png")
    with Image.open(tmp_path / "plain.png") as img:
        assert img.width == int(float(vp[2]))


def test_screenshot_takes_its_format_from_the_file_extension(s: Session, tmp_path: Path) -> None:
    for name, fmt in (("x.jpg", "JPEG"), ("x.JPEG", "JPEG"), ("x.png", "PNG")):
        data = s("--json", "screenshot", str(tmp_path / name), "--scale", "css").json()["data"]
        assert data["format"] == fmt.lower()
        with Image.open(tmp_path / name) as img:
            assert img.format == fmt
            assert img.size == (393, 852)
    refused = s("screenshot", str(tmp_path / "y.jpg"), "--format", "png")
    assert refused.code != 0
    assert "does not match the file name 'y.jpg'" in refused.err
    assert not (tmp_path / "y.jpg").exists()


def test_the_refs_drawn_on_an_overlay_screenshot_are_the_sessions_refs(s: Session, tmp_path: Path) -> None:
    s.ok("screenshot", str(tmp_path / "marks.png"), "--overlay-refs")
    view = s.ok("snapshot", "-i")  # the same screen: the same numbering as the marks
    like3 = ref_of(view, r"id=like-3$")
    s.ok("screenshot", str(tmp_path / "again.png"), "--overlay-refs")
    s.ok("tap", like3)
    assert s.node("like-3")["label"] == "Like 1"


def test_long_press_and_double_tap_reach_the_detail_screen_once_each(s: Session) -> None:
    s.ok("tap", "id=open-2")
    s.ok("longpress", "label='Hold me'", "--duration", "900")
    s.ok("tap", "id=double-tap-target", "--count", "2")
    assert s.node("long-presses")["label"] == "1"
    assert s.node("double-taps")["label"] == "1"
    assert s("tap", "id=double-tap-target", "--count", "1.5").code == 2


def test_batch_on_the_web_device_stops_at_the_first_error(s: Session) -> None:
    steps = [["tap", "id=like-4"], ["tap", "id=no-such-thing"], ["tap", "id=like-4"]]
    res = s("--json", "batch", stdin=json.dumps(steps))
    assert res.code == 3
    assert [r["ok"] for r in res.json()["results"]] == [True, False]
    assert s.node("like-4")["label"] == "Like 1"


def test_devices_marks_the_profile_whose_runner_the_daemon_holds(s: Session) -> None:
    listed = {d["device"]: d["runner"] for d in s("--json", "devices").json()["data"]["devices"]}
    assert listed["web:iphone-15"] is True  # "web" is the default profile
    assert listed["web:pixel-7"] is False


def test_bad_input_keeps_the_daemon_serving_the_browser(s: Session) -> None:
    pid = s.cli.daemon_pid()
    assert s("tap").code == 2
    assert s("swipe", "1", "2").code == 2
    assert s("tap", 'label="unterminated').code == 2
    assert s("press", "f13").code == 2
    assert s("open", "unknown-app").code == 3
    assert s.cli.daemon_pid() == pid
    assert s.ok("snapshot", "-i").startswith("@e1 ")


def test_wait_finds_a_late_element_and_a_batch_stops_at_a_wait_that_timed_out(s: Session) -> None:
    s.ok("tap", "id=tab-reorder")
    s.ok("tap", "id=show-later")  # the button arrives 300 ms later
    assert re.match(r'ok @e\d+ Button "Arrived" id=arrived \(after \d+ ms\)$', s.ok("wait", "id=arrived"))
    res = s("--json", "batch", stdin=json.dumps([["wait", "id=nowhere", "--timeout", "200"], ["tap", "id=tab-list"]]))
    assert res.code == 3
    doc = res.json()
    assert (doc["completed"], doc["results"][0]["error"]["code"]) == (0, "WAIT_TIMED_OUT")
    assert s.node("title")["label"] == "Tasks"  # the tap after the failed wait never ran


def test_batch_strict_stops_at_an_action_that_changed_nothing(s: Session) -> None:
    # a page with no clock (the demo's ticking clock is a change on screen at any moment)
    site = HostileSite()
    try:
        url = site.url("screens.html")
        s.ok("open", url)
        steps = [["tap", "id=first"], ["tap", "id=bump"]]  # a tap on the heading changes nothing on screen
        res = s("--json", "batch", "--strict", stdin=json.dumps(steps))
        assert res.code == 3
        doc = res.json()
        assert (doc["ok"], doc["completed"], doc["steps"]) == (False, 1, 2)
        assert doc["results"][0]["data"]["changed"] is False
        assert doc["stopped"]["step"] == 0 and doc["stopped"]["reason"] == "unchanged"
        assert s.node("bumps")["label"] == "0"  # the step after it never ran
        plain = s("batch", "--strict", stdin=json.dumps(steps))
        assert plain.code == 3 and "changed nothing on screen (--strict)" in plain.out
        assert "stopped: 1/2 steps" in plain.out and s.node("bumps")["label"] == "0"
        # without --strict the batch goes on: both steps ran, the bump counted once
        res = s("--json", "batch", stdin=json.dumps(steps))
        assert res.code == 0 and res.json()["completed"] == 2
        assert s.node("bumps")["label"] == "1"
        s.ok("close", url)
    finally:
        site.close()


def test_three_deep_links_into_an_app_leave_one_app_in_apps(s: Session) -> None:
    site = HostileSite()
    try:
        app = site.url("screens.html")
        s.ok("open", app)
        for page in ("second.html?via=deep", "stuck.html", "screens.html#again"):
            res = s("--json", "url", site.url(page))
            assert res.code == 0 and res.json()["data"]["appBundleId"] == app  # the running app, navigated
        apps = s("--json", "apps").json()["data"]["apps"]
        running = {a["appBundleId"]: a["state"] for a in apps if a["state"] != "notRunning"}
        assert running == {app: "foreground", DEMO: "background"}  # one app for the site, not one per link
        assert s.node("first")["label"] == "First screen"  # where the last link pointed
        s.ok("close", app)
    finally:
        site.close()
