"""A hostile page whose text no UTF-8 can carry (tests/e2e/hostile/surrogate.html: a lone UTF-16 surrogate in a
button's name, the title and a console line) against every front end's real process, real Chromium: each answers,
with the text as the ``\\ud800`` escape JSON has for it (bridge) or as U+FFFD (the CLI's terminal text, MCP, the
WebDriver source and element text), and keeps serving.  Before: the bridge dropped the connection without a reply,
MCP never answered again, the WebDriver source was a 500, the CLI daemon failed to encode its answer."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from cli_harness import cli_for
from procs import stop_process
from web_runner import HostileSite

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium")]

BUTTON = "Half \ud800 pair"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_TIME_SCALE")}


@pytest.fixture(scope="module")
def page(hostile_site: HostileSite) -> str:
    return hostile_site.url("surrogate.html")


def test_the_bridge_answers_a_tree_with_a_lone_surrogate_and_keeps_the_connection(page: str, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "phonewire", "bridge", "--port", "0", "--device", "web", "--app", page,
            "--trace", str(tmp_path / "trace")]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env())
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(b"PHONEWIRE_BRIDGE_READY port="), line
        with socket.create_connection(("127.0.0.1", int(line.split(b"=")[1])), timeout=60) as sock:
            stream = sock.makefile("rwb")

            def call(req_id: int, method: str) -> dict[str, Any]:
                stream.write(json.dumps({"id": req_id, "method": method, "params": {}}).encode() + b"\n")
                stream.flush()
                raw = stream.readline()
                assert raw, f"{method}: the bridge closed the connection without a reply"
                assert b"\\ud800" in raw or b"\\udfff" in raw  # the escape JSON has for it, on one valid UTF-8 line
                raw.decode("utf-8")
                reply: dict[str, Any] = json.loads(raw)
                return reply

            assert BUTTON in call(1, "get_tree")["result"]["tree"]
            assert "logged \ud800 half" in call(2, "logs")["result"]["message"]
            assert BUTTON in call(3, "get_tree")["result"]["tree"]  # the same connection still serves
    finally:
        stop_process(proc, 30)
    steps = [json.loads(x) for x in (tmp_path / "trace" / "trace.jsonl").read_text().splitlines()]
    assert [s.get("op") for s in steps if s.get("op") in ("snapshot", "logs")] == ["snapshot", "logs", "snapshot"]


def test_the_cli_prints_a_lone_surrogate_as_a_replacement_character(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with cli_for(tmp_path, monkeypatch) as cli:
        cli.setenv("PHONEWIRE_DEVICE", "web")
        assert cli.sub("open", page).code == 0
        shown = cli.sub("snapshot")
        assert shown.code == 0, shown.err
        assert 'Button "Half \ufffd pair"' in shown.out
        assert cli.sub("snapshot").code == 0  # the daemon still serves


def test_mcp_answers_a_snapshot_with_a_lone_surrogate(page: str) -> None:
    argv = [sys.executable, "-m", "phonewire", "mcp", "--device", "web", "--app", page]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env())
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def send(message: dict[str, Any]) -> None:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()

        client = {"name": "t", "version": "0"}
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        assert json.loads(proc.stdout.readline())["id"] == 1
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for req_id in (2, 3):
            send({"jsonrpc": "2.0", "id": req_id, "method": "tools/call",
                  "params": {"name": "snapshot", "arguments": {}}})  # fmt: skip
            reply = json.loads(proc.stdout.readline())
            assert reply["id"] == req_id and reply["result"]["isError"] is False, reply
            assert (
                "Half \ud800 pair" in reply["result"]["content"][0]["text"]
                or "Half \ufffd pair" in (reply["result"]["content"][0]["text"])
            )
    finally:
        stop_process(proc, 30)


def test_webdriver_answers_the_page_source_and_element_text_with_a_lone_surrogate(page: str) -> None:
    argv = [sys.executable, "-m", "phonewire", "webdriver", "--port", "0"]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**_env(), "PYTHONUNBUFFERED": "1"}
    )
    try:
        assert proc.stdout is not None
        url = f"http://127.0.0.1:{int(proc.stdout.readline().decode().split('=')[1])}"

        def call(method: str, path: str, body: Any = None) -> Any:
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(url + path, data=data, method=method)
            with urllib.request.urlopen(req, timeout=120) as reply:
                raw = reply.read()
            raw.decode("utf-8")
            return json.loads(raw)["value"]

        caps = {"phonewire:device": "web", "appium:app": page}
        sid = call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]
        try:
            assert 'label="Half \ufffd pair"' in call("GET", f"/session/{sid}/source")  # XML cannot hold it
            element = call("POST", f"/session/{sid}/element", {"using": "id", "value": "half"})
            assert (
                call("GET", f"/session/{sid}/element/{next(iter(element.values()))}/text") == "Half \ufffd pair"
            )  # as the source shows it
        finally:
            call("DELETE", f"/session/{sid}")
    finally:
        stop_process(proc, 30)
