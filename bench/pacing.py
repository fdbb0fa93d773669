"""Taps paced as an agent paces them: a tap at the spot of the session's previous one within
:data:`~phonewire.devices.web.gestures.APART_S` waits until it cannot be taken for that tap's second (two commands
are never a double click: gestures.apart).  An agent's steps are further apart than that; a bench that taps one spot
in a loop calls :func:`apart` between its samples, outside the timings, so each figure is the tap, not the wait."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from phonewire.devices.web.gestures import APART_S


def apart() -> None:
    time.sleep(APART_S)


def paced(act: Callable[[], object]) -> float:
    """:func:`apart`, then ``act`` timed: its wall time in seconds."""
    apart()
    start = time.perf_counter()
    act()
    return time.perf_counter() - start


async def apaced(act: Callable[[], Awaitable[object]]) -> float:
    """:func:`paced` for a coroutine function (the pause does not block the loop)."""
    await asyncio.sleep(APART_S)
    start = time.perf_counter()
    await act()
    return time.perf_counter() - start
