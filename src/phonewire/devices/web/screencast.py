"""Recording the web phone's screen: DevTools ``Page.startScreencast`` frames, encoded by PyAV (:mod:`..video`).

The page in front streams JPEG frames at CSS scale (``maxWidth``/``maxHeight`` are the profile's points) whenever
its screen changes; each frame is acknowledged at once (the browser sends the next only after the ack) and queued;
one task encodes the queue in a worker thread.  When another page comes to the front the screencast moves to it.
Bounded: frames that arrive while :data:`MAX_QUEUED` wait are dropped (the video stays real-time), and after
:data:`~phonewire.protocol.commands.MAX_RECORD_S` seconds no more frames are taken.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from typing import Any, Final

from phonewire.devices.video import VideoWriter
from phonewire.devices.web.cdp import CdpError, CdpSession
from phonewire.protocol.commands import MAX_RECORD_S

MAX_QUEUED: Final = 30
FRAME_QUALITY: Final = 70


class Recording:
    def __init__(self, writer: VideoWriter, width: int, height: int) -> None:
        self.writer = writer
        self.width, self.height = width, height
        self.session: CdpSession | None = None
        self.dropped = 0
        self._queue: asyncio.Queue[tuple[bytes, float] | None] = asyncio.Queue()
        self._started = time.monotonic()
        self._task = asyncio.ensure_future(self._encode())
        self._acks: set[asyncio.Task[Any]] = set()

    async def follow(self, session: CdpSession) -> None:
        """Screencast ``session``'s page (the one in front) instead of the previous one."""
        if self.session is session:
            return
        if self.session is not None:
            with contextlib.suppress(CdpError):
                await self.session.send("Page.stopScreencast")
        self.session = session
        await session.send("Page.startScreencast", {"format": "jpeg", "quality": FRAME_QUALITY,
                                                    "maxWidth": self.width, "maxHeight": self.height})  # fmt: skip

    def on_frame(self, params: dict[str, Any], session_id: str | None) -> None:
        """A ``Page.screencastFrame`` event (reader task: no waiting here)."""
        session = self.session
        if session is None or session_id != session.session_id:
            return
        ack = asyncio.ensure_future(session.send("Page.screencastFrameAck", {"sessionId": params.get("sessionId")}))
        self._acks.add(ack)
        ack.add_done_callback(self._acked)
        now = time.monotonic()
        if now - self._started > MAX_RECORD_S or self._queue.qsize() >= MAX_QUEUED:
            self.dropped += 1
            return
        self._queue.put_nowait((base64.b64decode(params.get("data", "")), now))

    def _acked(self, task: asyncio.Task[Any]) -> None:
        self._acks.discard(task)
        if not task.cancelled():
            task.exception()  # a closed page: nothing to acknowledge any more

    async def _encode(self) -> None:
        while (item := await self._queue.get()) is not None:
            await asyncio.to_thread(self.writer.add, *item)

    async def discard(self) -> None:
        """End a recording whose screencast never started (:meth:`follow` failed): no video, no file."""
        self.session = None
        self._queue.put_nowait(None)
        await self._task
        await asyncio.to_thread(self.writer.discard)

    async def stop(self) -> dict[str, Any]:
        """Stop the screencast, encode what is queued and close the file."""
        if self.session is not None:
            with contextlib.suppress(CdpError):
                await self.session.send("Page.stopScreencast")
        self.session = None
        self._queue.put_nowait(None)
        await self._task
        ended = time.monotonic()
        result = await asyncio.to_thread(self.writer.close, ended)
        result["droppedFrames"] = self.dropped
        return result
