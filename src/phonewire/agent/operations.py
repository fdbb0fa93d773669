"""The operation table: every agent operation declared once.

Each :class:`Operation` names the :class:`~phonewire.agent.core.AgentSession` method that performs it, its typed
parameters (:class:`~phonewire.agent.params.Param`, limits taken from the protocol's constants), their defaults, a
one-line summary, whether it only reads the screen, and how each front end spells it.  The front ends are
projections of this table:

* the CLI's verbs (:mod:`phonewire.frontends.cli.verbs`) — summary, positional words and option limits, and the
  text each prints (``cli_text``, ``cli_done``);
* the JSON-RPC bridge's methods (:mod:`phonewire.frontends.bridge.methods`) — PhoneAgent's names are declared
  here as aliases;
* the MCP tools (:mod:`phonewire.frontends.mcp_server`) — input schemas, annotations, the call itself;
* the Python API (:class:`phonewire.Phone`) — the same parameter names and defaults;
* WebDriver (:mod:`phonewire.frontends.webdriver.routes`, ``mobile.py``) — each route and ``mobile:`` command names
  the operations it performs; what it lacks is ``routes.NOT_OFFERED``, with the reason;
* the tables in docs/cli.md, docs/mcp.md and docs/bridge.md (:func:`markdown_table`, checked by tests).

Adding an operation is one entry here and one AgentSession method (plus its device command, if it is new on the
wire); the tests fail until every front end has it.

Pure: no I/O, nothing imported beyond the protocol constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from phonewire.agent.params import Param
from phonewire.protocol.commands import (
    APPEARANCES,
    CONNECTIVITY,
    MAX_VALUES,
    ORIENTATIONS,
    PERMISSION_SETTINGS,
    PERMISSIONS,
)
from phonewire.protocol.request import (
    CSS_MAX_SIDE,
    DEFAULT_FIND_SCROLLS,
    DEFAULT_WAIT_MS,
    MAX_ACCURACY_M,
    MAX_DURATION_MS,
    MAX_FIND_SCROLLS,
    MAX_PINCH_SCALE,
    MAX_SCROLL_AMOUNT,
    MAX_TAPS,
    MAX_TEXT_OFFSET,
    MAX_WAIT_MS,
    MIN_PINCH_SCALE,
    MIN_SCROLL_AMOUNT,
    SCREENSHOT_FORMATS,
    SCREENSHOT_SCALES,
    SCROLL_DIRECTIONS,
)

FrontEnd = Literal["cli", "mcp", "bridge", "api"]
FRONT_ENDS: Final[tuple[FrontEnd, ...]] = ("cli", "mcp", "bridge", "api")
#: Where the screen holds still after the operation: within a frame or two (a tap), or after a fling (a drag).
Settling = Literal["tap", "drag"]

KEY_NAMES: Final = (
    "enter/return, delete/backspace, escape, tab, shiftTab, arrowUp, arrowDown, arrowLeft, arrowRight, pageUp, "
    "pageDown, space, lineStart, lineEnd (the caret to the line's start or end), home (the phone's Home button: the "
    "app goes to the background), back, volumeUp, volumeDown, actionButton; or a combination of modifiers (ctrl, "
    "shift, alt, meta/cmd) and a key: ctrl+a, shift+arrowRight, meta+c, ctrl+shift+z (on an iOS phone the editing "
    "shortcuts are meta's). Enter on a focused button, link or menu item activates it"
)

# --- parameters (one object per concept; an operation may change its default with ``replace``) -----------------
APP_ID: Final = Param(
    "app_id", "string", "dev.phonewire.demo, an http(s) URL, or a package/bundle id.", required=True, metavar="APP"
)
TARGET: Final = Param(
    "target",
    "string",
    'What to act on: a ref from the last snapshot ("@e3"), "X Y" in points, or a selector such as '
    '"role=Button label=Save" (terms: id, role, label, text, value, visible, enabled, selected, focused, '
    "editable; || for fallbacks). label= and text= ignore case, quotes and surrounding punctuation (label=Action "
    'is "Action:"); label== is exact; value<N, <=, >, >= compare numbers; text~=/REGEX/ matches a pattern.',
    required=True,
)
COUNT: Final = Param("count", "integer", "Number of taps.", minimum=1, maximum=MAX_TAPS, default=1, metavar="N")
DURATION: Final = Param(
    "duration_ms", "number", "Gesture duration in milliseconds.", minimum=0, maximum=MAX_DURATION_MS, metavar="MS"
)
TEXT: Final = Param("text", "string", "Text to type.", required=True)
KEY: Final = Param("key", "string", f"Key or button: {KEY_NAMES}.", required=True)
DIRECTION: Final = Param(
    "direction", "string", "Where to reveal content.", required=True, choices=SCROLL_DIRECTIONS, metavar="DIR"
)
AMOUNT: Final = Param(
    "amount",
    "number",
    "Fraction of the screen to scroll.",
    minimum=MIN_SCROLL_AMOUNT,
    maximum=MAX_SCROLL_AMOUNT,
    default=0.6,
    metavar="F",
)
FORMAT: Final = Param("format", "string", "Image format.", choices=SCREENSHOT_FORMATS, default="png")
SCALE: Final = Param(
    "scale", "string", f"device = device pixels, css = one pixel per point (at most {CSS_MAX_SIDE} px on the long "
    "side).", choices=SCREENSHOT_SCALES,
    default="device",
)  # fmt: skip
OVERLAY_REFS: Final = Param("overlay_refs", "boolean", "Draw each ref's box and label over the image (set-of-marks).",
                            default=False)  # fmt: skip
INTERACTIVE: Final = Param(
    "interactive",
    "boolean",
    "Only interactive elements and the text needed to choose among them; a closed select is one line, its value "
    "and option count (`select` chooses; the full view lists the options).",
    default=False,
    short="-i",
)
DIFF: Final = Param("diff", "boolean", "Only what changed since this session's previous snapshot.", default=False)
ALL: Final = Param("all", "boolean",
                   "Every line: long runs of same-role siblings not summarised, wrappers with only an id kept.",
                   default=False)  # fmt: skip
OCR: Final = Param("ocr", "boolean", "Also the text drawn on the screen (a canvas, a chart, a game), read by OCR from "
                   "the screenshot: StaticText lines marked (seen), tappable like any other (also done by itself when "
                   "the view is sparse).", default=False)  # fmt: skip
CLEAR_STATE: Final = Param("clear_state", "boolean", "Stop the app and clear its stored data first (a fresh install's "
                           "state: on the web its origin's cookies and storage, on Android `pm clear`; iOS refuses: "
                           "UNSUPPORTED_OPERATION).", default=False)  # fmt: skip
LOCALE: Final = Param("locale", "string", "The language and region the app sees for this launch, a BCP 47 tag "
                      "(fr-FR; on the web navigator.language and Intl's).")  # fmt: skip
TIMEZONE: Final = Param("timezone", "string", "The time zone the app sees for this launch, an IANA name "
                        "(Europe/Paris).", metavar="TZ")  # fmt: skip
URL: Final = Param("url", "string", "http(s) URL.", required=True)
OPTIONS: Final = Param("options", "strings", "Options to choose, each by its visible text exactly, else by its value.",
                       required=True, minimum=1, maximum=MAX_VALUES, metavar="OPTION")  # fmt: skip
ADD: Final = Param("add", "boolean", "Add the options to a multi-select's selection instead of replacing it.",
                   default=False)  # fmt: skip
SELECTOR: Final = Param("selector", "string", 'What to wait for, a selector such as "text=Saved", '
                        '"role=Button label=\"Sign in\"", "id=price value<45.5" or "text~=/Total: \\$4\\d/" '
                        "(omit with idle).")  # fmt: skip
GONE: Final = Param("gone", "boolean", "Wait until nothing that shows matches the selector.", default=False)
IDLE: Final = Param("idle", "boolean", "Wait until the screen holds still (loaded, nothing moving).", default=False)
WAIT_TIMEOUT: Final = Param("timeout_ms", "integer", "Give up after this many milliseconds (WAIT_TIMED_OUT).",
                            minimum=0, maximum=MAX_WAIT_MS, default=DEFAULT_WAIT_MS)  # fmt: skip
SCROLL_TARGET: Final = replace(
    TARGET,
    required=False,
    description='What to scroll: a ref ("@e3"), "X Y" or a selector of an element in the scroll container (the '
    "nearest one around it that scrolls that way); default: the screen's main scroller (the page).",
)
FIND_SELECTOR: Final = replace(
    SELECTOR,
    required=True,
    description='What to scroll to, a selector such as "text=Person 150" or "role=Button label=Save".',
)
FIND_DIRECTION: Final = replace(DIRECTION, required=False, default="down", description="Where to scroll when the "
                                "device cannot tell where the element is.")  # fmt: skip
MAX_SCROLLS: Final = Param("max_scrolls", "integer", "Give up (NOT_FOUND) after this many scrolls.", minimum=0,
                           maximum=MAX_FIND_SCROLLS, default=DEFAULT_FIND_SCROLLS, metavar="N")  # fmt: skip
URL_PART: Final = Param("url", "string", "Only requests whose URL contains this text.", metavar="SUBSTR")
STATUS: Final = Param("status", "integer", "Only requests answered with this HTTP status (0: failed, no answer).",
                      minimum=0, maximum=999, metavar="N")  # fmt: skip
VIDEO_FILE: Final = Param("file", "string", "The video file: .mp4 (H.264) or .webm (VP8); the CLI resolves it "
                          "against its working directory.", required=True, metavar="FILE", writes=True)  # fmt: skip
TRACE_DIR: Final = Param("dir", "string", "Directory of the trace (created private; the CLI resolves it against "
                         "its working directory).", required=True, metavar="DIR", writes=True)  # fmt: skip


#: What an agent's screenshot is by default (MCP, the bridge): a JPEG at one pixel per point, its long side at most
#: CSS_MAX_SIDE (protocol/request.py) — what model image inputs take without resizing; PNG / device on request.
AGENT_IMAGE: Final[Mapping[str, Any]] = {"format": "jpeg", "scale": "css"}


# the phone's repertoire (issue 24)
WORD: Final = Param("word", "boolean", "Select the word at the target's point.", default=False)
SELECT_ALL: Final = Param("all", "boolean", "Select all (the target's field, or the whole page).", default=False)
START: Final = Param("start", "integer", "Select from this character of the target's text (0 = its first).",
                     minimum=0, maximum=MAX_TEXT_OFFSET, metavar="N")  # fmt: skip
END: Final = Param("end", "integer", "… to this one (exclusive).", minimum=0, maximum=MAX_TEXT_OFFSET, metavar="M")
CLIP_TEXT: Final = Param("text", "string", "Text to put on the phone's clipboard.", required=True)
ORIENTATION: Final = Param("orientation", "string", "How the phone is held.", required=True, choices=ORIENTATIONS)
LATITUDE: Final = Param("latitude", "number", "Degrees north, -90 to 90.", required=True, minimum=-90, maximum=90,
                        metavar="LAT")  # fmt: skip
LONGITUDE: Final = Param("longitude", "number", "Degrees east, -180 to 180.", required=True, minimum=-180,
                         maximum=180, metavar="LON")  # fmt: skip
ACCURACY: Final = Param("accuracy", "number", "Accuracy radius in metres (default 10).", minimum=0,
                        maximum=MAX_ACCURACY_M, metavar="M")  # fmt: skip
APPEARANCE: Final = Param("mode", "string", "The system's light or dark mode.", required=True, choices=APPEARANCES)
NETWORK_MODE: Final = Param("mode", "string", "The network the phone has.", required=True, choices=CONNECTIVITY)
SETTING: Final = Param("setting", "string", "What to do with the permissions.", required=True,
                       choices=PERMISSION_SETTINGS)  # fmt: skip
PERMISSION_NAMES: Final = Param("names", "strings", f"Permissions: {', '.join(PERMISSIONS)}.", required=True,
                                minimum=1, maximum=len(PERMISSIONS), metavar="NAME")  # fmt: skip
_FROM_TO: Final[Mapping[FrontEnd, Mapping[str, str]]] = {"cli": {"start": "from", "end": "to"}}
PINCH_SCALE: Final = Param("scale", "number", "How far apart the two fingers end, as a multiple of where they start: "
                           "above 1 spreads them (zoom in), below 1 pinches.", minimum=MIN_PINCH_SCALE,
                           maximum=MAX_PINCH_SCALE, default=2.0, metavar="S")  # fmt: skip
PICKED: Final = Param("files", "strings", "Files to hand the chooser (one unless its input takes several; the CLI "
                      "resolves them against its working directory).", required=True, minimum=1, maximum=MAX_VALUES,
                      metavar="PATH", reads=True)  # fmt: skip

FLOW_FILE: Final = Param("file", "string", "The Maestro flow file (YAML; the CLI resolves it against its working "
                         "directory; runFlow files are found beside it, takeScreenshot writes there).", required=True,
                         metavar="FILE", writes=True)  # fmt: skip
FLOW_ENV: Final = Param("env", "strings", "Variables for ${NAME} in the flow, each NAME=VALUE (over the flow's env).",
                        maximum=MAX_VALUES, metavar="NAME=VALUE")  # fmt: skip
FLOW_TRACE: Final = Param("trace", "string", "Record the run's steps into this trace directory (`trace view` shows "
                          "it).", metavar="DIR", writes=True)  # fmt: skip


def _points(*names: str) -> tuple[Param, ...]:
    return tuple(Param(n, "number", f"{n} in screen points.", required=True) for n in names)


#: The CLI's option for a duration (``--duration MS``).
_CLI_DURATION: Final[Mapping[FrontEnd, Mapping[str, str]]] = {"cli": {"duration_ms": "duration"}}
#: PhoneAgent's name for an app id.
_BUNDLE: Final[Mapping[FrontEnd, Mapping[str, str]]] = {"bridge": {"app_id": "bundle_identifier"}}


@dataclass(frozen=True, slots=True)
class Operation:
    """One agent operation.  A spelling of ``None`` means the front end does not offer it."""

    name: str
    method: str  # the AgentSession method
    summary: str
    params: tuple[Param, ...] = ()
    read_only: bool = False
    #: Mutating and not undoable by another operation (an MCP client asks before it runs).
    destructive: bool = False
    settling: Settling = "tap"
    #: A mutating operation after which the screen is worth returning (not after closing the app).
    view_after: bool = True
    cli: str | None = None  # default: ``name``
    mcp: str | None = None
    bridge: str | None = None
    api: str | None = None
    #: The bridge's further names for it (PhoneAgent's methods; they take PhoneAgent's parameter shapes).
    bridge_aliases: tuple[str, ...] = ()
    #: The CLI's own positional word after the operation's (``screenshot [PATH]``: where to write the image).
    cli_extra: str = ""
    #: Per-front-end defaults that differ from the parameter's own (MCP screenshots are small by default).
    defaults: Mapping[FrontEnd, Mapping[str, Any]] = field(default_factory=dict)
    #: Per-front-end parameter names that differ from the table's (the bridge keeps PhoneAgent's).
    renames: Mapping[FrontEnd, Mapping[str, str]] = field(default_factory=dict)
    #: Optional strings the CLI takes as ``--options`` rather than positional words (``network [--url S]``).
    cli_flags: tuple[str, ...] = ()
    #: Made of wire commands that are each complete on its own (``find``'s scrolls): like an operation that only
    #: reads, it may stop between two of them once nobody waits for its answer (:attr:`abandonable`).
    stops_between_steps: bool = False
    #: Made of other operations of the table (a flow run): those are the steps the session's observers see (a trace
    #: records them, each with the flow's line), not the container itself (agent/hooks.py).
    container: bool = False
    #: The CLI's text for the result (after ``ok `` for an action; one line per item of a list): a template of the
    #: result's fields, the call's arguments by parameter name and the CLI's own pieces (``{target_text}``,
    #: ``{into_text}``, ``{text_length}``, ``{fill_text}``, ``{title_text}``: cli/texts.py's :func:`cli_text`).
    #: ``{a|b}`` is ``a``, else ``b`` when ``a`` is absent (``{a|}``: else nothing); characters before the name
    #: (``{ a}``) are written only with a value; ``!l`` lowers its case.  None: ``{message}`` for an action, the
    #: result's JSON for data.
    cli_text: str | None = None
    #: The CLI's ``{message}`` when the device's reply has none (a template of the arguments; default: the verb).
    cli_done: str | None = None

    @property
    def abandonable(self) -> bool:
        """Whether the CLI daemon stops it when its client has gone (interrupted, killed) instead of running it to
        its end: it only reads, or it stops between complete steps (a wire command already sent still finishes:
        ``AgentSession._wire``).  Any other operation runs to its end unanswered."""
        return self.read_only or self.stops_between_steps

    def spelling(self, front_end: FrontEnd) -> str:
        name: str | None = getattr(self, front_end)
        return self.name if name is None else name

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.name} has no parameter {name!r}")

    def params_for(self, front_end: FrontEnd) -> tuple[Param, ...]:
        """The parameters as that front end takes them: its own names and defaults."""
        own = self.defaults.get(front_end, {})
        names = self.renames.get(front_end, {})
        return tuple(
            replace(p, name=names.get(p.name, p.name), default=own.get(p.name, p.default)) for p in self.params
        )

    def cli_arguments(self) -> tuple[Param, ...]:
        """The parameters the CLI takes as positional words, in order: the required ones and plain optional
        strings (``close [APP]``); the rest are ``--options``.  A ``target`` takes every word left over, unless a list
        follows it (``select TARGET OPTION…``: the target is one word, the list takes the rest)."""
        return tuple(
            p
            for p in self.params
            if p.required or (p.kind in ("string", "strings") and not p.choices and p.name not in self.cli_flags)
        )

    def cli_options(self) -> dict[str, Param]:
        """``--option`` → parameter, for the parameters that are not positional (the CLI's renames applied)."""
        names = self.renames.get("cli", {})
        positional = self.cli_arguments()
        return {"--" + names.get(p.name, p.name).replace("_", "-"): p for p in self.params if p not in positional}

    @property
    def cli_usage(self) -> str:
        """The CLI's usage line, e.g. ``tap TARGET [--count N]``."""
        words = [self.spelling("cli")]
        for p in self.cli_arguments():
            metavar = p.metavar or p.name.upper()
            if p.kind == "strings":
                metavar = f"{metavar} [{metavar}…]"
            words.append(metavar if p.required else f"[{metavar}]")
        if self.cli_extra:
            words.append(self.cli_extra)
        for flag, p in self.cli_options().items():
            if p.kind == "boolean":
                words.append(f"[{p.short or flag}]")
            else:
                words.append(f"[{flag} {'|'.join(p.choices) or p.metavar or p.name.upper()}]")
        return " ".join(words)

    def kwargs(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """The AgentSession call's keyword arguments for validated ``args`` (absent optional ones omitted)."""
        return {p.name: args[p.name] for p in self.params if p.name in args}


OPERATIONS: Final[dict[str, Operation]] = {
    op.name: op
    for op in (
        Operation("open_app", "open_app", "Launch (or bring to front) an app and make it the session's target.",
                  (APP_ID, CLEAR_STATE, LOCALE, TIMEZONE), cli="open", api="open", renames=_BUNDLE,
                  cli_flags=("locale", "timezone"),
                  cli_text="opened {title_text|appBundleId|app_id}"),
        Operation("close_app", "close_app", "Stop an app (default: the session's app).",
                  (replace(APP_ID, required=False, description="App id (default: the session's app)."),),
                  destructive=True, view_after=False, cli="close", renames=_BUNDLE,
                  cli_text="closed{ appBundleId|app_id|}"),
        Operation("list_apps", "list_apps", "The device's apps and their state.", read_only=True, cli="apps",
                  api="apps", cli_text="{appBundleId}\t{state}{\ttitle|}"),
        Operation("open_url", "open_url", "Open a URL as the OS would (the app showing it becomes the target).",
                  (URL,), cli="url", cli_text="opened {title_text|appBundleId|url}"),
        Operation("snapshot", "snapshot", "The screen as the agent view: one line per useful element with its @eN ref.",
                  (INTERACTIVE, DIFF, ALL, OCR), read_only=True, bridge_aliases=("get_tree", "get_context"),
                  cli_text="{text}"),
        Operation("viewport", "viewport", "The app's viewport in screen points: x, y, width, height.",
                  read_only=True, cli_text="{x:g} {y:g} {width:g} {height:g}"),
        Operation("screenshot", "screenshot", "The screen as an image.", (FORMAT, SCALE, OVERLAY_REFS),
                  read_only=True, cli_extra="[PATH]", bridge_aliases=("get_screen_image",),
                  cli_text="screenshot {path}",
                  # the API's format defaults to the extension of the file it writes (else PNG): agent/imagefile.py
                  defaults={"mcp": AGENT_IMAGE, "bridge": AGENT_IMAGE, "api": {"format": None}}),
        Operation("tap", "tap", "Tap an element (its current centre) or a point.", (TARGET, COUNT),
                  bridge_aliases=("tap_element",), cli_text="{message}{target_text}", cli_done="tapped"),
        Operation("long_press", "long_press", "Press and hold an element or a point.",
                  (TARGET, replace(DURATION, default=800)), cli="longpress", renames=_CLI_DURATION,
                  cli_text="{message}{target_text}", cli_done="long-pressed"),
        Operation("fill", "fill", "Focus a text field, clear it and type text.", (TARGET, TEXT), destructive=True,
                  bridge_aliases=("enter_text",), cli_text="{fill_text}"),
        Operation("select", "select", "Choose options of a select (a multi-select's selection becomes them).",
                  (replace(TARGET, description="The select: a ref, a point or a selector (quote a multi-word one: "
                           "one argument)."), OPTIONS, ADD), cli_text="{message}{target_text}", cli_done="selected"),
        Operation("type", "type", "Type text into the focused field.", (TEXT,), cli_done="typed"),
        Operation("press", "press", "Press a key or hardware button.", (KEY,), cli_done="pressed {key}"),
        Operation("swipe", "swipe", "Drag the finger from (x1, y1) to (x2, y2), in screen points.",
                  (*_points("x1", "y1", "x2", "y2"), replace(DURATION, default=300)), settling="drag",
                  renames=_CLI_DURATION, cli_done="swiped"),
        Operation("scroll", "scroll", "Scroll the container under a target (default: the page) to reveal what is "
                  "further in a direction; says how far it moved and whether it reached the end.",
                  (DIRECTION, SCROLL_TARGET, AMOUNT), settling="drag", cli_text="{message}{target_text}",
                  cli_done="scrolled {direction!l}"),
        Operation("find", "find", "Scroll until an element matching a selector shows; answers its snapshot line "
                  "(@eN ...), ready to act on.", (FIND_SELECTOR, FIND_DIRECTION, MAX_SCROLLS), settling="drag",
                  view_after=False, stops_between_steps=True),
        Operation("wait", "wait", "Wait until an element shows (or is gone), or until the screen holds still.",
                  (SELECTOR, GONE, IDLE, WAIT_TIMEOUT), read_only=True,
                  renames={"cli": {"timeout_ms": "timeout"}}),
        Operation("trace_start", "trace_start", "Record every later operation of this session (screens, views, "
                  "targets, results) into a trace directory.", (TRACE_DIR,), read_only=True, view_after=False,
                  cli="trace start"),
        Operation("trace_stop", "trace_stop", "Stop recording the trace.", read_only=True, view_after=False,
                  cli="trace stop"),
        # -- logs, requests and video (issue 13) --
        Operation("logs", "logs", "Console messages and page errors of the app (web; logcat lines on Android) since "
                  "this session's previous logs call.", read_only=True, view_after=False),
        Operation("network", "network", "Requests the app made (method, URL, status, size, time) since this "
                  "session's previous network call; the first call starts capturing.", (URL_PART, STATUS),
                  read_only=True, view_after=False, cli_flags=("url",)),
        Operation("record_start", "record_start", "Record the screen into a video file until record_stop.",
                  (VIDEO_FILE,), read_only=True, view_after=False, cli="record start"),
        Operation("record_stop", "record_stop", "Stop recording the screen and finish the video file.",
                  read_only=True, view_after=False, cli="record stop"),
        # -- the phone's repertoire (issue 24) --
        Operation("select_text", "select_text", "Select text as a long press and its handles would: the target's "
                  "whole text, the word at it, all, or characters N to M (the page sees a real selection).",
                  (TARGET, WORD, SELECT_ALL, START, END), cli="select-text", renames=_FROM_TO),
        Operation("clipboard_get", "clipboard_get", "The text on the phone's clipboard.", read_only=True,
                  view_after=False, cli="clipboard get"),
        Operation("clipboard_set", "clipboard_set", "Put text on the phone's clipboard (a paste in the app pastes "
                  "it).", (CLIP_TEXT,), view_after=False, cli="clipboard set"),
        Operation("rotate", "rotate", "Turn the phone (the app's layout follows; orientationchange fires).",
                  (ORIENTATION,)),
        Operation("location", "location", "The position the phone reports to apps (the Geolocation API).",
                  (LATITUDE, LONGITUDE, ACCURACY), view_after=False),
        Operation("location_off", "location_off", "Location off: apps asking for the position get none.",
                  view_after=False, cli="location off"),
        Operation("appearance", "appearance", "The phone's light or dark mode (a page's prefers-color-scheme).",
                  (APPEARANCE,)),
        Operation("connectivity", "connectivity", "The phone's network: online, offline (navigator.onLine is false), "
                  "or a slow one.", (NETWORK_MODE,)),
        Operation("permissions", "permissions", "Grant, deny or reset (apps ask again) permissions for the phone's "
                  "apps.", (SETTING, PERMISSION_NAMES), view_after=False),
        Operation("pick_file", "pick_file", "Hand files to the file chooser the app opened (the view shows it as "
                  'the phone\'s sheet, Dialog "Choose a file"): the page\'s input gets them, its change handler runs.',
                  (PICKED,), cli="pick-file"),
        Operation("pinch", "pinch", "Two fingers on the target move apart (scale above 1: zoom in) or together (below "
                  "1): the page's touch handlers see two touches.",
                  (TARGET, PINCH_SCALE, replace(DURATION, default=300)), settling="drag", renames=_CLI_DURATION),
        Operation("keyboard_hide", "keyboard_hide", "Dismiss the on-screen keyboard that a focused text field raised "
                  "(taps under it are refused while it is up).", cli="keyboard hide"),
        # -- Maestro flows (issue 25; docs/flows.md) --
        Operation("flow_run", "flow_run", "Run a Maestro flow file (YAML), checked whole first: an unsupported "
                  "command, a YAML bomb or an endless loop runs nothing; answers each step's line and result.",
                  (FLOW_FILE, FLOW_ENV, FLOW_TRACE), settling="drag", cli="flow run", cli_flags=("env", "trace"),
                  container=True),
    )
}  # fmt: skip
#: The operations by the AgentSession method that performs each (:func:`phonewire.agent.hooks.operation`).
BY_METHOD: Final[dict[str, Operation]] = {op.method: op for op in OPERATIONS.values()}


def for_front_end(front_end: FrontEnd) -> dict[str, Operation]:
    """The operations by that front end's spelling."""
    return {op.spelling(front_end): op for op in OPERATIONS.values()}


def _param_text(param: Param, front_end: FrontEnd) -> str:
    text = f"`{param.name}`" + ("" if param.required else "?")
    details = []
    if param.choices:
        details.append("\\|".join(f"`{c}`" for c in param.choices))
    if param.minimum is not None or param.maximum is not None:
        low = "" if param.minimum is None else f"{param.minimum:g}"
        high = "" if param.maximum is None else f"{param.maximum:g}"
        details.append(f"{low}–{high}")
    if param.default is not None and param.default is not False:
        details.append(f"default {param.default}")
    return text + (f" ({', '.join(details)})" if details else "")


def markdown_table(front_end: FrontEnd) -> str:
    """The operation table as the docs show it for one front end (docs/cli.md, mcp.md, bridge.md embed it)."""
    head = {"cli": "verb", "mcp": "tool", "bridge": "method", "api": "method"}[front_end]
    lines = [f"| {head} | parameters | reads only | does |", "| --- | --- | --- | --- |"]
    for op in OPERATIONS.values():
        name = "`" + (op.cli_usage if front_end == "cli" else op.spelling(front_end)).replace("|", "\\|") + "`"
        if front_end == "bridge" and op.bridge_aliases:
            name += " (also " + ", ".join(f"`{a}`" for a in op.bridge_aliases) + ")"
        params = ", ".join(_param_text(p, front_end) for p in op.params_for(front_end)) or "—"
        lines.append(f"| {name} | {params} | {'yes' if op.read_only else 'no'} | {op.summary} |")
    return "\n".join(lines)


#: The markers around the generated table in a doc.
TABLE_BEGIN: Final = "<!-- operations table: generated by phonewire.agent.operations.markdown_table -->"
TABLE_END: Final = "<!-- end of operations table -->"


def with_table(doc: str, front_end: FrontEnd) -> str:
    """``doc`` with the text between the table markers replaced by the current table (``python -m
    phonewire.agent.operations`` rewrites docs/cli.md, mcp.md and bridge.md this way)."""
    head, begin, rest = doc.partition(TABLE_BEGIN)
    _, end, tail = rest.partition(TABLE_END)
    if not begin or not end:
        raise ValueError("the document has no operations table markers")
    return f"{head}{TABLE_BEGIN}\n{markdown_table(front_end)}\n{TABLE_END}{tail}"


DOCS: Final[dict[str, FrontEnd]] = {"docs/cli.md": "cli", "docs/mcp.md": "mcp", "docs/bridge.md": "bridge"}

if __name__ == "__main__":
    from pathlib import Path

    for name, front_end in DOCS.items():
        path = Path(name)
        path.write_text(with_table(path.read_text(encoding="utf-8"), front_end), encoding="utf-8")
