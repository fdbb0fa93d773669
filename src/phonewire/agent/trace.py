"""Session traces: a recorder around every operation of the table, written as it goes.

``trace_start DIR`` registers a :class:`Recorder` as an observer (:mod:`phonewire.agent.hooks`) of one
:class:`~phonewire.agent.core.AgentSession`: it sees each operation of
:data:`~phonewire.agent.operations.OPERATIONS` the session performs as a step (``on_step`` … ``on_result``) and
the element each ref or selector resolved to (``on_resolved``); ``trace_stop`` removes it.  An untraced session has
no observer and pays nothing but the test of an empty list.

Per step the recorder writes one JSON line::

    {"kind": "step", "n": 3, "time": 1767000000.123, "op": "tap", "args": {"target": "@e5", "count": 1},
     "target": {"ref": "e5", "type": "Button", "label": "Like 0", "identifier": "like-5",
                "rect": {"x": 300, "y": 210, "width": 70, "height": 32}, "selector": "id=\\"like-5\\""},
     "result": {...ActionResult.to_json()...} | "error": {"code": ..., "message": ..., "hint": ...},
     "ms": 41.2, "changed": true, "before": "shots/00003-before.jpg", "shot": "shots/00003.jpg",
     "view": "@e1 Heading \\"Inbox\\" …",
     "console": [{"seq": 7, "kind": "console", "level": "log", "text": "saved", ...}],
     "network": [{"seq": 2, "method": "POST", "url": "...", "status": 200, "size": 312, "ms": 14.5, ...}]}

``before`` is the screen before a mutating step (reads have none: the previous step's ``shot`` shows it);
``console`` and ``network`` the device's log entries and finished requests that arrived during the step (the web
device; absent where there were none or the device has none — a request still in flight when the step ends
shows in the next step).  ``target`` is the element a ref or selector resolved to, with a selector that finds it
again (``id``, else ``role`` + ``label``, else ``text`` — the first that matches that element alone).  ``shot`` is
the screen after the step (JPEG, one pixel per point); ``view`` the agent view after it (interactive lines, refs
numbered afresh: it never changes the session's refs).  Text typed into a password field is replaced by
:data:`REDACTED` in the arguments, the results and the view, and the step says ``"secret": true``; it is scrubbed
(also URL-encoded) from every later step of the trace too (a GET form's request URL, a page that shows it).

Layout of a trace directory (0700; every file 0600)::

    trace.jsonl       a header line ({"kind": "trace", "version": 1, ...}), then one line per step
    shots/NNNNN.jpg   the screen after step NNNNN
    shots/NNNNN-before.jpg   the screen before it (mutating steps)

Bounded: the newest :data:`MAX_SHOTS` steps' screenshots are kept (older ones are deleted, their steps keep their
lines),
a screenshot over :data:`MAX_SHOT_BYTES` is not written, a view is cut at :data:`MAX_VIEW_CHARS`, a step keeps at
most :data:`MAX_STEP_ENTRIES` log entries and as many requests, and after
:data:`MAX_STEPS` steps the recorder writes a last line (``{"kind": "full"}``) and records nothing more.
A crash loses at most the step in flight: each line is written whole as its step ends.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote, quote_plus
from weakref import WeakKeyDictionary

from phonewire.agent import selectors
from phonewire.agent.checks import checked_path
from phonewire.agent.hooks import STEP_NOTE, Observed
from phonewire.agent.operations import Operation
from phonewire.agent.results import ActionResult, View
from phonewire.agent.view import render
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node
from phonewire.runtime import NotPrivateError, make_private_dir

VERSION: Final = 1
STEPS_FILE: Final = "trace.jsonl"
SHOTS_DIR: Final = "shots"
REDACTED: Final = "[redacted]"
MAX_SHOTS: Final = 1000
MAX_SHOT_BYTES: Final = 512 * 1024
MAX_VIEW_CHARS: Final = 16_000
MAX_STEPS: Final = 100_000
SHOT_QUALITY: Final = 50
MAX_STEP_ENTRIES: Final = 100
#: Operations that control tracing itself: never recorded as steps.
CONTROL_OPS: Final = frozenset({"trace_start", "trace_stop"})
#: Roles whose typed text is a secret.
SECRET_ROLES: Final = frozenset({"SecureTextField"})
#: A typed password shorter than this is replaced in its step's arguments only (scrubbing free text of it would
#: mangle the text).
MIN_SCRUB_CHARS: Final = 3

_RECORDERS: WeakKeyDictionary[Observed, Recorder] = WeakKeyDictionary()


# -- the public verbs ------------------------------------------------------------------------------------------------
async def start(session: Observed, directory: str) -> ActionResult:
    """Record ``session``'s operations into ``directory`` from now on (a running trace is stopped first; a
    directory that already holds a trace is appended to)."""
    if not directory.strip():
        raise ProtocolError(e.INVALID_REQUEST, "trace start needs a directory", "Use `trace start DIR`.")
    path = _resolved(directory)
    previous = _RECORDERS.get(session)
    if previous is not None:
        if previous.directory == path:
            return ActionResult({"message": f"already tracing to {path}", "dir": str(path), "steps": previous.steps})
        previous.uninstall()
    try:
        recorder = Recorder(session, path)
    except NotPrivateError as exc:
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"cannot trace into {path}: it is a symlink, another user's directory, or not a directory",
            "Pass a new directory, or one of your own (e.g. under your home, not a name others could create in /tmp).",
        ) from exc
    except OSError as exc:
        raise ProtocolError(
            e.INVALID_REQUEST, f"cannot write a trace to {path}: {exc.strerror}", "Pass a writable directory."
        ) from exc
    recorder.install()
    _RECORDERS[session] = recorder
    await recorder.follow_side_channels()
    return ActionResult({"message": f"tracing to {path}", "dir": str(path)})


def _resolved(directory: str) -> Path:
    return checked_path(directory, "the trace directory", "Pass a directory of your own, e.g. under your home.")


def stop(session: Observed) -> ActionResult:
    recorder = _RECORDERS.pop(session, None)
    if recorder is None:
        return ActionResult({"message": "no trace was running", "steps": 0})
    recorder.uninstall()
    return ActionResult(
        {"message": f"trace stopped: {recorder.steps} step(s) in {recorder.directory}", "dir": str(recorder.directory),
         "steps": recorder.steps}
    )  # fmt: skip


def recorder_of(session: Observed) -> Recorder | None:
    return _RECORDERS.get(session)


# -- files -----------------------------------------------------------------------------------------------------------
def _private_dir(path: Path) -> None:
    """Create ``path`` 0700, or take it when it is this user's directory; :class:`NotPrivateError` when it is a
    symlink or another user's (one who pre-created ``/tmp/trace`` could plant symlinks in it).  An existing
    directory keeps its mode (``trace start ~`` must not close the home directory to others): every file written
    in it is 0600 and ``shots/`` is made 0700."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        make_private_dir(str(path))
        return
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        raise NotPrivateError(f"{path} is not a directory of this user")


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


@dataclass
class _Step:
    op: Operation
    args: dict[str, Any]
    started: float = 0.0
    t0: float = 0.0
    found: list[tuple[Node, str | None, list[Node]]] = field(default_factory=list)
    before: bytes | None = None
    #: Fields the runner of the step added (hooks.STEP_NOTE: a flow run's ``flow``).
    note: Mapping[str, Any] | None = None


class Recorder:
    """Writes one session's steps into one directory.  Made by :func:`start`; see the module docstring."""

    def __init__(self, session: Observed, directory: Path) -> None:
        self.session = session
        self.directory = directory
        _private_dir(directory)
        make_private_dir(str(directory / SHOTS_DIR), narrow=True)
        self.steps = sum(1 for _ in _lines(directory / STEPS_FILE))
        self._fd = os.open(directory / STEPS_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        os.fchmod(self._fd, 0o600)
        self._current: _Step | None = None
        self._last_view: str | None = None
        self._full = False
        #: Passwords typed while tracing (scrubbed from every later step too).
        self._secrets: set[str] = set()
        #: Cursors of the device's logs and requests (None: the device keeps none, or the trace has not asked yet).
        self._since: dict[str, int | None] = {c.LOGS: None, c.NETWORK: None}
        self._line({"kind": "trace", "version": VERSION, "time": round(time.time(), 3), "app": session.app_id})

    # -- observing (phonewire.agent.hooks) ----------------------------------------------------------------------------
    def install(self) -> None:
        self.session.add_observer(self)

    def uninstall(self) -> None:
        self.session.remove_observer(self)
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    async def on_step(self, op: Operation, args: dict[str, Any]) -> None:
        if op.name in CONTROL_OPS or self._full:
            self._current = None
            return
        step = _Step(op, args, note=STEP_NOTE.get())
        if not op.read_only and self.session.app_id:
            step.before = await self._shot()
        step.started, step.t0 = time.time(), time.perf_counter()
        self._current = step

    def on_resolved(self, node: Node, ref: str | None, nodes: list[Node]) -> None:
        # where every ref and selector resolves: the element (and its screen) of the step
        if self._current is not None:
            self._current.found.append((node, ref, nodes))

    async def on_result(self, op: Operation, result: object, error: ProtocolError | None) -> None:
        step, self._current = self._current, None
        if step is not None:
            await self._record(step, step.started, time.perf_counter() - step.t0, result, error)

    async def follow_side_channels(self) -> None:
        """Start following the device's logs and requests from now on (``network`` starts the device's capture);
        a device without them is not asked again."""
        for command in self._since:
            try:
                reply = await self.session.sender.send(command, {"since": c.MAX_SEQ})
                self._since[command] = int((reply.data or {}).get("next", 0))
            except ProtocolError:
                self._since[command] = None

    async def _side_channels(self) -> dict[str, list[Any]]:
        """The log entries and requests since the previous step (at most MAX_STEP_ENTRIES of each)."""
        out: dict[str, list[Any]] = {}
        for command, key, field_name in ((c.LOGS, "console", "entries"), (c.NETWORK, "network", "requests")):
            since = self._since[command]
            if since is None:
                continue
            try:
                data = (await self.session.sender.send(command, {"since": since})).data or {}
            except ProtocolError:
                continue
            self._since[command] = int(data.get("next", since))
            app = self.session.app_id
            # the session's app only: another app's console and requests (its URLs, tokens in them) stay out
            items = [
                x
                for x in data.get(field_name) or []
                if not app or not isinstance(x, dict) or x.get("app") in (None, app)
            ]
            if items:
                out[key] = list(items)[-MAX_STEP_ENTRIES:]
        return out

    async def _shot(self) -> bytes | None:
        try:
            reply = await self.session.sender.send(
                c.SCREENSHOT, {"format": "jpeg", "scale": "css", "quality": SHOT_QUALITY}
            )
        except ProtocolError:
            return None
        data = (reply.data or {}).get("imageBase64")
        return base64.b64decode(data) if isinstance(data, str) else None

    def _write_shot(self, n: int, suffix: str, shot: bytes | None) -> str | None:
        if shot is None or len(shot) > MAX_SHOT_BYTES:
            return None
        name = f"{SHOTS_DIR}/{n:05d}{suffix}.jpg"
        _write_private(self.directory / name, shot)
        if n > MAX_SHOTS:
            (self.directory / SHOTS_DIR / f"{n - MAX_SHOTS:05d}{suffix}.jpg").unlink(missing_ok=True)
        return name

    # -- recording ---------------------------------------------------------------------------------------------------
    async def _record(
        self, step: _Step, started: float, took: float, result: object, error: ProtocolError | None
    ) -> None:
        self.steps += 1
        n = self.steps
        entry: dict[str, Any] = {**(step.note or {}), "kind": "step", "n": n, "time": round(started, 3),
                                 "op": step.op.name, "args": dict(step.args), "ms": round(took * 1000, 1)}  # fmt: skip
        target = step.found[-1] if step.found else None
        if target is not None:
            entry["target"] = describe_target(*target)
        if error is not None:
            entry["error"] = error.to_wire()
        else:
            entry["result"] = _result_json(result)
        nodes, shot = await self._after()
        secret = _secret_text(step, target[0] if target else None, nodes)
        if nodes is not None:
            view = render(nodes, interactive=True).text
            if len(view) > MAX_VIEW_CHARS:
                view = view[:MAX_VIEW_CHARS] + "\n# … cut"
            entry["view"] = view
            if self._last_view is not None:
                entry["changed"] = view != self._last_view
            self._last_view = view
        if (before := self._write_shot(n, "-before", step.before)) is not None:
            entry["before"] = before
        if (after := self._write_shot(n, "", shot)) is not None:
            entry["shot"] = after
        entry.update(await self._side_channels())
        if secret:
            entry["args"]["text"] = REDACTED
            entry["secret"] = True
            if len(secret) >= MIN_SCRUB_CHARS:  # shorter: too short to scrub from free text without mangling it
                self._secrets.add(secret)
        if self._secrets:  # a password typed earlier shows up later: a GET form's URL, a page that echoes it
            entry = _scrub(entry, self._secrets)
        self._line(entry)
        if n >= MAX_STEPS:
            self._line({"kind": "full", "steps": n})
            self._full = True

    async def _after(self) -> tuple[list[Node] | None, bytes | None]:
        """The screen after a step: its nodes and a small JPEG (``None`` where the device could not say)."""
        session = self.session
        nodes: list[Node] | None = None
        if session.app_id:
            try:
                reply = await session.sender.send(c.SNAPSHOT, {"appBundleId": session.app_id})
                raw = (reply.data or {}).get("nodes")
                nodes = raw if isinstance(raw, list) else None
            except ProtocolError:
                nodes = None
        return nodes, await self._shot()

    def _line(self, entry: Mapping[str, Any]) -> None:
        if self._fd >= 0:
            line = json.dumps(entry, ensure_ascii=False, default=str)  # a page's lone surrogate: its \uXXXX escape
            os.write(self._fd, line.encode("utf-8", "backslashreplace") + b"\n")


# -- what a step says ------------------------------------------------------------------------------------------------
def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def stable_selector(node: Node, nodes: list[Node]) -> str | None:
    """A selector that finds ``node`` again and nothing else on its screen: ``id``, else ``role`` + ``label``, else
    ``text`` (``None`` when none of them is unique)."""
    candidates = []
    identifier, label, role = node.get("identifier"), node.get("label"), node.get("type")
    if identifier:
        candidates.append(f"id={_quote(str(identifier))}")
    if label and role:
        candidates.append(f"role={role} label={_quote(str(label))}")
    text = label or (None if role in SECRET_ROLES else node.get("value"))
    if text:
        candidates.append(f"text={_quote(str(text))}")
    for candidate in candidates:
        try:
            found = selectors.match(selectors.parse(candidate), nodes)
        except ProtocolError:
            continue
        if len(found) == 1 and found[0].get("index") == node.get("index"):
            return candidate
    return None


def describe_target(node: Node, ref: str | None, nodes: list[Node]) -> dict[str, Any]:
    out: dict[str, Any] = {"ref": ref, "type": node.get("type"), "label": node.get("label"),
                           "identifier": node.get("identifier"), "rect": node.get("rect")}  # fmt: skip
    out["selector"] = stable_selector(node, nodes)
    return {k: v for k, v in out.items() if v is not None}


def _result_json(result: object) -> Any:
    if isinstance(result, ActionResult):
        return result.to_json()
    if isinstance(result, View):
        return {"text": result.text[:MAX_VIEW_CHARS]}
    if isinstance(result, bytes):
        return {"bytes": len(result)}
    if isinstance(result, list):
        return {"items": result}
    return result


def _secret_text(step: _Step, target: Node | None, after: list[Node] | None) -> str | None:
    """The text this step typed into a password field, if it did."""
    text = step.args.get("text")
    if not isinstance(text, str) or not text:
        return None
    if target is not None:
        return text if target.get("type") in SECRET_ROLES else None
    focused = [n for n in after or () if n.get("focused")]
    return text if any(n.get("type") in SECRET_ROLES for n in focused) else None


def _scrub(entry: dict[str, Any], secrets: set[str]) -> dict[str, Any]:
    """``entry`` with every secret typed in this trace replaced by :data:`REDACTED`, also URL-encoded (a request's
    URL carries a GET form's password)."""
    encoded = json.dumps(entry, ensure_ascii=False, default=str)
    for secret in sorted(secrets, key=len, reverse=True):
        for form in {secret, quote(secret, safe=""), quote_plus(secret), quote(secret)}:
            encoded = encoded.replace(json.dumps(form, ensure_ascii=False)[1:-1], REDACTED)
    scrubbed: dict[str, Any] = json.loads(encoded)
    return scrubbed


# -- reading ---------------------------------------------------------------------------------------------------------
def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # the step in flight when the process died
        if isinstance(entry, dict) and entry.get("kind") == "step":
            out.append(entry)
    return out


def read_steps(directory: str | Path) -> list[dict[str, Any]]:
    """The steps of the trace in ``directory``, in order (a torn last line is skipped)."""
    path = Path(directory)
    if not (path / STEPS_FILE).exists():
        raise ProtocolError(
            e.INVALID_REQUEST, f"{path} holds no trace ({STEPS_FILE} is missing)", "Record one with `trace start DIR`."
        )
    return _lines(path / STEPS_FILE)
