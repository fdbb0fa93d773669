"""``phonewire mcp``: an MCP server over stdio, one tool per phonewire command (official ``mcp`` SDK, low-level
``Server`` with explicit JSON schemas).

::

    phonewire mcp [--device web] [--app APP_ID] [--runner 127.0.0.1:PORT]

* Tools: open_app, close_app, list_apps, snapshot, tap, long_press, fill, type, press, swipe, scroll, screenshot,
  viewport, open_url.  Each has a JSON schema (``additionalProperties: false``); arguments are validated against
  it here as well, so a bad argument gets a precise message and hint.
* Actions answer with a short confirmation; ``"snapshot": true`` adds the fresh interactive view.
* Screenshots are image content, scaled down by default (``scale="css"``, JPEG).
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from phonewire.agent.params import Form, Param, json_schema, parse_params
from phonewire.frontends.bridge.methods import (
    DRAG_SETTLE,
    TAP_SETTLE,
    ActionLike,
    AgentAPI,
    Settle,
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
    name: str
    description: str
    form: Form
    run: Callable[[AgentAPI, dict[str, Any]], Awaitable[tuple[Content, dict[str, Any] | None]]]
    read_only: bool = False


SNAPSHOT_AFTER = Param("snapshot", "boolean", "Also return the interactive view after the action (default false).")
TARGET = Param("target", "string", 'What to act on: a ref from the last snapshot ("@e3"), "X Y" in points, or a '
               'selector such as "role=Button label=Save" (terms: id, role, label, text, value, visible, enabled, '
               'selected, focused, editable; || for fallbacks).', required=True)  # fmt: skip
DURATION = Param("duration_ms", "number", "Gesture duration in milliseconds.", minimum=0, maximum=60_000)


def _text(text: str) -> Any:
    import mcp.types as mt

    return mt.TextContent(type="text", text=text)


async def _action(
    session: AgentAPI, args: dict[str, Any], name: str, result: ActionLike, settle: Settle = TAP_SETTLE
) -> tuple[Content, dict[str, Any]]:
    structured: dict[str, Any] = {"ok": True, "data": result.data}
    lines = [f"ok: {name}" + (f" {json.dumps(result.data, ensure_ascii=False)}" if result.data else "")]
    if result.warning:
        structured["warning"] = result.warning
        lines.append(f"warning: {result.warning}")
    if result.reactivated:
        structured["reactivated"] = True
        lines.append("note: the app was in the background and was brought to the front first")
    if args.get("snapshot"):
        view = await settled_view(session, settle, interactive=True)
        structured["view"] = view.text
        lines.append(view.text)
    return [_text("\n".join(lines))], structured


async def open_app(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "open_app", await s.open_app(a["app_id"]))


async def close_app(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, {}, "close_app", await s.close_app(a.get("app_id")))


async def list_apps(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    apps = await s.list_apps()
    return [_text(json.dumps(apps, ensure_ascii=False))], {"apps": apps}


async def snapshot(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    view = await s.snapshot(interactive=a.get("interactive", False), diff=a.get("diff", False))
    structured = view.to_json() if a.get("json") else None
    return [_text(view.text or "# nothing on screen")], structured


async def tap(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "tap", await s.tap(a["target"], count=a.get("count", 1)))


async def long_press(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "long_press", await s.long_press(a["target"], duration_ms=a.get("duration_ms", 800)))


async def fill(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "fill", await s.fill(a["target"], a["text"]))


async def type_text(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "type", await s.type(a["text"]))


async def press(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "press", await s.press(a["key"]))


async def swipe(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    result = await s.swipe(a["x1"], a["y1"], a["x2"], a["y2"], duration_ms=a.get("duration_ms", 300))
    return await _action(s, a, "swipe", result, DRAG_SETTLE)


async def scroll(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "scroll", await s.scroll(a["direction"], amount=a.get("amount", 0.6)), DRAG_SETTLE)


async def screenshot(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    import mcp.types as mt

    fmt = a.get("format", "jpeg")
    data = await s.screenshot(format=fmt, scale=a.get("scale", "css"), overlay_refs=a.get("overlay_refs", False))
    size = image_size(data)
    meta: dict[str, Any] = {"format": fmt, "bytes": len(data)}
    if size:
        meta["width"], meta["height"] = size
    image = mt.ImageContent(type="image", data=base64.b64encode(data).decode("ascii"), mime_type=f"image/{fmt}")
    return [image], meta


async def viewport(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    vp = await s.viewport()
    return [_text(json.dumps(vp))], dict(vp)


async def open_url(s: AgentAPI, a: dict[str, Any]) -> tuple[Content, dict[str, Any] | None]:
    return await _action(s, a, "open_url", await s.open_url(a["url"]))


def _form(*params: Param) -> Form:
    return Form(tuple(params))


TOOLS: Final[dict[str, ToolSpec]] = {
    t.name: t
    for t in (
        ToolSpec("open_app", "Launch (or bring to front) an app and make it the session's target.", _form(
            Param("app_id", "string", "dev.phonewire.demo, an http(s) URL, or a package/bundle id.", required=True),
            SNAPSHOT_AFTER), open_app),
        ToolSpec("close_app", "Stop an app (default: the session's current app).",
                 _form(Param("app_id", "string", "App id (default: the current app).")), close_app),
        ToolSpec("list_apps", "Running and launchable apps with their state.", _form(), list_apps, read_only=True),
        ToolSpec("snapshot", "The screen as compact text: one line per useful element, `@eN role \"label\" "
                 "value=… [flags]`, indented by depth. Use the @eN refs as targets.", _form(
            Param("interactive", "boolean", "Only interactive elements and the text needed to choose among them."),
            Param("diff", "boolean", "Only what changed since this session's previous snapshot."),
            Param("json", "boolean", "Also return the raw nodes as structured content."),
        ), snapshot, read_only=True),
        ToolSpec("tap", "Tap an element (its current centre) or a point.", _form(
            TARGET, Param("count", "integer", "Number of taps (default 1).", minimum=1, maximum=20), SNAPSHOT_AFTER,
        ), tap),
        ToolSpec("long_press", "Press and hold an element or a point.", _form(TARGET, DURATION, SNAPSHOT_AFTER),
                 long_press),
        ToolSpec("fill", "Focus a text field, clear it, and type text.",
                 _form(TARGET, Param("text", "string", "Text to enter.", required=True), SNAPSHOT_AFTER), fill),
        ToolSpec("type", "Type text into the focused field.",
                 _form(Param("text", "string", "Text to type.", required=True), SNAPSHOT_AFTER), type_text),
        ToolSpec("press", "Press a key or hardware button.", _form(
            Param("key", "string", "enter, delete, home, back, volumeUp or volumeDown.", required=True),
            SNAPSHOT_AFTER), press),
        ToolSpec("swipe", "Drag the finger from (x1, y1) to (x2, y2), in screen points.", _form(
            *(Param(n, "number", f"{n} in screen points.", required=True) for n in ("x1", "y1", "x2", "y2")),
            DURATION, SNAPSHOT_AFTER), swipe),
        ToolSpec("scroll", "Scroll the content to reveal what is further in a direction.", _form(
            Param("direction", "string", "Where to reveal content.", required=True,
                  choices=("up", "down", "left", "right")),
            Param("amount", "number", "Fraction of the screen to scroll (default 0.6).", minimum=0.01, maximum=1),
            SNAPSHOT_AFTER), scroll),
        ToolSpec("screenshot", "The screen as an image (default: JPEG at one pixel per point).", _form(
            Param("format", "string", "Image format (default jpeg).", choices=("jpeg", "png")),
            Param("scale", "string", "css = one pixel per point (default), device = full resolution.",
                  choices=("css", "device")),
            Param("overlay_refs", "boolean", "Draw each ref's box and label over the image (set-of-marks)."),
        ), screenshot, read_only=True),
        ToolSpec("viewport", "The app's viewport in screen points.", _form(), viewport, read_only=True),
        ToolSpec("open_url", "Open a URL as the OS would (it becomes the session's target app).",
                 _form(Param("url", "string", "http(s) URL.", required=True), SNAPSHOT_AFTER), open_url),
    )
}  # fmt: skip


def error_result(exc: ProtocolError) -> mt.CallToolResult:
    import mcp.types as mt

    text = f"{exc.code}: {exc.message}"
    if exc.hint:
        text += f"\nhint: {exc.hint}"
    return mt.CallToolResult(content=[_text(text)], structured_content={"error": exc.to_wire()}, is_error=True)


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
                content, structured = await with_app_error_hint(lambda: spec.run(self.session, args), OPEN_HINT)
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
            annotations=mt.ToolAnnotations(read_only_hint=spec.read_only),
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
        return await runner.call(params.name, params.arguments)

    from phonewire import __version__

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(session: AgentAPI) -> None:
    """Serve MCP on this process's stdin/stdout until the client closes stdin."""
    from mcp.server.stdio import stdio_server

    server = build_server(session)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def _run(args: argparse.Namespace) -> int:
    from phonewire.frontends.serving import SignalStop, agent_session

    left_behind = False
    with SignalStop() as signals:
        try:
            async with agent_session(args.device, app=args.app, runner=args.runner) as session:
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
    from phonewire.frontends.serving import add_host_options

    parser = argparse.ArgumentParser(prog="phonewire mcp", description="MCP server over stdio for phonewire.")
    add_host_options(parser)
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="phonewire mcp: %(message)s")
    try:
        return asyncio.run(_run(args))
    except ProtocolError as exc:
        print(f"phonewire mcp: {exc.code}: {exc.message}" + (f" ({exc.hint})" if exc.hint else ""), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
