"""``flow run FILE``: a checked Maestro flow run on one :class:`~phonewire.agent.core.AgentSession`.

Everything is checked before the first command runs (:func:`~phonewire.agent.flow_commands.check_flow`): a flow
that would fail to parse, names a command phonewire does not run, or could not end, runs nothing.  Then each
command runs as the operations of the table (``tap``, ``type``, ``press``, ``swipe``, ``scroll``, ``wait``,
``open_app``, ``screenshot`` … — the session's own methods, so every rule of a tap holds: the element is found
again in a fresh snapshot and tapped at its current centre, a covered one is refused).  A Maestro selector is
resolved here (:mod:`phonewire.agent.flow_match`) to one element, which the operation then names by a ref.

Each command reports one step, ``{"n", "file", "line", "command", "ms", "message"}`` (and ``"error"`` on the one
that failed); with a trace running (``--trace DIR``, or ``trace_start`` before) every operation of a command is
written to the trace with ``"flow": {"file", "line", "command"}``, and the commands that are the flow's own looks
at the screen (``assertVisible``, ``extendedWaitUntil``, ``scrollUntilVisible``'s checks, ``copyTextFrom``) are
written as steps of their own, so ``trace view`` shows the whole run.

A failure stops the run: the error is the failing operation's own code, its message prefixed with the flow's file,
line and command.  Bounds: a ``repeat … while`` stops with FLOW_UNBOUNDED after :data:`MAX_REPEAT` rounds; the run
takes at most :data:`MAX_FLOW_STEPS` steps.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from phonewire.agent import flow_match as fm
from phonewire.agent.checks import checked_path
from phonewire.agent.flow_commands import (
    COPIED,
    LOOKUP_MS,
    MAX_FLOW_STEPS,
    MAX_REPEAT,
    OPTIONAL_LOOKUP_MS,
    Step,
    check_flow,
    load_file,
    substitute,
    substitute_all,
)
from phonewire.agent.hooks import STEP_NOTE, Observed, Observers, own_step
from phonewire.agent.refs import Index
from phonewire.agent.results import ActionResult
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import TEXT_INPUT_ROLES, Node, Snapshot, rect_of


class FlowSession(Observed, Protocol):
    """The operations a flow's commands run as: :class:`~phonewire.agent.core.AgentSession` is one (declared here,
    so the flow runner does not import the session that calls it)."""

    @property
    def app_id(self) -> str | None: ...
    @app_id.setter
    def app_id(self, app_id: str | None) -> None: ...

    async def trace_start(self, dir: str) -> ActionResult: ...
    async def trace_stop(self) -> ActionResult: ...
    async def viewport(self) -> dict[str, float]: ...
    async def open_app(self, app_id: str, clear_state: bool = False) -> ActionResult: ...
    async def close_app(self, app_id: str | None = None) -> ActionResult: ...
    async def open_url(self, url: str) -> ActionResult: ...
    async def tap(self, target: str, *, count: int = 1) -> ActionResult: ...
    async def long_press(self, target: str) -> ActionResult: ...
    async def type(self, text: str) -> ActionResult: ...
    async def press(self, key: str) -> ActionResult: ...
    async def scroll(self, direction: str, *, amount: float = 0.6) -> ActionResult: ...
    async def swipe(self, x1: float, y1: float, x2: float, y2: float, *, duration_ms: float = 300) -> ActionResult: ...
    async def wait(self, *, idle: bool = False, timeout_ms: int = ...) -> ActionResult: ...
    async def screenshot(self, *, format: str = "png") -> bytes: ...
    async def clipboard_get(self) -> ActionResult: ...
    async def clipboard_set(self, text: str) -> ActionResult: ...
    async def location(self, latitude: float, longitude: float) -> ActionResult: ...


@dataclass(frozen=True)
class Eyes:
    """What the run needs of the session besides its operations: a look at the screen (the session's own snapshot,
    seen text included), the ref a found node carries, and the session's observers (for its own steps)."""

    look: Callable[..., Awaitable[Snapshot]]
    ref_for: Callable[[Node, Index], str]
    observers: Observers


#: Between two looks at the screen while waiting for an element.
POLL_S = 0.15
#: The most steps the answer's message lists one per line (``data.steps`` has them all).
MAX_LISTED = 200
#: scrollUntilVisible's scrolls: most of the screen each time (less than a whole one: nothing is skipped).
SCROLL_AMOUNT = 0.7


def parse_env(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, eq, value = str(pair).partition("=")
        if not eq or not key.strip():
            raise ProtocolError(e.INVALID_REQUEST, f"--env takes NAME=VALUE, got {pair!r}", "E.g. --env USER=alice.")
        out[key.strip()] = value
    return out


async def run(
    session: FlowSession,
    eyes: Eyes,
    file: str,
    env: list[str] | None = None,
    trace: str | None = None,
    *,
    confine: bool = False,
) -> ActionResult:
    """Check the flow in ``file`` whole, then run it; the steps it took (see the module docstring).  ``confine``:
    the files the flow names (runFlow, takeScreenshot) must be inside its folder (a WebDriver client's flow)."""
    if not str(file).strip():
        raise ProtocolError(e.INVALID_REQUEST, "flow run needs a flow file", "Use `flow run FILE.yaml`.")
    path = checked_path(file, "the flow file", "Name a flow file of yours.")
    flow = load_file(path, path.name)
    steps, variables = check_flow(flow, path, parse_env(env), confine=confine)
    app = flow.header.get("url") or flow.header.get("appId")
    from phonewire.agent import trace as tracing

    started_trace = False
    if trace:
        before = tracing.recorder_of(session)
        await session.trace_start(trace)
        started_trace = before is None or tracing.recorder_of(session) is not before
    if app and not session.app_id:
        session.app_id = str(app)  # a flow without launchApp acts on its app as it is (Maestro's way)
    runner = _Run(session, eyes, str(app) if app else None, path.parent, variables)
    runner.confine = confine
    try:
        await runner.block(steps)
    finally:
        if started_trace:
            await session.trace_stop()
    reports = sorted(runner.reports, key=lambda r: int(r["n"]))
    lines = [f"  {r['n']}. {r['file']}:{r['line']} {r['command']}: {r.get('message', '')}" for r in reports]
    if len(lines) > MAX_LISTED:
        lines = [*lines[:MAX_LISTED], f"  … {len(lines) - MAX_LISTED} more (the steps are all in data.steps)"]
    message = "\n".join([f"flow {flow.name}: {len(reports)} step(s) passed", *lines])
    return ActionResult({"message": message, "flow": str(path), "steps": reports, "passed": len(reports)})


class _Run:
    def __init__(self, session: FlowSession, eyes: Eyes, app: str | None, folder: Path, env: Mapping[str, str]) -> None:
        self.session = session
        self.eyes = eyes
        self.app = app
        self.folder = folder
        self.env: dict[str, str] = dict(env)
        self.reports: list[dict[str, Any]] = []
        self.taken = 0
        self.confine = False

    # -- plumbing -----------------------------------------------------------------------------------------------
    async def block(self, steps: tuple[Step, ...]) -> None:
        for step in steps:
            await self.step(step)

    async def step(self, step: Step) -> None:
        self.taken += 1
        if self.taken > MAX_FLOW_STEPS:
            raise ProtocolError(e.FLOW_UNBOUNDED, f"{step.file}:{step.line}: the run took {MAX_FLOW_STEPS} steps and "
                                "stops there", "Split the flow, or bound its repeats.")  # fmt: skip
        note = {"file": step.file, "line": step.line, "command": step.command}
        token = STEP_NOTE.set({"flow": note})
        t0 = time.perf_counter()
        report: dict[str, Any] = {"n": self.taken, **note}
        env = {**step.env, **{k: v for k, v in self.env.items() if k not in step.env or k == COPIED}}
        try:
            message = await getattr(self, "_" + step.command)(step, env)
        except ProtocolError as exc:
            STEP_NOTE.reset(token)
            report.update(ms=round((time.perf_counter() - t0) * 1000, 1), error=exc.to_wire())
            self.reports.append(report)
            done = sum(1 for r in self.reports if "error" not in r and r["n"] < report["n"])
            raise ProtocolError(
                exc.code, f"{step.file}:{step.line} {step.command}: {exc.message} ({done} step(s) passed before it)",
                exc.hint, state_reset=exc.state_reset,
            ) from exc  # fmt: skip
        STEP_NOTE.reset(token)
        report.update(ms=round((time.perf_counter() - t0) * 1000, 1), message=message)
        self.reports.append(report)

    def _sub(self, text: str, env: Mapping[str, str]) -> str:
        return substitute(text, env)

    async def _nodes(self) -> list[Node]:
        raw = await self.eyes.look(refront=True)
        return list(raw["nodes"])

    async def _own(self, step: Step, env: Mapping[str, str], look: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``look`` (a flow's own look at the screen) as a step of its own for the session's observers (a trace
        writes it under the command's name, with the command as written in ``args.maestro``)."""
        args = {"maestro": {step.command: substitute_all(step.raw, env)}}
        return await own_step(self.eyes.observers, step.command, args, look)

    async def _find(self, sel: fm.Selector, timeout_ms: float) -> tuple[Node, list[Node]]:
        """The one node ``sel`` names, looking until ``timeout_ms`` (as Maestro waits for its element)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_ms / 1000
        while True:
            nodes = await self._nodes()
            try:
                return fm.resolve(sel, nodes), nodes
            except ProtocolError as exc:
                if exc.code != e.NOT_FOUND or loop.time() >= deadline:
                    raise
            await asyncio.sleep(POLL_S)

    def _ref(self, node: Node, nodes: list[Node]) -> str:
        return "@" + self.eyes.ref_for(node, Index(nodes))

    async def _target(self, step: Step, env: Mapping[str, str]) -> str | None:
        """What the step's operation acts on: ``"X Y"`` for a point, else the ref of the one element the selector
        names (None: an optional element that is not there)."""
        sel: fm.Selector = step.args["selector"].substituted(lambda s: self._sub(s, env))
        if sel.point is not None:
            return await self._point(sel.point)
        try:
            node, nodes = await self._find(sel, OPTIONAL_LOOKUP_MS if step.args.get("optional") else LOOKUP_MS)
        except ProtocolError as exc:
            if step.args.get("optional") and exc.code == e.NOT_FOUND:
                return None
            raise
        return self._ref(node, nodes)

    async def _point(self, text: str) -> str:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2 or not all(parts):
            raise ProtocolError(e.FLOW_INVALID, f"point {text!r} is not 'X, Y' or 'X%, Y%'", "E.g. point: 50%, 50%.")
        vp = await self.session.viewport() if any(p.endswith("%") for p in parts) else {}
        out = []
        for part, (origin, extent) in zip(parts, (("x", "width"), ("y", "height")), strict=True):
            try:
                number = float(part.rstrip("%"))
            except ValueError:
                raise ProtocolError(e.FLOW_INVALID, f"point {text!r} is not 'X, Y' or 'X%, Y%'",
                                    "E.g. point: 50%, 50%.") from None  # fmt: skip
            out.append(vp[origin] + vp[extent] * number / 100 if part.endswith("%") else number)
        return f"{out[0]:g} {out[1]:g}"

    async def _visible_now(self, sel: fm.Selector) -> bool:
        nodes = await self._nodes()
        try:
            return bool(fm.visible(sel, nodes))
        except ProtocolError:
            return False  # an anchor of a relation that is not there (yet)

    async def _until(self, sel: fm.Selector, gone: bool, timeout_ms: float, what: str) -> str:
        loop = asyncio.get_running_loop()
        start = loop.time()
        while True:
            shown = await self._visible_now(sel)
            waited = round((loop.time() - start) * 1000)
            if shown != gone:
                return f"{sel.describe()} {'is gone' if gone else 'shows'} (after {waited} ms)"
            if loop.time() - start >= timeout_ms / 1000:
                raise ProtocolError(
                    e.WAIT_TIMED_OUT,
                    f"{sel.describe()} {'still shows' if gone else 'did not show'} after {waited} ms",
                    "Check the selector against `snapshot` (text and id are regular expressions matching the "
                    "whole text), or wait longer (extendedWaitUntil's timeout).",
                )
            await asyncio.sleep(POLL_S)

    def _app_of(self, step: Step, env: Mapping[str, str]) -> str:
        app = step.args.get("appId") or self.app
        if not app:
            raise ProtocolError(e.FLOW_INVALID, f"{step.file}:{step.line}: {step.command} names no app and the flow "
                                "has no appId or url", "Add `appId: …` or `url: …` to the flow's header.")  # fmt: skip
        return self._sub(str(app), env)

    # -- the commands (one method each, named after it) ----------------------------------------------------------
    async def _launchApp(self, step: Step, env: Mapping[str, str]) -> str:
        app = self._app_of(step, env)
        clear = step.args.get("clearState") is True
        note = " (clearState: its stored data cleared first)" if clear else ""
        result = await self.session.open_app(app, clear_state=clear)
        return f"launched {self.session.app_id or app}{note}" + (f"; {result.warning}" if result.warning else "")

    async def _stopApp(self, step: Step, env: Mapping[str, str]) -> str:
        app = self._app_of(step, env)
        await self.session.close_app(app)
        return f"stopped {app}"

    async def _tapOn(self, step: Step, env: Mapping[str, str]) -> str:
        target = await self._target(step, env)
        if target is None:
            return f"optional {step.args['selector'].describe()} is not on screen: not tapped"
        result = await self.session.tap(target, count=int(step.args.get("count", 1)))
        return _said(result, "tapped")

    async def _longPressOn(self, step: Step, env: Mapping[str, str]) -> str:
        target = await self._target(step, env)
        if target is None:
            return f"optional {step.args['selector'].describe()} is not on screen: not pressed"
        result = await self.session.long_press(target)
        return _said(result, "long-pressed")

    async def _inputText(self, step: Step, env: Mapping[str, str]) -> str:
        text = self._sub(step.args["text"], env)
        await self.session.type(text)
        return f"typed {len(text)} character(s)"

    async def _eraseText(self, step: Step, env: Mapping[str, str]) -> str:
        nodes = await self._nodes()
        focused = [n for n in nodes if n.get("focused") and n.get("type") in TEXT_INPUT_ROLES]
        count = int(step.args["count"])
        if len(focused) == 1:
            count = min(count, len(str(focused[0].get("value") or "")))
        for _ in range(count):
            await self.session.press("delete")
        return f"erased {count} character(s)"

    async def _pressKey(self, step: Step, env: Mapping[str, str]) -> str:
        await self.session.press(step.args["key"])
        return f"pressed {step.args['keyName']}"

    async def _back(self, step: Step, env: Mapping[str, str]) -> str:
        await self.session.press("back")
        return "pressed back"

    async def _scroll(self, step: Step, env: Mapping[str, str]) -> str:
        result = await self.session.scroll("down")
        return _said(result, "scrolled down")

    async def _scrollUntilVisible(self, step: Step, env: Mapping[str, str]) -> str:
        sel: fm.Selector = step.args["selector"].substituted(lambda s: self._sub(s, env))
        direction = str(step.args["direction"]).lower()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + float(step.args["timeout"]) / 1000
        scrolls = 0
        while True:
            if await self._own(step, env, lambda: self._visible_now(sel)):
                return f"{sel.describe()} shows after {scrolls} scroll(s)"
            if loop.time() >= deadline or scrolls >= MAX_REPEAT:
                raise ProtocolError(e.NOT_FOUND, f"{sel.describe()} did not show after {scrolls} scroll(s) "
                                    f"{direction}", "Check the selector, the direction, or the timeout.")  # fmt: skip
            result = await self.session.scroll(direction, amount=SCROLL_AMOUNT)
            scrolls += 1
            if result.data.get("atEnd") and not await self._visible_now(sel):
                raise ProtocolError(e.NOT_FOUND, f"{sel.describe()} did not show: the screen reached its end after "
                                    f"{scrolls} scroll(s) {direction}", "Try the other direction.")  # fmt: skip

    async def _swipe(self, step: Step, env: Mapping[str, str]) -> str:
        duration = float(step.args["duration"])
        if "start" in step.args:
            (x1, y1), (x2, y2) = [
                tuple(float(v) for v in (await self._point(self._sub(step.args[k], env))).split())
                for k in ("start", "end")
            ]
        else:
            vp = await self.session.viewport()
            cx, cy = vp["x"] + vp["width"] / 2, vp["y"] + vp["height"] / 2
            if "selector" in step.args:
                sel = step.args["selector"].substituted(lambda s: self._sub(s, env))
                node, _ = await self._find(sel, LOOKUP_MS)
                r = rect_of(node)
                cx, cy = float(r["x"]) + float(r["width"]) / 2, float(r["y"]) + float(r["height"]) / 2
            dx, dy = {"LEFT": (-1, 0), "RIGHT": (1, 0), "UP": (0, -1), "DOWN": (0, 1)}[step.args["direction"]]
            half_w, half_h = vp["width"] * 0.35, vp["height"] * 0.3
            x1, y1 = cx - dx * half_w, cy - dy * half_h
            x2, y2 = cx + dx * half_w, cy + dy * half_h
        result = await self.session.swipe(x1, y1, x2, y2, duration_ms=duration)
        return _said(result, "swiped")

    async def _assertVisible(self, step: Step, env: Mapping[str, str]) -> str:
        return await self._assert(step, env, gone=False)

    async def _assertNotVisible(self, step: Step, env: Mapping[str, str]) -> str:
        return await self._assert(step, env, gone=True)

    async def _assert(self, step: Step, env: Mapping[str, str], *, gone: bool) -> str:
        sel: fm.Selector = step.args["selector"].substituted(lambda s: self._sub(s, env))
        timeout = float(step.args.get("timeout", 7000))
        message: str = await self._own(step, env, lambda: self._until(sel, gone, timeout, step.command))
        return message

    async def _extendedWaitUntil(self, step: Step, env: Mapping[str, str]) -> str:
        return await self._assert(step, env, gone=bool(step.args["gone"]))

    async def _waitForAnimationToEnd(self, step: Step, env: Mapping[str, str]) -> str:
        try:
            result = await self.session.wait(idle=True, timeout_ms=int(step.args["timeout"]))
        except ProtocolError as exc:
            if exc.code != e.WAIT_TIMED_OUT:
                raise
            return f"the screen still moved after {step.args['timeout']:g} ms (Maestro goes on: so does the flow)"
        return _said(result, "idle")

    async def _openLink(self, step: Step, env: Mapping[str, str]) -> str:
        link = self._sub(step.args["link"], env)
        await self.session.open_url(link)
        return f"opened {link}"

    async def _runFlow(self, step: Step, env: Mapping[str, str]) -> str:
        when = step.args.get("when")
        if when is not None and not await self._holds(when, env):
            return "skipped: its when condition does not hold"
        await self.block(step.body)
        return f"ran {step.args.get('file') or 'inline commands'} ({len(step.body)} command(s))"

    async def _holds(self, condition: Mapping[str, Any], env: Mapping[str, str]) -> bool:
        if "platform" in condition:
            kind = str(getattr(self.session.sender, "device", None) or "web").split(":")[0]
            return str(condition["platform"]).lower() == kind.lower()
        sel = condition["selector"].substituted(lambda s: self._sub(s, env))
        return await self._visible_now(sel) != bool(condition["gone"])

    async def _repeat(self, step: Step, env: Mapping[str, str]) -> str:
        condition = step.args.get("while")
        rounds = 0
        while rounds < int(step.args["times"]):
            if condition is not None and not await self._holds(condition, env):
                return f"repeated {rounds} time(s): its while condition no longer holds"
            await self.block(step.body)
            rounds += 1
        if condition is not None and not step.args["bounded"] and await self._holds(condition, env):
            raise ProtocolError(
                e.FLOW_UNBOUNDED,
                f"repeat ran {rounds} times and its while condition still holds: a while stops at {MAX_REPEAT}",
                "Check that the loop's commands change what its while looks at, or give it times: N.",
            )
        return f"repeated {rounds} time(s)"

    async def _takeScreenshot(self, step: Step, env: Mapping[str, str]) -> str:
        name = self._sub(step.args["path"], env)
        target = self.folder / (name if name.lower().endswith(".png") else name + ".png")
        if self.confine and not target.resolve().is_relative_to(self.folder.resolve()):
            raise ProtocolError(e.INVALID_REQUEST, f"takeScreenshot {name!r} leaves the flow's folder",
                                "Name a file inside the flow's folder.")  # fmt: skip
        image = await self.session.screenshot(format="png")
        from phonewire.runtime import write_private_output

        write_private_output(target, image)
        return f"wrote {target}"

    async def _copyTextFrom(self, step: Step, env: Mapping[str, str]) -> str:
        sel: fm.Selector = step.args["selector"].substituted(lambda s: self._sub(s, env))

        async def look() -> str:
            node, _ = await self._find(sel, LOOKUP_MS)
            return fm.text_of(node)

        text: str = await self._own(step, env, look)
        self.env[COPIED] = text
        await self.session.clipboard_set(text)
        return f"copied {text!r} onto the phone's clipboard (and ${{maestro.copiedText}})"

    async def _pasteText(self, step: Step, env: Mapping[str, str]) -> str:
        text = str((await self.session.clipboard_get()).data.get("text") or "")
        if not text:
            raise ProtocolError(e.NOT_FOUND, "the phone's clipboard is empty", "copyTextFrom an element first.")
        await self.session.type(text)
        return f"pasted {len(text)} character(s) from the clipboard by typing them"

    async def _setLocation(self, step: Step, env: Mapping[str, str]) -> str:
        result = await self.session.location(float(step.args["latitude"]), float(step.args["longitude"]))
        return _said(result, "location set")


def _said(result: ActionResult, otherwise: str) -> str:
    """What the device said of a step's operation (its reply's message), else ``otherwise``."""
    return str(result.data.get("message", otherwise))
