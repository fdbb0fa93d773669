"""The device's records as agent operations: console logs, network requests, screen video (the wire extensions
``logs``, ``network``, ``recordStart``, ``recordStop``).  A mixin of :class:`~phonewire.agent.core.AgentSession`,
which provides the methods declared here; each operation reads from where this session's previous call stopped."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from phonewire.agent import recording
from phonewire.agent.checks import checked_path, invalid
from phonewire.agent.hooks import Observers, operation
from phonewire.agent.observe import dropped, log_line, request_line
from phonewire.agent.results import ActionResult
from phonewire.protocol import commands as c

if TYPE_CHECKING:
    from phonewire.agent.link import Link

T = TypeVar("T")


class Records:
    """What AgentSession adds for the device's records."""

    _logs_since: int = 0
    _network_since: int = 0
    #: The file this session's recording goes to (a ``record stop`` that finds none on the device says it was lost).
    _recording_to: str | None = None

    if TYPE_CHECKING:
        observers: Observers
        _link: Link

        @property
        def app_id(self) -> str | None: ...

        async def _locked(self, fn: Callable[[], Awaitable[T]]) -> T: ...

    @operation
    async def logs(self) -> ActionResult:
        """Console messages and page errors (web) or logcat lines (Android) of the session's app since this
        session's previous ``logs`` (the first call: everything the device kept)."""

        async def run() -> ActionResult:
            reply = await self._link.send(c.LOGS, {"since": self._logs_since, "appBundleId": self.app_id})
            data = reply.data or {}
            self._logs_since = int(data.get("next", self._logs_since))
            entries = [x for x in data.get("entries") or [] if isinstance(x, dict)]
            lines = [log_line(x) for x in entries]
            head = f"{len(entries)} log entr{'y' if len(entries) == 1 else 'ies'}" + dropped(data)
            return ActionResult({"message": "\n".join([head, *lines]), "entries": entries,
                                 "dropped": data.get("dropped", 0), "truncated": data.get("truncated", 0)})  # fmt: skip

        return await self._locked(run)

    @operation
    async def network(self, url: str | None = None, *, status: int | None = None) -> ActionResult:
        """Requests since this session's previous ``network`` (the first call starts the device's capture), only
        those whose URL contains ``url`` and answered ``status`` when given."""
        if status is not None and (isinstance(status, bool) or not isinstance(status, int) or not 0 <= status <= 999):
            raise invalid(f"status must be an HTTP status 0..999, got {status!r}", "E.g. --status 404.")

        async def run() -> ActionResult:
            reply = await self._link.send(c.NETWORK, {"since": self._network_since})
            data = reply.data or {}
            self._network_since = int(data.get("next", self._network_since))
            requests = [
                r for r in data.get("requests") or []
                if isinstance(r, dict) and (not url or url in str(r.get("url", "")))
                and (status is None or r.get("status") == status)
            ]  # fmt: skip
            head = f"{len(requests)} request(s)" + dropped(data)
            return ActionResult({"message": "\n".join([head, *map(request_line, requests)]), "requests": requests,
                                 "dropped": data.get("dropped", 0), "truncated": data.get("truncated", 0)})  # fmt: skip

        return await self._locked(run)

    @operation
    async def record_start(self, file: str) -> ActionResult:
        """Record the screen into the video ``file`` (.mp4 or .webm; resolved here) until :meth:`record_stop`."""
        if not file.strip():
            raise invalid("record start needs a file", "Use `record start FILE.mp4` (or .webm).")
        path = str(checked_path(file, "the video file", "Name a .mp4 or .webm file in a directory of yours."))

        async def run() -> ActionResult:
            reply = await self._link.send(c.RECORD_START, {"path": path})
            data = reply.data or {}
            self._recording_to = path
            return ActionResult({"message": f"recording to {path}", **data})

        return await self._locked(run)

    @operation
    async def record_stop(self) -> ActionResult:
        async def run() -> ActionResult:
            data = (await self._link.send(c.RECORD_STOP)).data or {}
            started, self._recording_to = self._recording_to, None
            if not data.get("path") and started is not None:  # the runner or its browser restarted mid-recording
                return ActionResult(await asyncio.to_thread(recording.lost, started))
            if not data.get("path"):
                return ActionResult({"message": "nothing was recording", **data})
            message = f"recorded {data.get('frames', 0)} frame(s), {data.get('seconds', 0):g} s, into {data['path']}"
            return ActionResult({"message": message, **data})

        return await self._locked(run)
