"""Text no byte encoding can carry, and names no file can have, at each front end's edge (found by the adversarial
run of 2026-11-30): a lone UTF-16 surrogate (a web page's JavaScript string can hold one; JSON escapes it as
``\\ud800``), XML-invalid controls, a NUL or an unknown ``~user`` in a path.  Each answer is a reply or a specific
refusal with a hint, never a dropped connection or a raw ``ValueError``.  End to end, on a real page:
tests/e2e/test_frontends_lone_surrogate_web.py."""

from __future__ import annotations

import json
from pathlib import Path

import mcp.types as mt
import pytest

from phonewire.agent.checks import checked_path
from phonewire.frontends.bridge.methods import BadCall, encode_reply, error_reply, parse_call
from phonewire.frontends.cli.client import decode_reply
from phonewire.frontends.cli.client import encode_reply as daemon_reply
from phonewire.frontends.mcp_server import utf8_safe
from phonewire.frontends.webdriver.errors import WebDriverError
from phonewire.frontends.webdriver.mobile import confined
from phonewire.frontends.webdriver.source import page_source
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

HALF = "Half \ud800 pair"


def test_a_bridge_reply_with_a_lone_surrogate_is_one_utf8_line_with_its_json_escape() -> None:
    line = encode_reply({"id": 1, "result": {"tree": HALF}})
    assert line == b'{"id":1,"result":{"tree":"Half \\ud800 pair"}}\n'
    assert json.loads(line.decode("utf-8"))["result"]["tree"] == HALF


def test_a_bridge_request_id_of_nan_gets_a_json_error_reply_without_the_id() -> None:
    with pytest.raises(BadCall) as bad:
        parse_call(b'{"id": NaN, "method": "warp"}')
    line = encode_reply(error_reply(bad.value.req_id, bad.value.error))
    reply = json.loads(line)  # strict JSON: no NaN literal on the wire
    assert reply["id"] is None and reply["error"]["code"] == e.COMMAND_FAILED


def test_the_daemon_writes_a_lone_surrogate_as_one_replacement_character_and_keeps_argv_bytes() -> None:
    reply = daemon_reply(0, f"{HALF} \udcff", "")  # \udcff: an argv byte 0xff the daemon got (surrogateescape)
    assert reply.endswith("Half \ufffd pair ".encode() + b"\xff")
    assert decode_reply(reply)[2] == "Half \ufffd pair \ufffd"


def test_a_daemon_reply_of_negative_length_is_not_a_reply() -> None:
    with pytest.raises(ValueError, match="truncated"):
        decode_reply(b"pw2\x003\x00\x00-1\x00only ")


def test_an_mcp_result_with_a_lone_surrogate_can_be_serialised() -> None:
    result = mt.CallToolResult(
        content=[mt.TextContent(type="text", text=HALF)], structured_content={"nodes": [{"label": HALF}]}
    )
    safe = json.loads(utf8_safe(result).model_dump_json(by_alias=True))
    assert safe["content"][0]["text"] == "Half \ufffd pair"
    assert safe["structuredContent"] == {"nodes": [{"label": "Half \ufffd pair"}]}


def test_the_page_source_holds_a_label_with_controls_and_a_lone_surrogate() -> None:
    node = {
        "index": 0,
        "type": "Button",
        "label": "a\ud800\x01b\x00c",
        "rect": {"x": 0, "y": 0, "width": 9, "height": 9},
    }
    assert 'label="a\ufffd\ufffdb\ufffdc"' in page_source([node])


@pytest.mark.parametrize(("text", "why"), [("a\x00b.mp4", "NUL byte"), ("~no-such-user-pw/x.mp4", "cannot use"),
                                           ("\ud800.mp4", "cannot use")])  # fmt: skip
def test_a_path_no_file_can_have_is_invalid_request_with_a_hint(text: str, why: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        checked_path(text, "the video file", "Name a file of yours.")
    assert refused.value.code == e.INVALID_REQUEST and why in refused.value.message
    assert refused.value.hint == "Name a file of yours."


def test_a_webdriver_file_name_with_a_lone_surrogate_is_refused_as_invalid_argument(tmp_path: Path) -> None:
    with pytest.raises(WebDriverError, match="is not a file name") as refused:
        confined(tmp_path / "files", "\ud800.mp4", new_file=True)
    assert refused.value.status == 400


def test_the_native_client_and_docs_say_what_main_says_when_stdout_fails() -> None:
    """One message in two languages: fastclient.c's OUTPUT_FAILED_HINT is main.py's, and docs/cli.md lists the code."""
    from phonewire.frontends.cli import fastclient, main

    source = fastclient.SOURCE.read_text()
    hint = source.split("#define OUTPUT_FAILED_HINT", 1)[1].split("#define", 1)[0]
    c_text = "".join(part for part in hint.split('"')[1::2])
    assert c_text == main.OUTPUT_FAILED_HINT
    assert f'"error {main.OUTPUT_FAILED}: cannot write the answer to stdout: %s' in source
    docs = (Path(__file__).parents[2] / "docs" / "cli.md").read_text()
    assert f"| {main.EXIT_OUTPUT_FAILED} | " in docs and f"`{main.OUTPUT_FAILED}`" in docs


def test_the_native_client_and_docs_say_what_main_says_on_ctrl_c() -> None:
    from phonewire.frontends.cli import fastclient, main

    source = fastclient.SOURCE.read_text()
    hint = source.split("#define INTERRUPTED_HINT", 1)[1].split("#define", 1)[0]
    assert "".join(hint.split('"')[1::2]) == main.INTERRUPTED_HINT
    assert f'"error {main.INTERRUPTED}: interrupted before the answer came\\nhint: " INTERRUPTED_HINT' in source
    assert "_exit(130)" in source and main.EXIT_INTERRUPTED == 130
    docs = (Path(__file__).parents[2] / "docs" / "cli.md").read_text()
    assert f"| {main.EXIT_INTERRUPTED} | " in docs and f"`{main.INTERRUPTED}`" in docs


def test_a_daemon_directory_too_long_for_a_unix_socket_is_refused_at_once_without_starting_a_daemon(
    tmp_path: Path,
) -> None:
    """It waited the 20 s start budget for a daemon that died on bind (traceback in daemon.log)."""
    import os
    import subprocess
    import sys

    directory = tmp_path / ("d" * (120 - len(str(tmp_path))))
    directory.mkdir(mode=0o700)
    env = {**os.environ, "PHONEWIRE_DAEMON_DIR": str(directory), "PHONEWIRE_NO_FAST_CLIENT": "1"}
    done = subprocess.run([sys.executable, "-m", "phonewire", "--device", "double", "apps"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 4
    assert done.stderr.startswith("error DAEMON_UNAVAILABLE: the daemon socket path ")
    assert "a Unix socket path holds at most 107\nhint: Set PHONEWIRE_DAEMON_DIR to a shorter directory" in done.stderr
    assert list(directory.iterdir()) == []  # no daemon was started: no lock, log, token


def test_a_bridge_request_nested_too_deep_is_refused_by_its_id() -> None:
    deep = b"[" * 50_000 + b"]" * 50_000
    with pytest.raises(BadCall) as bad:
        parse_call(b'{"id": "d1", "method": "tap", "params": {"x": %s}}' % deep)
    assert bad.value.req_id == "d1" and bad.value.error.code == e.INVALID_REQUEST
    with pytest.raises(BadCall) as malformed:
        parse_call(b'{"id": "d2", "method": ')  # not JSON: JSON-RPC wants a null id
    assert malformed.value.req_id is None
