"""A remote WebDriver client's hostile input, against the real server process, a real web phone, raw HTTP with basic
auth.  ``mobile: traceStart`` / ``mobile: recordStart`` write inside the server's ``--files-dir`` only
(docs/webdriver.md): a client of ``--allow-remote`` (or of a Grid hub in front of an owner-only server) is another
machine, and must not choose a path on the server's disk, write through a symlink or over a file; nor stall the
server with a locator."""

from __future__ import annotations

import base64
import json
import signal
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_runner import WebDriverServer

pytestmark = pytest.mark.e2e

CREDENTIALS = "remote:files-test"
AUTH = {"Authorization": "Basic " + base64.b64encode(CREDENTIALS.encode()).decode()}


class Remote(WebDriverServer):
    def __init__(self, files_dir: Path) -> None:
        super().__init__(
            "--allow-remote", "--files-dir", str(files_dir), env={"PHONEWIRE_WEBDRIVER_CREDENTIALS": CREDENTIALS}
        )

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={**AUTH, "Content-Type": "application/json"})  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=120) as reply:
                return reply.status, json.load(reply)["value"]
        except urllib.error.HTTPError as exc:
            with exc:
                return exc.code, json.load(exc)["value"]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(60) == 0
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("wd-files") / "files"


@pytest.fixture(scope="module")
def session(files: Path) -> Iterator[tuple[Remote, str]]:
    server = Remote(files)
    try:
        caps = {"platformName": "android", "phonewire:device": "web:pixel-7", "appium:app": "dev.phonewire.demo"}
        status, value = server.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        assert status == 200, value
        sid = value["sessionId"]
        yield server, sid
        server.call("DELETE", f"/session/{sid}")
    finally:
        server.stop()


def mobile(s: tuple[Remote, str], command: str, **params: Any) -> tuple[int, Any]:
    server, sid = s
    return server.call("POST", f"/session/{sid}/execute/sync", {"script": f"mobile: {command}", "args": [params]})


@pytest.mark.parametrize("name", ["/tmp/pw-remote-write.mp4", "../escaped.mp4", "a/../../escaped.mp4", "~/x.mp4"])
def test_a_remote_client_cannot_name_a_video_path_outside_the_files_dir(
    session: tuple[Remote, str], files: Path, name: str
) -> None:
    status, value = mobile(session, "recordStart", file=name)
    assert status == 400, value
    assert value["error"] == "invalid argument"
    assert "relative to the server's files directory" in value["message"]
    assert not Path("/tmp/pw-remote-write.mp4").exists()
    assert not (files.parent / "escaped.mp4").exists()


def test_a_remote_trace_dir_is_confined_and_symlinks_and_existing_files_are_refused(
    session: tuple[Remote, str], files: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    status, value = mobile(session, "traceStart", dir=str(outside))
    assert (status, value["error"]) == (400, "invalid argument")
    assert list(outside.iterdir()) == []
    # a symlink inside the files directory that points out of it is not followed
    files.mkdir(mode=0o700, parents=True, exist_ok=True)
    (files / "link").symlink_to(outside)
    status, value = mobile(session, "traceStart", dir="link/t")
    assert (status, value["error"]) == (400, "invalid argument"), value
    assert "symlink" in value["message"]
    assert list(outside.iterdir()) == []
    # an existing file is never overwritten by a video
    (files / "keep.mp4").write_bytes(b"precious")
    status, value = mobile(session, "recordStart", file="keep.mp4")
    assert (status, value["error"]) == (400, "invalid argument"), value
    assert (files / "keep.mp4").read_bytes() == b"precious"
    # a plain relative name works, inside the files directory, and the session keeps serving
    status, value = mobile(session, "traceStart", dir="run-1")
    assert status == 200, value
    assert str(files / "run-1") in value
    assert (files / "run-1" / "trace.jsonl").is_file()
    assert oct((files / "run-1").stat().st_mode & 0o777) == "0o700"
    status, value = mobile(session, "traceStop")
    assert status == 200, value


def test_a_huge_or_quadratic_locator_is_refused_and_the_server_keeps_serving(session: tuple[Remote, str]) -> None:
    server, sid = session
    huge = "label == '" + "a" * 1_000_000 + "'"
    status, value = server.call("POST", f"/session/{sid}/element", {"using": "-ios predicate string", "value": huge})
    assert (status, value["error"]) == (400, "invalid argument"), value
    assert "at most 4096" in value["message"]
    assert len(value["message"]) < 400  # the value is not echoed back
    # a run of spaces once cost the splitter a quadratic scan (4000 spaces: 16 million steps) — now one pass
    spaces = "label == 'a'" + " " * 4000 + "x"
    status, value = server.call("POST", f"/session/{sid}/element", {"using": "-ios predicate string", "value": spaces})
    assert (status, value["error"]) == (400, "invalid selector"), value
    status, value = server.call("GET", f"/session/{sid}/source")
    assert status == 200 and "Account" in value


@pytest.mark.parametrize(
    ("command", "params", "key"),
    [("scroll", {"direction": "down", "amount": "lots"}, "amount"),
     ("scroll", {"direction": "down", "amount": 1e9}, "amount"),
     ("find", {"selector": "text=Nowhere", "maxScrolls": 10**9}, "maxScrolls"),
     ("find", {"selector": "text=Nowhere", "maxScrolls": "many"}, "maxScrolls"),
     ("waitFor", {"selector": "text=Nowhere", "timeoutMs": "forever"}, "timeoutMs"),
     ("waitFor", {"selector": "text=Nowhere", "timeoutMs": 10**12}, "timeout")],
)  # fmt: skip
def test_out_of_range_or_mistyped_mobile_numbers_are_invalid_argument_not_defaults(
    session: tuple[Remote, str], command: str, params: dict[str, Any], key: str
) -> None:
    status, value = mobile(session, command, **params)
    assert status == 400, value
    assert value["error"] in ("invalid argument", "invalid selector"), value
    assert key.lower() in value["message"].lower().replace("_", "")
