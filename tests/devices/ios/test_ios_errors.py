"""The one failure table: every WDA failure maps to a specific protocol code with a hint (docs/ios.md, Failures)."""

from __future__ import annotations

import pytest

from phonewire.devices.ios.client import WdaBadReply, WdaClient, WdaError, WdaNoAnswer, WdaUnreachable, canonical_url
from phonewire.devices.ios.errors import map_failure
from phonewire.devices.ios.source import SourceError
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

URL = "http://127.0.0.1:8100"
KEYBOARD = (
    'Error Domain=com.facebook.WebDriverAgent Code=1 "The on-screen keyboard must be present to send keys" '
    "UserInfo={NSLocalizedDescription=The on-screen keyboard must be present to send keys}"
)


def err(status: int, error: str, message: str, path: str = "/session/S/wda/tap") -> WdaError:
    return WdaError("POST", path, status, error, message)


TABLE = [
    # (failure, source read?, code, session dropped?)
    (WdaUnreachable("GET", "/status", "refused"), False, e.DEVICE_UNAVAILABLE, True),
    (WdaNoAnswer("POST", "/session/S/wda/tap", "no reply within 10 s"), False, e.DEVICE_UNAVAILABLE, True),
    (WdaBadReply("GET", "/status", "not JSON"), False, e.DEVICE_UNAVAILABLE, True),
    (err(404, "invalid session id", "Session does not exist"), False, e.DEVICE_UNAVAILABLE, True),
    (err(500, "session not created", "Cannot start"), False, e.DEVICE_UNAVAILABLE, True),
    (err(500, "unknown error", "The device is locked"), False, e.DEVICE_UNAVAILABLE, False),
    (err(500, "unknown error", "The application 'x.y' is not installed on the device"), False, e.APP_UNKNOWN, False),
    (err(400, "invalid element state", KEYBOARD), False, e.TEXT_INPUT_NOT_FOCUSED, False),
    (err(404, "no such alert", "An attempt was made to operate on a modal dialog"), False, e.COMMAND_FAILED, False),
    (err(400, "invalid element state", "Failed to find button with label 'Allow' for alert: Alert"), False,
     e.COMMAND_FAILED, False),
    (err(404, "unknown command", "Unhandled endpoint: /wda/x"), False, e.UNSUPPORTED_OPERATION, False),
    (err(405, "unknown method", "GET not allowed"), False, e.UNSUPPORTED_OPERATION, False),
    (err(500, "unsupported operation", "Not on Simulator"), False, e.UNSUPPORTED_OPERATION, False),
    (err(400, "invalid argument", "x is not a number"), False, e.INVALID_REQUEST, False),
    (err(404, "stale element reference", "The previously found element is not present", "/source"), True,
     e.SNAPSHOT_FAILED, False),
    (err(500, "unknown error", "Cannot get the source"), True, e.SNAPSHOT_FAILED, False),
    (err(500, "unable to capture screen", "Screenshot failed"), False, e.COMMAND_FAILED, False),
    (err(500, "unknown error", "Something else"), False, e.COMMAND_FAILED, False),
    (SourceError("not well-formed"), True, e.SNAPSHOT_FAILED, False),
    (RuntimeError("a bug"), False, e.COMMAND_FAILED, False),
]  # fmt: skip


@pytest.mark.parametrize(("failure", "source", "code", "lost"), TABLE, ids=lambda v: type(v).__name__)
def test_every_wda_failure_maps_to_one_specific_code_with_a_hint(
    failure: Exception, source: bool, code: str, lost: bool
) -> None:
    mapped = map_failure(failure, url=URL, source=source)
    assert (mapped.error.code, mapped.lost) == (code, lost)
    assert mapped.error.hint and mapped.error.code in e.RUNNER_CODES


def test_our_own_protocol_errors_pass_through_unchanged() -> None:
    own = ProtocolError(e.TEXT_INPUT_NOT_FOCUSED, "no focus", "tap a field")
    assert map_failure(own, url=URL).error is own


def test_hints_name_the_wda_url_to_check() -> None:
    mapped = map_failure(WdaUnreachable("GET", "/status", "refused"), url=URL)
    assert f"curl {URL}/status" in (mapped.error.hint or "")


def test_a_closed_port_is_unreachable_not_a_lost_reply() -> None:
    import socket

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    with pytest.raises(WdaUnreachable):
        WdaClient(f"http://127.0.0.1:{port}").get("/status")


@pytest.mark.parametrize(
    ("given", "canonical"),
    [("http://127.0.0.1:8100", URL), ("HTTP://127.0.0.1:8100/", URL), ("http://LOCALHOST:8100", "http://localhost:8100"),
     ("http://[::1]:8100", "http://[::1]:8100"), ("http://host", "http://host:80")],
)  # fmt: skip
def test_canonical_wda_url(given: str, canonical: str) -> None:
    assert canonical_url(given) == canonical


@pytest.mark.parametrize("bad", ["https://x:1", "ftp://x:1", "http://x:1/wd/hub", "http://:8100", "http://x:99999"])
def test_non_canonical_wda_urls_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        canonical_url(bad)


def test_a_hostile_wda_redirect_or_deep_json_is_a_bad_reply_and_no_redirect_is_followed() -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    hits: list[str] = []

    class Hostile(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            if self.path == "/elsewhere":
                body = b'{"value": {"ready": true}}'
                self.send_response(200)
            elif self.path == "/status":
                body = b"moved"
                self.send_response(302)
                self.send_header("Location", f"http://127.0.0.1:{self.server.server_address[1]}/elsewhere")  # type: ignore[index]
            else:
                body = b'{"value": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
                self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = WdaClient(f"http://127.0.0.1:{server.server_address[1]}")
        with pytest.raises(WdaBadReply, match="HTTP 302"):
            client.get("/status")
        with pytest.raises(WdaBadReply, match="nested too deeply"):
            client.get("/source")
        assert hits == ["/status", "/source"]  # the redirect was not followed
        mapped = map_failure(WdaBadReply("GET", "/source", "nested too deeply"), url=URL)
        assert mapped.error.code == e.DEVICE_UNAVAILABLE
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
