"""The agent core: one :class:`AgentSession` per agent conversation, on top of a host :class:`CommandSender`.

Every front end (CLI daemon, JSON-RPC bridge, MCP server, Python API) drives a device through this class.  It
adds what agents need above the wire protocol:

* the agent view (:mod:`phonewire.agent.view`) with ``@eN`` refs, the interactive filter and diffs;
* targets — ``@e3`` (a ref of the last snapshot this session issued), ``"X Y"`` (a point), or a selector
  (:mod:`phonewire.agent.selectors`);
* refs that cannot hit the wrong element: acting on a ref takes a fresh snapshot, re-finds the element
  (:mod:`phonewire.agent.refs`) and taps its *current* centre, or answers STALE_REF.

Errors are :class:`ProtocolError` (the runner's, passed through, or STALE_REF / AMBIGUOUS_MATCH / NOT_FOUND /
ELEMENT_COVERED / WAIT_TIMED_OUT / APP_BUNDLE_ID_REQUIRED / INVALID_REQUEST raised here) with hints phrased for
the agent.

A target that something else covers (its node carries ``coveredBy``: the device hit-tested the point a tap would
use, :func:`_visible_box`'s centre) is ELEMENT_COVERED and nothing is sent; a selector that matches covered and
uncovered elements means the uncovered ones.

Sessions are not thread-safe; concurrent calls on one session are serialised by an ``asyncio.Lock``.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import anyio

from phonewire.agent import selectors
from phonewire.agent.checks import (
    MAX_CLEAR,
    check_choice,
    check_count,
    check_duration,
    check_points,
    check_reachable,
    check_wait,
    checked_path,
    invalid,
    is_text_input,
    uncleared,
)
from phonewire.agent.geometry import centre, has_box, select_of, visible_box
from phonewire.agent.refs import Index, RefTable, refind
from phonewire.agent.results import ActionResult, Reply, View, action_result
from phonewire.agent.view import diff, node_line, quality_header, render
from phonewire.agent.waiting import poll
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import (
    DEFAULT_FIND_SCROLLS,
    DEFAULT_WAIT_MS,
    MAX_FIND_SCROLLS,
    MAX_SCROLL_AMOUNT,
    MIN_SCROLL_AMOUNT,
    SCREENSHOT_FORMATS,
    SCREENSHOT_SCALES,
    SCROLL_DIRECTIONS,
)
from phonewire.protocol.snapshot import TEXT_INPUT_ROLES

if TYPE_CHECKING:
    from phonewire.host import CommandSender

T = TypeVar("T")
Node = dict[str, Any]

OPEN_APP_HINT = "Open an app first: `open APP` (e.g. open dev.phonewire.demo); `apps` lists them."
_POINT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[ ,]\s*(-?\d+(?:\.\d+)?)\s*$")
_REF = re.compile(r"^@?(e\d+)$")

#: ``press`` key names → wire command (+ button name).
KEYS: dict[str, tuple[str, str | None]] = {
    "enter": (c.KEYBOARD_RETURN, None),
    "return": (c.KEYBOARD_RETURN, None),
    "delete": (c.KEYBOARD_DELETE, None),
    "backspace": (c.KEYBOARD_DELETE, None),
    **{name.lower(): (c.BUTTON, name) for name in c.BUTTONS},
    **{name.lower(): (c.KEY, name) for name in c.KEYS},
}
#: Roles whose value ``fill`` sets whole (a number field, a slider) instead of typing into them.
VALUE_ROLES = frozenset({"Stepper", "Slider"})
#: ``find``'s scrolls: most of the container each time (less than a full one, so nothing is skipped).
FIND_SCROLL_AMOUNT = 0.8
#: Between two taps of ``fill`` on the same spot (longer than a double tap's window).
REFOCUS_PAUSE_S = 0.4


class AgentSession:
    def __init__(self, sender: CommandSender, *, app_id: str | None = None) -> None:
        self.sender = sender
        self.app_id: str | None = app_id
        self._refs = RefTable()
        self._previous: list[Node] | None = None
        self._previous_refs: dict[str, Node] = {}  # the refs the previous snapshot issued
        self._lock = asyncio.Lock()
        #: Set by the last ref/selector resolution: how long the fresh-snapshot check took (seconds).
        self.last_check_s: float = 0.0
        #: A resolution re-fronted the app (reported as ``reactivated`` on the action's result).
        self._refronted = False
        #: A reply during this call said the device or runner restarted (``state_reset`` on its result or error).
        self._state_reset = False
        #: Where this session's next ``logs`` / ``network`` read starts (the runner's ``next`` of the previous one).
        self._logs_since = 0
        self._network_since = 0

    # -- plumbing -------------------------------------------------------------------------------------------
    async def _locked(self, fn: Callable[[], Awaitable[T]]) -> T:
        async with self._lock:
            self._refronted = self._state_reset = False
            try:
                result = await fn()
            except ProtocolError as exc:
                if self._state_reset:
                    exc.state_reset = True
                raise
            if isinstance(result, ActionResult):
                action: ActionResult = result
                if self._refronted and not action.reactivated:
                    action = dataclasses.replace(action, reactivated=True)
                if self._state_reset:
                    action = dataclasses.replace(action, state_reset=True)
                return cast(T, action)
            if isinstance(result, View) and self._state_reset:
                result.state_reset = True
            return result

    async def _wire(self, command: str, body: Mapping[str, Any]) -> Reply:
        """Send one wire command.  A mutating one, once sent, is seen to its end even when this call is cancelled
        (the CLI daemon stops a ``find`` whose client left; an MCP client goes away): the cancellation is raised
        after its reply, so the host session records its fate and the next command never overtakes it."""
        if command not in c.MUTATING:
            return await self.sender.send(command, body)
        return await _to_the_end(self.sender.send(command, body))

    async def _app(self) -> str:
        """The session's app.  Without one, the runner is asked for its ``uptime`` first: when it cannot be
        reached, that (RUNNER_UNAVAILABLE, TRANSPORT_FAILED) is what the agent must fix before opening an app."""
        if not self.app_id:
            await self._wire(c.UPTIME, {})
            raise ProtocolError(e.APP_BUNDLE_ID_REQUIRED, "no app is open in this session", OPEN_APP_HINT)
        return self.app_id

    async def _send(self, command: str, fields: Mapping[str, Any] | None = None, *, app: bool = False) -> Reply:
        body = dict(fields or {})
        if app:
            body["appBundleId"] = await self._app()
        try:
            reply = await self._wire(command, body)
        except ProtocolError as exc:
            self._state_reset = self._state_reset or exc.state_reset
            raise
        self._state_reset = self._state_reset or reply.state_reset
        return reply

    async def _raw_snapshot(self, *, refront: bool = False) -> dict[str, Any]:
        """The current screen's nodes.  ``refront``: a background app is brought to the front first (as the
        action about to run would do anyway) instead of answering APP_BACKGROUNDED."""
        try:
            env = await self._send(c.SNAPSHOT, app=True)
        except ProtocolError as exc:
            if not refront or exc.code != e.APP_BACKGROUNDED:
                raise
            fronted = await self._send(c.VIEWPORT, app=True)  # app-scoped and read-only: re-fronts, nothing else
            self._refronted = self._refronted or fronted.reactivated
            env = await self._send(c.SNAPSHOT, app=True)
        data = env.data or {}
        nodes = data.get("nodes")
        return {"nodes": nodes if isinstance(nodes, list) else [], "quality": data.get("quality") or {}}

    # -- apps -----------------------------------------------------------------------------------------------
    async def open_app(self, app_id: str) -> ActionResult:
        if not app_id:
            raise invalid("open needs an app id", OPEN_APP_HINT)

        async def run() -> ActionResult:
            env = await self._wire(c.LAUNCH_APP, {"appBundleId": app_id})
            self.app_id = str((env.data or {}).get("appBundleId") or app_id)
            self._refs.clear()
            self._previous = None
            return action_result(env)

        return await self._locked(run)

    async def close_app(self, app_id: str | None = None) -> ActionResult:
        async def run() -> ActionResult:
            target = app_id or await self._app()
            env = await self._wire(c.TERMINATE_APP, {"appBundleId": target})
            if target == self.app_id:
                self.app_id = None
                self._refs.clear()
                self._previous = None
            return action_result(env)

        return await self._locked(run)

    async def list_apps(self) -> list[dict[str, Any]]:
        env = await self._wire(c.LIST_APPS, {})
        apps = (env.data or {}).get("apps")
        return [a for a in apps if isinstance(a, dict)] if isinstance(apps, list) else []

    async def open_url(self, url: str) -> ActionResult:
        async def run() -> ActionResult:
            env = await self._wire(c.OPEN_URL, {"url": url})
            opened = (env.data or {}).get("appBundleId")
            if isinstance(opened, str) and opened:
                self.app_id = opened
                self._refs.clear()
                self._previous = None
            return action_result(env)

        return await self._locked(run)

    # -- observe --------------------------------------------------------------------------------------------
    async def snapshot(self, *, interactive: bool = False, diff: bool = False, all: bool = False) -> View:
        async def run() -> View:
            try:
                raw = await self._raw_snapshot()
            except ProtocolError as exc:
                if exc.code != e.APP_BACKGROUNDED:
                    raise
                raise ProtocolError(
                    exc.code,
                    exc.message,
                    f"{self.app_id} is behind another app and a snapshot never changes the screen. Bring it to the "
                    "front without touching it with `viewport` (or act on it: actions re-front it), then snapshot.",
                ) from exc
            return self._render(raw["nodes"], raw["quality"], interactive=interactive, as_diff=diff, full=all)

        return await self._locked(run)

    def _render(
        self, nodes: list[Node], quality: dict[str, Any], *, interactive: bool, as_diff: bool, full: bool = False
    ) -> View:
        index = Index(nodes)
        rendered = render(nodes, interactive=interactive, full=full, name=self._refs.namer(index))
        header = quality_header(quality)
        if as_diff:
            if self._previous is None:
                lines = ["# no previous snapshot in this session: full view", *rendered.lines]
            else:
                # the previous screen with the refs it issued, so that an element drawn anew in the same place (a
                # page that rebuilds its DOM on every change: Streamlit) shows with its new ref (findings 4, F3)
                issued = {id(n): r for r, n in self._previous_refs.items()}
                before = render(
                    self._previous, interactive=interactive, full=full, name=lambda n: issued.get(id(n), "")
                )
                changes = diff(before, rendered)
                lines = changes or ["# no changes"]
        else:
            lines = rendered.lines
        if header:
            lines = [header, *lines]
        self._refs.reset(index, rendered)
        self._previous = nodes
        self._previous_refs = rendered.refs
        return View("\n".join(lines), nodes, rendered.refs, quality)

    async def viewport(self) -> dict[str, float]:
        env = await self._send(c.VIEWPORT, app=True)
        self._refronted = self._refronted or env.reactivated  # an action that reads it first (scroll) reports it
        data = env.data or {}
        return {k: float(data.get(k, 0)) for k in ("x", "y", "width", "height")}

    async def screenshot(self, *, format: str = "png", scale: str = "device", overlay_refs: bool = False) -> bytes:
        check_choice("format", format, SCREENSHOT_FORMATS, "png for exact pixels, jpeg for a smaller image")
        check_choice("scale", scale, SCREENSHOT_SCALES, "device for full resolution, css for one pixel per point")

        async def run() -> bytes:
            fields: dict[str, Any] = {"format": format, "scale": scale}
            if overlay_refs:
                raw = await self._raw_snapshot()
                view = self._render(raw["nodes"], raw["quality"], interactive=True, as_diff=False)
                viewport = await self.viewport()
            env = await self._wire(c.SCREENSHOT, fields)
            image = _decode_image(env.data or {})
            if not overlay_refs:
                return image
            from phonewire.agent.overlay import draw_refs

            return draw_refs(image, view.refs, viewport, format=format)

        return await self._locked(run)

    # -- targets --------------------------------------------------------------------------------------------
    async def resolve(self, target: str) -> tuple[float, float, dict[str, Any]]:
        """The current centre of ``target`` (``@eN``, ``"X Y"`` or a selector) and what it resolved to."""
        point = _POINT.match(target)
        if point:
            return float(point.group(1)), float(point.group(2)), {}
        node, ref, found_in = await self._find(target)
        return self._place(node, ref, found_in, target)

    def _place(self, node: Node, ref: str | None, found_in: Index, target: str) -> tuple[float, float, dict[str, Any]]:
        """Where a gesture on ``node`` lands (see :meth:`_check_place`)."""
        self._check_place(node, found_in, target)
        x, y = centre(node, found_in)
        return x, y, {"target": {"ref": ref, "type": node.get("type"), "label": node.get("label"),
                                 "x": round(x, 1), "y": round(y, 1)}}  # fmt: skip

    def _check_place(self, node: Node, found_in: Index, target: str) -> None:
        """INVALID_REQUEST for an element with no place on the screen (a select's option, listed under it, shows
        only while the select is open): a gesture there would land on the screen's origin, so nothing is sent."""
        if not has_box(node):
            owner = select_of(node, found_in)
            hint = (
                f"Choose it with `select TARGET OPTION` on its select ({self._line(owner, found_in)}), or `tap` the "
                "option: a tap chooses it."
                if owner is not None
                else "Act on an element that shows on the screen (`snapshot` lists them with their places)."
            )
            raise invalid(f"{target!r} ({node_line(node)}) has no place on the screen to touch", hint)

    def _line(self, node: Node, index: Index) -> str:
        """``@eN Role "label" id=…`` of ``node`` (not its value: it may be about to change), with the ref it carries
        (or a new one)."""
        return f"@{self._ref_for(node, index)} {node_line({**node, 'value': None})}"

    async def _find(self, target: str, *, editable: bool = False) -> tuple[Node, str | None, Index]:
        """The node ``target`` names now (with its ref, if any, and the snapshot it was found in).  ``editable``:
        a selector matching text fields among other nodes keeps only the text fields, before the ancestor rule
        (``fill label=Name`` means the field, not its caption or a group of that name)."""
        target = target.strip()
        if not target:
            raise invalid("empty target", "A target is @eN (a ref from `snapshot`), 'X Y' or a selector.")
        start = time.perf_counter()
        ref_match = _REF.match(target)
        if ref_match:
            ref = ref_match.group(1)
            self._refs.check(ref)
            raw = await self._raw_snapshot(refront=True)
            now = Index(raw["nodes"])
            node = self._refs.refind(ref, now)
            self.last_check_s = time.perf_counter() - start
            check_reachable(node, f"@{ref}")
            return node, ref, now
        selector = selectors.parse(target)  # before any I/O: a bad selector costs nothing
        raw = await self._raw_snapshot(refront=True)
        nodes: list[Node] = raw["nodes"]
        found = selectors.match(selector, nodes, prefer=is_text_input if editable else None)
        self.last_check_s = time.perf_counter() - start
        if not found:
            raise ProtocolError(
                e.NOT_FOUND,
                f"nothing on screen matches {target!r}",
                "Run `snapshot` to see what is on screen, then use a ref or a selector. An element further along the "
                "page: `find SELECTOR` scrolls to it. One the page hides (drawn over by a widget of its own, inside "
                "a closed menu) is not listed: act on what shows in its place.",
            )
        fresh = Index(nodes)
        reachable = [n for n in found if not n.get("coveredBy")]
        if not reachable:
            check_reachable(found[0], target)
        found = reachable
        if len(found) > 1:
            listing = "; ".join(f"@{self._refs.add(n, fresh)} {node_line(n)}" for n in found[:10])
            more = f" (+{len(found) - 10} more)" if len(found) > 10 else ""
            raise ProtocolError(
                e.AMBIGUOUS_MATCH,
                f"{target!r} matches {len(found)} elements: {listing}{more}",
                "Pick one of the refs listed (e.g. `tap @eN`) or add terms to the selector (role=, id=, label=).",
            )
        return found[0], self._refs.existing(found[0], fresh), fresh

    # -- act ------------------------------------------------------------------------------------------------
    async def tap(self, target: str, *, count: int = 1) -> ActionResult:
        check_count(count)

        async def run() -> ActionResult:
            if _POINT.match(target):
                x, y, info = await self.resolve(target)
                return await self._tap_at(x, y, count, info)
            node, ref, found_in = await self._find(target)
            owner = select_of(node, found_in)
            if owner is not None:
                return await self._choose_option(owner, node, ref, found_in)
            x, y, info = self._place(node, ref, found_in, target)
            return await self._tap_at(x, y, count, info)

        return await self._locked(run)

    async def _choose_option(self, owner: Node, option: Node, ref: str | None, found_in: Index) -> ActionResult:
        """A tap on an option of a closed select (listed under it, without a place): the option chosen, as a
        person's tap in the opened list would (``select`` on its select), and the reply says so."""
        check_reachable(owner, node_line(owner))
        x, y = centre(owner, found_in)
        label = str(option.get("label") or "")
        env = await self._send(c.SET_VALUE, {"x": x, "y": y, "values": [label]}, app=True)
        data = dict(env.data or {})
        if data.get("unmatched"):
            raise ProtocolError(
                e.NOT_FOUND,
                f"the select {self._line(owner, found_in)} has no option {label!r}",
                "Choose one of the options `snapshot` lists under it with `select TARGET OPTION`.",
            )
        selected = ", ".join(json.dumps(str(o), ensure_ascii=False) for o in data.get("selected") or [])
        data["message"] = f"selected {selected} in {self._line(owner, found_in)}"
        info = {"target": {"ref": ref, "type": option.get("type"), "label": label}}
        return action_result(env, {**data, **info})

    async def tap_point(self, x: float, y: float, *, count: int = 1) -> ActionResult:
        check_count(count)
        check_points(x, y)
        return await self._locked(lambda: self._tap_at(x, y, count, {}))

    async def _tap_at(self, x: float, y: float, count: int, info: dict[str, Any]) -> ActionResult:
        fields: dict[str, Any] = {"x": x, "y": y}
        if count != 1:
            fields["numberOfTaps"] = count
        result = action_result(await self._send(c.TAP, fields, app=True), info)
        hit = result.data.get("hit")
        if not info and hit and isinstance(result.data.get("message"), str):
            # a tap at a point: say what it reached (a target's tap already names its element)
            result.data["message"] += f" on {hit}"
        return result

    async def long_press(self, target: str, *, duration_ms: float = 800) -> ActionResult:
        check_duration(duration_ms)

        async def run() -> ActionResult:
            x, y, info = await self.resolve(target)
            env = await self._send(c.LONG_PRESS, {"x": x, "y": y, "durationMs": duration_ms}, app=True)
            return action_result(env, info)

        return await self._locked(run)

    async def fill(self, target: str, text: str) -> ActionResult:
        """Focus the field, clear its current value, type ``text``."""

        async def run() -> ActionResult:
            point = _POINT.match(target)
            original = ""
            if point:
                info: dict[str, Any] = {}
                envs = [await self._send(c.TAP, {"x": float(point.group(1)), "y": float(point.group(2))}, app=True)]
                cleared = 0
            else:
                node, ref, found_in = await self._find(target, editable=True)
                self._check_place(node, found_in, target)
                if node.get("readOnly"):  # refused before any tap: the same code as typing into it would get
                    raise ProtocolError(
                        e.TEXT_INPUT_NOT_FOCUSED,
                        f"{target!r} ({node_line(node)}) is read-only: it takes no typing",
                        "Its own widget sets it: tap it to open its picker (a calendar, a list), snapshot, and tap "
                        "the value you want there.",
                    )
                if node.get("type") in VALUE_ROLES:
                    return await self._set_whole(node, ref, found_in, text)
                if node.get("type") not in TEXT_INPUT_ROLES:
                    raise invalid(
                        f"fill needs a text field, and {target!r} is a {node.get('type')}",
                        "Name a TextField/SecureTextField/SearchField/TextView/ComboBox, or use `tap` then `type`.",
                    )
                info = {"target": {"ref": ref, "type": node.get("type"), "label": node.get("label")}}
                original = str(node.get("value") or "")
                envs, cleared = await self._focus_and_clear(ref or "field", node, found_in)
            if text:
                try:
                    envs.append(await self._send(c.TYPE, {"text": text}, app=True))
                except ProtocolError as exc:
                    if exc.code != e.INVALID_REQUEST or point or not original:
                        raise
                    raise await self._restore(exc, original) from exc
            data = dict((envs[-1] if text else envs[0]).data or {})
            data.update(info)
            data["cleared"] = cleared
            warnings = "; ".join(env.warning for env in envs if env.warning)
            return ActionResult(data, warnings or None, any(env.reactivated for env in envs))

        return await self._locked(run)

    async def _restore(self, failed: ProtocolError, original: str) -> ProtocolError:
        """``fill`` cleared a field and the field did not take the text (its read-back failed: a date field given
        another format): type its old value back, so a failed fill leaves the field as it was, and say so."""
        try:
            await self._send(c.TYPE, {"text": original}, app=True)
        except ProtocolError as exc:
            note = f"; setting the field back to {original!r} failed too ({exc.message}): it may be empty"
        else:
            note = f"; the field was set back to {original!r}, as it was before the fill"
        return ProtocolError(failed.code, failed.message + note, failed.hint)

    async def _set_whole(self, node: Node, ref: str | None, found_in: Index, text: str) -> ActionResult:
        """``fill`` on a number field or slider: its value set whole, in the input's own format, and read back."""
        x, y = centre(node, found_in)
        env = await self._send(c.SET_VALUE, {"x": x, "y": y, "values": [text]}, app=True)
        info = {"target": {"ref": ref, "type": node.get("type"), "label": node.get("label")}, "cleared": 0}
        return action_result(env, {"message": f"set to {text!r}", **info})

    async def _focus_and_clear(self, ref: str, node: Node, found_in: Index) -> tuple[list[Reply], int]:
        """Tap the text field ``node`` near its end and delete its value.  The caret lands where the tap does,
        which is before the end of a value wider than the field or spread over several lines (and the snapshot
        collapses whitespace), so after the deletes a fresh snapshot checks that the field is empty; while text
        is left and the last round removed some, tap the end again and delete the rest.  Never reports a field
        cleared that is not."""
        envs: list[Reply] = []
        cleared = 0
        while True:
            left, top, width, height = visible_box(node, found_in)
            # Tap near the end of the field so the caret lands after the existing text: the right end of a line;
            # of a multi-line field the bottom right (below the last line), clear of the resize grip.
            multi_line = node.get("type") == "TextView"
            x = left + max(width / 2, width - min(24.0 if multi_line else 12.0, width / 4))
            y = top + (max(height / 2, height - min(6.0, height / 4)) if multi_line else height / 2)
            envs.append(await self._send(c.TAP, {"x": x, "y": y}, app=True))
            value = str(node.get("value") or "")
            deletes = min(len(value), MAX_CLEAR - cleared)
            if not value:
                return envs, cleared
            if deletes <= 0:
                raise uncleared(node, cleared)
            for _ in range(deletes):
                envs.append(await self._send(c.KEYBOARD_DELETE, app=True))
            cleared += deletes
            fresh = Index((await self._raw_snapshot())["nodes"])
            now = refind(ref, node, found_in, fresh)
            remaining = str(now.get("value") or "")
            if not remaining:
                return envs, cleared
            if len(remaining) >= len(value):
                raise uncleared(now, cleared)
            node, found_in = now, fresh
            # The next tap lands where the last one did: apart by more than a double tap's window, or the phone
            # takes the pair for a double tap (a word selection) and leaves the caret where it was.
            await asyncio.sleep(REFOCUS_PAUSE_S)

    async def type(self, text: str) -> ActionResult:
        return await self._locked(lambda: self._typed(text))

    async def _typed(self, text: str) -> ActionResult:
        return action_result(await self._send(c.TYPE, {"text": text}, app=True))

    async def select(self, target: str, options: list[str], *, add: bool = False) -> ActionResult:
        """Choose ``options`` of the select (ComboBox, or a multi-select List) ``target``: each names an option by
        its visible text exactly, else by its value.  A multi-select's selection becomes those options (``add``:
        they are added).  An option that names none is NOT_FOUND listing the options; nothing changes then."""
        if not isinstance(options, list) or not options or not all(isinstance(o, str) for o in options):
            raise invalid(
                "select needs at least one option", 'Use `select TARGET OPTION [OPTION…]`, e.g. select @e4 "Blue".'
            )
        if len(options) > c.MAX_VALUES:
            raise invalid(f"select takes at most {c.MAX_VALUES} options", "Name fewer options.")

        async def run() -> ActionResult:
            x, y, info = await self.resolve(target)
            env = await self._send(c.SET_VALUE, {"x": x, "y": y, "values": list(options), "add": add}, app=True)
            data = dict(env.data or {})
            choices = [str(o) for o in data.get("options") or []]
            if data.get("unmatched"):
                listed = ", ".join(json.dumps(o, ensure_ascii=False) for o in choices[:50])
                more = f" (+{len(choices) - 50} more)" if len(choices) > 50 else ""
                missing = ", ".join(json.dumps(str(o), ensure_ascii=False) for o in data["unmatched"])
                raise ProtocolError(
                    e.NOT_FOUND,
                    f"no option {missing} in {_what(info) or target!r}; its options: {listed}{more}",
                    "Options match by their visible text exactly (spaces collapsed), then by value; quote an "
                    "option with spaces as one argument.",
                )
            selected = [str(o) for o in data.get("selected") or []]
            data["message"] = "selected " + ", ".join(json.dumps(o, ensure_ascii=False) for o in selected)
            return action_result(env, {**data, **info})

        return await self._locked(run)

    async def press(self, key: str) -> ActionResult:
        entry = KEYS.get(key.strip().lower())
        if entry is None:
            raise invalid(f"unknown key {key!r}", f"Keys: {', '.join(sorted(KEYS))}.")
        command, name = entry

        async def run() -> ActionResult:
            if command == c.BUTTON:
                result = action_result(await self._send(c.BUTTON, {"button": name}))
                if name == "home" and self.app_id:
                    # the phone's Home button, not a text editor's line-start key: warn where the app went
                    went = (
                        f"{self.app_id} went to the background (home is the phone's Home button; `press lineStart` "
                        "moves a text caret); "
                        f"`open {self.app_id}` brings it back"
                    )
                    warning = f"{result.warning}; {went}" if result.warning else went
                    result = dataclasses.replace(result, warning=warning)
                return result
            if command == c.KEY:
                return action_result(await self._send(c.KEY, {"key": name}, app=True))
            return action_result(await self._send(command, app=True))

        return await self._locked(run)

    # -- wait -----------------------------------------------------------------------------------------------
    async def wait(
        self, selector: str | None = None, *, gone: bool = False, idle: bool = False, timeout_ms: int = DEFAULT_WAIT_MS
    ) -> ActionResult:
        """Wait until ``selector`` matches an element that shows (not covered), until none does (``gone``), or
        until the screen holds still (``idle``: not loading, and the same elements in the same places on two
        looks :data:`WAIT_POLL_S` apart — text that changes in place, a ticking clock, does not count).  Looks
        every WAIT_POLL_S; WAIT_TIMED_OUT after ``timeout_ms`` with what the screen showed last."""
        target = check_wait(selector, gone=gone, idle=idle, timeout_ms=timeout_ms)
        parsed = selectors.parse(target) if target else None  # before any I/O: a bad selector costs nothing
        return await self._locked(lambda: self._wait(target, parsed, gone, float(timeout_ms)))

    async def _wait(
        self, target: str, parsed: selectors.Selector | None, gone: bool, timeout_ms: float
    ) -> ActionResult:
        return await poll(self._raw_snapshot, self._ref_for, target, parsed, gone=gone, timeout_ms=timeout_ms)

    def _ref_for(self, node: Node, fresh: Index) -> str:
        """The ref ``node`` carries over from the last snapshot, or a new one."""
        return self._refs.claim(node, fresh)

    # -- trace (phonewire.agent.trace wraps this session's operations) -----------------------------------------
    async def trace_start(self, dir: str) -> ActionResult:
        """Record every later operation of this session into ``dir`` (see :mod:`phonewire.agent.trace`)."""
        from phonewire.agent import trace

        return await trace.start(self, dir)

    async def trace_stop(self) -> ActionResult:
        from phonewire.agent import trace

        return trace.stop(self)

    # -- logs, requests, video (wire extensions logs / network / recordStart / recordStop) --------------------------
    async def logs(self) -> ActionResult:
        """Console messages and page errors (web) or logcat lines (Android) of the session's app since this
        session's previous ``logs`` (the first call: everything the device kept)."""

        async def run() -> ActionResult:
            reply = await self._send(c.LOGS, {"since": self._logs_since, "appBundleId": self.app_id})
            data = reply.data or {}
            self._logs_since = int(data.get("next", self._logs_since))
            entries = [x for x in data.get("entries") or [] if isinstance(x, dict)]
            lines = [log_line(x) for x in entries]
            head = f"{len(entries)} log entr{'y' if len(entries) == 1 else 'ies'}" + _dropped(data)
            return ActionResult({"message": "\n".join([head, *lines]), "entries": entries,
                                 "dropped": data.get("dropped", 0), "truncated": data.get("truncated", 0)})  # fmt: skip

        return await self._locked(run)

    async def network(self, url: str | None = None, *, status: int | None = None) -> ActionResult:
        """Requests since this session's previous ``network`` (the first call starts the device's capture), only
        those whose URL contains ``url`` and answered ``status`` when given."""
        if status is not None and (isinstance(status, bool) or not isinstance(status, int) or not 0 <= status <= 999):
            raise invalid(f"status must be an HTTP status 0..999, got {status!r}", "E.g. --status 404.")

        async def run() -> ActionResult:
            reply = await self._send(c.NETWORK, {"since": self._network_since})
            data = reply.data or {}
            self._network_since = int(data.get("next", self._network_since))
            requests = [
                r for r in data.get("requests") or []
                if isinstance(r, dict) and (not url or url in str(r.get("url", "")))
                and (status is None or r.get("status") == status)
            ]  # fmt: skip
            head = f"{len(requests)} request(s)" + _dropped(data)
            return ActionResult({"message": "\n".join([head, *map(request_line, requests)]), "requests": requests,
                                 "dropped": data.get("dropped", 0), "truncated": data.get("truncated", 0)})  # fmt: skip

        return await self._locked(run)

    async def record_start(self, file: str) -> ActionResult:
        """Record the screen into the video ``file`` (.mp4 or .webm; resolved here) until :meth:`record_stop`."""
        if not file.strip():
            raise invalid("record start needs a file", "Use `record start FILE.mp4` (or .webm).")
        path = _absolute(file)

        async def run() -> ActionResult:
            reply = await self._send(c.RECORD_START, {"path": path})
            data = reply.data or {}
            return ActionResult({"message": f"recording to {path}", **data})

        return await self._locked(run)

    async def record_stop(self) -> ActionResult:
        async def run() -> ActionResult:
            data = (await self._send(c.RECORD_STOP)).data or {}
            if not data.get("path"):
                return ActionResult({"message": "nothing was recording", **data})
            message = f"recorded {data.get('frames', 0)} frame(s), {data.get('seconds', 0):g} s, into {data['path']}"
            return ActionResult({"message": message, **data})

        return await self._locked(run)

    async def swipe(self, x1: float, y1: float, x2: float, y2: float, *, duration_ms: float = 300) -> ActionResult:
        check_points(x1, y1, x2, y2)
        check_duration(duration_ms)
        fields = {"fromX": x1, "fromY": y1, "toX": x2, "toY": y2, "durationMs": duration_ms}
        return await self._locked(lambda: self._drag(fields))

    async def _drag(self, fields: dict[str, Any]) -> ActionResult:
        return action_result(await self._send(c.DRAG, fields, app=True))

    async def scroll(self, direction: str, target: str | None = None, *, amount: float = 0.6) -> ActionResult:
        """Scroll the content ``direction`` by ``amount`` of the scrolled container's visible extent.  ``target``
        (a ref, a selector or ``"X Y"``) names what to scroll: the nearest scroll container around it that scrolls
        along that axis (the page when none does); without it, the screen's main scroller (the device decides:
        docs/web.md).  A real touch drag through the container; the reply says how far the content moved
        (``distance``, points) and whether it reached the end (``atEnd``).  At the end it does not move, and says
        so: not an error."""
        d = _direction(direction)
        if (
            isinstance(amount, bool)
            or not isinstance(amount, int | float)
            or not (MIN_SCROLL_AMOUNT <= amount <= MAX_SCROLL_AMOUNT)
        ):
            raise invalid(
                f"scroll amount must be from {MIN_SCROLL_AMOUNT:g} to {MAX_SCROLL_AMOUNT:g}, got {amount!r}",
                "Use a fraction of the container, e.g. 0.6.",
            )

        async def run() -> ActionResult:
            fields: dict[str, Any] = {"direction": d, "amount": amount}
            info: dict[str, Any] = {}
            if target is not None and target.strip():
                x, y, info = await self.resolve(target)
                check_points(x, y)
                fields.update(x=x, y=y)
            return action_result(await self._send(c.SCROLL, fields, app=True), info)

        return await self._locked(run)

    async def find(
        self, selector: str, *, direction: str = "down", max_scrolls: int = DEFAULT_FIND_SCROLLS
    ) -> ActionResult:
        """Scroll until an element that ``selector`` matches shows, and answer its line as ``snapshot`` prints it
        (``@eN Cell "Person 150"``), ready to act on.  Already on screen: no scroll at all.  Else it scrolls
        ``direction``, up to ``max_scrolls`` times, looking after each; a device that can search off screen (the web
        phone) is sent the selector's terms (``revealTerms``) and scrolls the container that holds the first element
        off screen they match towards it instead (or, in a virtual list, jumps to where a numbered row would be).
        Whatever the device did, the match is decided here, on the snapshot, by the same rules as ``tap``.  NOT_FOUND
        at the end of the content or after ``max_scrolls``, saying how far it scrolled."""
        return await self._scroll_to(selector, direction=direction, max_scrolls=max_scrolls, located_only=False)

    async def find_located(self, selector: str) -> ActionResult:
        """``find`` that scrolls only towards what the device locates off screen (``revealOnly``; WebDriver's Find
        Element of an element below the screen — not an agent operation): NOT_FOUND, having moved nothing, when
        the device locates nothing or cannot search (Android, iOS)."""
        return await self._scroll_to(selector, direction="down", max_scrolls=DEFAULT_FIND_SCROLLS, located_only=True)

    async def _scroll_to(self, selector: str, *, direction: str, max_scrolls: int, located_only: bool) -> ActionResult:
        d = _direction(direction)
        if (
            isinstance(max_scrolls, bool)
            or not isinstance(max_scrolls, int)
            or not 0 <= max_scrolls <= MAX_FIND_SCROLLS
        ):
            raise invalid(
                f"max_scrolls must be an integer from 0 to {MAX_FIND_SCROLLS}, got {max_scrolls!r}",
                f"Leave it out (default {DEFAULT_FIND_SCROLLS}) or give a whole number.",
            )
        parsed = selectors.parse(selector)  # before any I/O: a bad selector costs nothing
        reveal = _reveal_terms(parsed)

        async def run() -> ActionResult:
            scrolls, moved, at_end, went, measured = 0, 0.0, False, d, False
            located: bool | None = None
            envs: list[Reply] = []
            while True:
                nodes: list[Node] = (await self._raw_snapshot(refront=True))["nodes"]
                shown = [n for n in selectors.match(parsed, nodes) if not n.get("coveredBy")]
                if shown:
                    node = shown[0]
                    ref = self._ref_for(node, Index(nodes))
                    line = f"@{ref} {node_line(node)}"
                    how = f" after {scrolls} scroll(s), {moved:.0f} pt" if scrolls else ""
                    data = {"message": line + how, "line": line, "ref": ref, "scrolls": scrolls,
                            "distance": round(moved, 1), "target": {"ref": ref, "type": node.get("type"),
                                                                  "label": node.get("label")}}  # fmt: skip
                    warning = "; ".join(env.warning for env in envs if env.warning) or None
                    return ActionResult(data, warning, any(env.reactivated for env in envs))
                if located_only and (reveal is None or located is False):
                    raise ProtocolError(
                        e.NOT_FOUND,
                        f"nothing on screen matches {selector!r}, and the device located none off screen",
                        "Check the locator against the page source; where the device cannot search off screen "
                        "(Android, iOS), scroll first (`mobile: scroll`) or use `mobile: find`.",
                    )
                if at_end or scrolls >= max_scrolls:
                    why = "reached the end" if at_end else f"stopped after max_scrolls={max_scrolls}"
                    raise ProtocolError(
                        e.NOT_FOUND,
                        f"nothing on screen matches {selector!r} after {scrolls} scroll(s) {went} "
                        f"({f'{moved:.0f} pt' if measured or not scrolls else 'the device cannot measure how far'}): "
                        f"{why}",
                        "Check the selector against `snapshot`; try `--direction up` (or left/right), "
                        + ("or a larger --max-scrolls." if not at_end else "or another screen."),
                    )
                fields: dict[str, Any] = {"direction": went, "amount": FIND_SCROLL_AMOUNT}
                if reveal:
                    fields["revealTerms"] = reveal
                if located_only:
                    fields["revealOnly"] = True
                env = await self._send(c.SCROLL, fields, app=True)
                envs.append(env)
                data = env.data or {}
                scrolls += 1
                went = str(data.get("direction") or went)
                located = False if data.get("located") is False else None
                distance = data.get("distance")
                measured = measured or isinstance(distance, int | float)
                moved += float(distance) if isinstance(distance, int | float) else 0.0
                # at the end, or a measured scroll that did not move at all: nothing more to reveal that way
                at_end = bool(data.get("atEnd")) or (isinstance(distance, int | float) and distance < 0.5)

        return await self._locked(run)


async def _to_the_end(sent: Awaitable[T]) -> T:
    """``sent``'s result, awaited to its end even when the caller is cancelled meanwhile (then the cancellation is
    raised once it has ended, whatever it returned)."""
    task = asyncio.ensure_future(sent)
    interrupted = False
    # Shielded from a cancelled anyio scope (an MCP request its client cancelled): anyio cancels a task in it again on
    # every cycle of the event loop, so this loop would wake on each one until the command ended; the scope delivers
    # its cancellation at the caller's next await instead.  A task's own cancel() (the CLI daemon) still lands here.
    with anyio.CancelScope(shield=True):
        while not task.done():
            try:
                await asyncio.wait({task})
            except asyncio.CancelledError:
                interrupted = True
    if interrupted:
        if not task.cancelled():
            task.exception()  # retrieved: nobody will read it
        raise asyncio.CancelledError
    return task.result()


def _direction(direction: str) -> str:
    d = direction.strip().lower() if isinstance(direction, str) else ""
    if d not in SCROLL_DIRECTIONS:
        raise invalid(f"unknown scroll direction {direction!r}", "Directions: up, down, left, right.")
    return d


def _reveal_terms(parsed: selectors.Selector) -> list[str] | None:
    """What ``find`` asks the device to search off screen (the wire field ``revealTerms``): the selector's string
    terms as ``key=value``, ``||`` between alternatives (its booleans — ``enabled`` … — are checked here only)."""
    out: list[str] = []
    for alternative in parsed.alternatives:
        terms = [f"{t.key}={t.value}" for t in alternative if isinstance(t.value, str) and t.value]
        if terms:
            out.extend(["||", *terms] if out else terms)
    return out or None


def _absolute(file: str) -> str:
    return str(checked_path(file, "the video file", "Name a .mp4 or .webm file in a directory of yours."))


def _dropped(data: Mapping[str, Any]) -> str:
    """What a ``logs`` / ``network`` reply does not hold: the older entries the device no longer kept, and those left
    out to keep the reply small (the newest are in it)."""
    dropped, truncated = data.get("dropped") or 0, data.get("truncated") or 0
    notes = [f"{dropped} older one(s) were dropped: the device keeps the newest only"] if dropped else []
    if truncated:
        notes.append(f"…truncated: {truncated} older one(s) left out, this reply holds the newest "
                     f"{c.MAX_OBSERVED_REPLY_BYTES // 1024} KB")  # fmt: skip
    return f" ({'; '.join(notes)})" if notes else ""


def log_line(entry: Mapping[str, Any]) -> str:
    """One log entry as the agent reads it: ``[console.warn] text (url)``."""
    kind, level = entry.get("kind", "log"), entry.get("level", "")
    tag = kind if not level or level == kind else f"{kind}.{level}"
    where = f" ({entry['url']})" if entry.get("url") else ""
    return f"[{tag}] {entry.get('text', '')}{where}"


def request_line(entry: Mapping[str, Any]) -> str:
    """One request as the agent reads it: ``GET 200 1.2 kB 14 ms http://…``."""
    size = entry.get("size") or 0
    ms = entry.get("ms")
    status = entry.get("error") or entry.get("status")
    timing = f" {ms:g} ms" if isinstance(ms, int | float) else ""
    return f"{entry.get('method', 'GET')} {status} {size / 1000:.1f} kB{timing} {entry.get('url', '')}"


def _what(info: Mapping[str, Any]) -> str:
    target = info.get("target")
    if not isinstance(target, dict):
        return ""
    ref = f"@{target['ref']} " if target.get("ref") else ""
    label = f' "{target["label"]}"' if target.get("label") else ""
    return f"{ref}{target.get('type')}{label}"


def _decode_image(data: Mapping[str, Any]) -> bytes:
    """The runner's ``imageBase64`` (the one key it sends)."""
    value = data.get("imageBase64")
    if isinstance(value, str):
        return base64.b64decode(value)
    raise ProtocolError(e.COMMAND_FAILED, "screenshot reply carried no image", "Try the screenshot again.")
