"""``phonewire mcp``: an MCP server over stdio, one tool per phonewire command (official ``mcp`` SDK, low-level
``Server`` with explicit JSON schemas).  With ``--http`` the same server is served over Streamable HTTP by
:mod:`phonewire.frontends.mcp_http` (its token, Host and Origin checks are there).

::

    phonewire mcp [--device web] [--app APP_ID] [--runner 127.0.0.1:PORT] [--trace DIR]
    phonewire mcp --http [--port N] [--host ADDR --allow-remote] [--device …] [--app …] [--runner …] [--trace DIR]

* Tools: open_app, close_app, list_apps, snapshot, tap, long_press, fill, type, press, swipe, scroll, screenshot,
  viewport, open_url.  Each has a JSON schema (``additionalProperties: false``); arguments are validated against
  it here as well, so a bad argument gets a precise message and hint.
* Actions answer with a short confirmation; ``"snapshot": true`` adds the fresh interactive view.
* Screenshots are image content, sized for a model by default (``scale="css"``, JPEG, at most 1568 px long).
* Failures — bad arguments, STALE_REF, a device error — are tool results with ``isError`` and the hint, never
  protocol errors, so the model can read them and correct itself.  This module is the one place where exceptions
  become tool results.
* Nothing but the protocol goes to stdout: logs go to stderr, and while serving the SDK points fd 1 at stderr.

Lifecycle: start (or attach to) the runner → serve stdio until EOF on stdin or SIGINT/SIGTERM → close the host
session (stops a runner it started).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import logging
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from phonewire.agent.operations import Operation, for_front_end
from phonewire.agent.params import Form, Param, json_schema, parse_params
from phonewire.agent.results import REACTIVATED_NOTE, STATE_RESET_NOTE, stamp_fields
from phonewire.frontends.serving import (
    DRAG_SETTLE,
    TAP_SETTLE,
    ActionLike,
    AgentAPI,
    Settle,
    ViewLike,
    confine_outputs,
    image_size,
    prepare_app,
    settled_view,
    with_app_error_hint,
)
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

if TYPE_CHECKING:
    import mcp.types as mt

__all__ = ["TOOLS", "ToolRunner", "build_server", "main", "serve_stdio", "tool_list"]

log = logging.getLogger("phonewire.mcp")

SERVER_NAME: Final = "phonewire"
OPEN_HINT: Final = "Call the open_app tool first (e.g. app_id dev.phonewire.demo); list_apps shows the apps."
INSTRUCTIONS: Final = (
    "Drive a phone's UI. Loop: open_app → snapshot (interactive: true) → act on a ref such as @e3 (tap, fill, "
    "long_press) → verify with snapshot (diff: true) → screenshot when done. Refs belong to the snapshot that "
    "issued them; STALE_REF means re-snapshot. Targets may also be 'X Y' points or selectors like "
    "'role=Button label=Save'."
)

Content = list[Any]  # list of mcp content blocks


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: an operation of the table (:mod:`phonewire.agent.operations`) with MCP's own extra arguments."""

    name: str
    description: str
    form: Form
    operation: Operation

    @property
    def read_only(self) -> bool:
        return self.operation.read_only


SNAPSHOT_AFTER = Param("snapshot", "boolean", "Also return the interactive view after the action (default false).")
JSON_NODES = Param("json", "boolean", "Also return the raw nodes as structured content.")


def _extras(op: Operation) -> tuple[Param, ...]:
    """What MCP adds to an operation's parameters: the fresh view after an action; the raw nodes of a snapshot."""
    if op.name == "snapshot":
        return (JSON_NODES,)
    return (SNAPSHOT_AFTER,) if op.view_after and not op.read_only else ()


def _text(text: str) -> Any:
    import mcp.types as mt

    return mt.TextContent(type="text", text=text)


async def _action(
    session: AgentAPI, args: dict[str, Any], name: str, result: ActionLike, settle: Settle = TAP_SETTLE
) -> tuple[Content, dict[str, Any]]:
    stamps = stamp_fields(result.warning, result.reactivated, result.state_reset)
    structured: dict[str, Any] = {"ok": True, "data": result.data, **stamps}
    # the settled diff (data["diff"], in the structured content) as its lines under the ok line
    said = {k: v for k, v in result.data.items() if k != "diff"}
    lines = [f"ok: {name}" + (f" {json.dumps(said, ensure_ascii=False)}" if said else "")]
    diff = result.data.get("diff")
    if isinstance(diff, list):
        lines.extend(map(str, diff))
    if result.warning:
        lines.append(f"warning: {result.warning}")
    if result.reactivated:
        lines.append(f"note: {REACTIVATED_NOTE}")
    if result.state_reset:
        lines.append(f"note: {STATE_RESET_NOTE}")
    if args.get("snapshot"):
        view = await settled_view(session, settle, interactive=True)
        structured["view"] = view.text
        lines.append(view.text)
    return [_text("\n".join(lines))], structured


def _image(data: bytes, fmt: str) -> tuple[Content, dict[str, Any]]:
    import mcp.types as mt

    size = image_size(data)
    meta: dict[str, Any] = {"format": fmt, "bytes": len(data)}
    if size:
        meta["width"], meta["height"] = size
    image = mt.ImageContent(type="image", data=base64.b64encode(data).decode("ascii"), mime_type=f"image/{fmt}")
    return [image], meta


async def run_tool(session: AgentAPI, spec: ToolSpec, args: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    """Call the operation's AgentSession method with the tool's arguments (MCP's defaults filled in) and render
    what it returns: an action's confirmation, the view's text, an image, or JSON."""
    op = spec.operation
    kwargs = {p.name: p.default for p in op.params_for("mcp") if p.default is not None}
    kwargs.update(op.kwargs(args))
    confine_outputs(op.params, kwargs)
    result = await getattr(session, op.method)(**kwargs)
    if isinstance(result, bytes):
        return _image(result, str(kwargs["format"]))
    if isinstance(result, list):
        return [_text(json.dumps(result, ensure_ascii=False))], {"apps": result}
    if isinstance(result, dict):
        return [_text(json.dumps(result))], dict(result)
    if op.name == "snapshot":
        view: ViewLike = result
        text = view.text or "# nothing on screen"
        if view.state_reset:
            text = f"note: {STATE_RESET_NOTE}\n{text}"
        structured = view.to_json() if args.get("json") else ({"stateReset": True} if view.state_reset else None)
        return [_text(text)], structured
    settle = DRAG_SETTLE if op.settling == "drag" else TAP_SETTLE
    return await _action(session, args, spec.name, result, settle)


TOOLS: Final[dict[str, ToolSpec]] = {
    name: ToolSpec(name, op.summary, Form(op.params_for("mcp") + _extras(op)), op)
    for name, op in for_front_end("mcp").items()
}


def error_result(exc: ProtocolError) -> mt.CallToolResult:
    import mcp.types as mt

    text = f"{exc.code}: {exc.message}"
    if exc.hint:
        text += f"\nhint: {exc.hint}"
    structured: dict[str, Any] = {"error": exc.to_wire()}
    if exc.state_reset:
        text += f"\nnote: {STATE_RESET_NOTE}"
        structured["stateReset"] = True
    return mt.CallToolResult(content=[_text(text)], structured_content=structured, is_error=True)


_LONE_SURROGATE: Final = "[\ud800-\udfff]"


def _replace_surrogates(value: Any) -> Any:
    import re

    if isinstance(value, str):
        return re.sub(_LONE_SURROGATE, "\ufffd", value)
    if isinstance(value, dict):
        return {_replace_surrogates(k): _replace_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_surrogates(v) for v in value]
    return value


def utf8_safe(result: mt.CallToolResult) -> mt.CallToolResult:
    """``result`` with every lone surrogate (a web page's text can hold one) as U+FFFD: the SDK writes replies as
    UTF-8 and drops one it cannot encode (the client never gets an answer).  Text blocks and structured content only:
    images are base64."""
    import mcp.types as mt
    from pydantic_core import PydanticSerializationError

    try:
        result.model_dump_json(by_alias=True, exclude_unset=True)  # as the SDK will: ~1 ms for 1500 nodes
    except PydanticSerializationError:
        pass
    else:
        return result
    content = [
        b.model_copy(update={"text": _replace_surrogates(b.text)}) if isinstance(b, mt.TextContent) else b
        for b in result.content
    ]
    return result.model_copy(
        update={"content": content, "structured_content": _replace_surrogates(result.structured_content)}
    )


class ToolRunner:
    """Validates arguments and runs one tool at a time; every failure becomes an ``isError`` result."""

    def __init__(self, session: AgentAPI) -> None:
        self.session = session
        self._lock = asyncio.Lock()

    async def call(self, name: str, arguments: dict[str, Any] | None) -> mt.CallToolResult:
        import mcp.types as mt

        spec = TOOLS.get(name)
        if spec is None:
            return error_result(
                ProtocolError(e.INVALID_REQUEST, f"unknown tool {name[:60]!r}", f"Tools: {', '.join(TOOLS)}.")
            )
        try:
            _, args = parse_params(name, (spec.form,), arguments)
            async with self._lock:
                await prepare_app(self.session, name)
                content, structured = await with_app_error_hint(lambda: run_tool(self.session, spec, args), OPEN_HINT)
        except ProtocolError as exc:
            return error_result(exc)
        except Exception as exc:
            log.exception("tool %s failed", name)
            hint = "Take a snapshot to see the screen as it is now, then retry."
            return error_result(ProtocolError(e.COMMAND_FAILED, f"{name} failed: {type(exc).__name__}: {exc}", hint))
        return mt.CallToolResult(content=content, structured_content=structured)


def tool_list() -> list[mt.Tool]:
    import mcp.types as mt

    return [
        mt.Tool(
            name=spec.name,
            description=spec.description,
            input_schema=json_schema(spec.form),
            annotations=mt.ToolAnnotations(
                read_only_hint=spec.read_only, destructive_hint=spec.operation.destructive and not spec.read_only
            ),
        )
        for spec in TOOLS.values()
    ]


def build_server(session: AgentAPI) -> Any:
    """The SDK server with phonewire's tools bound to ``session``."""
    import mcp.types as mt
    from mcp.server.lowlevel import Server

    runner = ToolRunner(session)
    tools = tool_list()

    async def on_list_tools(ctx: Any, params: mt.PaginatedRequestParams | None) -> mt.ListToolsResult:
        return mt.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: Any, params: mt.CallToolRequestParams) -> mt.CallToolResult:
        return utf8_safe(await runner.call(params.name, params.arguments))

    from phonewire.versions import __version__

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(session: AgentAPI) -> None:
    """Serve MCP on this process's stdin/stdout until the client closes stdin."""
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    server = build_server(session)
    async with stdio_server() as (read_stream, write_stream):
        # The SDK hands a line it cannot read (not JSON, nested deeper than it parses, not a JSON-RPC message) to the
        # server as an exception and answers nothing: the client would wait for ever.  Those lines are answered here.
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def pump() -> None:
            async with send, read_stream:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        reply = unreadable_reply(item)
                        if reply is not None:
                            await write_stream.send(SessionMessage(reply))
                        continue
                    await send.send(item)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(pump)
            async with receive:
                await server.run(receive, write_stream, server.create_initialization_options())
            tasks.cancel_scope.cancel()


def unreadable_reply(exc: Exception) -> mt.JSONRPCMessage | None:
    """The JSON-RPC error for a line the SDK could not read (``exc``, its validation error): Parse error (-32700)
    for text that is not JSON, Invalid Request (-32600) for JSON nested too deep or not shaped like a message.  Its id
    when one can be found at the top level (else null, as JSON-RPC wants); ``None`` for a notification (no reply)."""
    import mcp.types as mt
    from pydantic import ValidationError

    from phonewire.protocol.jsonlimits import json_depth, top_level_id

    if not isinstance(exc, ValidationError):
        return None
    errors = exc.errors()
    line = next((err.get("input") for err in errors if err.get("type") == "json_invalid"), None)
    if isinstance(line, str):
        if "recursion limit" in str(exc):  # the SDK's JSON parser stops at 200 levels
            depth = json_depth(line)
            code, message = mt.INVALID_REQUEST, f"the request nests JSON {depth} levels deep; at most 200 are read"
        elif _is_json(line):  # JSON the SDK's parser refuses: a lone surrogate escape ("\\ud800") is one
            detail = next((str(err.get("msg")) for err in errors if err.get("type") == "json_invalid"), "")
            code, message = mt.INVALID_REQUEST, f"the request is JSON this server cannot read ({detail})"
        else:
            code, message = mt.PARSE_ERROR, "the line is not JSON"
        req_id = top_level_id(line)
    else:
        whole = next((err.get("input") for err in errors if isinstance(err.get("input"), dict)), None)
        if isinstance(whole, dict) and "method" in whole and "id" not in whole:
            return None  # a malformed notification: JSON-RPC answers none
        raw_id = whole.get("id") if isinstance(whole, dict) else None
        req_id = (
            raw_id if isinstance(raw_id, str) or (isinstance(raw_id, int) and not isinstance(raw_id, bool)) else None
        )
        code, message = mt.INVALID_REQUEST, "the message is not a JSON-RPC request (jsonrpc, id, method, params)"
    error = mt.ErrorData(code=code, message=message, data={"hint": UNREADABLE_HINT})
    return mt.JSONRPCError(jsonrpc="2.0", id=req_id, error=error)


UNREADABLE_HINT: Final = (
    "Send one JSON-RPC 2.0 message per line, UTF-8 JSON nested no more than a few levels (tool arguments are flat), "
    "with no lone UTF-16 surrogate escape such as \\ud800 in its strings."
)


def _is_json(line: str) -> bool:
    from phonewire.protocol.jsonlimits import MAX_JSON_DEPTH, json_depth

    if json_depth(line) > MAX_JSON_DEPTH:
        return True  # deep, and the SDK said so already; never parsed here
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


async def _run(args: argparse.Namespace) -> int:
    from phonewire.frontends.serving import SignalStop, agent_session

    if args.http:
        from phonewire.frontends.mcp_http import run_http

        return await run_http(args, build_server)

    left_behind = False
    with SignalStop() as signals:
        try:
            async with agent_session(args.device, app=args.app, runner=args.runner, trace=args.trace) as session:
                signals.serving = True
                serving = asyncio.ensure_future(serve_stdio(session))
                stopped = asyncio.ensure_future(signals.event.wait())
                await asyncio.wait({serving, stopped}, return_when=asyncio.FIRST_COMPLETED)
                stopped.cancel()
                if serving.done():
                    serving.result()
                else:
                    left_behind = True
        except asyncio.CancelledError:
            if not signals.event.is_set():
                raise
            return _SIGNALLED
    if left_behind:
        # A signal while serving.  The host session is closed (its runner stopped) by now; the SDK's stdin reader
        # sits in a worker thread that no cancellation can interrupt, so leave without waiting for it.
        sys.stderr.flush()
        os._exit(_SIGNALLED)
    return 0


_SIGNALLED: Final = 143


def build_parser() -> argparse.ArgumentParser:
    from phonewire.frontends.mcp_http import DEFAULT_PORT, ENDPOINT
    from phonewire.frontends.serving import add_host_options

    parser = argparse.ArgumentParser(
        prog="phonewire mcp", description="MCP server for phonewire: over stdio, or Streamable HTTP with --http."
    )
    add_host_options(parser)
    parser.add_argument("--http", action="store_true", help=f"serve Streamable HTTP at {ENDPOINT} instead of stdio")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"with --http: TCP port (default {DEFAULT_PORT}; 0 = any free port)")  # fmt: skip
    parser.add_argument("--host", default="127.0.0.1", help="with --http: address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--allow-remote", action="store_true", help="with --http: serve other machines too (needs PHONEWIRE_MCP_TOKEN)"
    )
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from phonewire.frontends.serving import port_error, run_server

    if not args.http and (args.allow_remote or args.host != "127.0.0.1" or "--port" in argv):
        parser.error("--port, --host and --allow-remote go with --http")
    if (problem := port_error("mcp", args.port)) is not None:
        print(problem, file=sys.stderr)
        return 2

    return run_server("mcp", _run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
