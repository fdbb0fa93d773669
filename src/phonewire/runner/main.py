"""``phonewire runner --device KIND[:PROFILE]``: open the device, serve the wire protocol on loopback, and exit.

Lifecycle::

    parse args ─► create + open the device ─(fails)─► message on stderr, exit 2
        │
        ▼
    token: $PHONEWIRE_RUNNER_TOKEN, else a fresh one (secrets.token_urlsafe)
    listen on 127.0.0.1:$PHONEWIRE_RUNNER_PORT (0 / unset: system-assigned); every request needs the token
    (generated token only) write it 0600 to <runtime dir>/runner-N.token ─(fails)─► message, exit 3
    print "PHONEWIRE_RUNNER_LISTENING port=N" (flushed)
        │
        ▼
    serve until: a shutdown command's reply is flushed, or SIGTERM / SIGINT
        │
        ▼
    stop listening ─► (shutdown only) let every request already read get its reply, each within its budget;
        │             a signal cuts that wait short
        ▼
    close the device, remove the token file it wrote ─► exit 0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import signal
import sys
from collections.abc import Awaitable
from typing import Final

from phonewire.devices.base import Device
from phonewire.devices.registry import create_device, kinds_help
from phonewire.protocol.commands import ALL_COMMANDS, Timing
from phonewire.protocol.errors import ProtocolError
from phonewire.runner.dispatch import Renew
from phonewire.runner.http import HttpServer, Limits
from phonewire.runner.service import Runner
from phonewire.runtime import TOKEN_ENV, remove_token_file, runner_token_path, valid_token, write_token_file

LISTENING_LINE: Final = "PHONEWIRE_RUNNER_LISTENING port={port}"
EXIT_OK: Final = 0
EXIT_USAGE: Final = 2
EXIT_DEVICE: Final = 3
#: How long closing the device may take on the way out (seconds).
CLOSE_DEADLINE_S: Final = 10.0
_SIGNALS: Final = (signal.SIGTERM, signal.SIGINT)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phonewire runner", description="Serve the phonewire wire protocol v1 for one device on loopback."
    )
    parser.add_argument("--device", default="web", metavar="KIND[:PROFILE]", help=kinds_help())
    return parser


def _port(environ: dict[str, str]) -> int:
    raw = environ.get("PHONEWIRE_RUNNER_PORT", "").strip() or "0"
    if not raw.isdigit() or not 0 <= int(raw) <= 65535:
        raise ValueError(f"PHONEWIRE_RUNNER_PORT must be a port number 0..65535 (0: system-assigned), got {raw!r}")
    return int(raw)


def _token(environ: dict[str, str]) -> str | None:
    """The token the environment names (``None``: generate one and write it to the token file)."""
    raw = environ.get(TOKEN_ENV, "").strip()
    if not raw:
        return None
    if not valid_token(raw):
        raise ValueError(f"{TOKEN_ENV} must be 1..512 printable ASCII characters without spaces")
    return raw


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse exits for --help and for usage errors
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    environ = dict(os.environ)
    try:
        timing = Timing.from_env(environ)
        port = _port(environ)
        token = _token(environ)
    except ValueError as exc:
        print(f"phonewire runner: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        device = create_device(args.device)
    except ProtocolError as exc:
        print(f"phonewire runner: {exc.message}. {exc.hint or ''}".rstrip(), file=sys.stderr)
        return EXIT_USAGE
    except ImportError as exc:
        print(f"phonewire runner: device kind {args.device!r} is not available: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="phonewire runner: %(message)s")
    spec = args.device
    code = asyncio.run(serve(device, timing, port, token, environ, renew=lambda: create_device(spec)))
    sys.stdout.flush()
    sys.stderr.flush()
    return code


async def serve(
    device: Device,
    timing: Timing,
    port: int,
    token: str | None = None,
    environ: dict[str, str] | None = None,
    *,
    renew: Renew | None = None,
) -> int:
    """Serve until stopped.  ``token`` ``None``: generate one and write it to ``runner-PORT.token`` in the runtime
    directory of ``environ`` (removed on the way out).  ``renew`` makes a fresh device to replace one that died."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signalled = asyncio.Event()

    def on_signal() -> None:
        signalled.set()
        stop.set()

    for signum in _SIGNALS:  # installed before the device opens: a signal during start-up still closes it
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, on_signal)
    runner: Runner | None = None
    server: HttpServer | None = None
    token_file: str | None = None
    try:
        failure = await _open(device, stop)
        if failure is not None:
            print(f"phonewire runner: could not open device {device.kind!r}: {failure}", file=sys.stderr)
            return EXIT_DEVICE
        if stop.is_set():
            return EXIT_OK
        runner = Runner(device, timing, renew=renew)
        limits = Limits.scaled(timing.scale)
        secret = token if token is not None else secrets.token_urlsafe(32)
        server = HttpServer(runner.handle, limits, stop.set, token=secret)
        try:
            bound = await server.start(port)
        except OSError as exc:
            print(f"phonewire runner: cannot listen on 127.0.0.1:{port}: {exc}", file=sys.stderr)
            return EXIT_DEVICE
        if token is None:
            path = runner_token_path(bound, environ)
            try:
                write_token_file(path, secret)
            except OSError as exc:  # NotPrivateError included
                print(f"phonewire runner: cannot write the token file {path}: {exc}", file=sys.stderr)
                return EXIT_DEVICE
            token_file = path
        print(LISTENING_LINE.format(port=bound), flush=True)
        await stop.wait()
        if not signalled.is_set():  # a shutdown command: commands already accepted still answer their clients
            await server.close()
            limit = max(timing.budget(command) for command in ALL_COMMANDS) + limits.write_deadline
            await _until_first(server.wait_answered(), signalled.wait(), timeout=limit)
        return EXIT_OK
    finally:
        for signum in _SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)
        if server is not None:
            await server.close()
        if token_file is not None:
            remove_token_file(token_file)
        await _close(runner.device if runner is not None else device)
        if runner is not None and runner.executor.occupied:
            # Device work runs in a task or thread that is never cancelled mid-gesture; it must not hold the exit.
            _hard_exit_after_flush()


async def _open(device: Device, stop: asyncio.Event) -> str | None:
    """Open the device unless a signal comes first; the reason it failed, or ``None``."""
    opening = asyncio.ensure_future(device.open())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({opening, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not opening.done():
        opening.cancel()
        with contextlib.suppress(BaseException):
            await opening
        return None
    exc = opening.exception()
    if exc is None:
        return None
    if isinstance(exc, ProtocolError):  # the hint says what to do (accept the USB prompt, install chromium ...)
        return f"{exc.message}. {exc.hint}" if exc.hint else exc.message
    return f"{type(exc).__name__}: {exc}"


async def _until_first(*awaitables: Awaitable[object], timeout: float) -> None:
    """Wait until the first of ``awaitables`` is done, or ``timeout``; cancel the rest."""
    tasks = {asyncio.ensure_future(a) for a in awaitables}
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _close(device: Device) -> None:
    try:
        await asyncio.wait_for(device.close(), CLOSE_DEADLINE_S)
    except Exception as exc:
        print(f"phonewire runner: closing the device failed: {type(exc).__name__}: {exc}", file=sys.stderr)


def _hard_exit_after_flush() -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(EXIT_OK)
