"""logs, network and record against the real runner and Chromium: a page that logs, fetches and throws
(tests/e2e/hostile/chatty.html over loopback HTTP), read through the Python API; videos decoded with PyAV."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(hostile_site: HostileSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[phonewire.Phone]:
    mp = pytest.MonkeyPatch()
    mp.setenv("PHONEWIRE_STATE_DIR", str(tmp_path_factory.mktemp("state")))
    mp.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
    try:
        with phonewire.Phone(device="web") as p:
            p.open(hostile_site.url("chatty.html"))
            yield p
    finally:
        mp.undo()


def texts(result: phonewire.ActionResult) -> list[str]:
    return [str(x["text"]) for x in result.data["entries"]]


def test_logs_answers_console_messages_once_each_and_page_errors(phone: phonewire.Phone) -> None:
    first = phone.logs()
    assert "chatty ready" in texts(first)  # logged while the page loaded, before anyone asked
    assert phone.logs().data["entries"] == []  # nothing new since the previous call
    phone.tap("id=load")
    phone.wait("text=Loads 1")
    new = phone.logs()
    assert texts(new)[:2] == ["loaded 1", "careful Object"]
    assert [(x["kind"], x["level"]) for x in new.data["entries"][:2]] == [("console", "log"), ("console", "warning")]
    assert "chatty ready" not in texts(new)
    phone.tap("id=fail")
    phone.wait(idle=True)
    thrown = phone.logs()
    errors = [x for x in thrown.data["entries"] if x["kind"] == "error"]
    assert len(errors) == 1 and "Boom 1" in errors[0]["text"]
    assert "\n[error] Error: Boom 1" in thrown.data["message"]  # what the CLI, MCP and bridge show


def test_network_starts_capturing_at_its_first_call_and_filters_by_url_and_status(phone: phonewire.Phone) -> None:
    assert phone.network().data["requests"] == []  # the page loaded before capture started
    phone.tap("id=load")
    phone.wait("text=Loads 2")
    phone.wait(idle=True)
    requests = phone.network().data["requests"]
    assert [(r["method"], r["url"].rsplit("/", 1)[1], r["status"]) for r in requests] == [
        ("GET", "chatty.json?n=2", 200), ("GET", "missing.json?n=2", 404)]  # fmt: skip
    assert requests[0]["size"] > 0 and requests[0]["ms"] >= 0 and requests[0]["type"] == "Fetch"
    assert phone.network().data["requests"] == []  # each request once
    phone.tap("id=load")
    phone.wait("text=Loads 3")
    phone.wait(idle=True)
    missing = phone.network(status=404)
    assert [r["url"].rsplit("/", 1)[1] for r in missing.data["requests"]] == ["missing.json?n=3"]
    assert missing.data["message"].splitlines()[1].startswith("GET 404 ")


@pytest.mark.parametrize(("suffix", "codec"), [(".mp4", "h264"), (".webm", "vp8")])
def test_a_recording_decodes_into_frames_at_css_scale(
    phone: phonewire.Phone, tmp_path: Path, suffix: str, codec: str
) -> None:
    av = pytest.importorskip("av")
    video = tmp_path / f"screen{suffix}"
    started = phone.record_start(video)
    assert (started.data["width"], started.data["height"]) == (392, 852)  # 393 x 852 points, made even
    for _ in range(3):
        phone.tap("id=load")
        phone.wait(idle=True)
    stopped = phone.record_stop()
    assert stopped.data["path"] == str(video) and stopped.data["frames"] > 1
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == codec
        frames = [f for f in container.decode(stream)]
    assert len(frames) == stopped.data["frames"] > 1
    assert {(f.width, f.height) for f in frames} == {(392, 852)}
    assert phone.record_stop().data["frames"] == 0  # nothing is recording any more


def test_record_refuses_an_unknown_extension_with_a_hint(phone: phonewire.Phone, tmp_path: Path) -> None:
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.record_start(tmp_path / "screen.gif")
    assert info.value.code == "INVALID_REQUEST" and ".mp4" in (info.value.hint or "")
