"""Locators with a budget: every Find Element(s) runs in a worker process, never on the server's event loop.

An XPath is a program: ``//*[count(//*[count(//*[…]) > 0]) > 0]`` (89 characters) visits the tree to the fifth
power and held the event loop for good (no ``/status``, every session stuck, SIGTERM unanswered).  lxml cannot be
interrupted, so the query runs where it can be killed::

    QueryWorker.find(strategy, selector, nodes, within)
        │  more than MAX_QUERY_NODES nodes ─► invalid selector (node budget), nothing sent
        ▼
    worker ready? ── no ─► start ``python -m phonewire.frontends.webdriver.queries`` (tied to the server by
        │                  phonewire.lifeline; started outside the query's budget)
        ▼
    one JSON line in (the nodes, the locator) ─► source.find in the worker ─► one JSON line out (the indices,
        │                                                                      or the W3C error it raised)
        ▼
    no answer within QUERY_BUDGET_S ─► the worker is SIGKILLed (the next find starts a new one) and the find is
                                       ``invalid selector`` with a hint to name the element more directly

One worker per server, one query at a time (a lock): a hostile query costs other sessions' finds at most one
budget.  The server's loop only waits on a pipe, so ``/status`` and every other command keep answering.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Sequence
from typing import Any, Final

from phonewire.frontends.webdriver.errors import INVALID_SELECTOR, UNKNOWN_ERROR, W3C_STATUS, WebDriverError
from phonewire.protocol.snapshot import Node

#: How long one query may run in the worker (seconds; ``PHONEWIRE_TIME_SCALE`` scales it).
QUERY_BUDGET_S: Final = 2.0
#: The most nodes a query runs over (a snapshot holds at most 1500; a page source of more is refused).
MAX_QUERY_NODES: Final = 20_000
#: How long the worker may take to start (its imports; not part of a query's budget).
START_BUDGET_S: Final = 30.0
READY: Final = b"ready\n"
_LINE_LIMIT: Final = 64 * 1024 * 1024


class QueryWorker:
    """The server's query process; :meth:`aclose` ends it."""

    def __init__(self, budget_s: float = QUERY_BUDGET_S) -> None:
        self.budget_s = budget_s
        self._proc: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def find(self, strategy: str, selector: str, nodes: Sequence[Node], within: Node | None) -> list[Node]:
        if len(nodes) > MAX_QUERY_NODES:
            raise WebDriverError(
                INVALID_SELECTOR,
                f"the screen has {len(nodes)} elements; a locator runs over at most {MAX_QUERY_NODES}",
            )
        request = json.dumps(
            {"strategy": strategy, "selector": selector, "nodes": list(nodes),
             "within": None if within is None else within.get("index")}
        ).encode() + b"\n"  # fmt: skip
        async with self._lock:
            proc = await self._worker()
            assert proc.stdin is not None and proc.stdout is not None
            try:
                async with asyncio.timeout(self.budget_s):
                    proc.stdin.write(request)
                    await proc.stdin.drain()
                    line = await proc.stdout.readline()
            except TimeoutError:
                await self._kill()
                raise WebDriverError(
                    INVALID_SELECTOR,
                    f"{strategy} {selector[:120]!r} did not finish within its budget of {self.budget_s:g} s "
                    "(it was stopped; the session is unharmed). Name the element more directly: accessibility "
                    "id, id, or an xpath without nested scans of the whole document (//*[count(//*)…])",
                ) from None
            except (ConnectionError, OSError):
                line = b""
            if not line:
                await self._kill()
                raise WebDriverError(UNKNOWN_ERROR, "the locator's worker process ended; the next find starts it again")
        answer = json.loads(line)
        if "error" in answer:
            raise WebDriverError(answer["error"], answer["message"])
        by_index = {n.get("index"): n for n in nodes}
        return [by_index[i] for i in answer["found"] if i in by_index]

    async def _worker(self) -> asyncio.subprocess.Process:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        import os

        from phonewire import lifeline

        env = {**os.environ, **lifeline.env_entry()}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "phonewire.frontends.webdriver.queries",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            env=env, limit=_LINE_LIMIT, **lifeline.spawn_options(),
        )  # fmt: skip
        self._proc = proc
        assert proc.stdout is not None
        try:
            async with asyncio.timeout(START_BUDGET_S):
                ready = await proc.stdout.readline()
        except TimeoutError:
            ready = b""
        if ready != READY:
            await self._kill()
            raise WebDriverError(UNKNOWN_ERROR, "the locator's worker process did not start; try the find again")
        return proc

    async def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        if proc.stdin is not None:
            proc.stdin.close()

    async def aclose(self) -> None:
        async with self._lock:
            await self._kill()


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """One query, in the worker: the indices of the nodes found, or the W3C error."""
    from phonewire.frontends.webdriver.source import find

    nodes: list[Node] = request["nodes"]
    wanted = request["within"]
    within = None if wanted is None else next((n for n in nodes if n.get("index") == wanted), None)
    try:
        found = find(request["strategy"], request["selector"], nodes, within=within)
    except WebDriverError as exc:
        return {"error": exc.error, "message": exc.message}
    except (RecursionError, MemoryError, ValueError) as exc:
        return {"error": INVALID_SELECTOR, "message": f"the locator could not be evaluated: {type(exc).__name__}"}
    return {"found": [n.get("index") for n in found]}


def main() -> int:
    from phonewire import lifeline

    lifeline.watch_parent()
    import phonewire.frontends.webdriver.source  # noqa: F401 (imported before ready: lxml's import is not a query's)

    with contextlib.suppress(ImportError):
        import lxml.etree  # noqa: F401
    out = sys.stdout.buffer
    out.write(READY)
    out.flush()
    for line in sys.stdin.buffer:
        try:
            reply = answer(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            reply = {"error": UNKNOWN_ERROR, "message": f"a malformed query: {exc}"}
        if reply.get("error") not in (None, *W3C_STATUS):
            reply["error"] = UNKNOWN_ERROR
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
