"""One WebDriver session: a phonewire agent session (its own phone), the elements it handed out, its timeouts.

Elements follow the ref identity rule of docs/agent-view.md: a WebDriver element id remembers the node it was
found as and the snapshot it was found in; every command on it takes a fresh snapshot and re-finds *the same
element* there (:func:`phonewire.agent.refs.refind`), or answers ``stale element reference`` — never an action on
another element, never old coordinates.  Finding an element that is already known answers its id again.

The snapshot holds what shows in the viewport: an element scrolled out of view is stale until it shows again.  Find
Element of a locator that nothing on screen matches looks for it off screen once, where the device can locate it
(the web phone scrolls it into view, as a browser's WebDriver finds any element of the document); Find Elements
lists what shows and never moves the screen (docs/webdriver.md, "Elements below the screen").
"""

from __future__ import annotations

import asyncio
import base64
import io
import os
import time
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from PIL import Image

from phonewire.agent.checks import check_reachable
from phonewire.agent.core import AgentSession
from phonewire.agent.geometry import centre, has_box, select_of, visible_box
from phonewire.agent.refs import Index, refind
from phonewire.agent.view import node_line
from phonewire.frontends.serving import prepare_app
from phonewire.frontends.webdriver import actions as a
from phonewire.frontends.webdriver import source
from phonewire.frontends.webdriver.capabilities import Wanted
from phonewire.frontends.webdriver.errors import (
    ELEMENT_NOT_INTERACTABLE,
    INVALID_ARGUMENT,
    NO_SUCH_ALERT,
    NO_SUCH_ELEMENT,
    UNEXPECTED_ALERT_OPEN,
    UNSUPPORTED_OPERATION,
    WebDriverError,
)
from phonewire.frontends.webdriver.queries import QueryWorker
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import PAGE_DIALOG, TEXT_INPUT_ROLES, Node, rect_of

ELEMENT_KEY: Final = a.ELEMENT_KEY
#: Elements a session remembers; the oldest are forgotten past it (then ``no such element``).
MAX_ELEMENTS: Final = 2000
#: Between two looks of a find under an implicit wait.
FIND_POLL_S: Final = 0.1
DEFAULT_TIMEOUTS: Final = {"implicit": 0, "pageLoad": 300_000, "script": 30_000}


def element_json(element_id: str) -> dict[str, str]:
    return {ELEMENT_KEY: element_id, "ELEMENT": element_id}


def crop(png: bytes, box: tuple[float, float, float, float], viewport: Mapping[str, float]) -> bytes:
    """The part of a screenshot that ``box`` (``x, y, width, height`` in screen points) covers, as a PNG; points
    become pixels by the viewport's width, as in the overlay (agent/overlay.py)."""
    with Image.open(io.BytesIO(png)) as image:
        scale = image.width / viewport["width"] if viewport.get("width") else 1.0
        x, y, width, height = box
        left = max(0, round((x - viewport.get("x", 0)) * scale))
        top = max(0, round((y - viewport.get("y", 0)) * scale))
        right = min(image.width, round((x - viewport.get("x", 0) + width) * scale))
        bottom = min(image.height, round((y - viewport.get("y", 0) + height) * scale))
        part = image.crop((left, top, max(right, left + 1), max(bottom, top + 1)))
        out = io.BytesIO()
        part.save(out, format="PNG")
    return out.getvalue()


def default_files_dir() -> Path:
    """``$XDG_STATE_HOME/phonewire/webdriver`` (``~/.local/state/phonewire/webdriver``): where WebDriver clients'
    traces and videos go unless ``--files-dir`` says otherwise."""
    state = os.environ.get("XDG_STATE_HOME")
    return (Path(state) if state else Path.home() / ".local" / "state") / "phonewire" / "webdriver"


class WebDriverSession:
    def __init__(
        self,
        agent: AgentSession,
        wanted: Wanted,
        *,
        session_id: str | None = None,
        files_dir: Path | None = None,
        queries: QueryWorker | None = None,
    ) -> None:
        self.id = session_id or uuid.uuid4().hex
        #: Where locators run, off the event loop and within a budget (the server's one worker).
        self.queries = queries or QueryWorker()
        #: Where ``mobile: traceStart`` / ``recordStart`` write (names are confined to it: mobile.confined).
        self.files_dir = files_dir or default_files_dir()
        self.agent = agent
        # WebDriver answers a command with no view: its actions need not look at the screen before and after
        agent.settled_diff = False
        self.wanted = wanted
        self.capabilities: dict[str, Any] = dict(wanted.answered)
        self.timeouts: dict[str, int] = dict(DEFAULT_TIMEOUTS)
        self._elements: OrderedDict[str, tuple[Node, Index]] = OrderedDict()
        self.last_used = time.monotonic()
        #: Commands running now (the idle reaper never ends a session in the middle of one).
        self.busy = 0

    # -- the screen -------------------------------------------------------------------------------------------
    async def nodes(self) -> list[Node]:
        """The screen, after W3C's "handle any user prompts": a page's own dialog open is answered as
        ``unhandledPromptBehavior`` says, and the notifying behaviours end the command (``unexpected alert
        open``)."""
        nodes = await self._screen()
        if await self._unhandled(nodes):
            nodes = await self._screen()
        return nodes

    async def _screen(self) -> list[Node]:
        await prepare_app(self.agent, "snapshot")
        view = await self.agent.snapshot()
        return list(view.nodes)

    # -- user prompts (W3C): the snapshot's Alert node, answered by tapping its buttons -------------------------
    def _alert_in(self, nodes: list[Node]) -> tuple[Node, list[Node]] | None:
        """The open user prompt: on the web phone only the page's own dialog (confirm/alert/prompt/beforeunload,
        identifier PAGE_DIALOG) — a page's ``role=alert`` message box is no prompt (findings 3, E20); elsewhere
        (iOS) the system's Alert."""
        dialogs = [n for n in nodes if n.get("type") == "Alert" and n.get("identifier") == PAGE_DIALOG]
        web = self.wanted.device.partition(":")[0] == "web"
        alert = (dialogs[0] if dialogs else None) if web else next((n for n in nodes if n.get("type") == "Alert"), None)
        if alert is None:
            return None
        return alert, [n for n in nodes if n.get("parentIndex") == alert.get("index")]

    async def _unhandled(self, nodes: list[Node]) -> bool:
        """True when a page dialog was answered and the command goes on; raises when the behaviour notifies."""
        found = self._alert_in(nodes)
        if found is None or found[0].get("identifier") != PAGE_DIALOG:
            return False
        behavior = self.wanted.prompt_behavior
        text = str(found[0].get("label") or "")
        if behavior != "ignore":
            await self._answer(found[0], found[1], Index(nodes), accept=behavior.startswith("accept"))
        if behavior in ("accept", "dismiss"):
            return True
        done = {"ignore": "left open", "accept and notify": "accepted", "dismiss and notify": "dismissed"}[behavior]
        raise WebDriverError(UNEXPECTED_ALERT_OPEN, f"a dialog was open ({done}): {text}", data={"text": text})

    async def _alert(self) -> tuple[Node, list[Node], Index]:
        nodes = await self._screen()
        found = self._alert_in(nodes)
        if found is None:
            raise WebDriverError(NO_SUCH_ALERT, "no dialog is open")
        return found[0], found[1], Index(nodes)

    async def alert_text(self) -> str:
        alert, _, _ = await self._alert()
        return str(alert.get("label") or "")

    async def answer_alert(self, *, accept: bool) -> None:
        await self._answer(*await self._alert(), accept=accept)

    async def _answer(self, alert: Node, inside: list[Node], index: Index, *, accept: bool) -> None:
        buttons = [n for n in inside if n.get("type") == "Button" and n.get("label")]
        if not buttons:
            raise WebDriverError(UNSUPPORTED_OPERATION, f"{node_line(alert)} shows no button to answer it with")
        name = "OK" if accept else "Cancel"
        # an alert with one button has no Cancel: dismissing it is its OK (W3C Dismiss Alert)
        button = next((b for b in buttons if b.get("label") == name), buttons[-1] if accept else buttons[0])
        await self.agent.tap_point(*centre(button, index))

    async def alert_send_text(self, body: Mapping[str, Any]) -> None:
        text = body.get("text")
        if not isinstance(text, str):
            raise WebDriverError(INVALID_ARGUMENT, 'send alert text takes {"text": STRING}')
        alert, inside, index = await self._alert()
        field = next((n for n in inside if n.get("type") in TEXT_INPUT_ROLES), None)
        if field is None:
            raise WebDriverError(ELEMENT_NOT_INTERACTABLE, f"{node_line(alert)} takes no text (it is no prompt)")
        await self.agent.tap_point(*centre(field, index))
        for _ in range(len(str(field.get("value") or ""))):
            await self.agent.press("backspace")
        if text:
            await self.agent.type(text)

    async def source(self) -> str:
        return source.page_source(await self.nodes())

    async def screenshot(self) -> str:
        await prepare_app(self.agent, "screenshot")
        return base64.b64encode(await self.agent.screenshot(format="png")).decode("ascii")

    async def element_screenshot(self, element_id: str) -> str:
        """PNG, base64, device pixels: the part of the element that shows (clipped as a tap would be)."""
        node, index = await self._current(element_id)
        box = visible_box(node, index)
        if box[2] <= 0 or box[3] <= 0:
            raise WebDriverError(
                ELEMENT_NOT_INTERACTABLE, f"{node_line(node)} has no size on screen; scroll it into view first"
            )
        viewport = await self.agent.viewport()
        png = await self.agent.screenshot(format="png")
        return base64.b64encode(crop(png, box, viewport)).decode("ascii")

    async def window_rect(self) -> dict[str, float]:
        await prepare_app(self.agent, "viewport")
        return await self.agent.viewport()

    # -- elements ---------------------------------------------------------------------------------------------
    def _remember(self, node: Node, index: Index) -> str:
        for element_id, (old, issued) in self._elements.items():
            try:
                if refind(element_id, old, issued, index) is node:
                    self._elements[element_id] = (node, index)
                    return element_id
            except ProtocolError:
                continue
        element_id = uuid.uuid4().hex
        self._elements[element_id] = (node, index)
        while len(self._elements) > MAX_ELEMENTS:
            self._elements.popitem(last=False)
        return element_id

    async def find(self, body: Mapping[str, Any], *, many: bool, within: str | None = None) -> Any:
        using, value = body.get("using"), body.get("value")
        if not isinstance(using, str) or not isinstance(value, str):
            raise WebDriverError(INVALID_ARGUMENT, 'a locator is {"using": STRATEGY, "value": STRING}')
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeouts["implicit"] / 1000
        # Find Element (one) of nothing on screen: a locator the view can match is looked for off screen once (the
        # web phone scrolls it into view, as a browser's WebDriver finds it anywhere in the document; where the
        # device cannot search, nothing moves).  Find Elements lists what shows (an existence check moves nothing).
        offscreen = source.as_selector(using, value) if within is None and not many else None
        while True:
            nodes = await self.nodes()
            index = Index(nodes)
            scope = None
            if within is not None:
                scope, index = await self._current(within, nodes)
            found = await self.queries.find(using, value, nodes, scope)
            if not found and offscreen is not None:
                selector, offscreen = offscreen, None
                if await self._reveal(selector):
                    continue  # look again, at once
            if found or loop.time() >= deadline:
                break
            await asyncio.sleep(FIND_POLL_S)
        if many:
            return [element_json(self._remember(n, index)) for n in found]
        if not found:
            raise WebDriverError(NO_SUCH_ELEMENT, f"no element matches {using} {value!r} on the screen")
        return element_json(self._remember(found[0], index))

    async def _reveal(self, selector: str) -> bool:
        """Scroll an element that ``selector`` matches off screen into view, where the device can locate it (the
        web phone; :meth:`AgentSession.find_located`).  False when nothing moved towards one."""
        await prepare_app(self.agent, "scroll")
        try:
            await self.agent.find_located(selector)
        except ProtocolError as exc:
            if exc.code != e.NOT_FOUND:
                raise
            return False
        return True

    async def _current(self, element_id: str, nodes: list[Node] | None = None) -> tuple[Node, Index]:
        """The element ``element_id`` names, re-found in a fresh snapshot (or ``nodes``, already fresh)."""
        known = self._elements.get(element_id)
        if known is None:
            raise WebDriverError(NO_SUCH_ELEMENT, f"no element with id {element_id!r} in this session")
        old, issued = known
        fresh = Index(await self.nodes() if nodes is None else nodes)
        try:
            node = same_dom_node(old, fresh) or refind(element_id, old, issued, fresh)
        except ProtocolError as exc:
            raise ProtocolError(
                e.STALE_REF,
                f"the element ({node_line(old)}) is no longer on the screen as found",
                "Find the element again (it may have scrolled out of view, or the screen changed).",
            ) from exc
        self._elements[element_id] = (node, fresh)
        return node, fresh

    async def centre_of(self, element_id: str) -> tuple[float, float]:
        node, index = await self._current(element_id)
        return centre(node, index)

    async def click(self, element_id: str) -> None:
        """Tap the element's centre; a select's option (listed under it, without a place) is chosen instead, as
        W3C Element Click does for an ``<option>``.  An element with no place is not interactable: nothing is
        tapped."""
        node, index = await self._current(element_id)
        owner = select_of(node, index)
        if owner is not None:
            check_reachable(owner, node_line(owner))
            x, y = centre(owner, index)
            await self.agent.select(f"{x} {y}", [str(node.get("label") or "")])
            return
        if not has_box(node):
            raise WebDriverError(ELEMENT_NOT_INTERACTABLE, f"{node_line(node)} has no place on the screen to click")
        check_reachable(node, node_line(node))
        x, y = centre(node, index)
        await self.agent.tap_point(x, y, element=_serial(node))  # sent only if the point reaches it (ELEMENT_MOVED)

    async def _focus_end(self, element_id: str) -> Node:
        """Tap a text field near its end (the caret lands after its text); the node as it was."""
        node, index = await self._current(element_id)
        if node.get("type") not in TEXT_INPUT_ROLES:
            raise WebDriverError(
                ELEMENT_NOT_INTERACTABLE, f"{node_line(node)} is not a text field (send keys and clear need one)"
            )
        if not has_box(node):
            raise WebDriverError(ELEMENT_NOT_INTERACTABLE, f"{node_line(node)} has no place on the screen to type at")
        check_reachable(node, node_line(node))
        if node.get("tapPoint"):  # its centre is covered: the device found where a tap reaches it
            await self.agent.tap_point(*centre(node, index), element=_serial(node))
            return node
        left, top, width, height = visible_box(node, index)
        x = left + max(width / 2, width - min(12.0, width / 4))
        await self.agent.tap_point(x, top + height / 2, element=_serial(node))
        return node

    async def send_keys(self, element_id: str, body: Mapping[str, Any]) -> None:
        text = body.get("text")
        if not isinstance(text, str):
            value = body.get("value")
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise WebDriverError(INVALID_ARGUMENT, 'send keys takes {"text": STRING}')
            text = "".join(value)
        await self._focus_end(element_id)
        await self.type_keys(text)

    async def type_keys(self, text: str) -> None:
        """Type ``text``; WebDriver's Enter/Return/Backspace/Delete code points press those keys."""
        chunk = ""
        for ch in text:
            key = a.SPECIAL_KEYS.get(ch)
            if key is None:
                if ord(ch) not in range(0xE000, 0xE100):
                    chunk += ch
                continue
            if chunk:
                await self.agent.type(chunk)
                chunk = ""
            await self.agent.press(key)
        if chunk:
            await self.agent.type(chunk)

    async def clear(self, element_id: str) -> None:
        node = await self._focus_end(element_id)
        for _ in range(len(str(node.get("value") or ""))):
            await self.agent.press("backspace")

    async def text(self, element_id: str) -> str:
        node, _ = await self._current(element_id)
        return source.attributes(node).get("text", "")

    async def attribute(self, element_id: str, name: str) -> str | None:
        node, _ = await self._current(element_id)
        return source.attributes(node).get(name)

    async def rect(self, element_id: str) -> dict[str, float]:
        node, _ = await self._current(element_id)
        r = rect_of(node)
        return {"x": float(r["x"]), "y": float(r["y"]), "width": float(r["width"]), "height": float(r["height"])}

    async def state(self, element_id: str, which: str) -> bool:
        node, _ = await self._current(element_id)
        return source.attributes(node)[which] == "true"

    async def name(self, element_id: str) -> str:
        node, _ = await self._current(element_id)
        return str(node.get("type") or "Other")

    async def active(self) -> dict[str, str]:
        nodes = await self.nodes()
        focused = [n for n in nodes if n.get("focused")]
        if not focused:
            raise WebDriverError(NO_SUCH_ELEMENT, "no element has the focus")
        return element_json(self._remember(focused[-1], Index(nodes)))

    # -- gestures ---------------------------------------------------------------------------------------------
    async def perform(self, body: Mapping[str, Any]) -> None:
        try:
            await self._perform(body)
        except ProtocolError as exc:
            if exc.code == e.ELEMENT_COVERED:  # a page dialog refused it: W3C's prompt handling says what now
                await self.nodes()
            raise

    async def _perform(self, body: Mapping[str, Any]) -> None:
        ids = a.element_origins(body)
        centres = {element_id: await self.centre_of(element_id) for element_id in ids}
        for gesture in a.gestures(body, centres):
            await prepare_app(self.agent, "tap")
            if isinstance(gesture, a.Tap):
                await self.agent.tap_point(gesture.x, gesture.y, count=gesture.count)
            elif isinstance(gesture, a.LongPress):
                await self.agent.long_press(f"{gesture.x} {gesture.y}", duration_ms=gesture.duration_ms)
            elif isinstance(gesture, a.Swipe):
                g = gesture
                await self.agent.swipe(g.x1, g.y1, g.x2, g.y2, duration_ms=g.duration_ms)
            elif isinstance(gesture, a.TypeText):
                await self.agent.type(gesture.text)
            else:
                await self.agent.press(gesture.key)

    async def back(self) -> None:
        await self.nodes()  # a dialog open: handled as unhandledPromptBehavior says, not answered by back
        await self.agent.press("back")

    def set_timeouts(self, body: Mapping[str, Any]) -> None:
        for key, value in body.items():
            if key not in DEFAULT_TIMEOUTS:
                raise WebDriverError(INVALID_ARGUMENT, f"unknown timeout {key!r}; timeouts: implicit, pageLoad, script")
            if value is None and key == "script":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**53 - 1:
                raise WebDriverError(INVALID_ARGUMENT, f"timeout {key} must be an integer of milliseconds ≥ 0")
        for key, value in body.items():
            if isinstance(value, int):
                self.timeouts[key] = value


def _serial(node: Node) -> str | None:
    """The node's serial (web), which the device checks the tap's point against."""
    serial = node.get("serial")
    return str(serial) if serial else None


def same_dom_node(old: Node, fresh: Index) -> Node | None:
    """The node of ``fresh`` that is the very DOM element ``old`` was, by its serial (the web phone's): a W3C
    element reference names a node of the document, not what it shows, so a text that changed (a status line going
    from "none" to a position) keeps its reference.  None where the device gives no serials (Android, iOS) or the
    serial is gone: the agent's identity rules (:func:`refind`) decide there."""
    serial = _serial(old)
    found = fresh.by_serial.get(serial, []) if serial is not None else []
    return found[0] if len(found) == 1 else None
