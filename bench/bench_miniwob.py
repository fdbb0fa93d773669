"""MiniWoB++ on the web phone: can an agent see and do what each task needs, and at what cost (issue 14).

::

    .venv/bin/python bench/bench_miniwob.py [--tasks a,b,c] [--episodes N] [--out FILE] [--seed S]
    .venv/bin/python bench/bench_miniwob.py --show-views enter-text,login-user   # the two views, side by side

1. the ``miniwob`` 1.1.0 wheel is fetched without its dependencies (``pip download --no-deps``) into
   ``.cache/miniwob/`` (skipped when cached) and its ``html/`` directory unzipped there;
2. that directory is served on 127.0.0.1 by an http.server thread, which injects ``bench/miniwob_inject.js`` into
   every task page: a fixed seed for ``Math.seedrandom`` per episode, and a DOM inventory of the visible
   interactive elements of the task area, posted back to this process over loopback (phonewire has no DevTools
   port; the inventory is the harness's independent view of the page, never the solver's);
3. each task is opened as an app on ``web:iphone-15`` through ``phonewire.Phone`` and an episode started by
   tapping the START cover; then:

   * **coverage** — every inventoried element must be addressable by a ref of ``snapshot(interactive=True)``.
     Rule: element E is covered by ref R when the centre of R's rect lies in E's rect and the centre of E's rect
     lies in R's rect (both grown by 2 px), or when R's label equals E's text (case- and space-insensitive) and
     their rects intersect. Each element no ref covers is a miss.
   * **observation cost** — characters of ``snapshot -i`` and of the full view, against two Playwright baselines of
     the same page (same seed, same viewport, after START), in the same run: ``aria_snapshot()`` of ``body`` (the
     test-assertion snapshot, no refs) and ``page.aria_snapshot(mode="ai")`` — the snapshot *for agents* that
     Playwright MCP sends (``snapshotForAI``: every line an agent may act on carries ``[ref=eN]``), the like-for-like
     baseline of a view that carries refs;
   * **scripted solving** — for the families doable with today's operations, N episodes: the solver uses only
     the Python API (snapshot, refs, selectors, tap, fill, type, press, select, wait, scroll, find, swipe) —
     never the DOM — and reads the reward
     from the screen (``Last reward:`` of the page's own display). Success = a positive reward.

The report is a markdown table (one row per task) and a summary line, printed and written to ``--out``.
Everything started here (the http server, the phone's runner and browser, Playwright's browser) is stopped at
the end.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import platform
import re
import statistics
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from phonewire import ProtocolError

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "miniwob"
VERSION = "1.1.0"
INJECT = Path(__file__).resolve().parent / "miniwob_inject.js"
DEVICE = "web:iphone-15"
VERBOSE = False
VIEWPORT_W, VIEWPORT_H = 393, 852  # the iphone-15 profile of the web device, for Playwright's baseline


# ------------------------------------------------------------------------------------------------ the task pages
def ensure_html(cache: Path = CACHE) -> Path:
    """The ``html/`` directory of the miniwob wheel, downloaded and unzipped into ``cache`` once."""
    html = cache / "miniwob" / "html"
    if (html / "miniwob" / "click-button.html").is_file():
        return html
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob(f"miniwob-{VERSION}-*.whl"))
    if not wheels:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q",
             f"miniwob=={VERSION}", "-d", str(cache)],
            check=True,
        )  # fmt: skip
        wheels = sorted(cache.glob(f"miniwob-{VERSION}-*.whl"))
    with zipfile.ZipFile(wheels[0]) as z:
        z.extractall(cache, [n for n in z.namelist() if n.startswith("miniwob/html/")])
    return html


def all_tasks(html: Path) -> list[str]:
    return sorted(p.stem for p in (html / "miniwob").glob("*.html"))


# ------------------------------------------------------------------------------------------------ the server
class Inventories:
    """The inventories the pages posted, per (client, task): the latest one and its sequence number."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._latest: dict[tuple[str, str], dict[str, Any]] = {}
        self.received = 0

    def put(self, inv: dict[str, Any]) -> None:
        with self._cond:
            self._latest[(str(inv.get("client")), str(inv.get("task")))] = inv
            self.received += 1
            self._cond.notify_all()

    def latest(self, client: str, task: str) -> dict[str, Any] | None:
        with self._cond:
            return self._latest.get((client, task))

    def wait_started(self, client: str, task: str, timeout: float = 5.0) -> dict[str, Any] | None:
        """The first inventory of a started episode (the START cover gone), or None after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                inv = self._latest.get((client, task))
                if inv is not None and inv.get("started"):
                    return inv
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)

    def wait_quiet(self, client: str, task: str, quiet: float = 0.3, timeout: float = 1.5) -> dict[str, Any] | None:
        """The latest inventory once none came for ``quiet`` seconds (or at ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            seen = self._latest.get((client, task))
            since = time.monotonic()
            while time.monotonic() < deadline:
                self._cond.wait(min(quiet, max(deadline - time.monotonic(), 0.0)))
                now = self._latest.get((client, task))
                if now is not seen:
                    seen, since = now, time.monotonic()
                elif time.monotonic() - since >= quiet:
                    break
            return seen


def make_handler(html: Path, store: Inventories) -> type[http.server.SimpleHTTPRequestHandler]:
    script = INJECT.read_text()
    prelude, main = script.split("//__MAIN__", 1)

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(html), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path.startswith("/miniwob/") and path.endswith(".html"):
                file = html / path.lstrip("/")
                if not file.is_file():
                    self.send_error(404)
                    return
                page = file.read_text(encoding="utf-8")
                page = re.sub(r"(<head[^>]*>)", lambda m: m.group(1) + f"<script>{prelude}</script>", page, count=1)
                if "</head>" in page:
                    page = page.replace("</head>", f"<script>{main}</script></head>", 1)
                else:
                    page = page.replace("</body>", f"<script>{main}</script></body>", 1)
                body = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def do_POST(self) -> None:
            if self.path != "/__wob/inventory":
                self.send_error(404)
                return
            length = int(self.headers.get("Content-Length") or 0)
            with contextlib.suppress(ValueError):
                store.put(json.loads(self.rfile.read(length)))
            self.send_response(204)
            self.end_headers()

    return Handler


@contextlib.contextmanager
def serve(html: Path, store: Inventories) -> Iterator[str]:
    """Serve ``html`` on 127.0.0.1 (free port) in a thread; yields the base URL; stops the server after."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(html, store))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="miniwob-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def task_url(base: str, task: str, client: str, seed: str) -> str:
    return f"{base}/miniwob/{task}.html?wob_client={client}&wob_seed={seed}"


# ------------------------------------------------------------------------------------------------ coverage
def _center(r: dict[str, float]) -> tuple[float, float]:
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2


def _inside(p: tuple[float, float], r: dict[str, float], grow: float = 2.0) -> bool:
    return r["x"] - grow <= p[0] <= r["x"] + r["width"] + grow and r["y"] - grow <= p[1] <= r["y"] + r["height"] + grow


def _intersects(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def _norm(s: Any) -> str:
    return " ".join(str(s or "").split()).casefold()


def covered_by(element: dict[str, Any], node: dict[str, Any]) -> bool:
    """The coverage rule (module docstring): mutual centre containment, or same text and overlapping rects."""
    er, nr = element["rect"], node.get("rect") or {}
    if not nr or nr.get("width", 0) <= 0 or nr.get("height", 0) <= 0:
        return False
    if _inside(_center(nr), er) and _inside(_center(er), nr):
        return True
    text = _norm(element.get("text"))
    return bool(text) and text == _norm(node.get("label")) and _intersects(er, nr)


def describe(element: dict[str, Any]) -> str:
    tag = element["tag"] + (f"[{element['type']}]" if element.get("type") else "")
    if element.get("id"):
        tag += f"#{element['id']}"
    text = element.get("text") or ""
    return f'{tag} "{text[:30]}"' if text else tag


def coverage_misses(elements: list[dict[str, Any]], ref_nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [el for el in elements if not any(covered_by(el, n) for n in ref_nodes)]


# ------------------------------------------------------------------------------------------------ solving
class Unsolvable(Exception):
    """The solver cannot go on with today's operations (the message says what is missing)."""


@dataclass
class Episode:
    reward: float | None = None
    steps: int = 0
    ms: float = 0.0
    error: str = ""


class Agent:
    """The solver's hands and eyes: only the Python API (``phonewire.Phone``), every call counted as a step."""

    def __init__(self, phone: Any) -> None:
        self.phone = phone
        self.steps = 0
        self.late_start = 0  # episodes whose START cover was not in the first snapshot after open/reward
        self.episode_before = ""  # the page's "Episodes done" counter when the current episode started
        self.tried: set[str] = set()  # refs of plain texts tapped in vain in this episode
        self.log: list[str] = []  # the taps of the current episode (printed for a failed one with --verbose)
        self.popups = 0  # login-user-popup: popups dismissed

    def view(self, interactive: bool = False) -> Any:
        self.steps += 1
        return self.phone.snapshot(interactive=interactive)

    def tap(self, target: str) -> None:
        self.steps += 1
        target_data = self.phone.tap(target).data.get("target") or {}
        self.log.append(
            f"tap {target} -> {target_data.get('type')} {target_data.get('label')!r} "
            f"at {target_data.get('x')},{target_data.get('y')}"
        )

    def fill(self, target: str, text: str) -> None:
        self.steps += 1
        self.phone.fill(target, text)

    def press(self, key: str) -> None:
        self.steps += 1
        self.phone.press(key)

    def select(self, target: str, options: list[str]) -> None:
        self.steps += 1
        self.phone.select(target, options)

    def wait(self, selector: str, timeout_ms: int = 3000) -> None:
        self.steps += 1
        self.phone.wait(selector, timeout_ms=timeout_ms)

    def swipe(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.steps += 1
        self.phone.swipe(x1, y1, x2, y2, duration_ms=250)

    # ---- reading the view (the snapshot's own output, nothing else)
    @staticmethod
    def refs(view: Any, role: str | None = None, label: str | None = None) -> list[str]:
        out = []
        for ref, node in view.refs.items():
            if role is not None and node.get("type") != role:
                continue
            if label is not None and _norm(node.get("label")) != _norm(label):
                continue
            out.append(f"@{ref}")
        return out

    @staticmethod
    def by_id(view: Any, identifier: str) -> dict[str, Any] | None:
        for node in view.nodes:
            if node.get("identifier") == identifier:
                return dict(node)
        return None

    def instruction(self, view: Any) -> str:
        """The task's instruction: the label of ``id=query`` and of everything emitted inside it."""
        query = self.by_id(view, "query")
        if query is None:
            raise Unsolvable("no instruction (id=query) in the view")
        parts = [query.get("label") or ""]
        inside = {query["index"]}
        for node in view.nodes:
            if node.get("parentIndex") in inside:
                inside.add(node["index"])
                parts.append(node.get("label") or "")
        return " ".join(p for p in parts if p)

    def tap_one(self, view: Any, role: str | None, label: str) -> None:
        refs = self.refs(view, role, label)
        if not refs:
            raise Unsolvable(f"no {role or 'element'} {label!r} in the view")
        self.tap(refs[0])


def quoted(text: str) -> list[str]:
    """The quoted parts of an instruction.  An instruction with inline markup arrives as several StaticTexts
    (``Enter "`` / ``Dannie`` / ``" into …``) joined here with spaces, so the quoted text is stripped."""
    return [q.strip() for q in re.findall(r'"([^"]*)"', text)]


def solve_click_button(a: Agent, view: Any, q: str) -> None:
    a.tap_one(view, "Button", quoted(q)[0])


def solve_click_button_sequence(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"button (\w+), then click button (\w+)", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    a.tap_one(view, "Button", m.group(1))
    a.tap_one(a.view(True), "Button", m.group(2))


def tap_link(a: Agent, target: str) -> bool:
    """Tap the link ``target``: a Link ref of ``-i`` when there is one.  Else — MiniWoB's links are ``<span>``s with a
    click handler, which the view shows as plain StaticText and ``-i`` leaves out — each StaticText of the full view
    with exactly that text in turn, until the episode ends (the same words may also stand as plain text, and the
    view does not tell them apart).  False when nothing on screen ended the episode."""
    refs = a.refs(a.view(True), "Link", target)
    if refs:
        a.tap(refs[0])
        return True
    view = a.view()
    # a <span> link with a click handler is a Button in the view (issue 10 item 8); older views showed StaticText
    candidates = a.refs(view, "Button", target) + a.refs(view, "StaticText", target)
    if candidates:
        # no `wait --idle` yet: a text that slides with an animation (an accordion opening) is tapped where it
        # was, so only tap once a second look shows it where the first one did
        again = a.view()
        if any(again.refs.get(r[1:], {}).get("rect") != view.refs[r[1:]].get("rect") for r in candidates):
            return False
    for ref in candidates:
        if ref in a.tried:
            continue
        try:
            a.tap(ref)
        except ProtocolError as exc:  # an animation moved it between the snapshot and the tap: look again
            if exc.code == "STALE_REF":
                return False
            raise
        a.tried.add(ref)
        done = a.by_id(a.view(), "episode-id")
        if done is not None and str(done.get("label")) != a.episode_before:
            return True
    return False


def solve_click_link(a: Agent, view: Any, q: str) -> None:
    if not tap_link(a, quoted(q)[0]):
        raise Unsolvable(f"no link {quoted(q)[0]!r} in the view")


def solve_click_test(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"button (.+?)\.?$", q)
    label = m.group(1) if m and "the button" not in q.lower() else None
    buttons = a.refs(view, "Button", label)
    if not buttons:
        raise Unsolvable(f"no button for {q!r}")
    a.tap(buttons[0])


def _words_to_select(q: str) -> list[str]:
    m = re.search(r"Select (.*) and click Submit", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    body = m.group(1).strip()
    if body == "nothing":
        return []
    return [w.strip() for w in re.split(r",\s*", body) if w.strip()]


def solve_click_checkboxes(a: Agent, view: Any, q: str) -> None:
    for word in _words_to_select(q):
        boxes = [r for r in a.refs(view, "CheckBox") if view.refs[r[1:]].get("label") == word]
        if not boxes:
            raise Unsolvable(f"no checkbox {word!r} in the view")
        a.tap(boxes[0])
    a.tap_one(a.view(True), "Button", "Submit")


def solve_click_option(a: Agent, view: Any, q: str) -> None:
    for word in _words_to_select(q):
        radios = [r for r in a.refs(view, "RadioButton") if view.refs[r[1:]].get("label") == word]
        if not radios:
            raise Unsolvable(f"no radio button {word!r} in the view")
        a.tap(radios[0])
    a.tap_one(a.view(True), "Button", "Submit")


def solve_click_dialog(a: Agent, view: Any, q: str) -> None:
    for label in ("Close", "close", "x", "×"):
        refs = a.refs(view, "Button", label)
        if refs:
            a.tap(refs[0])
            return
    raise Unsolvable("no close button of the dialog in the view")


def solve_click_dialog_2(a: Agent, view: Any, q: str) -> None:
    word = quoted(q)[0]
    if word.lower() == "x":
        solve_click_dialog(a, view, q)
        return
    a.tap_one(view, "Button", word)


def solve_click_tab(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"Tab #(\d+)", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    for role in ("Tab", "Link"):
        refs = a.refs(view, role, f"Tab #{m.group(1)}")
        if refs:
            a.tap(refs[0])
            return
    raise Unsolvable(f"no tab 'Tab #{m.group(1)}' in the view")


def _tabs(view: Any) -> list[str]:
    return [f"@{r}" for r, n in view.refs.items() if n.get("type") == "Tab"]


def solve_click_tab_2(a: Agent, view: Any, q: str) -> None:
    target = quoted(q)[0]
    tabs = _tabs(view)
    for i in range(len(tabs) + 1):
        if tap_link(a, target):
            return
        if i == len(tabs):
            break
        a.tap(tabs[i])
    raise Unsolvable(f"link {target!r} under no tab")


def _sections(view: Any) -> list[str]:
    return [f"@{r}" for r, n in view.refs.items() if re.match(r"Section #\d+", str(n.get("label") or ""))]


def solve_click_collapsible(a: Agent, view: Any, q: str) -> None:
    sections = _sections(view)
    if not sections:
        raise Unsolvable("no 'Section #' header in the view")
    a.tap(sections[0])
    for _ in range(6):  # the section opens with an animation; no `wait` operation yet: look again after a pause
        refs = a.refs(a.view(True), "Button", "Submit")
        if refs:
            a.tap(refs[0])
            return
        time.sleep(0.1)
    raise Unsolvable("no Submit button after expanding the section")


def solve_click_collapsible_2(a: Agent, view: Any, q: str) -> None:
    target = quoted(q)[0]
    sections = _sections(view)
    for i in range(len(sections) + 1):
        for _ in range(6):  # a section opens with an animation; no `wait` operation yet: look again after a pause
            if tap_link(a, target):
                return
            time.sleep(0.1)
        if i == len(sections):
            break
        a.tap(sections[i])
    raise Unsolvable(f"link {target!r} in no section")


def _fields(view: Any) -> list[str]:
    roles = {"TextField", "SecureTextField", "SearchField", "TextView"}
    return [f"@{r}" for r, n in view.refs.items() if n.get("type") in roles]


def _submit(a: Agent, label: str = "Submit") -> None:
    view = a.view(True)
    refs = [
        f"@{r}" for r, n in view.refs.items() if n.get("type") == "Button" and _norm(n.get("label")) == _norm(label)
    ]
    if not refs:
        raise Unsolvable(f"no {label!r} button in the view")
    a.tap(refs[0])


def solve_enter_text(a: Agent, view: Any, q: str) -> None:
    fields = _fields(view)
    if not fields:
        raise Unsolvable("no text field in the view")
    a.fill(fields[0], quoted(q)[0])
    _submit(a)


def solve_enter_text_2(a: Agent, view: Any, q: str) -> None:
    text = quoted(q)[0]
    text = text.lower() if "lower case" in q else text.upper() if "upper case" in q else text
    fields = _fields(view)
    if not fields:
        raise Unsolvable("no text field in the view")
    a.fill(fields[0], text)
    _submit(a)


def solve_enter_password(a: Agent, view: Any, q: str) -> None:
    fields = _fields(view)
    if len(fields) < 2:
        raise Unsolvable("fewer than two password fields in the view")
    for f in fields[:2]:
        a.fill(f, quoted(q)[0])
    _submit(a)


def solve_login_user(a: Agent, view: Any, q: str) -> None:
    user, password = quoted(q)[:2]
    fields = _fields(view)
    if len(fields) < 2:
        raise Unsolvable("fewer than two fields in the view")
    a.fill(fields[0], user)
    a.fill(fields[1], password)
    _submit(a, "Login")


ORDINALS = {"1st": 0, "2nd": 1, "3rd": 2, "4th": 3, "5th": 4}


def solve_focus_text(a: Agent, view: Any, q: str) -> None:
    fields = _fields(view)
    m = re.search(r"the (\d\w\w) input", q)
    i = ORDINALS.get(m.group(1), 0) if m else 0
    if len(fields) <= i:
        raise Unsolvable("not enough text fields in the view")
    a.tap(fields[i])


def _the(view: Any, role: str) -> str:
    refs = Agent.refs(view, role)
    if not refs:
        raise Unsolvable(f"no {role} in the view")
    return refs[0]


def solve_choose_list(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"Select (.+) from the list", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    a.select(_the(view, "ComboBox"), [m.group(1).strip()])
    _submit(a)


def solve_click_scroll_list(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"Select (.+) from the scroll list", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    a.select(_the(view, "List"), [w.strip() for w in m.group(1).split(", ")])
    _submit(a)


def solve_enter_date(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"Enter (\d\d)/(\d\d)/(\d{4}) as the date", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    month, day, year = m.groups()
    a.fill(_fields(view)[0], f"{year}-{month}-{day}")  # a date input holds its own format
    _submit(a)


def solve_enter_time(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"Enter (\d+):(\d\d) ?([AP]M) as the time", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    hour, minute, half = int(m.group(1)) % 12, m.group(2), m.group(3)
    a.fill(_fields(view)[0], f"{hour + (12 if half == 'PM' else 0):02d}:{minute}")  # a time input: 24-hour HH:MM
    _submit(a)


def solve_use_autocomplete(a: Agent, view: Any, q: str) -> None:
    parts = quoted(q)
    if not parts:
        raise Unsolvable(f"unparsed instruction {q!r}")
    start, end = parts[0], parts[1] if len(parts) > 1 else ""
    a.fill(_fields(view)[0], start)  # typing sends key events: the autocomplete searches
    a.wait("role=Cell", timeout_ms=3000)  # the menu (a list of rows) shows after the widget's delay
    items = [
        f"@{r}"
        for r, n in a.view(True).refs.items()
        if n.get("type") in ("Cell", "StaticText", "MenuItem")
        and str(n.get("label") or "").lower().startswith(start.lower())
        and str(n.get("label") or "").lower().endswith(end.lower())
    ]
    if not items:
        raise Unsolvable(f"no suggestion that starts with {start!r} and ends with {end!r}")
    a.tap(items[0])
    _submit(a)


def _scroll_box(view: Any, ident: str) -> dict[str, float] | None:
    node = Agent.by_id(view, ident)
    return dict(node["rect"]) if node and node.get("rect") else None


def _swipe_up_in(a: Agent, box: dict[str, float]) -> None:
    """Scroll a scroll container's content up by more than half its height (a finger moving up inside it)."""
    x = box["x"] + box["width"] / 2
    a.swipe(x, box["y"] + box["height"] * 0.85, x, box["y"] + box["height"] * 0.25)


def _after(view: Any, anchor: int, role: str, label: str, until: Callable[[Any], bool] | None = None) -> str | None:
    """The first ``role`` ``label`` ref listed after the node ``anchor`` in the view's order (and before a node that
    ``until`` accepts: the next post's header)."""
    seen = False
    for ref, node in view.refs.items():
        if node.get("index") == anchor:
            seen = True
        elif seen and until is not None and until(node):
            return None
        elif seen and node.get("type") == role and _norm(node.get("label")) == _norm(label):
            return f"@{ref}"
    return None


def _post_header(node: Any) -> bool:
    return node.get("type") == "StaticText" and str(node.get("label") or "").endswith(" ago")


SOCIAL = {"Reply": "reply", "Retweet": "retweet", "Like": "like"}


def solve_social_media(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"For the user (@\S+), click on the \"(.+)\" button", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    user, action = m.group(1), m.group(2)
    lifted = False
    for _ in range(12):
        full = a.view()
        authors = [n for n in full.refs.values() if user in str(n.get("label") or "").split()]
        for author in authors:
            if action in SOCIAL:
                target = _after(full, author["index"], "Button", SOCIAL[action], _post_header)
                if target:
                    a.tap(target)
                    return
            else:
                more = _after(full, author["index"], "Button", "more", _post_header)
                if more:
                    # the icon swaps its image on hover: the first touch can find it still loading (0 px), the
                    # click then lands on the post around it and no menu opens; a second tap, at the same point
                    # (identical icons of other posts make the ref ambiguous once the screen changed: ref
                    # identity of identical siblings is another branch's work), opens it
                    x, y = _center(full.refs[more[1:]]["rect"])
                    box = _scroll_box(full, "area")
                    if box is not None and y > box["y"] + box["height"] * 0.35 and not lifted:
                        # its menu opens below it: first bring the icon to the top of the feed
                        lifted = True
                        bottom = box["y"] + box["height"] - 5
                        a.swipe(
                            box["x"] + box["width"] / 2,
                            bottom,
                            box["x"] + box["width"] / 2,
                            bottom - (y - box["y"] - 15),
                        )
                        break
                    a.tap(more)
                    retapped = False
                    for _ in range(4):  # the menu opens below the icon, maybe past the feed's bottom edge
                        menu = a.view(True)
                        items = [f"@{r}" for r, n in menu.refs.items() if str(n.get("label") or "").startswith(action)]
                        if items:
                            a.tap(items[0])
                            return
                        if not retapped and not any(n.get("type") == "Cell" for n in menu.refs.values()):
                            retapped = True
                            a.tap(f"{x:.1f} {y:.1f}")
                            continue
                        box = _scroll_box(a.view(), "area")
                        if box is None:
                            break
                        _swipe_up_in(a, box)
                    if VERBOSE:
                        print(a.phone.snapshot(all=True).text, file=sys.stderr)
                    raise Unsolvable(f"no {action!r} in the post's menu")
        if lifted and authors:
            continue  # look again at the lifted post
        box = _scroll_box(full, "area")
        if box is None:
            raise Unsolvable("no feed to scroll")
        _swipe_up_in(a, box)  # the post (or its buttons) is further down the feed
    raise Unsolvable(f"no post by {user} with a {action!r} button")


def solve_email_inbox(a: Agent, view: Any, q: str) -> None:
    """The single-action variants: delete (trash), important (star), reply, forward."""
    m = re.search(r"Find the email by (.+?) and ", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    sender = m.group(1)
    rest = q[m.end() :]
    for _ in range(6):
        full = a.view()
        # a row is a Button named by its sender, subject and body, or (a click handler on the inbox, not the row)
        # the sender's name as a text followed by the row's texts and icons
        rows = [
            n
            for n in full.refs.values()
            if str(n.get("label") or "").startswith(sender + " ") or str(n.get("label") or "") == sender
        ]
        if rows:
            break
        box = _scroll_box(full, "main") or _scroll_box(full, "area")
        if box is None:
            raise Unsolvable("no inbox to scroll")
        _swipe_up_in(a, box)
    else:
        raise Unsolvable(f"no email by {sender!r} in the inbox")
    row = rows[0]
    if "trash" in rest or "star" in rest:
        icon = _after(full, row["index"], "Button", "trash" if "trash" in rest else "star")
        if icon is None:
            raise Unsolvable("no icon on the email's row")
        a.tap(icon)
        return
    a.tap(next(f"@{r}" for r, n in full.refs.items() if n is row))
    if "forward" in rest:
        fm = re.search(r"forward that email to (\S+?)\.?$", rest)
        if not fm:
            raise Unsolvable(f"unparsed instruction {q!r}")
        a.tap_one(a.view(True), "Button", "forward")
        a.fill(_fields(a.view(True))[0], fm.group(1))
        a.tap("id=send-forward")
        return
    text = quoted(rest)
    if "reply" not in rest or not text:
        raise Unsolvable(f"unparsed instruction {q!r}")
    a.tap_one(a.view(True), "Button", "reply")
    a.fill(_the(a.view(True), "TextView"), text[0])
    a.tap("id=send-reply")


def solve_use_spinner(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"Select (-?\d+) with the spinner", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    goal = int(m.group(1))
    for _ in range(30):  # the field takes no typing (the page cancels its keys): its arrows, one step a tap
        now = a.view(True)
        stepper = next((n for n in now.refs.values() if n.get("type") == "Stepper"), None)
        if stepper is None:
            raise Unsolvable("no spinner in the view")
        value = int(str(stepper.get("value") or "0"))
        if value == goal:
            _submit(a)
            return
        arrows = [
            f"@{r}"
            for r, n in now.refs.items()
            if str(n.get("label") or "").endswith(" up" if value < goal else " down")
        ]
        if not arrows:
            raise Unsolvable("no spinner arrow in the view")
        a.tap(arrows[0])
    raise Unsolvable(f"the spinner did not reach {goal}")


def _scroll(a: Agent, direction: str, target: str) -> bool:
    """Scroll the container around ``target`` by most of its height; True when it reached the end."""
    a.steps += 1
    return bool(a.phone.scroll(direction, target).data.get("atEnd"))


def _find(a: Agent, selector: str, max_scrolls: int = 8) -> str:
    """``find``: scroll the container holding ``selector`` until it shows; its ref."""
    a.steps += 1
    return "@" + str(a.phone.find(selector, max_scrolls=max_scrolls).data["ref"]).lstrip("@")


def _idle(a: Agent) -> None:
    a.steps += 1
    a.phone.wait(idle=True, timeout_ms=3000)


def _author(node: Any) -> str:
    """The ``@handle`` of a post's header line (``Shirline @enim``), else ''."""
    words = str(node.get("label") or "").split()
    return words[-1] if node.get("type") == "StaticText" and words and words[-1].startswith("@") else ""


def solve_social_media_many(a: Agent, view: Any, q: str) -> None:
    """social-media-all / -some: the action button of all (or N) posts of a user, down the feed, then Submit."""
    m = re.search(r'Click the "(\w+)" button on (all|\d+) posts? by (@\S+?) and then click Submit', q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    action, how_many, user = m.group(1).lower(), m.group(2), m.group(3)
    want = None if how_many == "all" else int(how_many)
    tapped: set[str] = set()  # the buttons tapped: an element keeps its ref while it lives, across scrolls
    at_end = False
    for _ in range(20):
        full = a.view()
        for node in full.refs.values():
            if _author(node) != user or (want is not None and len(tapped) >= want):
                continue
            button = _after(full, node["index"], "Button", action, lambda n: bool(_author(n)))
            if button and button not in tapped:
                a.tap(button)
                tapped.add(button)
        if at_end or (want is not None and len(tapped) >= want):
            break
        at_end = _scroll(a, "down", "id=area")
    a.tap(_find(a, 'role=Button label="Submit"'))


def solve_navigate_tree(a: Agent, view: Any, q: str) -> None:
    """Open folders (their expander: ``Button "expander" [collapsed]``) until the named file or folder shows, then
    tap it."""
    name = quoted(q)[0]
    opened: set[str] = set()
    for _ in range(20):
        now = a.view(True)
        for role in ("Button", "Cell"):
            hits = a.refs(now, role, name)
            if hits:
                a.tap(hits[0])
                return
        closed = [
            f"@{r}"
            for r, n in now.refs.items()
            if n.get("type") == "Button" and n.get("expanded") is False and f"@{r}" not in opened
        ]
        if not closed:
            raise Unsolvable(f"no {name!r} in the tree and no closed folder left")
        opened.add(closed[0])
        a.tap(closed[0])
        _idle(a)  # the folder opens with an animation
    raise Unsolvable(f"no {name!r} after opening 20 folders")


def solve_search_engine(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"the (\d+)(?:st|nd|rd|th) search result", q)
    text = quoted(q)
    if not m or not text:
        raise Unsolvable(f"unparsed instruction {q!r}")
    n = int(m.group(1))
    a.fill(_fields(view)[0], text[0])
    a.tap_one(view, "Button", "Search")
    a.wait('role=Link label="1"')  # the results page and its paging links
    page = (n - 1) // 3 + 1
    if page > 1:
        a.tap(_find(a, f'role=Link label="{page}"'))
        _idle(a)
    results = [
        r
        for r, node in a.view(True).refs.items()
        if node.get("type") == "Link"
        and not re.fullmatch(r"\d+|<|>|«|»|First|Last|Previous|Next", str(node.get("label") or ""))
    ]
    k = (n - 1) % 3
    if len(results) <= k:
        raise Unsolvable(f"{len(results)} results on page {page}, need the {k + 1}th")
    a.tap(f"@{results[k]}")


def solve_login_user_popup(a: Agent, view: Any, q: str) -> None:
    """login-user where a field's focus may open a popup that disables the form: dismiss it (Cancel, never OK,
    which leaves the page) and fill that field again."""
    user, password = quoted(q)[:2]
    for field_id, value in (("username", user), ("password", password)):
        for _ in range(2):
            try:
                a.fill(f"id={field_id}", value)
            except ProtocolError as exc:  # the popup disabled the field while it was being filled
                a.log.append(f"fill {field_id}: {exc.code}")
            cancel = a.refs(a.view(True), "Button", "Cancel")
            if not cancel:
                break
            a.log.append(f"popup after focusing {field_id}")
            a.popups += 1
            a.tap(cancel[0])
    a.tap("id=subbtn")


def _autocomplete(a: Agent, field: str, code: str) -> None:
    """Type an airport code or city into an autocomplete field; tap the suggestion that names it (``Kodiak, AK
    (ADQ)``)."""
    a.fill(field, code)
    a.wait("role=Cell", timeout_ms=3000)
    items = [
        f"@{r}"
        for r, n in a.view(True).refs.items()
        if n.get("type") == "StaticText"
        and (f"({code})" in str(n.get("label") or "") or str(n.get("label") or "").startswith(code + " ("))
    ]
    if not items:
        raise Unsolvable(f"no suggestion for {code!r}")
    a.tap(items[0])


def solve_book_flight(a: Agent, view: Any, q: str) -> None:
    m = re.search(r"Book the (cheapest|shortest) one-way flight from: (.+?) to: (.+?) on (\S+?)\.?$", q)
    if not m:
        raise Unsolvable(f"unparsed instruction {q!r}")
    goal, origin, dest, date = m.groups()
    _autocomplete(a, "id=flight-from", origin)
    _autocomplete(a, "id=flight-to", dest)
    # the date field is read-only (typing is refused): its calendar, which opens on a tap, sets it
    month, day, year = (int(x) for x in date.split("/"))
    a.tap("id=datepicker")
    a.wait('role=Link label="1"')
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]  # fmt: skip
    want = f"{months[month - 1]} {year}"
    for _ in range(12):
        cal = a.view()
        shown = next(
            (
                str(n.get("label"))
                for n in cal.refs.values()
                if re.fullmatch(r"[A-Z][a-z]+ \d{4}", str(n.get("label") or ""))
            ),
            "",
        )
        if shown == want:
            break
        here = months.index(shown.split()[0]) + 12 * int(shown.split()[1]) if shown else 0
        a.tap_one(cal, None, "Next" if here < month - 1 + 12 * year else "Prev")
    else:
        raise Unsolvable(f"the calendar does not reach {want}")
    a.tap_one(a.view(True), "Link", str(day))
    a.tap_one(a.view(True), "Button", "Search")
    a.wait("text=Duration:")
    # every flight down the results: its duration (``2h 15m``) and its price button (``Book flight for $123``).  A
    # flight is known by those two, not by its ref: an element that scrolled out of the view comes back with a new ref
    seen: set[tuple[int, int]] = set()
    for _ in range(20):
        seen.update(_flights(a.view()))
        if _scroll(a, "down", "id=results"):
            break
    if not seen:
        raise Unsolvable("no flights in the results")
    best = min(seen, key=lambda f: f if goal == "cheapest" else (f[1], f[0]))
    a.log.append(f"{len(seen)} flights, best {best}")
    for _ in range(20):  # back up the list to the best flight
        ref = _flights(a.view()).get(best)
        if ref:
            a.tap(ref)
            return
        if _scroll(a, "up", "id=results"):
            break
    raise Unsolvable(f"flight {best} not seen again on the way up")


def _flights(view: Any) -> dict[tuple[int, int], str]:
    """(price, minutes) → the ref of its ``Book flight for $N`` button, for each flight whose both show."""
    out: dict[tuple[int, int], str] = {}
    minutes = None
    for ref, node in view.refs.items():
        label = str(node.get("label") or "")
        d = re.fullmatch(r"(\d+)h (\d+)m", label)
        if d:
            minutes = int(d.group(1)) * 60 + int(d.group(2))
        p = re.fullmatch(r"Book flight for \$(\d+)", label)
        if p and minutes is not None:
            out.setdefault((int(p.group(1)), minutes), f"@{ref}")
            minutes = None
    return out


Solver = Callable[[Agent, Any, str], None]
SOLVERS: dict[str, Solver] = {
    "click-button": solve_click_button,
    "click-button-sequence": solve_click_button_sequence,
    "click-link": solve_click_link,
    "click-test": solve_click_test,
    "click-test-2": solve_click_test,
    "click-checkboxes": solve_click_checkboxes,
    "click-checkboxes-large": solve_click_checkboxes,
    "click-checkboxes-transfer": solve_click_checkboxes,
    "click-option": solve_click_option,
    "click-dialog": solve_click_dialog,
    "click-dialog-2": solve_click_dialog_2,
    "click-tab": solve_click_tab,
    "click-tab-2": solve_click_tab_2,
    "click-tab-2-easy": solve_click_tab_2,
    "click-tab-2-medium": solve_click_tab_2,
    "click-tab-2-hard": solve_click_tab_2,
    "click-collapsible": solve_click_collapsible,
    "click-collapsible-nodelay": solve_click_collapsible,
    "click-collapsible-2": solve_click_collapsible_2,
    "click-collapsible-2-nodelay": solve_click_collapsible_2,
    "enter-text": solve_enter_text,
    "enter-text-dynamic": solve_enter_text,
    "enter-text-2": solve_enter_text_2,
    "enter-password": solve_enter_password,
    "focus-text": solve_focus_text,
    "focus-text-2": solve_focus_text,
    "login-user": solve_login_user,
    "choose-list": solve_choose_list,
    "click-scroll-list": solve_click_scroll_list,
    "enter-date": solve_enter_date,
    "enter-time": solve_enter_time,
    "use-autocomplete": solve_use_autocomplete,
    "use-autocomplete-nodelay": solve_use_autocomplete,
    "social-media": solve_social_media,
    "use-spinner": solve_use_spinner,
    "email-inbox-delete": solve_email_inbox,
    "email-inbox-important": solve_email_inbox,
    "email-inbox-reply": solve_email_inbox,
    "email-inbox-forward": solve_email_inbox,
    "email-inbox": solve_email_inbox,
    "email-inbox-noscroll": solve_email_inbox,
    "email-inbox-star-reply": solve_email_inbox,
    "social-media-all": solve_social_media_many,
    "social-media-some": solve_social_media_many,
    "navigate-tree": solve_navigate_tree,
    "search-engine": solve_search_engine,
    "login-user-popup": solve_login_user_popup,
    "book-flight": solve_book_flight,
    "book-flight-nodelay": solve_book_flight,
}

# Families named in issue 14 that today's operations cannot do, and the operation each needs.
NEEDS: dict[str, str] = {
    "click-checkboxes-soft": "meaning (synonyms), not an operation: out of scope for a scripted solver",
}


def read_reward(a: Agent, episode_before: str, tries: int = 12) -> float | None:
    """The page's own ``Last reward`` once ``Episodes done`` moved past ``episode_before`` (no `wait` operation
    exists yet, so this looks again a bounded number of times)."""
    for _ in range(tries):
        view = a.view()
        done = a.by_id(view, "episode-id")
        last = a.by_id(view, "reward-last")
        if done and last and done.get("label") != episode_before:
            try:
                return float(str(last.get("label")))
            except ValueError:
                return None
        time.sleep(0.1)
    return None


# ------------------------------------------------------------------------------------------------ per task
@dataclass
class TaskResult:
    task: str
    inventory: int = 0
    misses: list[str] = field(default_factory=list)
    chars_i: int = 0
    chars_full: int = 0
    chars_pw: int = 0
    chars_pw_ai: int = 0
    episodes: list[Episode] = field(default_factory=list)
    note: str = ""

    @property
    def solved(self) -> int:
        return sum(1 for e in self.episodes if e.reward is not None and e.reward > 0)


def start_episode(a: Agent) -> str:
    """Tap the START cover; return the ``Episodes done`` counter read before."""
    for attempt in range(20):
        view = a.view()
        done = a.by_id(view, "episode-id")
        if a.by_id(view, "sync-task-cover") is not None:
            a.tap("id=sync-task-cover")
            if attempt:
                a.late_start += 1
            a.episode_before = str(done.get("label")) if done else ""
            a.tried = set()
            a.log = []
            return a.episode_before
        time.sleep(0.1)
    raise Unsolvable("no START cover on the screen")


def run_task(
    phone: Any, pw_page: Any, *, base: str, store: Inventories, task: str, episodes: int, seed: str
) -> TaskResult:
    res = TaskResult(task)
    url = task_url(base, task, "phone", seed)
    phone.open(url)
    agent = Agent(phone)
    try:
        # ---- episode 0: coverage and observation cost, then (when there is a solver) solve it
        t0 = time.monotonic()
        before = start_episode(agent)
        inv = store.wait_started("phone", task)
        if inv is None:
            res.note = "no inventory after START"
        for _ in range(3):  # the inventory the snapshot saw: the same before and after it
            inv = store.wait_quiet("phone", task)
            view_i = phone.snapshot(interactive=True)
            full = phone.snapshot()
            after = store.latest("phone", task)
            if inv is not None and after is not None and after.get("seq") == inv.get("seq"):
                break
        else:
            res.note = (res.note + "; " if res.note else "") + "page kept changing (coverage on the last inventory)"
        elements = list(inv["elements"]) if inv else []
        res.inventory = len(elements)
        res.misses = [describe(el) for el in coverage_misses(elements, list(view_i.refs.values()))]
        res.chars_i, res.chars_full = len(view_i.text), len(full.text)
        if pw_page is not None:
            res.chars_pw, res.chars_pw_ai = playwright_chars(pw_page, task_url(base, task, "pw", seed))
        solver = SOLVERS.get(task)
        if solver is None:
            return res
        for k in range(episodes):
            if k > 0:
                t0 = time.monotonic()
                agent.steps = 0
                before = start_episode(agent)
            ep = Episode()
            try:
                view = agent.view()
                q = agent.instruction(view)
                solver(agent, agent.view(True), q)
                ep.reward = read_reward(agent, before)
                if ep.reward is None:
                    ep.error = "no reward on the screen"
            except Unsolvable as exc:
                ep.error = str(exc)
                # the screen has the last word: a step taken before giving up may have ended the episode
                # (click-tab-2-medium rewards a tap on the empty second tab when the link is not in the first)
                ep.reward = read_reward(agent, before, tries=3)
                if ep.reward is not None and ep.reward > 0:
                    ep.error = ""
            except Exception as exc:  # a phonewire error: the finding is the message
                ep.error = f"{type(exc).__name__}: {exc}"
            ep.steps, ep.ms = agent.steps, (time.monotonic() - t0) * 1000
            if VERBOSE and not (ep.reward is not None and ep.reward > 0):
                print(f"  {task} episode {k} failed: {q if 'q' in locals() else ''!r}: {ep.error}", file=sys.stderr)
                for line in agent.log:
                    print(f"    {line}", file=sys.stderr)
                landed = (store.wait_quiet("phone", task, quiet=0.2, timeout=1.0) or {}).get("lastClick")
                print(f"    the page's last click landed on: {landed}", file=sys.stderr)
            res.episodes.append(ep)
            if ep.reward is None:  # the episode may still be running: let its clock end it before the next START
                read_reward(agent, before, tries=110)
        return res
    finally:
        if agent.popups:
            res.note = (res.note + "; " if res.note else "") + f"popup dismissed {agent.popups}x"
        if agent.late_start:
            res.note = (res.note + "; " if res.note else "") + (
                f"START cover missing from the first snapshot {agent.late_start}x (screen not settled)"
            )
        with contextlib.suppress(Exception):
            phone.close_app()


def playwright_snapshots(page: Any, url: str) -> tuple[str, str]:
    """Playwright's two snapshots of the task after START: ``aria_snapshot()`` of ``body`` (for assertions, no refs)
    and the page's snapshot for agents, ``mode="ai"`` (what Playwright MCP's ``browser_snapshot`` carries: refs)."""
    page.goto(url)
    page.click("#sync-task-cover")
    page.wait_for_timeout(300)
    return page.locator("body").aria_snapshot(), page.aria_snapshot(mode="ai")


def playwright_chars(page: Any, url: str) -> tuple[int, int]:
    plain, ai = playwright_snapshots(page, url)
    return len(plain), len(ai)


# ------------------------------------------------------------------------------------------------ report
def table(results: list[TaskResult], episodes: int) -> str:
    lines = [
        "| task | inventory | misses | `-i` chars | full chars | Playwright chars | `-i`/PW | PW for agents chars "
        "| `-i`/PW-AI | solved | steps | ms/episode | note |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        ratio = f"{r.chars_i / r.chars_pw:.2f}" if r.chars_pw else "–"
        ratio_ai = f"{r.chars_i / r.chars_pw_ai:.2f}" if r.chars_pw_ai else "–"
        misses = "; ".join(r.misses) if r.misses else "0"
        if len(misses) > 160:
            misses = misses[:157] + "…"
        if r.episodes:
            solved = f"{r.solved}/{len(r.episodes)}"
            steps = f"{statistics.mean(e.steps for e in r.episodes):.1f}"
            ms = f"{statistics.mean(e.ms for e in r.episodes):.0f}"
            errors = sorted({e.error for e in r.episodes if e.error})
            note = "; ".join([r.note, *errors]).strip("; ")
        else:
            solved, steps, ms = "–", "–", "–"
            note = r.note or (f"needs {NEEDS[r.task]}" if r.task in NEEDS else "")
        note = note.replace("|", "/").replace("\n", " ")[:200]
        misses = misses.replace("|", "/")
        lines.append(
            f"| {r.task} | {r.inventory} | {misses} | {r.chars_i} | {r.chars_full} | {r.chars_pw or '–'} | {ratio} "
            f"| {r.chars_pw_ai or '–'} | {ratio_ai} | {solved} | {steps} | {ms} | {note} |"
        )
    return "\n".join(lines)


def summary(results: list[TaskResult], seconds: float) -> str:
    pages = len(results)
    with_misses = sum(1 for r in results if r.misses)
    misses = sum(len(r.misses) for r in results)
    inventory = sum(r.inventory for r in results)
    ratios = [r.chars_i / r.chars_pw for r in results if r.chars_pw]
    full_ratios = [r.chars_full / r.chars_pw for r in results if r.chars_pw]
    ai_ratios = [r.chars_i / r.chars_pw_ai for r in results if r.chars_pw_ai]
    eps = [e for r in results for e in r.episodes]
    ok = sum(1 for e in eps if e.reward is not None and e.reward > 0)
    rate = f"{ok}/{len(eps)} ({100 * ok / len(eps):.0f} %)" if eps else "0/0"
    med = f"{statistics.median(ratios):.2f}" if ratios else "–"
    medf = f"{statistics.median(full_ratios):.2f}" if full_ratios else "–"
    med_ai = f"{statistics.median(ai_ratios):.2f}" if ai_ratios else "–"
    return (
        f"summary: {pages} pages, {inventory} inventoried elements, {misses} coverage misses on {with_misses} pages; "
        f"median `-i`/Playwright chars {med} (full view {medf}), `-i`/Playwright-for-agents {med_ai}; "
        f"scripted success {rate} on "
        f"{sum(1 for r in results if r.episodes)} tasks; wall {seconds:.0f} s"
    )


def run_benchmark(
    html: Path, tasks: list[str], *, episodes: int, seed: str, playwright: bool = True
) -> tuple[list[TaskResult], Inventories]:
    """Serve ``html``, start a phone (and Playwright's browser), run each task; stop them all.  Returns the
    per-task results and the inventory store (what the pages posted)."""
    import phonewire

    store = Inventories()
    results: list[TaskResult] = []
    with contextlib.ExitStack() as stack:
        base = stack.enter_context(serve(html, store))
        pw_page = stack.enter_context(playwright_page()) if playwright else None
        phone = stack.enter_context(phonewire.Phone(device=DEVICE))
        for task in tasks:
            t0 = time.monotonic()
            try:
                res = run_task(phone, pw_page, base=base, store=store, task=task, episodes=episodes, seed=seed)
            except Exception as exc:
                res = TaskResult(task, note=f"harness error {type(exc).__name__}: {exc}")
            results.append(res)
            print(
                f"{task}: inventory {res.inventory}, misses {len(res.misses)}, -i {res.chars_i} / PW {res.chars_pw}"
                f" / PW-AI {res.chars_pw_ai}"
                f", solved {res.solved}/{len(res.episodes)}  ({time.monotonic() - t0:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
    return results, store


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", help="comma-separated task names (default: all)")
    ap.add_argument("--episodes", type=int, default=3, help="episodes per solvable task (default 3)")
    ap.add_argument("--out", type=Path, help="write the markdown report here")
    ap.add_argument("--seed", default="phonewire", help="seed for Math.seedrandom (default: phonewire)")
    ap.add_argument("--no-playwright", action="store_true", help="skip the Playwright baseline")
    ap.add_argument("--verbose", action="store_true", help="print the taps of each failed episode")
    ap.add_argument(
        "--show-views",
        metavar="TASKS",
        help="comma-separated tasks: print `snapshot -i` and Playwright's two aria snapshots (plain, for agents) of "
        "each after START, with character counts, and exit",
    )
    args = ap.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose

    html = ensure_html()
    if args.show_views:
        show_views(html, [t.strip() for t in args.show_views.split(",") if t.strip()], seed=args.seed)
        return 0
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else all_tasks(html)
    unknown = [t for t in tasks if not (html / "miniwob" / f"{t}.html").is_file()]
    if unknown:
        ap.error(f"unknown task(s): {', '.join(unknown)}")
    t_start = time.monotonic()
    results, _ = run_benchmark(html, tasks, episodes=args.episodes, seed=args.seed, playwright=not args.no_playwright)
    seconds = time.monotonic() - t_start
    report = "\n".join(
        [
            f"MiniWoB++ {VERSION} on phonewire `{DEVICE}` — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
            f"{platform.node()} ({platform.machine()}, Python {platform.python_version()}), "
            f"{args.episodes} episode(s) per solvable task, seed {args.seed!r}",
            "",
            table(results, args.episodes),
            "",
            summary(results, seconds),
            "",
        ]
    )
    print(report)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report)
    return 0


def show_views(html: Path, tasks: list[str], *, seed: str) -> None:
    """Print ``snapshot -i`` and Playwright's aria snapshot of each task's first episode, side by side in time
    (same seed, same viewport), with their character counts."""
    import phonewire

    store = Inventories()
    with contextlib.ExitStack() as stack:
        base = stack.enter_context(serve(html, store))
        pw_page = stack.enter_context(playwright_page())
        phone = stack.enter_context(phonewire.Phone(device=DEVICE))
        for task in tasks:
            phone.open(task_url(base, task, "phone", seed))
            start_episode(Agent(phone))
            store.wait_started("phone", task)
            store.wait_quiet("phone", task)
            mine = phone.snapshot(interactive=True).text
            phone.close_app()
            theirs, ai = playwright_snapshots(pw_page, task_url(base, task, "pw", seed))
            print(f"===== {task}: -i {len(mine)} chars, Playwright {len(theirs)} chars, for agents {len(ai)} chars")
            print(f"----- snapshot -i\n{mine}\n----- Playwright aria_snapshot(body)\n{theirs}")
            print(f"----- Playwright aria_snapshot(mode='ai')\n{ai}\n")


@contextlib.contextmanager
def playwright_page() -> Iterator[Any]:
    """A Playwright page on Debian's Chromium with the iphone-15 viewport (the baseline of the same run)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            context = browser.new_context(
                viewport={"width": VIEWPORT_W, "height": VIEWPORT_H},
                device_scale_factor=3,
                is_mobile=True,
                has_touch=True,
            )
            yield context.new_page()
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
