"""Calls and characters per task: one scripted agent, through phonewire's CLI and through Playwright MCP.

    .venv/bin/python bench/bench_agent.py [--episodes 3] [--tasks a,b] [--no-django] [--verbose] [--transcript FILE]

The agent is written once (the policies below) against a neutral reading of a screen: a list of items (ref,
role, name) parsed from what its tool returned. Two drivers run it, side by side, on the same pages:

* **phonewire CLI**: the command an agent calls from a shell (``.venv/bin/phonewire``, the native client, with a
  private daemon and state directory). A turn whose steps are known from one observation is one ``batch`` call
  (steps on stdin); an observation is ``snapshot -i``. The figure without batching (one call per step) is printed
  beside it.
* **Playwright MCP** (npm ``@playwright/mcp``, installed into ``.cache/playwright-mcp`` by ``npm install`` when
  absent) over stdio with the MCP SDK's client, on Debian's Chromium (``--executable-path``), ``--device "iPhone
  15"``, ``--isolated``, ``--headless`` (and ``--no-sandbox`` when running as root, as Chromium requires). Every
  tool call is one call. Its action replies since 0.0.7x carry no snapshot (they write it to a file the agent
  cannot read through MCP), so the agent calls ``browser_snapshot`` to see the page, as a Playwright MCP agent
  does; consecutive fields are one ``browser_fill_form``.

Characters are those of every reply the agent reads (stdout + stderr of each CLI call; the text content of each
MCP result); the MCP tool list, read once per session, is printed apart. Success is judged outside the agent and
costs it nothing: MiniWoB++ pages post their episode's reward to the harness (``bench/agent_inject.js``, the same
seed per episode for both agents); the Django admin tasks are checked in the app's database. Tasks: MiniWoB++
families the project solves (docs/miniwob-report.md) whose task is known from one observation after START, and
three Django admin tasks (the real-app suite's: log in, add a group, delete a user through the action select).

Prints a table per task and the medians; asserts nothing. Everything it starts (http server, Django, daemon,
runner, browsers, the MCP server) is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.server
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phonewire.agent.was import unmarked

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests"), str(ROOT / "tests" / "realapps")]

import bench_miniwob  # noqa: E402  (bench/ and tests/ are put on the path just above)
from bench_cli import COMMAND, cli_env  # noqa: E402
from bench_web import serve_handler  # noqa: E402

#: ``--transcript FILE``: every phonewire call and what it returned, appended there (to read what the characters are).
TRANSCRIPT: Path | None = None
INJECT = Path(__file__).resolve().with_name("agent_inject.js")
MCP_DIR = ROOT / ".cache" / "playwright-mcp"
MCP_VERSION = "0.0.83"
SEED = "phonewire-agent"

# ------------------------------------------------------------------------------------------------ screens as items
#: the neutral roles the policies ask for, and each tool's spellings of them
ROLES: dict[str, tuple[set[str], set[str]]] = {
    "button": ({"Button"}, {"button"}),
    "link": ({"Link"}, {"link"}),
    "textbox": ({"TextField", "SecureTextField", "TextArea", "SearchField"}, {"textbox", "searchbox"}),
    "checkbox": ({"CheckBox"}, {"checkbox"}),
    "radio": ({"RadioButton"}, {"radio"}),
    "combobox": ({"ComboBox"}, {"combobox"}),
}


@dataclass(frozen=True)
class Item:
    ref: str
    role: str  # the neutral role, or the tool's own when it has none
    name: str


_PW_LINE = re.compile(
    r'^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?[^\[\n]*(?:\[[^\]]*\] )*?.*?\[ref=(\w+)\][^:\n]*(?::\s*(.*))?$'
)
_PF_LINE = re.compile(r'^\s*@(\w+) (\w+)(?: ("(?:[^"\\]|\\.)*"))?')


def _neutral(role: str, side: int) -> str:
    return next((k for k, spell in ROLES.items() if role in spell[side]), role.lower())


def items_phonewire(text: str) -> list[Item]:
    out = []
    for line in text.splitlines():
        m = _PF_LINE.match(line)
        if m:
            out.append(Item("@" + m[1], _neutral(m[2], 0), json.loads(m[3]) if m[3] else ""))
    return out


def items_playwright(text: str) -> list[Item]:
    out = []
    for line in text.splitlines():
        m = _PW_LINE.match(line)
        if m:
            name = m[2].replace('\\"', '"') if m[2] is not None else (m[4] or "").strip().strip('"')
            out.append(Item(m[3], _neutral(m[1], 1), name))
    return out


# ------------------------------------------------------------------------------------------------ the policies
@dataclass(frozen=True)
class Act:
    op: str  # click | fill | select | enter (the Enter key: submits the form of the focused field)
    item: Item
    text: str = ""


class Unsolvable(Exception):
    pass


def pick(items: list[Item], role: str, name: str | None = None, nth: int = 0) -> Item:
    found = [i for i in items if i.role == role and (name is None or i.name.strip().lower() == name.lower())]
    if len(found) <= nth:
        raise Unsolvable(f"no {role} {name!r} (#{nth}) among {len(items)} items")
    return found[nth]


def clickable(items: list[Item], name: str, roles: tuple[str, ...] = ("link", "button")) -> Item:
    """The item of one of ``roles`` named ``name``; else (no ref for it on the screen: a ``<span>`` with a click
    handler that the tool does not show as a control) a target by its text, which both tools take (phonewire's
    ``text=`` selector, Playwright's ``text="…"`` selector as MCP's ``target``)."""
    for role in roles:
        with contextlib.suppress(Unsolvable):
            return pick(items, role, name)
    return Item("", "text", name)


def instruction(text: str) -> str:
    return text.replace('\\"', '"')


Turn = Callable[[str, list[Item]], list[Act]]
#: How many more looks an agent takes when what it needs is not in what it saw (phonewire: the full view, then
#: a scroll down with a new ``-i``; Playwright MCP's snapshot is the whole page already: no further look).
LOOKS = 3


def q_match(pattern: str, text: str) -> re.Match[str]:
    m = re.search(pattern, instruction(text))
    if not m:
        raise Unsolvable(f"no instruction like {pattern!r}")
    return m


def start_turn(_text: str, items: list[Item]) -> list[Act]:
    cover = [i for i in items if i.name.strip().upper() == "START"]
    if not cover:
        raise Unsolvable("no START cover")
    return [Act("click", cover[0])]


def _submit(items: list[Item], label: str = "Submit") -> Act:
    return Act("click", pick(items, "button", label))


def click_button(text: str, items: list[Item]) -> list[Act]:
    return [Act("click", pick(items, "button", q_match(r'Click on the "(.+?)" button', text)[1]))]


def click_button_sequence(text: str, items: list[Item]) -> list[Act]:
    m = q_match(r"Click button (\w+), then click button (\w+)", text)
    return [Act("click", pick(items, "button", m[1])), Act("click", pick(items, "button", m[2]))]


def click_link(text: str, items: list[Item]) -> list[Act]:
    return [Act("click", clickable(items, q_match(r'Click on the link "(.+?)"', text)[1]))]


def click_checkboxes(text: str, items: list[Item]) -> list[Act]:
    words = q_match(r"Select (.*?) and click Submit", text)[1]
    names = [] if words.strip() == "nothing" else [w for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", words) if w]
    return [*(Act("click", pick(items, "checkbox", n)) for n in names), _submit(items)]


def click_option(text: str, items: list[Item]) -> list[Act]:
    return [Act("click", pick(items, "radio", q_match(r"Select (.+?) and click Submit", text)[1])), _submit(items)]


def click_dialog(_text: str, items: list[Item]) -> list[Act]:
    close = [i for i in items if i.role == "button" and i.name.strip().lower() in {"close", "×", "x"}]
    if not close:
        raise Unsolvable("no close button")
    return [Act("click", close[0])]


def enter_text(text: str, items: list[Item]) -> list[Act]:
    word = q_match(r'Enter "(.*?)" into the text field', text)[1]
    return [Act("fill", pick(items, "textbox"), word), _submit(items)]


def enter_password(text: str, items: list[Item]) -> list[Act]:
    word = q_match(r'Enter the password "(.*?)" into both', text)[1]
    return [Act("fill", pick(items, "textbox"), word), Act("fill", pick(items, "textbox", nth=1), word), _submit(items)]


def login_user(text: str, items: list[Item]) -> list[Act]:
    m = q_match(r'Enter the username "(.*?)" and the password "(.*?)"', text)
    return [Act("fill", pick(items, "textbox"), m[1]), Act("fill", pick(items, "textbox", nth=1), m[2]),
            _submit(items, "Login")]  # fmt: skip


def focus_text(_text: str, items: list[Item]) -> list[Act]:
    return [Act("click", pick(items, "textbox"))]


def choose_list(text: str, items: list[Item]) -> list[Act]:
    option = q_match(r"Select (.+?) from the list and click Submit", text)[1]
    return [Act("select", pick(items, "combobox"), option), _submit(items)]


MINIWOB: dict[str, Turn] = {
    "click-button": click_button,
    "click-button-sequence": click_button_sequence,
    "click-link": click_link,
    "click-checkboxes": click_checkboxes,
    "click-option": click_option,
    "click-dialog": click_dialog,
    "enter-text": enter_text,
    "enter-password": enter_password,
    "login-user": login_user,
    "focus-text": focus_text,
    "choose-list": choose_list,
}


def django_turns(user: str, group: str) -> dict[str, tuple[str, list[Turn]]]:
    """(path, turns) of the Django admin tasks; ``user`` and ``group`` differ per agent (one database)."""
    from realapps_env import ADMIN_PASSWORD, ADMIN_USER

    def login(_t: str, items: list[Item]) -> list[Act]:
        return [Act("fill", pick(items, "textbox"), ADMIN_USER),
                Act("fill", pick(items, "textbox", nth=1), ADMIN_PASSWORD), _submit(items, "Log in")]  # fmt: skip

    def add_group(_t: str, items: list[Item]) -> list[Act]:
        name = pick(items, "textbox", "Name:")
        return [Act("fill", name, group), Act("enter", name)]  # the form's default button: Save

    def choose_user(_t: str, items: list[Item]) -> list[Act]:
        box = [i for i in items if i.role == "checkbox" and i.name.strip().endswith(user)]
        if not box:
            raise Unsolvable(f"no checkbox for {user}")
        return [Act("click", box[0]), Act("select", pick(items, "combobox", "Action:"), "Delete selected users"),
                _submit(items, "Go")]  # fmt: skip

    def confirm(_t: str, items: list[Item]) -> list[Act]:
        yes = [i for i in items if i.role == "button" and i.name.startswith("Yes")]
        if not yes:
            raise Unsolvable("no confirmation button")
        return [Act("click", yes[0])]

    return {
        "django: log in": ("/admin/login/?next=/admin/", [login]),
        "django: add a group": ("/admin/auth/group/add/", [add_group]),
        "django: delete a user": ("/admin/auth/user/", [choose_user, confirm]),
    }


# ------------------------------------------------------------------------------------------------ the drivers
@dataclass
class Tally:
    calls: int = 0
    chars: int = 0
    steps: int = 0  # phonewire: CLI calls without batch (one per step)

    def add(self, other: Tally) -> None:
        self.calls += other.calls
        self.chars += other.chars
        self.steps += other.steps


class PhonewireCli:
    name = "phonewire CLI"

    def __init__(self) -> None:
        self.env = cli_env()
        self.tally = Tally()
        #: The screen as the agent last knew it: ref → its line.
        self.view: dict[str, str] = {}

    def _call(self, argv: list[str], stdin: str | None = None) -> str:
        proc = subprocess.run([str(COMMAND), *argv], env=self.env, input=stdin, capture_output=True, text=True,
                              timeout=120, check=False)  # fmt: skip
        out = proc.stdout + proc.stderr
        self.tally.calls += 1
        self.tally.chars += len(out)
        if TRANSCRIPT is not None:
            with TRANSCRIPT.open("a") as log:
                log.write(f"$ phonewire {' '.join(argv)}\n{stdin or ''}--- {len(out)} chars\n{out}\n")
        return out

    def turn(self, steps: list[list[str]], observe: bool) -> str:
        """One call: the steps (and a ``snapshot -i`` when the agent must see the result and no action's reply shows
        it) as one batch.  An action's reply carries its settled diff (SKILL.md's "verify"): the agent reads the
        screen after it as its last look with the diff applied (:meth:`seen`), as an agent keeps what it saw."""
        acting = any(step[0] in ("tap", "fill", "select", "press", "scroll") for step in steps)
        steps = [*steps, ["snapshot", "-i"]] if observe and (not acting or not self.view) else steps
        self.tally.steps += len(steps)
        out = self._call(steps[0]) if len(steps) == 1 else self._call(["batch", "-"], json.dumps(steps))
        return self.seen(out)

    def seen(self, out: str) -> str:
        """The screen as the agent knows it after ``out``: a view in it replaces what it knew; the diff lines of an
        action's reply (``+`` added, ``-`` removed, ``~`` changed, refs included) change what it knew (a changed
        line as the element is now: :func:`~phonewire.agent.was.unmarked`)."""
        lines = out.splitlines()
        view = [ln for ln in lines if _PF_LINE.match(ln)]
        if view:
            self.view = {ln.split()[0]: ln for ln in view}
        for ln in lines:
            sign, _, rest = ln.partition(" ")
            ref = rest.split(" ", 1)[0] if rest.startswith("@") else ""
            if sign in ("+", "~") and ref:
                self.view[ref] = unmarked(rest)
            elif sign == "-":
                gone = rest.split(" id=", 1)[0]
                for key, known in list(self.view.items()):
                    if known.split(" ", 1)[1].startswith(gone):
                        del self.view[key]
        return "\n".join([*[ln for ln in lines if not _PF_LINE.match(ln)], *self.view.values()])

    def start(self, url: str) -> str:
        return self.turn([["open", url]], observe=True)

    def act(self, acts: list[Act], observe: bool) -> str:
        steps = []
        for a in acts:
            target = a.item.ref or f"text={a.item.name}"
            if a.op == "enter":
                steps.append(["press", "enter"])
            elif a.op == "click":
                steps.append(["tap", target])
            elif a.op == "fill":
                steps.append(["fill", target, a.text])
            else:
                steps.append(["select", target, a.text])
        return self.turn(steps, observe)

    def look_further(self, attempt: int) -> str | None:
        """What an agent does when ``-i`` lacks what it looks for: the full view (the same screen, every text),
        then scroll down and look again."""
        if attempt == 0:
            return self.turn([["snapshot"]], observe=False)
        return self.turn([["scroll", "down"]], observe=True)

    @staticmethod
    def items(text: str) -> list[Item]:
        return items_phonewire(text)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            subprocess.run([str(COMMAND), "daemon", "stop"], env=self.env, capture_output=True, timeout=60, check=False)


def ensure_playwright_mcp() -> Path:
    cli = MCP_DIR / "node_modules" / "@playwright" / "mcp" / "cli.js"
    if not cli.is_file():
        MCP_DIR.mkdir(parents=True, exist_ok=True)
        (MCP_DIR / "package.json").write_text('{"name": "bench-playwright-mcp", "private": true}\n')
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "-s", f"@playwright/mcp@{MCP_VERSION}"],
                       cwd=MCP_DIR, check=True)  # fmt: skip
    return cli


class PlaywrightMcp:
    """Playwright MCP over stdio, driven from a thread of its own (the agent loop is synchronous)."""

    name = "Playwright MCP"

    def __init__(self) -> None:
        from phonewire.devices.web.browser import CHROMIUM

        self.tally = Tally()
        self.tool_list_chars = 0
        self._out = Path(tempfile.mkdtemp(prefix="pw-mcp-out-"))
        args = [str(ensure_playwright_mcp()), "--headless", "--isolated", "--executable-path", CHROMIUM,
                "--device", "iPhone 15", "--output-dir", str(self._out)]  # fmt: skip
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox
        self._args = args
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._session: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="playwright-mcp", daemon=True)
        self._thread.start()
        self._ready.wait(120)
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        self._loop.run_until_complete(self._main())

    async def _main(self) -> None:
        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client

        try:
            params = StdioServerParameters(command="node", args=self._args, cwd=str(self._out))
            async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                self.tool_list_chars = len(json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools]))
                self._session = session
                self._stop = asyncio.Event()
                self._ready.set()
                await self._stop.wait()
        except BaseException as exc:
            self._error = exc
            self._ready.set()

    def _tool(self, name: str, args: dict[str, Any]) -> str:
        result = asyncio.run_coroutine_threadsafe(self._session.call_tool(name, args), self._loop).result(120)
        text = "".join(getattr(c, "text", "") for c in result.content)
        self.tally.calls += 1
        self.tally.steps += 1
        self.tally.chars += len(text)
        return text

    def start(self, url: str) -> str:
        self._tool("browser_navigate", {"url": url})
        return self._tool("browser_snapshot", {})

    def act(self, acts: list[Act], observe: bool) -> str:
        pending: list[dict[str, str]] = []

        def flush() -> None:
            if pending:
                self._tool("browser_fill_form", {"fields": list(pending)})
                pending.clear()

        for a in acts:
            if a.op == "fill":
                pending.append({"name": a.item.name or a.item.role, "type": "textbox", "target": a.item.ref,
                                "value": a.text})  # fmt: skip
                continue
            flush()
            if a.op == "enter":
                self._tool("browser_press_key", {"key": "Enter"})
                continue
            element = f"{a.item.role} {a.item.name}".strip()
            target = a.item.ref or "text=" + json.dumps(a.item.name)
            if a.op == "click":
                self._tool("browser_click", {"element": element, "target": target})
            else:
                self._tool("browser_select_option", {"element": element, "target": target, "values": [a.text]})
        flush()
        return self._tool("browser_snapshot", {}) if observe else ""

    def look_further(self, attempt: int) -> str | None:
        return None  # its snapshot is the whole page

    @staticmethod
    def items(text: str) -> list[Item]:
        return items_playwright(text)

    def close(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(60)
        shutil.rmtree(self._out, ignore_errors=True)


Driver = PhonewireCli | PlaywrightMcp


# ------------------------------------------------------------------------------------------------ the harness
class Rewards:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._seen: dict[tuple[str, str], list[float]] = {}

    def put(self, client: str, task: str, reward: float) -> None:
        with self._cond:
            self._seen.setdefault((client, task), []).append(reward)
            self._cond.notify_all()

    def count(self, client: str, task: str) -> int:
        with self._cond:
            return len(self._seen.get((client, task), []))

    def wait_next(self, client: str, task: str, before: int, timeout: float = 5.0) -> float | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self._seen.get((client, task), [])) <= before:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._seen[(client, task)][before]


@contextlib.contextmanager
def serve_miniwob(html: Path, rewards: Rewards) -> Iterator[str]:
    script = INJECT.read_text(encoding="utf-8")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(html), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            file = html / path.lstrip("/")
            if not (path.startswith("/miniwob/") and path.endswith(".html") and file.is_file()):
                super().do_GET()
                return
            page = file.read_text(encoding="utf-8")
            tag = f"<script>{script}</script>"
            page = page.replace("</head>", tag + "</head>", 1) if "</head>" in page else page + tag
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            with contextlib.suppress(ValueError, TypeError, KeyError):
                got = json.loads(self.rfile.read(length))
                rewards.put(str(got["client"]), str(got["task"]), float(got["reward"]))
            self.send_response(204)
            self.end_headers()

    with serve_handler(Handler, "agent-http") as base:
        yield base


@dataclass
class Row:
    task: str
    done: dict[str, list[bool]] = field(default_factory=dict)
    tally: dict[str, list[Tally]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def run_turns(driver: Driver, url: str, turns: list[Turn]) -> None:
    text = driver.start(url)
    for k, turn in enumerate(turns):
        for attempt in range(LOOKS + 1):
            try:
                acts = turn(text, driver.items(text))
                break
            except Unsolvable:
                if bench_miniwob.VERBOSE:
                    print(f"--- what the agent saw ---\n{text}\n---", flush=True)
                further = driver.look_further(attempt)
                if further is None or attempt == LOOKS:
                    raise
                text = further
        text = driver.act(acts, observe=k + 1 < len(turns))


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    """The app's own state, polled: a form's POST may land after the tool's reply (either tool's)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def episode(driver: Driver, url: str, turns: list[Turn], judge: Callable[[], bool], *, row: Row, side: str) -> None:
    before = Tally(driver.tally.calls, driver.tally.chars, driver.tally.steps)
    ok = False
    try:
        run_turns(driver, url, turns)
        ok = judge()
    except Unsolvable as exc:
        row.notes.append(f"{side}: {exc}")
    spent = Tally(driver.tally.calls - before.calls, driver.tally.chars - before.chars,
                  driver.tally.steps - before.steps)  # fmt: skip
    row.done.setdefault(side, []).append(ok)
    row.tally.setdefault(side, []).append(spent)
    if bench_miniwob.VERBOSE:
        print(f"  {row.task:24} {side:14} ok={ok} calls={spent.calls} chars={spent.chars}", flush=True)


def miniwob_rows(drivers: dict[str, Driver], tasks: list[str], episodes: int) -> list[Row]:
    html = bench_miniwob.ensure_html()
    rewards = Rewards()
    rows = []
    with serve_miniwob(html, rewards) as base:
        for task in tasks:
            row = Row(task)
            for ep in range(episodes):
                for side, driver in drivers.items():
                    client = re.sub(r"\W", "", side)
                    # the same seed for both sides; a fresh page per episode (episode k of the page's own counter)
                    url = bench_miniwob.task_url(base, task, client, f"{SEED}-{ep}")
                    seen = rewards.count(client, task)

                    def judge(c: str = client, n: int = seen, t: str = task) -> bool:
                        reward = rewards.wait_next(c, t, n)
                        return reward is not None and reward > 0

                    episode(driver, url, [start_turn, MINIWOB[task]], judge, row=row, side=side)
            rows.append(row)
    return rows


def django_rows(drivers: dict[str, Driver]) -> list[Row]:
    from realapps_env import GROUPS, SETTINGS, URLS, USERS, manage, stop_pid, wait_http
    from realapps_env import MIDDLEWARE as SLOW
    from realapps_env import SEED as DJANGO_SEED

    from loopback import free_port

    root = Path(tempfile.mkdtemp(prefix="bench-agent-django-"))
    (root / "pwsite").mkdir()
    for name, text in (("__init__", ""), ("settings", SETTINGS), ("urls", URLS), ("slow", SLOW)):
        (root / "pwsite" / f"{name}.py").write_text(text)
    manage(root, "migrate", "--noinput")
    manage(root, "shell", "-c", DJANGO_SEED)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(root), DJANGO_SETTINGS_MODULE="pwsite.settings")
    proc = subprocess.Popen([sys.executable, "-m", "django", "runserver", f"127.0.0.1:{port}", "--noreload"],
                            cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL)  # fmt: skip
    db = root / "db.sqlite3"

    def query(sql: str) -> list[tuple[Any, ...]]:
        with contextlib.closing(sqlite3.connect(db, timeout=10)) as con:
            return list(con.execute(sql))

    rows: dict[str, Row] = {}
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(base + "/admin/login/", proc)
        for k, (side, driver) in enumerate(drivers.items()):
            user, group = USERS[k], f"agents {k}"
            assert group not in GROUPS
            sessions = len(query("SELECT session_key FROM django_session"))

            def logged_in(n: int = sessions) -> bool:
                return len(query("SELECT session_key FROM django_session")) > n

            def group_added(g: str = group) -> bool:
                return (g,) in query("SELECT name FROM auth_group")

            def user_deleted(u: str = user) -> bool:
                return (u,) not in query("SELECT username FROM auth_user")

            judges: dict[str, Callable[[], bool]] = {"django: log in": logged_in, "django: add a group": group_added,
                      "django: delete a user": user_deleted}  # fmt: skip
            for task, (path, turns) in django_turns(user, group).items():
                row = rows.setdefault(task, Row(task))

                def judge(j: Callable[[], bool] = judges[task]) -> bool:
                    return eventually(j)

                episode(driver, base + path, turns, judge, row=row, side=side)
    finally:
        stop_pid(proc)
        shutil.rmtree(root, ignore_errors=True)
    return list(rows.values())


def report(rows: list[Row], sides: list[str], tool_list: int) -> None:
    a, b = sides
    print(f"\n{'task':26} {'success':>11} {'calls (median)':>16} {'characters (median)':>22}  calls, no batch")
    print(f"{'':26} {a[:5]:>5} {b[:5]:>5} {a[:5]:>5} {b[:5]:>5} {'ratio':>5} {a[:5]:>7} {b[:5]:>7} {'ratio':>6}")
    per_task: dict[str, list[tuple[float, float, float]]] = {s: [] for s in sides}
    for row in rows:
        med: dict[str, tuple[float, float, float]] = {}
        for s in sides:
            t = row.tally.get(s, [])
            med[s] = (statistics.median(x.calls for x in t), statistics.median(x.chars for x in t),
                      statistics.median(x.steps for x in t)) if t else (0.0, 0.0, 0.0)  # fmt: skip
            per_task[s].append(med[s])
        ok = {s: f"{sum(row.done.get(s, []))}/{len(row.done.get(s, []))}" for s in sides}
        cr = med[a][0] / med[b][0] if med[b][0] else 0.0
        hr = med[a][1] / med[b][1] if med[b][1] else 0.0
        print(f"{row.task:26} {ok[a]:>5} {ok[b]:>5} {med[a][0]:>5.0f} {med[b][0]:>5.0f} {cr:>5.2f} "
              f"{med[a][1]:>7.0f} {med[b][1]:>7.0f} {hr:>6.2f}  {med[a][2]:.0f}")  # fmt: skip
        for note in row.notes[:3]:
            print(f"    {note}")
    total = {s: (sum(sum(r.done.get(s, [])) for r in rows), sum(len(r.done.get(s, [])) for r in rows)) for s in sides}
    calls = {s: statistics.median(m[0] for m in per_task[s]) for s in sides}
    chars = {s: statistics.median(m[1] for m in per_task[s]) for s in sides}
    steps = statistics.median(m[2] for m in per_task[a])
    print(f"\nsuccess: {a} {total[a][0]}/{total[a][1]}, {b} {total[b][0]}/{total[b][1]}")
    print(f"median per task: calls {a} {calls[a]:.1f} vs {b} {calls[b]:.1f} (ratio {calls[a] / calls[b]:.2f}; "
          f"{a} without batch {steps:.1f}, ratio {steps / calls[b]:.2f}); characters {a} {chars[a]:.0f} vs "
          f"{b} {chars[b]:.0f} (ratio {chars[a] / chars[b]:.2f})")  # fmt: skip
    print(f"{b}'s tool list, read once per session: {tool_list} characters (not in the per-task figures)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--tasks", default=",".join(MINIWOB), help="MiniWoB++ tasks (comma-separated)")
    parser.add_argument("--no-django", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--transcript", type=Path, help="append every phonewire CLI call and its output here")
    opts = parser.parse_args(argv)
    global TRANSCRIPT
    TRANSCRIPT = opts.transcript
    bench_miniwob.VERBOSE = opts.verbose
    tasks = [t for t in opts.tasks.split(",") if t]
    unknown = [t for t in tasks if t not in MINIWOB]
    if unknown:
        parser.error(f"no policy for {unknown}; known: {', '.join(MINIWOB)}")
    started = time.monotonic()
    drivers: dict[str, Driver] = {}
    try:
        drivers["phonewire CLI"] = PhonewireCli()
        drivers["Playwright MCP"] = PlaywrightMcp()
        rows = miniwob_rows(drivers, tasks, opts.episodes)
        if not opts.no_django:
            rows += django_rows(drivers)
    finally:
        for driver in drivers.values():
            driver.close()
    mcp = drivers["Playwright MCP"]
    assert isinstance(mcp, PlaywrightMcp)
    report(rows, list(drivers), mcp.tool_list_chars)
    print(f"wall {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
