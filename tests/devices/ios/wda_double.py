"""A WebDriverAgent double: a real HTTP server on loopback that answers WDA's routes with WDA's reply shapes.

Not a device kind — a test server the tests start and stop; the iOS backend (and a real runner process) reach it
as ``--device ios:http://127.0.0.1:PORT`` exactly as they would reach WDA.

What is recorded and what is derived:

* the screens are the real XML page sources in ``fixtures/`` (one per installed app);
* ``/status``, ``/wda/screen``, ``/wda/activeAppInfo`` replies and the error bodies (``invalid session id`` /
  "Session does not exist", ``invalid element state`` / "The on-screen keyboard must be present to send keys")
  are the recorded ones in ``fixtures/wda/`` (see its SOURCES.md);
* ``GET /source?format=json`` is DERIVED: no real full-screen JSON source exists in permissively licensed data,
  so each XML element is re-emitted in the shape of the one real JSON node
  (``fixtures/wda/xcuitest-driver_json-source-node_elementAttributes.json``: ``"1"``/``"0"`` booleans, ``frame``
  string plus ``rect`` dict, ``rawIdentifier``);
* the screenshot is a generated PNG of the screen's pixel size;
* alerts are CONSTRUCTED (no recorded alert source exists in the fixtures): an app's own alert
  (:meth:`WdaDouble.show_app_alert`) is an ``XCUIElementTypeAlert`` element added to the app's screen in the shape
  XCUITest gives a UIAlertController (title and message StaticTexts, an optional TextField, one Button per action),
  so it appears in ``/source`` with rects; a system alert (``alert = (text, [labels])``) lives in SpringBoard and
  is visible only through the alert routes.  The alert routes follow appium/WebDriverAgent's
  FBAlertViewCommands.m / FBAlert.m: SpringBoard's alert is looked up before the app's; ``GET /alert/text`` is the
  StaticTexts outside buttons joined by newlines; ``POST /alert/accept`` / ``dismiss`` with ``{"name": label}``
  click that button (``400 invalid element state`` "Failed to find button with label …" when there is none),
  without a name accept clicks the last button and dismiss the first; ``POST /alert/text`` types into the alert's
  only text field (``unsupported operation`` "The alert contains no input fields" without one); no alert is
  ``404 no such alert`` with WDA's messages.

Behaviour: taps hit-test the current screen (a text field takes focus, a switch toggles), ``/wda/keys`` edits the
focused field's value (``\\b`` deletes), app states follow launch / activate / terminate / home; while an alert
is up a coordinate tap reaches only the alert (a button answers it, its text field takes focus), and every answered
alert button is recorded in ``alert_answers``.  Every request is
recorded (``calls``: ``"POST /wda/tap"`` with the session part removed, plus its JSON body), so tests prove e.g.
that one tap sends exactly one ``/wda/tap``.  Faults: ``fail_next(route, status, error, message)``,
``expire_sessions()``, ``stop_answering()`` (requests hang until ``resume()`` or ``stop()``), ``ready = False``.
"""

from __future__ import annotations

import base64
import io
import json
import re
import threading
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from PIL import Image

FIXTURES = Path(__file__).parent / "fixtures"
WDA = FIXTURES / "wda"
PREFIX = "XCUIElementType"
TEXT_TYPES = {"TextField", "SecureTextField", "SearchField", "TextView"}
SESSION_RE = re.compile(r"^/session/([^/]+)(/.*)?$")

SETTINGS_APP = "com.apple.Preferences"
FORM_APP = "dev.app.signup"
CALENDAR_APP = "com.apple.mobilecal"
SCREENS = {
    SETTINGS_APP: "ios-settings-home-appium-xcuitest.xml",
    FORM_APP: "ios-signup-form-textfields-appium-xcuitest.xml",
    CALENDAR_APP: "ios-calendar-day-view-japanese-appium-xcuitest.xml",
}


NO_ALERT = "An attempt was made to operate on a modal dialog when one was not open"  # FB_NO_ALERT_OPEN_MSG
NOT_OPEN = "No alert is open"  # FBAlert's FBAlertNotPresentException reason


def fixture_xml(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def recorded(name: str) -> Any:
    return json.loads((WDA / name).read_text(encoding="utf-8"))


class Reply(Exception):
    def __init__(self, status: int, value: Any) -> None:
        self.status = status
        self.value = value


def w3c(status: int, error: str, message: str) -> Reply:
    return Reply(status, {"error": error, "message": message, "traceback": ""})


def _app_element(xml: str) -> ET.Element:
    root = ET.fromstring(xml.encode("utf-8"))
    return root if root.tag.startswith(PREFIX) else next(iter(root))


def _short(element: ET.Element) -> str:
    return (element.get("type") or element.tag).removeprefix(PREFIX)


def json_node(element: ET.Element) -> dict[str, Any]:
    """One XML element in the shape of WDA's JSON source node (see the module docstring: derived, not recorded)."""
    a = element.attrib
    x, y, w, h = (float(a.get(k, "0")) for k in ("x", "y", "width", "height"))
    name, label = a.get("name"), a.get("label")
    node: dict[str, Any] = {
        "isEnabled": "1" if a.get("enabled", "true") == "true" else "0",
        "isVisible": "1" if a.get("visible", "true") == "true" else "0",
        "isAccessible": "1" if a.get("accessible") == "true" else "0",
        "frame": f"{{{{{x:g}, {y:g}}}, {{{w:g}, {h:g}}}}}",
        "rect": {"y": y, "x": x, "width": w, "height": h},
        "value": a.get("value"),
        "label": label or "",
        "type": _short(element),
        "name": name,
        "rawIdentifier": name if name is not None and name != label else None,
    }
    if a.get("focused") is not None:  # as in the XML: present only when the source reports focus
        node["isFocused"] = "1" if a["focused"] == "true" else "0"
    if a.get("placeholderValue") is not None:
        node["placeholderValue"] = a["placeholderValue"]
    kids = [json_node(k) for k in element]
    if kids:
        node["children"] = kids
    return node


CONTAINERS = {"Application", "Window", "Other", "ScrollView", "Table", "CollectionView"}


def _hit(element: ET.Element, x: float, y: float) -> ET.Element | None:
    """The frontmost (last-drawn) non-container element under the point, searching the deepest first."""
    for child in reversed(element):
        found = _hit(child, x, y)
        if found is not None:
            return found
    if element.get("visible", "true") != "true" or _short(element) in CONTAINERS:
        return None
    ex, ey, ew, eh = (float(element.get(k, "0")) for k in ("x", "y", "width", "height"))
    return element if ex <= x < ex + ew and ey <= y < ey + eh else None


@dataclass
class App:
    bundle_id: str
    screen: ET.Element | None
    state: int = 1  # XCUIApplicationState: 1 notRunning, 3 background, 4 foreground
    pid: int = 0


#: The routes of the phone's repertoire the double answers (WdaDouble._repertoire).
REPERTOIRE_ROUTES = frozenset(
    {"POST /wda/setPasteboard", "POST /wda/getPasteboard", "POST /orientation", "GET /orientation"}
)


@dataclass
class WdaDouble:
    apps: dict[str, App] = field(default_factory=dict)
    simulator: bool = True
    ready: bool = True
    calls: list[tuple[str, Any]] = field(default_factory=list)
    #: A system (SpringBoard) alert: its text and button labels.
    alert: tuple[str, list[str]] | None = None
    #: An app's own alert element, in that app's screen.
    app_alert: ET.Element | None = None
    #: The label of every alert button answered, by route or by tap, in order.
    alert_answers: list[str] = field(default_factory=list)
    focused: ET.Element | None = None
    #: The pasteboard's plain text and the device's orientation (``/wda/setPasteboard``, ``/orientation``).
    pasteboard: str = ""
    orientation: str = "PORTRAIT"
    sessions: set[str] = field(default_factory=set)
    settings: dict[str, Any] = field(default_factory=dict)
    capabilities: list[Any] = field(default_factory=list)
    _faults: dict[str, Reply] = field(default_factory=dict)
    _answering: threading.Event = field(default_factory=threading.Event)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def with_fixture_apps(cls, **kwargs: Any) -> WdaDouble:
        double = cls(**kwargs)
        for n, (bundle, name) in enumerate(SCREENS.items()):
            double.apps[bundle] = App(bundle, _app_element(fixture_xml(name)), pid=1281 + n)
        double.apps["com.apple.springboard"] = App("com.apple.springboard", None, state=4, pid=50)
        return double

    # -- lifecycle ----------------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> WdaDouble:
        self._answering.set()
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def _serve(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                double._answering.wait()
                status, value, sid = double.handle(method, self.path, raw)
                body = json.dumps({"value": value, "sessionId": sid}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json;charset=UTF-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._serve("GET")

            def do_POST(self) -> None:
                self._serve("POST")

            def do_DELETE(self) -> None:
                self._serve("DELETE")

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                return  # a client that gave up on a hung request: WDA would not notice either

        self._server = Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05})
        self._thread.start()
        return self

    def stop(self) -> None:
        self._answering.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> WdaDouble:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- faults -------------------------------------------------------------------------------------------------
    def fail_next(self, route: str, status: int, error: str, message: str) -> None:
        """The next request of ``route`` (``"POST /wda/tap"``) answers this W3C error and does nothing."""
        self._faults[route] = w3c(status, error, message)

    def expire_sessions(self) -> None:
        self.sessions.clear()

    def stop_answering(self) -> None:
        self._answering.clear()

    def resume(self) -> None:
        self._answering.set()

    # -- reading the record -------------------------------------------------------------------------------------
    def routes(self) -> list[str]:
        return [route for route, _ in self.calls]

    def count(self, route: str) -> int:
        return self.routes().count(route)

    def bodies(self, route: str) -> list[Any]:
        return [body for r, body in self.calls if r == route]

    def foreground(self) -> App:
        return next(a for a in self.apps.values() if a.state == 4)

    def element(self, **attrs: str) -> ET.Element:
        screen = self.foreground().screen
        assert screen is not None
        return next(e for e in screen.iter() if all(e.get(k) == v for k, v in attrs.items()))

    # -- routing ------------------------------------------------------------------------------------------------
    def handle(self, method: str, target: str, raw: bytes) -> tuple[int, Any, str | None]:
        parts = urlsplit(target)
        path, query = parts.path, parse_qs(parts.query)
        sid: str | None = None
        match = SESSION_RE.match(path)
        if match and path != "/session":
            sid, path = match.group(1), match.group(2) or ""
        body = json.loads(raw) if raw else None
        route = f"{method} {path}"
        with self._lock:
            self.calls.append((route, body))
            try:
                fault = self._faults.pop(route, None)
                if fault is not None:
                    raise fault
                if sid is not None and sid not in self.sessions:
                    raise w3c(404, "invalid session id", "Session does not exist")
                if f"{method} {path}" in REPERTOIRE_ROUTES:
                    return 200, self._repertoire(f"{method} {path}", body), sid
                return 200, self._route(method, path, query, body, sid), sid
            except Reply as reply:
                return reply.status, reply.value, sid

    def _route(self, method: str, path: str, query: dict[str, list[str]], body: Any, sid: str | None) -> Any:
        key = f"{method} {path}"
        if key == "GET /status":
            value = recorded("facebook-wda_status_value.json")
            value["ready"] = self.ready
            if self.simulator:
                value["ios"] = {"simulatorVersion": "17.5", "ip": "127.0.0.1"}
            return value
        if key == "POST /session":
            self.capabilities.append(body)
            new = str(uuid.uuid4()).upper()
            self.sessions.add(new)
            return {"sessionId": new, "capabilities": {"device": "iphone", "sdkVersion": "17.5"}}
        if method == "DELETE" and path == "" and sid is not None:
            self.sessions.discard(sid)
            return None
        if key == "GET /wda/activeAppInfo":
            app = self.foreground()
            return {"pid": app.pid, "name": "", "bundleId": app.bundle_id}
        if key == "GET /screenshot":
            return self._png()
        if key == "POST /appium/settings":
            self.settings.update(body["settings"])
            return self.settings
        if key == "GET /wda/screen":
            return recorded("xcuitest-driver_wda-screen_response.json")["value"]
        if key == "GET /window/size":
            w, h = self._size()
            return {"width": w, "height": h}
        if key == "GET /source":
            return self._source(query)
        if key == "POST /wda/apps/state":
            known = self.apps.get(body["bundleId"])
            return known.state if known is not None else 1
        if key in ("POST /wda/apps/launch", "POST /wda/apps/activate"):
            return self._front(body["bundleId"], launch=key.endswith("launch"))
        if key == "POST /wda/apps/terminate":
            app = self._app(body["bundleId"])
            was = app.state != 1
            app.state = 1
            if was and all(a.state != 4 for a in self.apps.values()):
                self.apps["com.apple.springboard"].state = 4
            return was
        if key == "GET /wda/apps/list":
            return [{"pid": a.pid, "bundleId": a.bundle_id} for a in self.apps.values() if a.state >= 2]
        if key == "POST /url":  # the double routes every URL to Settings (launching it if needed)
            self._front(SETTINGS_APP, launch=True)
            return None
        if key == "POST /wda/tap":
            self._tap(float(body["x"]), float(body["y"]))
            return None
        if key == "POST /actions":
            steps = body["actions"][0]["actions"]
            move = steps[0]
            for _ in (s for s in steps if s["type"] == "pointerDown"):
                self._tap(float(move["x"]), float(move["y"]))
            return None
        if key in ("POST /wda/touchAndHold", "POST /wda/pressAndDragWithVelocity"):
            return None
        if key == "GET /element/active":
            if self.focused is None:
                raise w3c(404, "no such element", "No element has keyboard focus")
            ref = str(id(self.focused))
            return {"ELEMENT": ref, "element-6066-11e4-a52e-4f735466cecf": ref}
        if key == "POST /wda/keys":
            return self._keys("".join(body["value"]))
        if key == "POST /wda/pressButton":
            if body["name"] != "home" and self.simulator:
                raise w3c(400, "invalid argument", f"The button '{body['name']}' is not supported on Simulator")
            if body["name"] == "home":
                for app in self.apps.values():
                    app.state = 3 if app.state == 4 else app.state
                self.apps["com.apple.springboard"].state = 4
            return None
        if key == "GET /alert/text":
            return self._alert_text()
        if key == "GET /wda/alert/buttons":
            return self._alert_labels()
        if key in ("POST /alert/accept", "POST /alert/dismiss"):
            name = (body or {}).get("name")
            labels = self._alert_labels(message=NOT_OPEN)
            if name is None:
                if not labels:
                    raise w3c(400, "invalid element state", "Failed to find accept button for alert: Alert")
                name = labels[-1] if key.endswith("accept") else labels[0]
            if name not in labels:
                raise w3c(400, "invalid element state", f"Failed to find button with label '{name}' for alert: Alert")
            self._answer(name)
            return None
        if key == "POST /alert/text":
            self._alert_labels(message=NOT_OPEN)
            fields = [] if self.alert is not None or self.app_alert is None else [
                e for e in self.app_alert.iter() if _short(e) in ("TextField", "SecureTextField")]  # fmt: skip
            if not fields:
                raise w3c(500, "unsupported operation", "The alert contains no input fields")
            fields[0].set("value", "".join(body["value"]) if isinstance(body["value"], list) else str(body["value"]))
            return None
        raise w3c(404, "unknown command", f"Unhandled endpoint: {path} with parameters {body}")

    def _repertoire(self, key: str, body: Any) -> Any:
        """The pasteboard and the orientation routes (WDA's ``/wda/setPasteboard``, ``/wda/getPasteboard``,
        ``/orientation``)."""
        if key == "POST /wda/setPasteboard":  # WDA: content is base64, contentType plaintext / image / url
            if body.get("contentType", "plaintext") != "plaintext":
                raise w3c(400, "invalid argument", f"Unsupported content type: {body.get('contentType')}")
            self.pasteboard = base64.b64decode(body["content"]).decode()
            return None
        if key == "POST /wda/getPasteboard":
            return base64.b64encode(self.pasteboard.encode()).decode()
        if key == "POST /orientation":
            if body.get("orientation") not in ("PORTRAIT", "LANDSCAPE", "UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT"):
                raise w3c(400, "invalid argument", f"Unable To Rotate Device: {body.get('orientation')}")
            self.orientation = body["orientation"]
            return None
        return self.orientation  # GET /orientation

    # -- behaviour ----------------------------------------------------------------------------------------------
    def _app(self, bundle_id: str) -> App:
        app = self.apps.get(bundle_id)
        if app is None:
            raise w3c(500, "unknown error", f"The application '{bundle_id}' is not installed on the device")
        return app

    def _front(self, bundle_id: str, *, launch: bool) -> None:
        app = self._app(bundle_id)
        if not launch and app.state == 1:
            raise w3c(500, "unknown error", f"Application '{bundle_id}' is not running")
        for other in self.apps.values():
            other.state = 3 if other.state == 4 else other.state
        app.state = 4
        self._focus(None)

    def _size(self) -> tuple[float, float]:
        screen = self.foreground().screen
        w, h = (
            (390.0, 844.0)
            if screen is None
            else (float(screen.get("width", "390")), float(screen.get("height", "844")))
        )
        return (h, w) if self.orientation == "LANDSCAPE" else (w, h)

    def _source(self, query: dict[str, list[str]]) -> Any:
        screen = self.foreground().screen
        if screen is None:
            screen = ET.fromstring(
                '<XCUIElementTypeApplication type="XCUIElementTypeApplication" name=" " label=" " enabled="true" '
                'visible="true" x="0" y="0" width="390" height="844"/>'
            )
        if query.get("format", ["xml"])[0] == "json":
            return json_node(screen)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(screen, encoding="unicode")

    # -- alerts -------------------------------------------------------------------------------------------------
    def show_app_alert(self, title: str, message: str, buttons: list[str], *, field: str | None = None) -> None:
        """The foreground app shows its own alert (a UIAlertController), laid out as iOS draws one."""
        screen = self.foreground().screen
        assert screen is not None
        w, h = self._size()
        width, text_h = 270.0, 100.0 + (40.0 if field is not None else 0.0)
        rows = 1 if len(buttons) == 2 else len(buttons)
        x, y = (w - width) / 2, (h - text_h - rows * 44.0) / 2

        def el(kind: str, rect: tuple[float, float, float, float], **attrs: str) -> ET.Element:
            a = {"type": PREFIX + kind, "enabled": "true", "visible": "true", **attrs}
            a.update({k: f"{v:g}" for k, v in zip(("x", "y", "width", "height"), rect, strict=True)})
            return ET.Element(PREFIX + kind, a)

        alert = el("Alert", (x, y, width, text_h + rows * 44.0), name=title, label=title)
        body = el("Other", (x, y, width, text_h + rows * 44.0))
        texts = el("Other", (x, y, width, text_h))
        texts.append(el("StaticText", (x + 16, y + 20, width - 32, 22), name=title, label=title, value=title))
        texts.append(el("StaticText", (x + 16, y + 46, width - 32, 36), name=message, label=message, value=message))
        if field is not None:
            texts.append(el("TextField", (x + 16, y + 100, width - 32, 28), placeholderValue=field))
        actions = el("Other", (x, y + text_h, width, rows * 44.0))
        for n, label in enumerate(buttons):
            rect = ((x + n * width / 2, y + text_h, width / 2, 44.0) if rows == 1 and len(buttons) == 2
                    else (x, y + text_h + n * 44.0, width, 44.0))  # fmt: skip
            actions.append(el("Button", rect, name=label, label=label))
        body.extend([texts, actions])
        alert.append(body)
        screen.append(alert)
        self.app_alert = alert

    def _alert_labels(self, message: str = NO_ALERT) -> list[str]:
        """Button labels of the alert WDA would find (SpringBoard's first); 404 no such alert when none."""
        if self.alert is not None:
            return list(self.alert[1])
        if self.app_alert is not None:
            return [str(e.get("label")) for e in self.app_alert.iter() if _short(e) == "Button" and e.get("label")]
        raise w3c(404, "no such alert", message)

    def _alert_text(self) -> str:
        if self.alert is not None:
            return self.alert[0]
        if self.app_alert is None:
            raise w3c(404, "no such alert", NO_ALERT)
        texts: list[str] = []

        def collect(element: ET.Element) -> None:
            for child in element:
                if _short(child) == "Button":
                    continue  # FBAlert.text skips the StaticTexts of buttons
                if _short(child) in ("StaticText", "TextView") and (child.get("label") or child.get("value")):
                    texts.append(str(child.get("label") or child.get("value")))
                collect(child)

        collect(self.app_alert)
        return "\n".join(texts)

    def _answer(self, label: str) -> None:
        self.alert_answers.append(label)
        if self.alert is not None:
            self.alert = None
            return
        if self.app_alert is not None:
            for app in self.apps.values():
                if app.screen is not None and self.app_alert in list(app.screen):
                    app.screen.remove(self.app_alert)
            if self.focused is not None and self.focused in list(self.app_alert.iter()):
                self._focus(None)
            self.app_alert = None

    def _tap(self, x: float, y: float) -> None:
        screen = self.foreground().screen
        if screen is None or self.alert is not None:
            return  # a system alert swallows taps (the double does not know where SpringBoard draws it)
        hit = _hit(self.app_alert if self.app_alert is not None else screen, x, y)
        if hit is None:
            return
        kind = _short(hit)
        if self.app_alert is not None and kind == "Button":
            self._answer(str(hit.get("label")))
        elif kind in TEXT_TYPES:
            self._focus(hit)
        elif kind == "Switch":
            hit.set("value", "0" if hit.get("value") == "1" else "1")

    def _focus(self, element: ET.Element | None) -> None:
        if self.focused is not None:
            self.focused.attrib.pop("focused", None)
        self.focused = element
        if element is not None:
            element.set("focused", "true")

    def _keys(self, text: str) -> None:
        if self.focused is None:
            raise w3c(400, "invalid element state",
                      'Error Domain=com.facebook.WebDriverAgent Code=1 "The on-screen keyboard must be present to '
                      'send keys" UserInfo={NSLocalizedDescription=The on-screen keyboard must be present to send '
                      'keys}')  # fmt: skip
        value = self.focused.get("value") or ""
        for ch in text:
            if ch == "\b":
                value = value[:-1]
            elif ch != "\n":
                value += ch
        self.focused.set("value", value)

    def _png(self) -> str:
        w, h = self._size()
        scale = int(recorded("xcuitest-driver_wda-screen_response.json")["value"]["scale"])
        image = Image.new("RGB", (int(w) * scale, int(h) * scale), (240, 240, 245))
        out = io.BytesIO()
        image.save(out, format="PNG")
        return base64.b64encode(out.getvalue()).decode("ascii")
