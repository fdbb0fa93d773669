"""The CLI daemon's view of its clients: who is waiting for which request, and whether they still are.

A client that goes away while its command runs (Ctrl-C, killed) hangs up its socket (:class:`Hangups` sees it); a
client that gave up (its deadline passed while the daemon was stopped or busy) is seen by :meth:`Caller.stale`,
the owner check every command sent for it goes through (``phonewire.host.session.OWNER``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import select
import sys
import time
from collections.abc import Callable
from typing import Any

from phonewire.frontends.cli import client as cl
from phonewire.frontends.cli import verbs as v


class Hangups:
    """Tells when a client hangs up while the daemon still works on its request.

    A client shuts down its sending side once its request is sent, so reading says nothing more; only the hang-up
    of the whole connection (``EPOLLHUP``, reported for a socket registered with no other event) tells that it has
    gone.  One epoll object serves every connection, read by the event loop.  Without epoll (not Linux) nothing is
    ever reported: commands then run to their end, as before."""

    def __init__(self) -> None:
        self._epoll: Any = None
        self._callbacks: dict[int, Callable[[], None]] = {}

    def watch(self, fd: int, callback: Callable[[], None]) -> None:
        """Call ``callback`` once, from the event loop, when the peer of socket ``fd`` has closed it."""
        if self._epoll is None:
            if not hasattr(select, "epoll"):
                return
            self._epoll = select.epoll()
            asyncio.get_running_loop().add_reader(self._epoll.fileno(), self._ready)
        self._epoll.register(fd, 0)
        self._callbacks[fd] = callback

    def unwatch(self, fd: int) -> None:
        if self._callbacks.pop(fd, None) is not None:
            self._epoll.unregister(fd)

    def _ready(self) -> None:
        for fd, _events in self._epoll.poll(0):
            callback = self._callbacks.get(fd)
            self.unwatch(fd)
            if callback is not None:
                callback()

    def close(self) -> None:
        if self._epoll is not None:
            asyncio.get_running_loop().remove_reader(self._epoll.fileno())
            self._epoll.close()
            self._epoll = None
            self._callbacks.clear()


class Caller:
    """One request's client, while the daemon works on it: whether it has gone, and whether what runs for it now
    may stop then (:func:`abandonable`).  :meth:`stale` is the owner check of every command sent for it
    (``phonewire.host.session.OWNER``): a mutation is not started once the client has hung up or its deadline
    (``PHONEWIRE_CLIENT_DEADLINE``, wall-clock seconds, sent by both clients) has passed."""

    def __init__(self, task: asyncio.Task[Any] | None = None, *, fd: int = -1, deadline: float | None = None) -> None:
        self.task = task
        self.fd = fd
        self.deadline = deadline
        self.gone = False
        self.abandonable = False
        #: ``SESSION:VERB`` of what runs now (``daemon status`` lists them).
        self.doing = ""
        #: What runs now has started a mutation on the phone (it passed :meth:`stale`): from here it runs to its end
        #: even when the client leaves; before, a client that leaves means it is never started (``daemon status``
        #: lists these as ``acting``).
        self.acted = False

    def left(self) -> None:
        self.gone = True
        if self.abandonable and self.task is not None:
            print(f"phonewire daemon: the client left; stopped {self.doing}", file=sys.stderr)
            self.task.cancel()
        elif self.doing and self.acted:
            print(f"phonewire daemon: the client left; {self.doing} runs to its end", file=sys.stderr)
        elif self.doing:
            print(f"phonewire daemon: the client left; {self.doing} sends nothing more to the phone", file=sys.stderr)

    def stale(self) -> str | None:
        """Why this client no longer wants its command (``None``: it still waits).  Looked at synchronously, not
        left to the event loop's hang-up callback: a daemon resumed after SIGSTOP runs the request before it."""
        if not self.gone and self.fd >= 0 and hasattr(select, "poll"):
            poller = select.poll()
            poller.register(self.fd, 0)
            with contextlib.suppress(OSError):
                if any(events & (select.POLLHUP | select.POLLERR) for _fd, events in poller.poll(0)):
                    self.gone = True
        if self.gone:
            return "its client has gone (it hung up before the command could start)"
        if self.deadline is not None and time.time() > self.deadline:
            late = time.time() - self.deadline
            return f"its client's deadline passed {late:.1f} s ago (the daemon was stopped or busy until now)"
        self.acted = True  # asked right before a mutation is sent: it is sent now
        return None

    def runs(self, inv: v.Invocation) -> None:
        """``inv`` starts now (a whole invocation, or a batch's step)."""
        self.abandonable = abandonable(inv)
        self.doing, self.acted = f"{inv.session}:{inv.verb}", False
        if self.gone:
            self.left()


def client_deadline(env: dict[str, str]) -> float | None:
    """The wall-clock second the client gives up at (``PHONEWIRE_CLIENT_DEADLINE``), or ``None``."""
    raw = env.get(cl.DEADLINE_ENV, "")
    try:
        value = float(raw) if 0 < len(raw) < 32 else None
    except ValueError:
        return None
    return value if value is not None and math.isfinite(value) else None


def abandonable(inv: v.Invocation) -> bool:
    """Whether ``inv`` stops when its client has gone: its operation's word (the table's ``abandonable``), or, for
    the CLI's own verbs, only ``devices`` (it only lists)."""
    op = v.VERBS[inv.verb].operation
    return op.abandonable if op is not None else inv.verb == "devices"
