"""Shared pieces of the host tests: a real runner process owned by the test, and reading the double's counters."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

from phonewire.host import HostSession
from phonewire.host.launcher import RunnerProcess, spawn_runner


def runner_env(scale: float = 1.0, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PHONEWIRE_RUNNER_ADDR", None)
    env["PHONEWIRE_TIME_SCALE"] = repr(scale)
    env.update(extra)
    return env


@contextlib.asynccontextmanager
async def running_runner(device: str = "double", scale: float = 1.0) -> AsyncIterator[RunnerProcess]:
    """A runner process started (and always stopped) by the test."""
    process = await spawn_runner(device, env=runner_env(scale), startup_budget_s=60.0)
    try:
        yield process
    finally:
        await process.stop(graceful=False)


async def tap_count(host: HostSession, app: str) -> int:
    """The double's own tap counter for ``app``, read back from the device through ``status``."""
    reply = await host.send("status")
    assert reply.data is not None
    device: dict[str, Any] = reply.data["device"]
    return int(device["taps"].get(app, 0))


def tap(app: str) -> dict[str, Any]:
    return {"appBundleId": app, "x": 10, "y": 20}
