"""The agent core: one :class:`AgentSession` per agent conversation, on top of a host :class:`CommandSender`.

Every front end (CLI daemon, JSON-RPC bridge, MCP server, Python API) drives a device through this class.  It
adds what agents need above the wire protocol, each in its own room:

* the agent view (:mod:`phonewire.agent.view`, kept per session by :mod:`phonewire.agent.observe`) with ``@eN``
  refs, the interactive filter and diffs;
* targets (:mod:`phonewire.agent.resolve`) — ``@e3`` (a ref of the last snapshot this session issued), ``"X Y"``
  (a point), or a selector (:mod:`phonewire.agent.selectors`); refs that cannot hit the wrong element: acting on
  a ref takes a fresh snapshot, re-finds the element (:mod:`phonewire.agent.refs`) and taps its *current* centre,
  or answers STALE_REF; a covered target is ELEMENT_COVERED and nothing is sent;
* ``fill`` (:mod:`phonewire.agent.fill`), ``find`` (:mod:`phonewire.agent.find`), ``wait``
  (:mod:`phonewire.agent.waiting`), over the session's :class:`~phonewire.agent.link.Link` to its device;
* observers (:mod:`phonewire.agent.hooks`): each operation of the table is a step its observers see (the trace
  is one).

Errors are :class:`ProtocolError` (the runner's, passed through, or STALE_REF / AMBIGUOUS_MATCH / NOT_FOUND /
ELEMENT_COVERED / WAIT_TIMED_OUT / APP_BUNDLE_ID_REQUIRED / INVALID_REQUEST raised here) with hints phrased for
the agent.

Sessions are not thread-safe; concurrent calls on one session are serialised by an ``asyncio.Lock``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from phonewire.agent import fill as filling
from phonewire.agent import find as finding
from phonewire.agent import selectors, trace
from phonewire.agent.checks import (
    check_choice,
    check_count,
    check_direction,
    check_duration,
    check_points,
    check_reachable,
    check_wait,
    invalid,
)
from phonewire.agent.geometry import centre, check_on_screen, point_of, select_of
from phonewire.agent.hooks import Observer, Observers, operation
from phonewire.agent.link import OPEN_APP_HINT, Link
from phonewire.agent.observe import Views, decode_image
from phonewire.agent.records import Records
from phonewire.agent.refs import Index
from phonewire.agent.repertoire import KEYS, Repertoire
from phonewire.agent.resolve import Resolver
from phonewire.agent.results import ActionResult, View, action_result
from phonewire.agent.view import node_line
from phonewire.agent.waiting import poll
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import (
    DEFAULT_FIND_SCROLLS,
    DEFAULT_WAIT_MS,
    MAX_SCROLL_AMOUNT,
    MIN_SCROLL_AMOUNT,
    SCREENSHOT_FORMATS,
    SCREENSHOT_SCALES,
    check_launch_options,
)
from phonewire.protocol.snapshot import Node

if TYPE_CHECKING:
    from phonewire.agent.flow_run import Eyes
    from phonewire.host import CommandSender

T = TypeVar("T")


class AgentSession(Repertoire, Records):
    def __init__(self, sender: CommandSender, *, app_id: str | None = None, settled_diff: bool = True) -> None:
        self.sender = sender
        #: Actions answer with their settled diff (:meth:`_acted`); off, they answer as the device did (benches).
        self.settled_diff = settled_diff
        self._link = Link(sender, app_id)
        self.observers = Observers()
        self._resolver = Resolver(self._link, self.observers)
        self._views = Views(self._resolver.refs)
        self._lock = asyncio.Lock()
        #: Where this session's next ``logs`` / ``network`` read starts (the runner's ``next`` of the previous one).

    @property
    def app_id(self) -> str | None:
        return self._link.app_id

    @app_id.setter
    def app_id(self, app_id: str | None) -> None:
        self._link.app_id = app_id

    @property
    def last_check_s(self) -> float:
        """How long the last ref/selector resolution's fresh-snapshot check took (seconds)."""
        return self._resolver.last_check_s

    # -- observers (phonewire.agent.hooks) ------------------------------------------------------------------
    def add_observer(self, observer: Observer) -> None:
        """``observer`` sees every later operation of this session as a step."""
        self.observers.watching.append(observer)

    def remove_observer(self, observer: Observer) -> None:
        if observer in self.observers.watching:
            self.observers.watching.remove(observer)

    # -- plumbing -------------------------------------------------------------------------------------------
    async def _locked(self, fn: Callable[[], Awaitable[T]]) -> T:
        async with self._lock:
            link = self._link
            link.begin()
            try:
                result = await fn()
            except ProtocolError as exc:
                if link.state_reset:
                    exc.state_reset = True
                raise
            if isinstance(result, ActionResult):
                action: ActionResult = result
                if link.refronted and not action.reactivated:
                    action = dataclasses.replace(action, reactivated=True)
                if link.state_reset:
                    action = dataclasses.replace(action, state_reset=True)
                return cast(T, action)
            if isinstance(result, View) and link.state_reset:
                result.state_reset = True
            return result

    async def _acted(self, fn: Callable[[], Awaitable[ActionResult]]) -> ActionResult:
        """An action, its reply carrying its settled diff: ``diff``, the lines of the view that changed from the
        screen before it to the screen after it (the device answers once its screen settled), as ``snapshot
        --diff`` prints them, and ``changed`` derived from them (true when a line changed: a clock that ticked
        shows as its line) or when the page zoomed (``zoomed``: a double tap's).  A screen that cannot be read
        before or after (no app, an app sent to the background) leaves the device's own ``changed`` and no diff."""

        async def run() -> ActionResult:
            link = self._link
            if not self.settled_diff:
                return await fn()
            link.watch()
            try:
                result = await fn()
            finally:
                before = link.unwatch()
            if before is None:
                return result
            try:
                after = await link.snapshot()
            except ProtocolError:
                return result
            lines = self._views.settled(before, after["nodes"], after.get("mark"), was=link.before_mark)
            # (a zoom changes every place and size on the screen, no line of the view: the device says it zoomed)
            zoomed = result.data.get("zoomed")
            changed = bool(lines) or (isinstance(zoomed, dict) and zoomed.get("how") != "none")
            return dataclasses.replace(result, data={**result.data, "changed": changed, "diff": lines})

        return await self._locked(run)

    def _switched(self, app_id: str | None) -> None:
        self.app_id = app_id
        self._views.forget()
        self._link.reader.forget()  # another app's screen: read only when its own view asks

    # -- apps -----------------------------------------------------------------------------------------------
    @operation
    async def open_app(
        self, app_id: str, clear_state: bool = False, locale: str | None = None, timezone: str | None = None
    ) -> ActionResult:
        """Launch ``app_id``; ``locale`` / ``timezone``: the language and time zone it sees for this launch."""
        if not app_id:
            raise invalid("open needs an app id", OPEN_APP_HINT)
        options = {name: value for name, value in (("locale", locale), ("timezone", timezone)) if value is not None}
        check_launch_options(options)

        async def run() -> ActionResult:
            fresh = {"clearState": True} if clear_state else {}  # the wire says it only when asked
            env = await self._link.wire(c.LAUNCH_APP, {"appBundleId": app_id} | fresh | options)
            self._switched(str((env.data or {}).get("appBundleId") or app_id))
            return action_result(env)

        return await self._locked(run)

    @operation
    async def close_app(self, app_id: str | None = None) -> ActionResult:
        async def run() -> ActionResult:
            target = app_id or await self._link.app()
            env = await self._link.wire(c.TERMINATE_APP, {"appBundleId": target})
            if target == self.app_id:
                self._switched(None)
            return action_result(env)

        return await self._locked(run)

    @operation
    async def list_apps(self) -> list[dict[str, Any]]:
        env = await self._link.wire(c.LIST_APPS, {})
        apps = (env.data or {}).get("apps")
        return [a for a in apps if isinstance(a, dict)] if isinstance(apps, list) else []

    @operation
    async def open_url(self, url: str) -> ActionResult:
        async def run() -> ActionResult:
            env = await self._link.wire(c.OPEN_URL, {"url": url})
            opened = (env.data or {}).get("appBundleId")
            if isinstance(opened, str) and opened:
                self._switched(opened)
            return action_result(env)

        return await self._locked(run)

    # -- observe --------------------------------------------------------------------------------------------
    @operation
    async def snapshot(
        self, *, interactive: bool = False, diff: bool = False, all: bool = False, ocr: bool = False
    ) -> View:
        async def run() -> View:
            try:  # with the text seen on the screen (agent/seen.py) asked for, or when the view is sparse
                raw = await self._link.snapshot(ocr="on" if ocr else "auto")
            except ProtocolError as exc:
                if exc.code != e.APP_BACKGROUNDED:
                    raise
                raise ProtocolError(
                    exc.code,
                    exc.message,
                    f"{self.app_id} is behind another app and a snapshot never changes the screen. Bring it to the "
                    "front without touching it with `viewport` (or act on it: actions re-front it), then snapshot.",
                ) from exc
            return self._views.render(
                raw["nodes"], raw["quality"], interactive=interactive, as_diff=diff, full=all, mark=raw.get("mark")
            )

        return await self._locked(run)

    @operation
    async def viewport(self) -> dict[str, float]:
        env = await self._link.send(c.VIEWPORT, app=True)
        self._link.refronted = self._link.refronted or env.reactivated  # an action that reads it first reports it
        data = env.data or {}
        out = {k: float(data.get(k, 0)) for k in ("x", "y", "width", "height")}
        page = data.get("page")
        if isinstance(page, dict):  # (web) how the page is shown: its scale and the part of it on the screen
            out.update({"scale": float(page.get("scale", 1)), "pageLeft": float(page.get("left", 0)),
                        "pageTop": float(page.get("top", 0))})  # fmt: skip
        return out

    @operation
    async def screenshot(self, *, format: str = "png", scale: str = "device", overlay_refs: bool = False) -> bytes:
        check_choice("format", format, SCREENSHOT_FORMATS, "png for exact pixels, jpeg for a smaller image")
        check_choice("scale", scale, SCREENSHOT_SCALES, "device for full resolution, css for one pixel per point")

        async def run() -> bytes:
            fields: dict[str, Any] = {"format": format, "scale": scale}
            if overlay_refs:
                raw = await self._link.snapshot()
                view = self._views.render(raw["nodes"], raw["quality"], interactive=True, as_diff=False)
                viewport = await self.viewport()
            env = await self._link.wire(c.SCREENSHOT, fields)
            image = decode_image(env.data or {})
            if not overlay_refs:
                return image
            from phonewire.agent.overlay import draw_refs

            return draw_refs(image, view.refs, viewport, format=format)

        return await self._locked(run)

    # -- targets --------------------------------------------------------------------------------------------
    async def resolve(self, target: str) -> tuple[float, float, dict[str, Any]]:
        """The current centre of ``target`` (``@eN``, ``"X Y"`` or a selector) and what it resolved to."""
        return await self._resolver.resolve(target)

    # -- act ------------------------------------------------------------------------------------------------
    @operation
    async def tap(self, target: str, *, count: int = 1) -> ActionResult:
        check_count(count)

        async def run() -> ActionResult:
            if point_of(target) is not None:
                x, y, info = await self._resolver.resolve(target)
                return await self._point_tap(x, y, count, info)
            held = self._resolver.held(target)
            if held is not None:
                # a ref to an element with a serial, as its snapshot showed it: the tap goes where that snapshot
                # put it, with the element's serial and the snapshot's change mark, and the device sends it only if
                # the page has not changed since and the point still reaches the element (no snapshot round trip);
                # if not, the ref is re-found on a fresh snapshot and tapped where it is now — or refused
                held_node, held_ref, issued, mark = held
                x, y, info = self._resolver.place(held_node, held_ref, issued, target)
                table = self._resolver.refs.index
                # the screen before is the snapshot of that mark (the tap is sent only while it still holds)
                saw = table is not None and self._link.saw(table.nodes, mark)
                try:
                    return await self._tap_at(x, y, count, info, element=str(held_node["serial"]), mark=mark)
                except ProtocolError as exc:
                    if exc.code not in (e.ELEMENT_MOVED, e.ELEMENT_COVERED):
                        raise
                    if saw:
                        self._link.watch()  # nothing was sent: the look before is the one the ref is re-found on
            node, ref, found_in = await self._resolver.find(target)
            owner = select_of(node, found_in)
            if owner is not None:
                return await self._choose_option(owner, node, ref, found_in)
            x, y, info = self._resolver.place(node, ref, found_in, target)
            serial = node.get("serial")
            return await self._tap_at(x, y, count, info, element=str(serial) if serial else None)

        return await self._acted(run)

    async def _point_tap(self, x: float, y: float, count: int, info: dict[str, Any]) -> ActionResult:
        """A tap at a point.  Its diff's look before is the screen the agent last saw (or the last action's reply
        left), with that screen's change mark: the device taps only while the page has not changed since, so that
        screen is the one the tap met (no look of its own).  If it changed, nothing was sent: the tap goes again
        after a fresh look."""
        table, mark = self._resolver.refs.index, self._resolver.refs.mark
        if table is None or mark is None or not self._link.saw(table.nodes, mark):
            return await self._tap_at(x, y, count, info)
        try:
            return await self._tap_at(x, y, count, info, mark=mark)
        except ProtocolError as exc:
            if exc.code != e.ELEMENT_MOVED:
                raise
        self._link.watch()  # nothing was sent: the look before is the tap's own
        return await self._tap_at(x, y, count, info)

    async def _choose_option(self, owner: Node, option: Node, ref: str | None, found_in: Index) -> ActionResult:
        """A tap on an option of a closed select (listed under it, without a place): the option chosen, as a
        person's tap in the opened list would (``select`` on its select), and the reply says so."""
        check_reachable(owner, node_line(owner))
        x, y = centre(owner, found_in)
        label = str(option.get("label") or "")
        env = await self._link.send(c.SET_VALUE, {"x": x, "y": y, "values": [label]}, app=True)
        data = dict(env.data or {})
        if data.get("unmatched"):
            raise ProtocolError(
                e.NOT_FOUND,
                f"the select {self._resolver.line(owner, found_in)} has no option {label!r}",
                "Choose one of the options `snapshot` lists under it with `select TARGET OPTION`.",
            )
        selected = ", ".join(json.dumps(str(o), ensure_ascii=False) for o in data.get("selected") or [])
        data["message"] = f"selected {selected} in {self._resolver.line(owner, found_in)}"
        info = {"target": {"ref": ref, "type": option.get("type"), "label": label}}
        return action_result(env, {**data, **info})

    async def tap_point(self, x: float, y: float, *, count: int = 1, element: str | None = None) -> ActionResult:
        """A tap at a point; ``element``: the serial of the node it is aimed at (the device sends nothing unless the
        point reaches that element: WebDriver's element click)."""
        check_count(count)
        check_points(x, y)
        check_on_screen(x, y)
        return await self._acted(lambda: self._tap_at(x, y, count, {}, element=element))

    async def _tap_at(
        self,
        x: float,
        y: float,
        count: int,
        info: dict[str, Any],
        *,
        element: str | None = None,
        mark: str | None = None,
    ) -> ActionResult:
        fields: dict[str, Any] = {"x": x, "y": y}
        if count != 1:
            fields["numberOfTaps"] = count
        if element is not None:
            fields["element"] = element
        if mark is not None:
            fields["mark"] = mark
        result = action_result(await self._link.send(c.TAP, fields, app=True), info)
        hit = result.data.get("hit")
        if not info and hit and isinstance(result.data.get("message"), str):
            # a tap at a point: say what it reached (a target's tap already names its element)
            result.data["message"] += f" on {hit}"
        return result

    @operation
    async def long_press(self, target: str, *, duration_ms: float = 800) -> ActionResult:
        check_duration(duration_ms)

        async def run() -> ActionResult:
            params: dict[str, Any] = {"durationMs": duration_ms}
            if point_of(target) is not None:
                x, y, info = await self._resolver.resolve(target)
            else:  # aimed at the element: the device presses only if the point reaches it (its serial: aiming.py)
                node, ref, found_in = await self._resolver.find(target)
                x, y, info = self._resolver.place(node, ref, found_in, target)
                if node.get("serial"):
                    params["element"] = str(node["serial"])
            env = await self._link.send(c.LONG_PRESS, {"x": x, "y": y, **params}, app=True)
            return action_result(env, info)

        return await self._acted(run)

    @operation
    async def fill(self, target: str, text: str) -> ActionResult:
        """Focus the field, clear its current value, type ``text`` (:mod:`phonewire.agent.fill`)."""
        return await self._acted(lambda: filling.fill(self._link, self._resolver, target, text))

    @operation
    async def type(self, text: str) -> ActionResult:
        return await self._acted(lambda: self._typed(text))

    async def _typed(self, text: str) -> ActionResult:
        return action_result(await self._link.send(c.TYPE, {"text": text}, app=True))

    @operation
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
            x, y, info = await self._resolver.resolve(target)
            if (info.get("target") or {}).get("type") == "Slider":
                raise invalid(f"{target!r} is a slider: it has no options", "Set it with `fill TARGET VALUE`.")
            fields = {"x": x, "y": y, "values": list(options), "add": add}
            env = await self._link.send(c.SET_VALUE, fields, app=True)
            data = dict(env.data or {})
            if data.get("type") == "slider":  # (a point on a slider the page draws: its thumb was dragged there)
                return action_result(env, {**data, **info, "message": f"set the slider to {data.get('value')!r}"})
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

        return await self._acted(run)

    @operation
    async def press(self, key: str) -> ActionResult:
        entry = KEYS.get(key.strip().lower())
        if entry is None:  # ctrl+a …; anything else: the unknown key's error
            return await self.press_combo(key)
        command, name = entry

        async def run() -> ActionResult:
            if command == c.BUTTON:
                result = action_result(await self._link.send(c.BUTTON, {"button": name}))
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
                return action_result(await self._link.send(c.KEY, {"key": name}, app=True))
            return action_result(await self._link.send(command, app=True))

        return await self._acted(run)

    @operation
    async def swipe(self, x1: float, y1: float, x2: float, y2: float, *, duration_ms: float = 300) -> ActionResult:
        check_points(x1, y1, x2, y2)
        check_duration(duration_ms)
        fields = {"fromX": x1, "fromY": y1, "toX": x2, "toY": y2, "durationMs": duration_ms}
        return await self._acted(lambda: self._drag(fields))

    async def _drag(self, fields: dict[str, Any]) -> ActionResult:
        return action_result(await self._link.send(c.DRAG, fields, app=True))

    @operation
    async def scroll(self, direction: str, target: str | None = None, *, amount: float = 0.6) -> ActionResult:
        """Scroll the content ``direction`` by ``amount`` of the scrolled container's visible extent.  ``target``
        (a ref, a selector or ``"X Y"``) names what to scroll: the nearest scroll container around it that scrolls
        along that axis (the page when none does); without it, the screen's main scroller (the device decides:
        docs/web.md).  A real touch drag through the container; the reply says how far the content moved
        (``distance``, points) and whether it reached the end (``atEnd``).  At the end it does not move, and says
        so: not an error."""
        d = check_direction(direction)
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
                x, y, info = await self._resolver.resolve(target)
                check_points(x, y)
                fields.update(x=x, y=y)
            return action_result(await self._link.send(c.SCROLL, fields, app=True), info)

        return await self._acted(run)

    @operation
    async def find(
        self, selector: str, *, direction: str = "down", max_scrolls: int = DEFAULT_FIND_SCROLLS
    ) -> ActionResult:
        """Scroll until an element that ``selector`` matches shows, and answer its line as ``snapshot`` prints it
        (``@eN Cell "Person 150"``), ready to act on (:mod:`phonewire.agent.find`)."""
        return await self._scroll_to(selector, direction=direction, max_scrolls=max_scrolls, located_only=False)

    async def find_located(self, selector: str) -> ActionResult:
        """``find`` that scrolls only towards what the device locates off screen (``revealOnly``; WebDriver's Find
        Element of an element below the screen — not an agent operation): NOT_FOUND, having moved nothing, when
        the device locates nothing or cannot search (Android, iOS)."""
        return await self._scroll_to(selector, direction="down", max_scrolls=DEFAULT_FIND_SCROLLS, located_only=True)

    async def _scroll_to(self, selector: str, *, direction: str, max_scrolls: int, located_only: bool) -> ActionResult:
        parsed, d = finding.checked(selector, direction, max_scrolls)
        return await self._locked(
            lambda: finding.scroll_to(
                self._link, self._resolver, selector, parsed,
                direction=d, max_scrolls=max_scrolls, located_only=located_only,
            )
        )  # fmt: skip

    # -- wait -----------------------------------------------------------------------------------------------
    @operation
    async def wait(
        self, selector: str | None = None, *, gone: bool = False, idle: bool = False, timeout_ms: int = DEFAULT_WAIT_MS
    ) -> ActionResult:
        """Wait until ``selector`` matches an element that shows (not covered), until none does (``gone``), or
        until the screen holds still (``idle``: not loading, and the same elements in the same places on two
        looks :data:`WAIT_POLL_S` apart — text that changes in place, a ticking clock, does not count).  Looks
        every WAIT_POLL_S; WAIT_TIMED_OUT after ``timeout_ms`` with what the screen showed last."""
        target = check_wait(selector, gone=gone, idle=idle, timeout_ms=timeout_ms)
        parsed = selectors.parse(target) if target else None  # before any I/O: a bad selector costs nothing
        return await self._locked(
            lambda: poll(
                self._link.snapshot, self._resolver.ref_for, target, parsed, gone=gone, timeout_ms=float(timeout_ms)
            )
        )

    # -- trace (phonewire.agent.trace: an observer of this session) -------------------------------------------
    async def trace_start(self, dir: str) -> ActionResult:
        """Record every later operation of this session into ``dir`` (see :mod:`phonewire.agent.trace`)."""
        return await trace.start(self, dir)

    async def trace_stop(self) -> ActionResult:
        return trace.stop(self)

    # -- Maestro flows (phonewire.agent.flow_run runs them on this session's operations; docs/flows.md) -------------
    @operation
    async def flow_run(self, file: str, env: list[str] | None = None, *, trace: str | None = None) -> ActionResult:
        """Check the Maestro flow ``file`` whole, then run it: each command as operations of this session."""
        from phonewire.agent import flow_run  # PyYAML is imported when a flow runs

        return await flow_run.run(self, self.flow_eyes(), file, env, trace)

    def flow_eyes(self) -> Eyes:
        """What a flow run reads of this session besides its operations (:class:`phonewire.agent.flow_run.Eyes`)."""
        from phonewire.agent.flow_run import Eyes

        return Eyes(self._link.snapshot, self._resolver.ref_for, self.observers)


def _what(info: Mapping[str, Any]) -> str:
    target = info.get("target")
    if not isinstance(target, dict):
        return ""
    ref = f"@{target['ref']} " if target.get("ref") else ""
    label = f' "{target["label"]}"' if target.get("label") else ""
    return f"{ref}{target.get('type')}{label}"
