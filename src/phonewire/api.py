"""The Python API: drive a phone from a test script, synchronously.

::

    import phonewire

    with phonewire.Phone(device="web") as phone:      # starts a runner (and Chromium) for the device
        phone.open("dev.phonewire.demo")
        print(phone.snapshot(interactive=True).text)   # @e1 Heading "Inbox" id=title …
        phone.tap("@e29")                              # a ref, "X Y", or a selector: 'role=Link label="Account"'
        phone.fill('label="Name"', "Ada")
        phone.press("enter")
        phone.screenshot("done.png")
    # leaving the block stops the runner it started

Every method blocks until the device answered and raises :class:`phonewire.ProtocolError` (``code``,
``message``, ``hint``) on failure; arguments are checked against the operation table's parameters first, so a
wrong type or an out-of-bounds number is INVALID_REQUEST with a hint and nothing is sent.  The same operations
and rules as the CLI apply (docs/cli.md): refs belong to the last snapshot and are re-found before acting,
selectors that match several elements raise AMBIGUOUS_MATCH.

The class runs one private asyncio event loop in a daemon thread; it may be used from any one thread at a time.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from phonewire.agent.core import AgentSession
from phonewire.agent.imagefile import DEFAULT_FORMAT, format_for_path
from phonewire.agent.operations import for_front_end
from phonewire.agent.results import ActionResult, View
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import DEFAULT_FIND_SCROLLS, DEFAULT_WAIT_MS

if TYPE_CHECKING:
    from phonewire.host import CommandSender

T = TypeVar("T")

_OPERATIONS = for_front_end("api")

__all__ = ["ActionResult", "Phone", "View"]


class Phone:
    """One phone (one runner) and one agent session on it.

    :param device: device spec, ``web`` (default), ``web:pixel-7``, ``android:SERIAL`` …
    :param runner: ``HOST:PORT`` of a runner that is already listening (attach instead of starting one)
    :param sender: a ready :class:`phonewire.host.CommandSender` to use instead (tests, custom hosts)
    :param trace: a directory to record every operation into (``phonewire trace view DIR`` shows it)
    """

    def __init__(
        self,
        device: str = "web",
        *,
        runner: str | None = None,
        sender: CommandSender | None = None,
        trace: str | Path | None = None,
    ) -> None:
        if sender is None and not runner:
            from phonewire.devices.registry import check_spec

            check_spec(device)  # a typo raises INVALID_REQUEST here, before a thread or runner is started
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="phonewire-api", daemon=True)
        self._thread.start()
        self._closed = False
        if sender is None:
            from phonewire.host.session import HostSession

            async def make() -> CommandSender:
                return HostSession(None if runner else device, runner_addr=runner)

            sender = self._call(make())
        self._sender = sender
        self.session = AgentSession(sender)
        if trace is not None:
            self.trace_start(str(trace))

    # -- plumbing -------------------------------------------------------------------------------------------
    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coro.close()
            raise ProtocolError(e.RUNNER_UNAVAILABLE, "this Phone is closed", "Create a new phonewire.Phone().")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @staticmethod
    def _check(name: str, **args: object) -> None:
        """Check ``args`` of the operation the API spells ``name`` against the table's parameters: a wrong type or a
        value out of bounds is ``ProtocolError(INVALID_REQUEST)`` with a hint, before anything is sent."""
        for p in _OPERATIONS[name].params:
            if p.name in args and (p.required or args[p.name] is not None):
                p.check(args[p.name], f"Phone.{name}")

    def __enter__(self) -> Phone:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the runner this phone started and the private event loop.  Safe to call twice."""
        if self._closed:
            return
        try:
            asyncio.run_coroutine_threadsafe(self.session.trace_stop(), self._loop).result()
            asyncio.run_coroutine_threadsafe(self._sender.close(), self._loop).result()
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()

    @property
    def app_id(self) -> str | None:
        """The app that app-scoped operations target (set by :meth:`open`)."""
        return self.session.app_id

    # -- operations -----------------------------------------------------------------------------------------
    def open(
        self, app_id: str, clear_state: bool = False, locale: str | None = None, timezone: str | None = None
    ) -> ActionResult:
        """Launch ``app_id`` (an app id, or an http(s) URL on the web device) and make it the current app;
        ``clear_state``: its stored data cleared first; ``locale`` / ``timezone``: the language (fr-FR) and time
        zone (Europe/Paris) it sees for this launch."""
        self._check("open", app_id=app_id, clear_state=clear_state, locale=locale, timezone=timezone)
        return self._call(self.session.open_app(app_id, clear_state=clear_state, locale=locale, timezone=timezone))

    def close_app(self, app_id: str | None = None) -> ActionResult:
        """Stop ``app_id`` (default: the current app)."""
        self._check("close_app", app_id=app_id)
        return self._call(self.session.close_app(app_id))

    def apps(self) -> list[dict[str, Any]]:
        return self._call(self.session.list_apps())

    def open_url(self, url: str) -> ActionResult:
        self._check("open_url", url=url)
        return self._call(self.session.open_url(url))

    def snapshot(self, *, interactive: bool = False, diff: bool = False, all: bool = False, ocr: bool = False) -> View:
        """The screen as the agent view (``.text``), with ``.refs`` (``"e1"`` → node) and the raw ``.nodes``
        (``all``: long runs of siblings not summarised, wrappers with only an id kept; ``ocr``: the text drawn on
        the screen too, as ``StaticText`` lines marked ``(seen)`` — also added by itself when the view is sparse)."""
        self._check("snapshot", interactive=interactive, diff=diff, all=all, ocr=ocr)
        return self._call(self.session.snapshot(interactive=interactive, diff=diff, all=all, ocr=ocr))

    def tap(self, target: str, *, count: int = 1) -> ActionResult:
        """Tap ``@eN``, ``"X Y"`` or a selector (``'role=Button label="OK"'``)."""
        self._check("tap", target=target, count=count)
        return self._call(self.session.tap(target, count=count))

    def long_press(self, target: str, *, duration_ms: float = 800) -> ActionResult:
        self._check("long_press", target=target, duration_ms=duration_ms)
        return self._call(self.session.long_press(target, duration_ms=duration_ms))

    def fill(self, target: str, text: str) -> ActionResult:
        """Focus the text field ``target``, clear it, type ``text``."""
        self._check("fill", target=target, text=text)
        return self._call(self.session.fill(target, text))

    def select(self, target: str, options: list[str], *, add: bool = False) -> ActionResult:
        """Choose ``options`` of the select ``target`` (by visible text, else value); ``add`` on a multi-select."""
        self._check("select", target=target, options=options, add=add)
        return self._call(self.session.select(target, options, add=add))

    def type(self, text: str) -> ActionResult:
        """Type into the focused field."""
        self._check("type", text=text)
        return self._call(self.session.type(text))

    def press(self, key: str) -> ActionResult:
        """``enter``, ``delete``, ``home``, ``back``, ``volumeUp``, ``volumeDown``."""
        self._check("press", key=key)
        return self._call(self.session.press(key))

    def swipe(self, x1: float, y1: float, x2: float, y2: float, *, duration_ms: float = 300) -> ActionResult:
        self._check("swipe", x1=x1, y1=y1, x2=x2, y2=y2, duration_ms=duration_ms)
        return self._call(self.session.swipe(x1, y1, x2, y2, duration_ms=duration_ms))

    def scroll(self, direction: str, target: str | None = None, *, amount: float = 0.6) -> ActionResult:
        """Scroll ``up``/``down``/``left``/``right`` by ``amount`` of the container: the one around ``target`` (a
        ref, ``"X Y"`` or a selector), else the page.  ``data["distance"]`` is how far it moved (points),
        ``data["atEnd"]`` whether it reached the end."""
        self._check("scroll", direction=direction, amount=amount, **({"target": target} if target else {}))
        return self._call(self.session.scroll(direction, target, amount=amount))

    def find(self, selector: str, *, direction: str = "down", max_scrolls: int = DEFAULT_FIND_SCROLLS) -> ActionResult:
        """Scroll until ``selector`` matches an element that shows; ``data["line"]`` is its snapshot line (``@eN
        …``), ``data["ref"]`` its ref.  NOT_FOUND at the end or after ``max_scrolls``."""
        self._check("find", selector=selector, direction=direction, max_scrolls=max_scrolls)
        return self._call(self.session.find(selector, direction=direction, max_scrolls=max_scrolls))

    def wait(
        self, selector: str | None = None, *, gone: bool = False, idle: bool = False, timeout_ms: int = DEFAULT_WAIT_MS
    ) -> ActionResult:
        """Wait until ``selector`` shows (``gone``: until it no longer does), or until the screen is idle."""
        return self._call(self.session.wait(selector, gone=gone, idle=idle, timeout_ms=timeout_ms))

    def viewport(self) -> dict[str, float]:
        return self._call(self.session.viewport())

    def screenshot(
        self,
        path: str | Path | None = None,
        *,
        format: str | None = None,
        scale: str = "device",
        overlay_refs: bool = False,
    ) -> bytes:
        """The screen as PNG/JPEG bytes, also written to ``path`` when given.  ``format``: ``png`` or ``jpeg``; when
        left out, the extension of ``path`` chooses it (``.png``, ``.jpg``, ``.jpeg``), else PNG.  A ``format`` that
        disagrees with the extension is ``ProtocolError(INVALID_REQUEST)``, and so is a ``path`` that is a symlink or
        another user's file (the file is written 0600)."""
        self._check("screenshot", format=format, scale=scale, overlay_refs=overlay_refs)
        format = format_for_path(path, format) if path is not None else format or DEFAULT_FORMAT
        image = self._call(self.session.screenshot(format=format, scale=scale, overlay_refs=overlay_refs))
        if path is not None:  # 0600, never through a symlink or into another user's file
            from phonewire.runtime import write_private_output

            write_private_output(path, image)
        return image

    def trace_start(self, dir: str) -> ActionResult:
        """Record every later operation into the directory ``dir`` (0700; see ``phonewire trace view``)."""
        self._check("trace_start", dir=dir)
        return self._call(self.session.trace_start(dir))

    def trace_stop(self) -> ActionResult:
        return self._call(self.session.trace_stop())

    def logs(self) -> ActionResult:
        """Console messages and page errors since the previous ``logs`` (``.data["entries"]``)."""
        return self._call(self.session.logs())

    def network(self, url: str | None = None, *, status: int | None = None) -> ActionResult:
        """Requests since the previous ``network`` (``.data["requests"]``; the first call starts capturing)."""
        self._check("network", url=url, status=status)
        return self._call(self.session.network(url, status=status))

    def record_start(self, file: str | Path) -> ActionResult:
        """Record the screen into ``file`` (.mp4 or .webm) until :meth:`record_stop`."""
        self._check("record_start", file=str(file))
        return self._call(self.session.record_start(str(file)))

    def record_stop(self) -> ActionResult:
        return self._call(self.session.record_stop())

    # -- the phone's repertoire (issue 24) ------------------------------------------------------------------------
    def select_text(
        self, target: str, *, word: bool = False, all: bool = False, start: int | None = None, end: int | None = None
    ) -> ActionResult:
        """Select the target's text (``word``: the word at it; ``all``: select all; ``start``/``end``: those
        characters); ``data["selected"]`` is the text selected."""
        self._check("select_text", target=target, word=word, all=all, start=start, end=end)
        return self._call(self.session.select_text(target, word=word, all=all, start=start, end=end))

    def clipboard_get(self) -> ActionResult:
        """The phone's clipboard: ``data["text"]``."""
        return self._call(self.session.clipboard_get())

    def clipboard_set(self, text: str) -> ActionResult:
        self._check("clipboard_set", text=text)
        return self._call(self.session.clipboard_set(text))

    def rotate(self, orientation: str) -> ActionResult:
        """``portrait`` or ``landscape``."""
        self._check("rotate", orientation=orientation)
        return self._call(self.session.rotate(orientation))

    def location(self, latitude: float, longitude: float, *, accuracy: float | None = None) -> ActionResult:
        self._check("location", latitude=latitude, longitude=longitude, accuracy=accuracy)
        return self._call(self.session.location(latitude, longitude, accuracy=accuracy))

    def location_off(self) -> ActionResult:
        return self._call(self.session.location_off())

    def appearance(self, mode: str) -> ActionResult:
        """``light`` or ``dark``."""
        self._check("appearance", mode=mode)
        return self._call(self.session.appearance(mode))

    def connectivity(self, mode: str) -> ActionResult:
        """``online``, ``offline``, ``slow-3g`` or ``fast-3g``."""
        self._check("connectivity", mode=mode)
        return self._call(self.session.connectivity(mode))

    def keyboard_hide(self) -> ActionResult:
        """Dismiss the on-screen keyboard (``data["hidden"]`` false: none was up)."""
        return self._call(self.session.keyboard_hide())

    def permissions(self, setting: str, names: list[str]) -> ActionResult:
        """``grant``, ``deny`` or ``reset`` the permissions ``names`` (geolocation, camera, clipboard …)."""
        self._check("permissions", setting=setting, names=names)
        return self._call(self.session.permissions(setting, names))

    def pinch(self, target: str, *, scale: float = 2.0, duration_ms: float = 300) -> ActionResult:
        """Two fingers on ``target`` that end ``scale`` times as far apart (above 1: zoom in)."""
        self._check("pinch", target=target, scale=scale, duration_ms=duration_ms)
        return self._call(self.session.pinch(target, scale=scale, duration_ms=duration_ms))

    def pick_file(self, files: list[str | Path]) -> ActionResult:
        """Hand ``files`` to the file chooser the page opened (its change handler sees them)."""
        names = [str(f) for f in files]
        self._check("pick_file", files=names)
        return self._call(self.session.pick_file(names))

    def flow_run(
        self, file: str | Path, env: list[str] | None = None, *, trace: str | Path | None = None
    ) -> ActionResult:
        """Run the Maestro flow ``file`` (checked whole first; docs/flows.md): ``.data["steps"]`` says what each
        command did.  ``env``: ``["NAME=VALUE", …]``; ``trace``: record the run into that trace directory."""
        self._check("flow_run", file=str(file), env=env, trace=None if trace is None else str(trace))
        return self._call(self.session.flow_run(str(file), env, trace=None if trace is None else str(trace)))
