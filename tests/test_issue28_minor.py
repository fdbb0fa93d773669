"""The minor findings of issue 28, one rule each, below any process: every one is a specific refusal with a hint,
never an ok, a guess, a 309-digit echo or advice the caller cannot follow."""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from phonewire import runtime
from phonewire.agent.checks import output_place
from phonewire.agent.geometry import point_of
from phonewire.agent.operations import OPERATIONS
from phonewire.frontends.serving import confine_outputs
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.jsonlimits import loads_limited
from phonewire.protocol.request import parse_request
from phonewire.runner.http import FramingError, check_token
from phonewire.runner.service import decode_body


def code_of(exc: pytest.ExceptionInfo[ProtocolError]) -> str:
    return exc.value.code


@pytest.mark.parametrize("url", ["http://[::1", "http://host:99999/", "no scheme at all"])
def test_a_url_no_device_could_open_is_an_invalid_request(url: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        parse_request({"command": c.OPEN_URL, "url": url})
    assert raised.value.code == e.INVALID_REQUEST and "https://example.com/path" in (raised.value.hint or "")


def test_a_bracketed_ipv6_url_is_taken() -> None:
    assert parse_request({"command": c.OPEN_URL, "url": "http://[::1]:8080/x"}).args["url"] == "http://[::1]:8080/x"


@pytest.mark.parametrize("target", ["1e308 1e308", "NaN NaN", "-5 -5", "inf 3", "5,-1", "100001 5"])
def test_a_number_pair_that_is_no_place_on_the_screen_is_a_range_error_not_a_text_selector(target: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        point_of(target)
    assert raised.value.code == e.INVALID_REQUEST
    assert "is off the screen" in raised.value.message and "from 0 to 100000" in raised.value.message
    assert len(raised.value.message) < 200


@pytest.mark.parametrize(("target", "point"), [("10 20", (10.0, 20.0)), ("1.5,2e1", (1.5, 20.0)), ("Like 0", None)])
def test_point_targets(target: str, point: tuple[float, float] | None) -> None:
    assert point_of(target) == point


def test_a_count_of_1e308_is_not_echoed_in_309_digits() -> None:
    with pytest.raises(ProtocolError) as raised:
        OPERATIONS["tap"].param("count").check(1e308, "tap")
    assert raised.value.message.endswith("at most 20, got 1e+308")


def test_two_authorization_headers_are_their_own_refusal() -> None:
    headers = [(b"authorization", b"Bearer good"), (b"authorization", b"Bearer good")]
    with pytest.raises(FramingError) as raised:
        check_token(headers, b"good")
    assert raised.value.status == 400
    body = json.loads(raised.value.reply.body)["error"]
    assert body["code"] == "INVALID_REQUEST" and body["message"].startswith("the request carries 2 Authorization")


def test_another_authorization_scheme_is_named() -> None:
    with pytest.raises(FramingError) as raised:
        check_token([(b"authorization", b"Basic Zm9vOmJhcg==")], b"good")
    assert raised.value.status == 401
    assert "uses the 'Basic' scheme; the runner takes Bearer" in json.loads(raised.value.reply.body)["error"]["message"]


@pytest.mark.parametrize("read", [lambda t: decode_body(t.encode()), lambda t: loads_limited(t, hint="h")])
def test_a_5000_digit_number_is_a_clean_refusal(read: Any) -> None:
    with pytest.raises(ProtocolError) as raised:
        read('{"command": "tap", "x": ' + "1" * 5000 + ', "y": 5}')
    assert raised.value.code == e.INVALID_REQUEST
    assert raised.value.message == "a number of 5000 digits; at most 100 are read"
    assert "set_int_max_str_digits" not in str(raised.value.message) + str(raised.value.hint)


def test_trace_and_video_paths_of_an_agent_stay_in_the_allowed_places(tmp_path: Path) -> None:
    for op in ("trace_start", "record_start"):
        name = OPERATIONS[op].params[0].name
        with pytest.raises(ProtocolError) as raised:
            confine_outputs(OPERATIONS[op].params, {name: "/etc/phonewire-trace"})
        assert (
            raised.value.code == e.INVALID_REQUEST and "outside the places phonewire writes to" in raised.value.message
        )
        kwargs: dict[str, Any] = {name: str(tmp_path / "t")}
        confine_outputs(OPERATIONS[op].params, kwargs)
        assert kwargs[name] == str(tmp_path / "t")
    with pytest.raises(ProtocolError):
        output_place("", "the trace directory", "h")
    with pytest.raises(ProtocolError):
        output_place("/usr/lib/x", "the trace directory", "h")


class FullDisk(io.RawIOBase):
    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_screenshot_on_a_full_disk_leaves_no_file_and_says_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "shot.png"
    real_fdopen = os.fdopen

    def fdopen(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        real_fdopen(fd, mode).close()  # the real descriptor is closed; the writes hit a full disk
        return io.BufferedWriter(FullDisk())

    monkeypatch.setattr(os, "fdopen", fdopen)  # (the os module runtime writes through)
    with pytest.raises(ProtocolError) as raised:
        runtime.write_private_output(target, b"x" * 100)
    assert raised.value.code == e.COMMAND_FAILED
    assert "nothing was kept" in raised.value.message
    assert raised.value.hint is not None and "is full" in raised.value.hint and "MiB free" in raised.value.hint
    assert not target.exists()


def test_a_recording_is_refused_at_its_start_on_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28, finding 5: `record start` was ok on a full disk and `record stop` a bare [Errno 28]."""
    import os as real_os

    from phonewire.devices import video

    full = real_os.statvfs(tmp_path)

    class Full:
        f_bavail, f_frsize = 10, full.f_frsize

    monkeypatch.setattr(real_os, "statvfs", lambda _path: Full())  # (the os module video reads through)
    with pytest.raises(ProtocolError) as raised:
        video.check_free_space(str(tmp_path / "clip.mp4"))
    assert raised.value.code == e.INVALID_REQUEST
    assert f"the disk holding {tmp_path} has 0 MiB free" in raised.value.message
    assert raised.value.hint is not None and "at least 64 MiB" in raised.value.hint
    assert not (tmp_path / "clip.mp4").exists()
