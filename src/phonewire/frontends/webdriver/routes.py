"""The endpoint table and the service behind it: sessions by id, each with its own phone.  No sockets here:
:meth:`Service.handle` takes a method, a path and a decoded body and answers ``(status, JSON value)``.

:data:`ROUTES` is the one declaration of the endpoints; docs/webdriver.md's endpoint table is checked against it.
An unknown path is ``unknown command``; a known path with another method is ``unknown method``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from phonewire.agent.core import AgentSession
from phonewire.frontends.webdriver import mobile
from phonewire.frontends.webdriver.capabilities import Wanted, wanted
from phonewire.frontends.webdriver.errors import (
    INVALID_ARGUMENT,
    INVALID_SESSION_ID,
    SESSION_NOT_CREATED,
    UNKNOWN_COMMAND,
    UNKNOWN_METHOD,
    WebDriverError,
)
from phonewire.frontends.webdriver.queries import QUERY_BUDGET_S, QueryWorker
from phonewire.frontends.webdriver.session import WebDriverSession
from phonewire.protocol.commands import Timing
from phonewire.protocol.errors import ProtocolError

log = logging.getLogger("phonewire.webdriver")

#: Sessions one server runs at once (``--max-sessions``): each is a phone of its own.
DEFAULT_MAX_SESSIONS: Final = 8
#: Seconds without a command after which a session is ended by the server (``--idle-timeout``;
#: ``appium:newCommandTimeout`` sets it per session).
DEFAULT_IDLE_TIMEOUT_S: Final = 300.0
REAP_EVERY_S: Final = 0.5

Opener = Callable[[Wanted], AbstractAsyncContextManager[AgentSession]]
Body = Mapping[str, Any]
Handler = Callable[["Service", WebDriverSession | None, dict[str, str], Body], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str  # with {session}, {element}, {name} placeholders
    handler: Handler
    summary: str
    #: The operations of the table it performs (agent/operations.py): none for WebDriver's own endpoints.
    operations: tuple[str, ...] = ()

    @property
    def pattern(self) -> re.Pattern[str]:
        return re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", self.path) + "/?$")


@contextlib.asynccontextmanager
async def default_opener(w: Wanted) -> AsyncIterator[AgentSession]:
    """A phone of its own for each session: a runner (and its browser) started for it, stopped at the end."""
    from phonewire.frontends.serving import agent_session

    async with agent_session(w.device, app=w.app) as session:
        yield session


class Service:
    """The sessions of one server.  ``aclose()`` ends every session (and stops the runner each one started)."""

    def __init__(
        self,
        opener: Opener = default_opener,
        *,
        idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
        files_dir: Path | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
    ) -> None:
        self.opener = opener
        #: ``--max-sessions``: sessions at once (each is a phone: a runner and a browser, ~100-400 MB).
        self.max_sessions = max_sessions
        self._opening = 0
        self.idle_timeout_s = idle_timeout_s
        #: ``--files-dir``: where clients' traces and videos go (None: session.default_files_dir()).
        self.files_dir = files_dir
        self.sessions: dict[str, WebDriverSession] = {}
        self._stacks: dict[str, AsyncExitStack] = {}
        self._reaper: asyncio.Task[None] | None = None
        #: Every session's locators run in this one worker process (queries.py: a time and node budget).
        self.queries = QueryWorker(QUERY_BUDGET_S * Timing.from_env(dict(os.environ)).scale)

    # -- lifecycle --------------------------------------------------------------------------------------------
    def start_reaper(self) -> None:
        self._reaper = asyncio.get_running_loop().create_task(self._reap())

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(REAP_EVERY_S)
            now = time.monotonic()
            for s in list(self.sessions.values()):
                limit = s.wanted.idle_timeout_s or self.idle_timeout_s
                if s.busy == 0 and now - s.last_used > limit:
                    log.warning("session %s ended: no command for %.0f s", s.id, limit)
                    await self.end(s.id)

    async def create(self, body: Body) -> dict[str, Any]:
        w = wanted(body)
        if len(self.sessions) + self._opening >= self.max_sessions:
            raise WebDriverError(
                SESSION_NOT_CREATED,
                f"this server already runs {len(self.sessions) + self._opening} session(s), its limit "
                f"(--max-sessions {self.max_sessions}); end one (DELETE /session/ID) or start the server with a "
                "higher --max-sessions",
            )
        self._opening += 1
        try:
            return await self._create(w)
        finally:
            self._opening -= 1

    async def _create(self, w: Wanted) -> dict[str, Any]:
        stack = AsyncExitStack()
        try:
            agent = await stack.enter_async_context(self.opener(w))
        except ProtocolError as exc:
            await stack.aclose()
            hint = f" ({exc.hint})" if exc.hint else ""
            raise WebDriverError(SESSION_NOT_CREATED, f"{exc.code}: {exc.message}{hint}") from exc
        except BaseException:
            await stack.aclose()
            raise
        session = WebDriverSession(agent, w, files_dir=self.files_dir, queries=self.queries)
        self.sessions[session.id] = session
        self._stacks[session.id] = stack
        return {"sessionId": session.id, "capabilities": session.capabilities}

    async def end(self, session_id: str) -> None:
        self.sessions.pop(session_id, None)
        stack = self._stacks.pop(session_id, None)
        if stack is not None:
            try:
                await stack.aclose()
            except Exception as exc:  # the phone is gone either way
                log.warning("ending session %s: %s: %s", session_id, type(exc).__name__, exc)

    async def aclose(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
        await asyncio.gather(*(self.end(sid) for sid in list(self.sessions)))
        await self.queries.aclose()

    # -- dispatch ---------------------------------------------------------------------------------------------
    async def handle(self, method: str, path: str, body: Body) -> Any:
        """The JSON ``value`` of a successful reply; failures raise (errors.to_w3c makes them wire errors)."""
        allowed = False
        for route in ROUTES:
            match = route.pattern.match(path)
            if match is None:
                continue
            allowed = True
            if route.method != method:
                continue
            params = match.groupdict()
            session: WebDriverSession | None = None
            if "session" in params:
                session = self.sessions.get(params["session"])
                if session is None:
                    raise WebDriverError(INVALID_SESSION_ID, f"no session {params['session']!r} (ended, or never made)")
                session.busy += 1
            try:
                return await route.handler(self, session, params, body)
            finally:
                if session is not None:
                    session.busy -= 1
                    session.last_used = time.monotonic()
        if allowed:
            raise WebDriverError(UNKNOWN_METHOD, f"{method} is not supported on {path}")
        raise WebDriverError(UNKNOWN_COMMAND, f"no endpoint {method} {path} (docs/webdriver.md lists them)")


# --- handlers (one line each where possible) ---------------------------------------------------------------------
def _s(session: WebDriverSession | None) -> WebDriverSession:
    assert session is not None
    return session


async def _status(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return {"ready": True, "message": f"phonewire webdriver: {len(svc.sessions)} session(s)",
            "build": {"version": _version()}}  # fmt: skip


def _version() -> str:
    from phonewire.versions import __version__

    return __version__


async def _new(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await svc.create(b)


async def _sessions(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return [{"id": x.id, "capabilities": x.capabilities} for x in svc.sessions.values()]


async def _get_session(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return _s(s).capabilities


async def _delete(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await svc.end(_s(s).id)
    return None


async def _get_timeouts(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return _s(s).timeouts


async def _set_timeouts(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    _s(s).set_timeouts(b)


async def _find(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).find(b, many=False)


async def _find_all(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).find(b, many=True)


async def _find_in(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).find(b, many=False, within=p["element"])


async def _find_all_in(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).find(b, many=True, within=p["element"])


async def _active(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).active()


async def _click(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).click(p["element"])


async def _clear(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).clear(p["element"])


async def _value(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).send_keys(p["element"], b)


async def _text(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).text(p["element"])


async def _attribute(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).attribute(p["element"], p["name"])


async def _rect(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).rect(p["element"])


async def _name(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).name(p["element"])


def _state(which: str) -> Handler:
    async def handler(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
        return await _s(s).state(p["element"], which)

    return handler


async def _source(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).source()


async def _screenshot(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).screenshot()


async def _element_screenshot(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).element_screenshot(p["element"])


async def _back(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).back()


async def _window_rect(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).window_rect()


async def _orientation(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    rect = await _s(s).window_rect()
    return "LANDSCAPE" if rect["width"] > rect["height"] else "PORTRAIT"


async def _hide_keyboard(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).agent.keyboard_hide()


async def _rotate(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    wanted = str(b.get("orientation", "")).upper()
    if wanted not in ("PORTRAIT", "LANDSCAPE"):
        raise WebDriverError(INVALID_ARGUMENT, 'orientation must be "PORTRAIT" or "LANDSCAPE"')
    await _s(s).agent.rotate(wanted.lower())


async def _actions(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).perform(b)


async def _release(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return None  # every gesture is complete when /actions answers: nothing stays pressed


async def _execute(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await mobile.execute(_s(s), b)


async def _alert_text(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    return await _s(s).alert_text()


async def _alert_send(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).alert_send_text(b)


async def _alert_accept(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).answer_alert(accept=True)


async def _alert_dismiss(svc: Service, s: WebDriverSession | None, p: dict[str, str], b: Body) -> Any:
    await _s(s).answer_alert(accept=False)


_S: Final = "/session/{session}"
_E: Final = _S + "/element/{element}"

ROUTES: Final[tuple[Route, ...]] = (
    Route("GET", "/status", _status, "ready + message"),
    Route("POST", "/session", _new, "new session: its own phone, the app opened"),
    Route("GET", "/sessions", _sessions, "the open sessions and their capabilities"),
    Route("GET", _S, _get_session, "the session's capabilities"),
    Route("DELETE", _S, _delete, "end the session, stop its phone"),
    Route("GET", _S + "/timeouts", _get_timeouts, "implicit, pageLoad, script (ms)"),
    Route("POST", _S + "/timeouts", _set_timeouts, "set them; implicit is the find wait"),
    Route("POST", _S + "/element", _find, "find one element"),
    Route("POST", _S + "/elements", _find_all, "find all matching elements"),
    Route("GET", _S + "/element/active", _active, "the focused element"),
    Route("POST", _E + "/element", _find_in, "find one element inside another"),
    Route("POST", _E + "/elements", _find_all_in, "find all inside another"),
    Route("POST", _E + "/click", _click, "tap its current centre", ("tap",)),
    Route("POST", _E + "/clear", _clear, "delete a text field's value"),
    Route("POST", _E + "/value", _value, "tap a text field's end, type", ("type",)),
    Route("GET", _E + "/text", _text, "its text (a field's value, else its label)"),
    Route("GET", _E + "/attribute/{name}", _attribute, "an attribute of the page source"),
    Route("GET", _E + "/rect", _rect, "x, y, width, height in points"),
    Route("GET", _E + "/name", _name, "its role"),
    Route("GET", _E + "/displayed", _state("visible"), "has a size on screen"),
    Route("GET", _E + "/enabled", _state("enabled"), "enabled"),
    Route("GET", _E + "/selected", _state("selected"), "selected"),
    Route("GET", _S + "/source", _source, "the screen as Appium-style XML", ("snapshot",)),
    Route("GET", _S + "/screenshot", _screenshot, "PNG, base64", ("screenshot",)),
    Route("GET", _E + "/screenshot", _element_screenshot, "the element's part of the screenshot, PNG, base64"),
    Route("POST", _S + "/back", _back, "the back button", ("press",)),
    Route("GET", _S + "/window/rect", _window_rect, "the app's viewport in points", ("viewport",)),
    Route("GET", _S + "/orientation", _orientation, "PORTRAIT or LANDSCAPE (the app's viewport)"),
    Route("POST", _S + "/orientation", _rotate, "turn the phone (`rotate`)", ("rotate",)),
    Route("POST", _S + "/appium/device/hide_keyboard", _hide_keyboard, "dismiss the keyboard", ("keyboard_hide",)),
    Route(
        "POST",
        _S + "/actions",
        _actions,
        "W3C pointer/key actions: tap, double tap, long press, swipe, keys",
        ("tap", "long_press", "swipe", "type", "press"),
    ),
    Route("DELETE", _S + "/actions", _release, "release (nothing stays pressed)"),
    Route("POST", _S + "/execute/sync", _execute, "`mobile:` commands"),
    Route("GET", _S + "/alert/text", _alert_text, "the open dialog's message (`no such alert`: none)"),
    Route("POST", _S + "/alert/text", _alert_send, "type into a prompt's field (its text replaced)"),
    Route("POST", _S + "/alert/accept", _alert_accept, "tap the dialog's OK"),
    Route("POST", _S + "/alert/dismiss", _alert_dismiss, "tap its Cancel (an alert's OK)"),
)

#: The operations of the table WebDriver offers no endpoint or ``mobile:`` command of its own for, each with why.
NOT_OFFERED: Final[Mapping[str, str]] = {
    "fill": "W3C's Element Clear then Element Send Keys (POST .../clear, .../value) is a WebDriver client's fill; "
    "a mobile: command would be a second way to do it",
}


def operations() -> set[str]:
    """The operations of the table WebDriver performs: its routes' and its ``mobile:`` commands'."""
    return {name for route in ROUTES for name in route.operations} | {c.operation for c in mobile.MOBILE.values()}
