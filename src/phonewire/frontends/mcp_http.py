"""``phonewire mcp --http``: the MCP server of :mod:`phonewire.frontends.mcp_server` over Streamable HTTP.

::

    phonewire mcp --http [--port N] [--host ADDR --allow-remote] [--device web] [--app APP_ID] [--runner …]

* One endpoint, ``/mcp``; the same tools (:data:`phonewire.frontends.mcp_server.TOOLS`, one declaration) bound to one
  agent session, run one at a time.
* Stateless: the SDK's session manager with ``stateless=True`` and JSON replies.  A 2026-07-28 client's POSTs are
  each complete on their own (no handshake, no ``Mcp-Session-Id``); a 2025-11-25 client's ``initialize`` is answered
  and every later POST is served on its own as well.
* Admission is decided here, before the SDK reads the request, in this order (nothing runs when one refuses; the
  body is a JSON-RPC error with ``id: null`` whose ``data`` carries phonewire's code and a hint)::

    404  a path other than /mcp
    403  the Host header is not a loopback name with this server's port (DNS rebinding) — not with --allow-remote
    403  an Origin header other than this server's own origin (a web page in the user's browser)
    401  no ``Authorization: Bearer <token>``, or another token (UNAUTHORIZED; ``WWW-Authenticate: Bearer``)

* The token: ``PHONEWIRE_MCP_TOKEN``, else generated at start and written 0600 as ``mcp-PORT.token`` in the user's
  runtime directory (:mod:`phonewire.runtime`, the runner's tokens live there too), removed at exit; its path is
  printed on stderr.  Once listening, stdout gets one line: ``PHONEWIRE_MCP_READY url=http://127.0.0.1:PORT/mcp``.
* Loopback only, unless ``--allow-remote`` (which needs ``PHONEWIRE_MCP_TOKEN`` set, and prints a warning): then any
  Host is served — the token is what keeps others out — and browsers are still refused by their Origin.

Lifecycle: bind the port (a busy one fails before a runner starts) → start (or attach to) the runner → serve until
SIGINT/SIGTERM → stop serving, remove the token file, close the host session (stops a runner it started).
"""

from __future__ import annotations

import argparse
import asyncio
import hmac
import json
import logging
import os
import secrets
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from phonewire import runtime
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.runner.http import is_loopback_host

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send

    from phonewire.frontends.serving import AgentAPI

__all__ = ["DEFAULT_PORT", "ENDPOINT", "READY_LINE", "Guard", "Refusal", "serve_http"]

log = logging.getLogger("phonewire.mcp")

ENDPOINT: Final = "/mcp"
DEFAULT_PORT: Final = 8790
READY_LINE: Final = "PHONEWIRE_MCP_READY url={url}"
#: JSON-RPC's "Invalid Request": the code of every refusal body (phonewire's own code is in ``data``).
_JSONRPC_INVALID_REQUEST: Final = -32600

HINT_TOKEN: Final = (
    "Nothing ran. Send 'Authorization: Bearer TOKEN': the token is PHONEWIRE_MCP_TOKEN of the server's environment, "
    "or the mcp-PORT.token file (0600) whose path the server printed at start."
)
HINT_HOST: Final = "Nothing ran. Address the server as http://127.0.0.1:PORT/mcp (or localhost, [::1])."
HINT_ORIGIN: Final = "Nothing ran. Web pages may not drive the phone; connect from an MCP client (no Origin header)."
HINT_PATH: Final = f"The MCP endpoint is {ENDPOINT}."


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request is not served: the HTTP status, phonewire's error code, a message and a hint."""

    status: int
    code: str
    message: str
    hint: str

    def body(self) -> bytes:
        error = {
            "code": _JSONRPC_INVALID_REQUEST,
            "message": f"{self.code}: {self.message}",
            "data": {"code": self.code, "hint": self.hint},
        }
        return json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()


@dataclass(frozen=True, slots=True)
class Guard:
    """The admission rules of the module docstring, as a pure function of the request's path and headers."""

    token: str
    port: int
    allow_remote: bool = False

    def check(self, path: str, headers: list[tuple[bytes, bytes]]) -> Refusal | None:
        if path.rstrip("/") != ENDPOINT:
            return Refusal(404, e.NOT_FOUND, f"no such endpoint {path[:80]!r}", HINT_PATH)
        hosts = [v for k, v in headers if k == b"host"]
        host = hosts[0].decode("latin-1").strip() if len(hosts) == 1 else ""
        if not self.allow_remote and not self._own_loopback(host):
            shown = host or "(none)" if len(hosts) <= 1 else "(several)"
            return Refusal(403, e.INVALID_REQUEST, f"Host {shown[:80]!r} is not this server's loopback address",
                           HINT_HOST)  # fmt: skip
        origins = [v.decode("latin-1").strip() for k, v in headers if k == b"origin"]
        if origins and (len(origins) > 1 or origins[0].lower() != f"http://{host}".lower() or not host):
            return Refusal(403, e.INVALID_REQUEST, f"requests from the web origin {origins[0][:80]!r} are refused",
                           HINT_ORIGIN)  # fmt: skip
        values = [v for k, v in headers if k == b"authorization"]
        if not values:
            return Refusal(401, e.UNAUTHORIZED, "the request lacks the server's bearer token", HINT_TOKEN)
        scheme, _, presented = values[0].partition(b" ")
        good = len(values) == 1 and scheme.lower() == b"bearer"
        if not hmac.compare_digest(presented.strip(), self.token.encode("ascii")) or not good:
            return Refusal(401, e.UNAUTHORIZED, "the request carries a wrong bearer token", HINT_TOKEN)
        return None

    def _own_loopback(self, host: str) -> bool:
        """A loopback name with this server's port (a browser sends the port it connected to)."""
        if not is_loopback_host(host.encode("latin-1")):
            return False
        _, sep, port = host.rpartition(":")
        return bool(sep) and not port.endswith("]") and port == str(self.port)


class GuardedApp:
    """ASGI: :class:`Guard` in front of the SDK's session manager."""

    def __init__(self, guard: Guard, manager: Any) -> None:
        self.guard = guard
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # lifespan is off; nothing else is served
        refusal = self.guard.check(str(scope.get("path", "")), list(scope.get("headers", [])))
        if refusal is not None:
            client = scope.get("client")
            log.warning("refused %s %s from %s: %s", scope.get("method"), scope.get("path"), client, refusal.message)
            headers = [(b"content-type", b"application/json")]
            if refusal.status == 401:
                headers.append((b"www-authenticate", b'Bearer realm="phonewire"'))
            await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
            await send({"type": "http.response.body", "body": refusal.body()})
            return
        await self.manager.handle_request(scope, receive, send)


# --- the token --------------------------------------------------------------------------------------------------
TOKEN_ENV: Final = runtime.MCP_TOKEN_ENV


def env_token_problem() -> str | None:
    """Why ``PHONEWIRE_MCP_TOKEN`` cannot be used (it cannot travel in a header), or ``None``."""
    given = os.environ.get(TOKEN_ENV)
    if given is None or runtime.valid_token(given):
        return None
    return f"{TOKEN_ENV} must be 1..{runtime.MAX_TOKEN_LENGTH} printable ASCII characters without spaces"


@contextmanager
def server_token(port: int) -> Iterator[tuple[str, str | None]]:
    """``(token, file)``: ``PHONEWIRE_MCP_TOKEN``'s (no file; checked by :func:`env_token_problem`), else a new
    token written 0600 to :func:`phonewire.runtime.mcp_token_path` for as long as the server runs."""
    given = os.environ.get(TOKEN_ENV)
    if given is not None:
        yield given, None
        return
    token = secrets.token_urlsafe(32)
    path = runtime.mcp_token_path(port)
    runtime.write_token_file(path, token)
    try:
        yield token, path
    finally:
        runtime.remove_token_file(path)


# --- serving ----------------------------------------------------------------------------------------------------
def bind_listener(host: str, port: int) -> socket.socket:
    """Bind before anything else starts, so a busy port fails fast (no runner launched)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=128)


def _uvicorn_server(app: Any) -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Iterator[None]:  # the front end's SignalStop owns SIGINT/SIGTERM
            yield

    config = uvicorn.Config(
        app, http="h11", lifespan="off", log_level="warning", access_log=False, server_header=False,
        date_header=False, timeout_graceful_shutdown=5,
    )  # fmt: skip
    return Server(config)


#: Builds the MCP server (its tools) for a session: :func:`phonewire.frontends.mcp_server.build_server`, handed in
#: by the server's main, so this transport and the server it carries do not import each other.
ServerFactory = Callable[["AgentAPI"], Any]


async def serve_http(
    session: AgentAPI,
    listener: socket.socket,
    stop: asyncio.Event,
    *,
    build_server: ServerFactory,
    token: str,
    allow_remote: bool = False,
) -> None:
    """Serve MCP on ``listener`` for ``session`` until ``stop`` is set."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    port = int(listener.getsockname()[1])
    manager = StreamableHTTPSessionManager(
        app=build_server(session), stateless=True, json_response=True, max_request_body_size=c.MAX_REQUEST_BYTES
    )
    server = _uvicorn_server(GuardedApp(Guard(token, port, allow_remote), manager))
    async with manager.run():
        serving = asyncio.ensure_future(server.serve(sockets=[listener]))
        try:
            while not server.started and not serving.done():
                await asyncio.sleep(0.01)
            if serving.done():
                serving.result()
                return
            print(READY_LINE.format(url=f"http://{_url_host(listener)}:{port}{ENDPOINT}"), flush=True)
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait({serving, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
        finally:
            server.should_exit = True
            await serving


def _url_host(listener: socket.socket) -> str:
    host = str(listener.getsockname()[0])
    if host in ("0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _is_loopback_name(host: str) -> bool:
    return is_loopback_host(f"[{host}]".encode() if ":" in host else host.encode())


async def run_http(args: argparse.Namespace, build_server: ServerFactory) -> int:
    """``phonewire mcp --http``'s main: the checks of the module docstring, then serve."""
    from phonewire.frontends.serving import SignalStop, agent_session

    if (problem := env_token_problem()) is not None:
        print(f"phonewire mcp: {problem}", file=sys.stderr)
        return 2
    if args.allow_remote and not os.environ.get(TOKEN_ENV):
        print(f"phonewire mcp: --allow-remote needs {TOKEN_ENV} set (a token you give the remote clients)",
              file=sys.stderr)  # fmt: skip
        return 2
    if not args.allow_remote and not _is_loopback_name(args.host):
        print(f"phonewire mcp: {args.host} is not a loopback address; serving it needs --allow-remote "
              f"(and {TOKEN_ENV})", file=sys.stderr)  # fmt: skip
        return 2
    try:
        listener = bind_listener(args.host, args.port)
    except OSError as exc:
        print(f"phonewire mcp: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    port = int(listener.getsockname()[1])
    with listener, SignalStop() as signals:
        try:
            with server_token(port) as (token, path):
                where = f"token file: {path} (0600)" if path else f"token: from {TOKEN_ENV}"
                print(f"phonewire mcp: serving {ENDPOINT} on {args.host}:{port}; {where}", file=sys.stderr, flush=True)
                if args.allow_remote:
                    print(f"phonewire mcp: WARNING: --allow-remote: any machine that reaches {args.host}:{port} and "
                          "holds the token can drive this phone; the traffic is plain HTTP (no TLS), so use it "
                          "only on a network you trust", file=sys.stderr, flush=True)  # fmt: skip
                async with agent_session(args.device, app=args.app, runner=args.runner, trace=args.trace) as session:
                    signals.serving = True
                    await serve_http(session, listener, signals.event, build_server=build_server, token=token,
                                     allow_remote=args.allow_remote)  # fmt: skip
        except asyncio.CancelledError:
            if not signals.event.is_set():
                raise
            return 143
    return 0
