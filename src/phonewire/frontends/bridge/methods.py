"""The JSON-RPC bridge's methods and its one request → reply function.  No sockets here.

A request line is ``{"id": …, "method": "…", "params": {…}}``; the reply is ``{"id": …, "result": {…}}`` or
``{"id": …, "error": {"code", "message", "hint"}}``.  :class:`Dispatcher` turns one line into one reply object and
is the single place where exceptions become wire errors: a :class:`ProtocolError` keeps its code, anything else is
COMMAND_FAILED (logged with its traceback on stderr).

Methods follow the PhoneAgent bridge (``get_tree``, ``get_screen_image``, ``get_context``, ``open_app``, ``tap``,
``tap_element``, ``enter_text``, ``scroll``, ``swipe``) and add the rest of phonewire's command set.  Actions answer
with the fresh tree once the screen holds still, as the reference's do (``"return_tree": false`` skips it).  The
tree is the agent view with each element's frame string appended, so an agent can act by ref
(``tap {"target": "@e3"}``) or copy the frame into ``tap_element``/``enter_text``.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeVar

from phonewire.agent import operations as ops
from phonewire.agent.operations import OPERATIONS
from phonewire.agent.params import Form, Frame, Param, format_frame, parse_params
from phonewire.agent.results import stamp_fields
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
from phonewire.protocol.envelope import encode_json
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.jsonlimits import MAX_JSON_DEPTH, json_depth, loads_limited, top_level_id

log = logging.getLogger("phonewire.bridge")

JSONObject = dict[str, Any]
T = TypeVar("T")


# --- trees and images -------------------------------------------------------------------------------------------
_REF_AT_LINE_START: Final = re.compile(r"^(\s*)@(e\d+)\b")


def _rect_of(node: Mapping[str, Any]) -> tuple[float, float, float, float] | None:
    rect = node.get("rect")
    if not isinstance(rect, Mapping):
        return None
    try:
        return (float(rect["x"]), float(rect["y"]), float(rect["width"]), float(rect["height"]))
    except (KeyError, TypeError, ValueError):
        return None


#: What a line of an element with no place on the screen (no size: an option of a closed select) carries instead
#: of a frame: there is no point to copy, a tap at its "centre" would land on whatever is at the screen's origin.
NO_FRAME: Final = "frame=none"


def render_tree(view: ViewLike) -> str:
    """The agent view with ``frame={{x, y}, {w, h}}`` appended to every line that carries a ref (:data:`NO_FRAME`
    for an element without a size)."""
    out = []
    for line in view.text.splitlines():
        match = _REF_AT_LINE_START.match(line)
        node = None
        if match:
            ref = match.group(2)
            node = view.refs.get(ref) or view.refs.get("@" + ref)
        rect = _rect_of(node) if node is not None else None
        if rect is None:
            out.append(line)
        elif rect[2] > 0 and rect[3] > 0:
            out.append(f"{line} frame={format_frame(*rect)}")
        else:
            out.append(f"{line} {NO_FRAME}")
    return "\n".join(out)


def image_result(data: bytes, fmt: str) -> JSONObject:
    metadata: JSONObject = {"format": fmt}
    size = image_size(data)
    if size is not None:
        metadata["width"], metadata["height"] = size
    return {"screenshot_base64": base64.b64encode(data).decode("ascii"), "metadata": metadata}


# --- the method table ---------------------------------------------------------------------------------------------
@dataclass
class Context:
    """What a method may touch: the agent session, and the server's stop switch."""

    session: AgentAPI
    stop: asyncio.Event = field(default_factory=asyncio.Event)


Handler = Callable[[Context, JSONObject], Awaitable[JSONObject]]


@dataclass(frozen=True, slots=True)
class Method:
    name: str
    summary: str
    variants: tuple[tuple[Form, Handler], ...]

    @property
    def forms(self) -> tuple[Form, ...]:
        return tuple(form for form, _ in self.variants)


RETURN_TREE = Param("return_tree", "boolean", "Answer with the fresh tree after the action (default true).")
X = Param("x", "number", "X in screen points, as in the tree's frames.", required=True)
Y = Param("y", "number", "Y in screen points, as in the tree's frames.", required=True)
(BUNDLE, CLEAR_STATE, LOCALE, TIMEZONE) = OPERATIONS["open_app"].params_for("bridge")
DURATION = replace(ops.DURATION, default=None)  # the default depends on the gesture (the table's, per method)


def _default(operation: str, param: str) -> Any:
    """The operation table's default for one parameter (one place for each default)."""
    return OPERATIONS[operation].param(param).default


TAP_COUNT: Final[int] = _default("tap", "count")
LONG_PRESS_MS: Final[float] = _default("long_press", "duration_ms")
SWIPE_MS: Final[float] = _default("swipe", "duration_ms")
SCROLL_AMOUNT: Final[float] = _default("scroll", "amount")


#: The fields of an operation's result that every action's reply carries beside the tree (as MCP's do): what
#: happened (``message``), what it changed on screen (``diff``: the view's lines before → after, once still, as
#: ``snapshot --diff`` prints them) and whether it changed anything (``changed``: a line of the diff), and what
#: ``press back`` did (``back``: closed, history, screen, stayed, home).  docs/bridge.md lists them (a test
#: checks it).
ACTION_FIELDS: Final = ("message", "changed", "diff", "back", "dialog")


def _action_fields(results: list[ActionLike]) -> JSONObject:
    """:data:`ACTION_FIELDS` of an action's steps: the last step's message and back; the diffs of its steps one
    after the other, changed if any step changed the screen (enter_text's tap, then its typing)."""
    last = results[-1].data
    out: JSONObject = {k: last[k] for k in ACTION_FIELDS if k in last and k not in ("changed", "diff")}
    changes = [r.data["changed"] for r in results if isinstance(r.data.get("changed"), bool)]
    if changes:
        out["changed"] = any(changes)
    diffs = [r.data["diff"] for r in results if isinstance(r.data.get("diff"), list)]
    if diffs:
        out["diff"] = [line for d in diffs for line in d]
    return out


async def _finish(
    ctx: Context, params: JSONObject, results: list[ActionLike], extra: JSONObject, settle: Settle = TAP_SETTLE
) -> JSONObject:
    """An action's reply: its :data:`ACTION_FIELDS`, extra fields, the warning / reactivated flags of its steps,
    then the fresh tree."""
    warning = " ".join(r.warning for r in results if r.warning) or None
    out = {
        **_action_fields(results),
        **extra,
        **stamp_fields(warning, any(r.reactivated for r in results), any(r.state_reset for r in results)),
    }
    if params.get("return_tree", True):
        try:
            out["tree"] = render_tree(await settled_view(ctx.session, settle))
        except ProtocolError as exc:
            if exc.code != e.APP_BACKGROUNDED:
                raise
            # The action itself sent the app away (press home): it happened; there is just no app tree to show.
            out["tree"] = ""
            out["note"] = f"{ctx.session.app_id} is in the background now; open_app brings it back"
    return out


def _xy(x: float, y: float) -> str:
    return f"{x:g} {y:g}"


async def get_tree(ctx: Context, params: JSONObject) -> JSONObject:
    view = await ctx.session.snapshot()
    return {"tree": render_tree(view), **({"stateReset": True} if view.state_reset else {})}


#: The screenshot's parameters as the bridge takes them: a JPEG at one pixel per point unless asked otherwise.
SHOT_PARAMS: Final = OPERATIONS["screenshot"].params_for("bridge")
_SHOT_DEFAULTS: Final = {p.name: p.default for p in SHOT_PARAMS}


async def get_screen_image(ctx: Context, params: JSONObject) -> JSONObject:
    args = {**_SHOT_DEFAULTS, **{k: v for k, v in params.items() if k in _SHOT_DEFAULTS}}
    data = await ctx.session.screenshot(format=args["format"], scale=args["scale"], overlay_refs=args["overlay_refs"])
    return image_result(data, args["format"])


async def get_context(ctx: Context, params: JSONObject) -> JSONObject:
    tree = render_tree(await ctx.session.snapshot())
    return {"tree": tree, **await get_screen_image(ctx, params)}


async def open_app(ctx: Context, params: JSONObject) -> JSONObject:
    app = params["bundle_identifier"]
    options = {name: params[name] for name in ("locale", "timezone") if params.get(name) is not None}
    result = await ctx.session.open_app(app, clear_state=params.get("clear_state") is True, **options)
    return await _finish(ctx, params, [result], {"bundle_identifier": app})


async def open_package(ctx: Context, params: JSONObject) -> JSONObject:
    """The Android reference bridge's spelling: ``package_name``."""
    app = params["package_name"]
    result = await ctx.session.open_app(app)
    return await _finish(ctx, params, [result], {"bundle_identifier": app, "package_name": app})


async def close_app(ctx: Context, params: JSONObject) -> JSONObject:
    result = await ctx.session.close_app(params.get("bundle_identifier"))
    out = dict(result.data)
    if result.warning:
        out["warning"] = result.warning
    return out


async def list_apps(ctx: Context, params: JSONObject) -> JSONObject:
    return {"apps": await ctx.session.list_apps()}


async def tap_xy(ctx: Context, params: JSONObject) -> JSONObject:
    result = await ctx.session.tap_point(params["x"], params["y"], count=params.get("count", TAP_COUNT))
    return await _finish(ctx, params, [result], {})


async def tap_target(ctx: Context, params: JSONObject) -> JSONObject:
    result = await ctx.session.tap(params["target"], count=params.get("count", TAP_COUNT))
    return await _finish(ctx, params, [result], {})


async def tap_element(ctx: Context, params: JSONObject) -> JSONObject:
    frame: Frame = params["coordinate"]
    x, y = frame.center
    long_press = params.get("longPress", False)
    count = params.get("count", TAP_COUNT)
    if long_press:
        result = await ctx.session.long_press(_xy(x, y), duration_ms=params.get("duration_ms", LONG_PRESS_MS))
        count = 1
    else:
        result = await ctx.session.tap_point(x, y, count=count)
    extra = {"coordinate": str(frame), "count": count, "longPress": long_press}
    return await _finish(ctx, params, [result], extra)


async def enter_text(ctx: Context, params: JSONObject) -> JSONObject:
    frame: Frame = params["coordinate"]
    tapped = await ctx.session.tap_point(*frame.center)
    typed = await ctx.session.type(params["text"])
    return await _finish(ctx, params, [tapped, typed], {"coordinate": str(frame)})


async def long_press_target(ctx: Context, params: JSONObject) -> JSONObject:
    result = await ctx.session.long_press(params["target"], duration_ms=params.get("duration_ms", LONG_PRESS_MS))
    return await _finish(ctx, params, [result], {})


async def long_press_xy(ctx: Context, params: JSONObject) -> JSONObject:
    result = await ctx.session.long_press(
        _xy(params["x"], params["y"]), duration_ms=params.get("duration_ms", LONG_PRESS_MS)
    )
    return await _finish(ctx, params, [result], {})


async def fill(ctx: Context, params: JSONObject) -> JSONObject:
    return await _finish(ctx, params, [await ctx.session.fill(params["target"], params["text"])], {})


async def type_text(ctx: Context, params: JSONObject) -> JSONObject:
    return await _finish(ctx, params, [await ctx.session.type(params["text"])], {})


async def press(ctx: Context, params: JSONObject) -> JSONObject:
    return await _finish(ctx, params, [await ctx.session.press(params["key"])], {})


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


async def _drag_within_screen(
    ctx: Context, params: JSONObject, start: tuple[float, float], delta: tuple[float, float]
) -> JSONObject:
    (x, y), (dx, dy) = start, delta
    vp = await ctx.session.viewport()
    width, height = float(vp.get("width", 0)), float(vp.get("height", 0))
    x2 = _clamp(x + dx, 0, max(0.0, width - 1)) if width > 0 else x + dx
    y2 = _clamp(y + dy, 0, max(0.0, height - 1)) if height > 0 else y + dy
    result = await ctx.session.swipe(x, y, x2, y2, duration_ms=params.get("duration_ms", SWIPE_MS))
    return await _finish(ctx, params, [result], {}, DRAG_SETTLE)


async def scroll_direction(ctx: Context, params: JSONObject) -> JSONObject:
    result = await ctx.session.scroll(
        params["direction"], params.get("target"), amount=params.get("amount", SCROLL_AMOUNT)
    )
    moved: JSONObject = {k: result.data[k] for k in ("distance", "atEnd", "message") if k in result.data}
    return await _finish(ctx, params, [result], moved, DRAG_SETTLE)


async def scroll_distance(ctx: Context, params: JSONObject) -> JSONObject:
    """Reference form: the finger moves from (x, y) by (distanceX, distanceY), kept on screen."""
    start, delta = (params["x"], params["y"]), (params["distanceX"], params["distanceY"])
    return await _drag_within_screen(ctx, params, start, delta)


async def swipe_direction(ctx: Context, params: JSONObject) -> JSONObject:
    """Reference form: the finger moves from (x, y) in ``direction`` by ``distance`` (default half the screen)."""
    distance = params.get("distance")
    if distance is None:
        vp = await ctx.session.viewport()
        distance = max(1.0, min(float(vp.get("width", 0)), float(vp.get("height", 0))) / 2)
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[params["direction"]]
    return await _drag_within_screen(ctx, params, (params["x"], params["y"]), (dx * distance, dy * distance))


async def swipe_points(ctx: Context, params: JSONObject) -> JSONObject:
    result = await ctx.session.swipe(
        params["x1"],
        params["y1"],
        params["x2"],
        params["y2"],
        duration_ms=params.get("duration_ms", SWIPE_MS),
    )
    return await _finish(ctx, params, [result], {}, DRAG_SETTLE)


async def snapshot(ctx: Context, params: JSONObject) -> JSONObject:
    view = await ctx.session.snapshot(
        interactive=params.get("interactive", False), diff=params.get("diff", False), all=params.get("all", False),
        ocr=params.get("ocr", False),
    )  # fmt: skip
    out: JSONObject = {"tree": render_tree(view) if params.get("frames") else view.text, "quality": view.quality}
    if params.get("json"):
        out["view"] = view.to_json()
    return out


async def open_url(ctx: Context, params: JSONObject) -> JSONObject:
    return await _finish(ctx, params, [await ctx.session.open_url(params["url"])], {})


async def viewport(ctx: Context, params: JSONObject) -> JSONObject:
    return dict(await ctx.session.viewport())


async def stop(ctx: Context, params: JSONObject) -> JSONObject:
    ctx.stop.set()
    return {"stopping": True}


def _form(*params: Param) -> Form:
    return Form(tuple(params))


COORDINATE = Param("coordinate", "frame", "Frame string of the element, copied from the tree.", required=True)


def _summary(operation: str) -> str:
    return OPERATIONS[operation].summary


METHODS: Final[dict[str, Method]] = {
    m.name: m
    for m in (
        Method("get_tree", "The current app's tree: agent view lines with refs and frame strings.",
               ((_form(), get_tree),)),
        Method("get_screen_image", "The screen as a base64 image with its width and height.",
               ((_form(*SHOT_PARAMS), get_screen_image),)),
        Method("get_context", "get_tree and get_screen_image in one call.",
               ((_form(*SHOT_PARAMS), get_context),)),
        Method("open_app", _summary("open_app"), (
            (_form(BUNDLE, CLEAR_STATE, LOCALE, TIMEZONE, RETURN_TREE), open_app),
            (_form(Param("package_name", "string", "Android package name (same as bundle_identifier).",
                         required=True), RETURN_TREE), open_package),
        )),
        Method("close_app", _summary("close_app"),
               ((_form(*OPERATIONS["close_app"].params_for("bridge")), close_app),)),
        Method("list_apps", _summary("list_apps"), ((_form(), list_apps),)),
        Method("tap", _summary("tap"), (
            (_form(X, Y, ops.COUNT, RETURN_TREE), tap_xy),
            (_form(ops.TARGET, ops.COUNT, RETURN_TREE), tap_target),
        )),
        Method("tap_element", "Tap the centre of a frame string (count taps, or a long press).", ((_form(
            COORDINATE, ops.COUNT, Param("longPress", "boolean", "Long-press instead of tapping."), DURATION,
            RETURN_TREE,
        ), tap_element),)),
        Method("enter_text", "Tap the field at a frame string, then type text into it.",
               ((_form(COORDINATE, ops.TEXT, RETURN_TREE), enter_text),)),
        Method("long_press", _summary("long_press"), (
            (_form(ops.TARGET, DURATION, RETURN_TREE), long_press_target),
            (_form(X, Y, DURATION, RETURN_TREE), long_press_xy),
        )),
        Method("fill", _summary("fill"), ((_form(ops.TARGET, ops.TEXT, RETURN_TREE), fill),)),
        Method("type", _summary("type"), ((_form(ops.TEXT, RETURN_TREE), type_text),)),
        Method("press", _summary("press"), ((_form(ops.KEY, RETURN_TREE), press),)),
        Method("scroll", "Scroll the container under a target (default: the page) in a direction (amount = "
               "fraction of the container; answers distance and atEnd), or drag the finger from (x, y) by "
               "(distanceX, distanceY).", (
            (_form(ops.DIRECTION, ops.SCROLL_TARGET, ops.AMOUNT, RETURN_TREE), scroll_direction),
            (_form(X, Y, Param("distanceX", "number", "Finger movement along x.", required=True),
                   Param("distanceY", "number", "Finger movement along y.", required=True), DURATION, RETURN_TREE),
             scroll_distance),
        )),
        Method("swipe", "Move the finger from (x, y) in a direction, or from (x1, y1) to (x2, y2).", (
            (_form(X, Y, ops.DIRECTION, Param("distance", "number", "Points to move (default half the screen).",
                                          minimum=1), DURATION, RETURN_TREE), swipe_direction),
            (_form(*(Param(n, "number", f"{n} in screen points.", required=True) for n in ("x1", "y1", "x2", "y2")),
                   DURATION, RETURN_TREE), swipe_points),
        )),
        Method("snapshot", _summary("snapshot"),
               ((_form(ops.INTERACTIVE, ops.DIFF, ops.ALL, ops.OCR,
                       Param("json", "boolean", "Also return the raw nodes."),
                       Param("frames", "boolean", "Append frame strings to the lines.")), snapshot),)),
        Method("screenshot", _summary("screenshot"),
               ((_form(*SHOT_PARAMS), get_screen_image),)),
        Method("open_url", _summary("open_url"), ((_form(ops.URL, RETURN_TREE), open_url),)),
        Method("viewport", _summary("viewport"), ((_form(), viewport),)),
        Method("stop", "Stop the bridge (and its runner).", ((_form(), stop),)),
    )
}  # fmt: skip


def _generic(op: ops.Operation) -> Handler:
    """The bridge's projection of an operation that has no PhoneAgent shape of its own: the table's parameters,
    one AgentSession call; an action answers like every action (stamps, then the fresh tree unless
    ``return_tree`` is false), a read-only operation answers its data."""

    async def handler(ctx: Context, params: JSONObject) -> JSONObject:
        kwargs = op.kwargs(params)
        confine_outputs(op.params, kwargs)
        result = await getattr(ctx.session, op.method)(**kwargs)
        if op.read_only:
            return dict(result.data) if hasattr(result, "data") else {"result": result}
        if not op.view_after:  # its answer is the point (find's line): no tree after it
            return await _finish(ctx, {**params, "return_tree": False}, [result], dict(result.data))
        settle = DRAG_SETTLE if op.settling == "drag" else TAP_SETTLE
        return await _finish(ctx, params, [result], {}, settle)

    return handler


# Every operation of the table the bridge offers and has no method above for: adding an operation to the table is
# adding it here.
METHODS.update(
    {
        name: Method(
            name,
            op.summary,
            (
                (
                    _form(*op.params_for("bridge"), *(() if op.read_only or not op.view_after else (RETURN_TREE,))),
                    _generic(op),
                ),
            ),
        )
        for name, op in ops.for_front_end("bridge").items()
        if name not in METHODS
    }
)


def _method_list() -> str:
    return ", ".join(METHODS)


# --- one line in, one reply out ------------------------------------------------------------------------------------
OPEN_APP_HINT: Final = (
    'Call open_app first, e.g. {"bundle_identifier": "dev.phonewire.demo"}; list_apps shows the apps.'
)
REQUEST_SHAPE: Final = 'Send one JSON object per line: {"id": 1, "method": "get_tree", "params": {}}.'
_DEFAULT_HINTS: Final[dict[str, str]] = {
    e.COMMAND_FAILED: "Call get_tree to see the screen as it is now, then retry or choose another element.",
    e.TRANSPORT_FAILED: "Call get_tree to see whether the action happened before repeating it.",
}


def error_reply(req_id: object, exc: ProtocolError) -> JSONObject:
    hint = exc.hint or _DEFAULT_HINTS.get(exc.code) or "Call get_tree to see the screen as it is now."
    reply: JSONObject = {"id": req_id, "error": {"code": exc.code, "message": exc.message, "hint": hint}}
    if exc.state_reset:
        reply["stateReset"] = True
    return reply


@dataclass(frozen=True, slots=True)
class Call:
    id: object
    method: Method
    variant: int
    params: JSONObject


def parse_call(line: bytes) -> Call:
    """Decode and validate one request line.  Raises :class:`BadCall` carrying the id (when one was readable)."""
    try:
        obj = loads_limited(line, what="request line", hint=REQUEST_SHAPE)
    except ProtocolError as exc:  # too deep to parse: answered by its id all the same, when it has one up front
        text = line.decode("utf-8", "replace")
        raise BadCall(top_level_id(text) if json_depth(text) > MAX_JSON_DEPTH else None, exc) from exc
    if not isinstance(obj, dict):
        raise BadCall(None, ProtocolError(e.INVALID_REQUEST, "request is not a JSON object", REQUEST_SHAPE))
    req_id = obj.get("id")
    if req_id is not None and (isinstance(req_id, bool) or not isinstance(req_id, (str, int, float))):
        raise BadCall(None, ProtocolError(e.INVALID_REQUEST, "request id must be a string or a number", REQUEST_SHAPE))
    name = obj.get("method")
    if not isinstance(name, str):
        raise BadCall(req_id, ProtocolError(e.INVALID_REQUEST, "request lacks a string 'method'", REQUEST_SHAPE))
    method = METHODS.get(name)
    if method is None:
        raise BadCall(
            req_id, ProtocolError(e.INVALID_REQUEST, f"unknown method {name[:60]!r}", f"Methods: {_method_list()}.")
        )
    try:
        variant, params = parse_params(name, method.forms, obj.get("params"))
    except ProtocolError as exc:
        raise BadCall(req_id, exc) from exc
    return Call(req_id, method, variant, params)


class BadCall(Exception):
    def __init__(self, req_id: object, error: ProtocolError) -> None:
        super().__init__(error.message)
        self.req_id = req_id
        self.error = error


class Dispatcher:
    """Runs calls one at a time (one lock per server: the device does one thing at a time)."""

    def __init__(self, session: AgentAPI) -> None:
        self.context = Context(session)
        self._lock = asyncio.Lock()

    @property
    def stop_requested(self) -> asyncio.Event:
        return self.context.stop

    async def handle(self, line: bytes) -> JSONObject:
        try:
            call = parse_call(line)
        except BadCall as bad:
            return error_reply(bad.req_id, bad.error)
        handler = call.method.variants[call.variant][1]
        try:
            async with self._lock:
                await prepare_app(self.context.session, call.method.name)
                result = await with_app_error_hint(lambda: handler(self.context, call.params), OPEN_APP_HINT)
        except ProtocolError as exc:
            return error_reply(call.id, exc)
        except Exception as exc:
            log.exception("bridge method %s failed", call.method.name)
            failure = ProtocolError(e.COMMAND_FAILED, f"{call.method.name} failed: {type(exc).__name__}: {exc}")
            return error_reply(call.id, failure)
        return {"id": call.id, "result": result}


def encode_reply(reply: JSONObject) -> bytes:
    """One reply line.  A result that cannot be JSON (a non-finite number upstream) becomes COMMAND_FAILED; text
    that UTF-8 cannot carry (a page's lone surrogate) goes out as its ``\\uXXXX`` escape (:func:`encode_json`)."""
    try:
        return encode_json(reply) + b"\n"
    except (TypeError, ValueError) as exc:
        log.error("bridge reply not encodable: %s", exc)
        failure = ProtocolError(e.COMMAND_FAILED, f"the reply could not be encoded as JSON: {exc}")
        try:
            return encode_json(error_reply(reply.get("id"), failure)) + b"\n"
        except ValueError:  # the id itself is not JSON (NaN): the reply goes without it
            return encode_json(error_reply(None, failure)) + b"\n"
