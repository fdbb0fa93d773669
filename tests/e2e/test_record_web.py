"""``record start`` through the CLI (thin client → daemon → runner → real Chromium): one recording at a time, and a
new recording never replaces an earlier video.  PyAV decodes nothing here; the files' bytes say what happened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import Cli, Result, web_cli

pytestmark = pytest.mark.e2e
pytest.importorskip("av")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    with web_cli(tmp_path_factory, "record-web", "open", "dev.phonewire.demo") as cli:
        yield cli


def run(cli: Cli, *argv: str) -> Result:
    return cli("--device", "web", *argv)


def test_a_second_record_start_is_already_recording_and_an_earlier_video_is_never_replaced(
    web: Cli, tmp_path: Path
) -> None:
    clip, other = tmp_path / "clip.mp4", tmp_path / "other.mp4"
    assert run(web, "record", "start", str(clip)).out == f"ok recording to {clip}\n"
    for again in (clip, other):  # the same file or another: one recording at a time
        refused = run(web, "record", "start", str(again))
        assert refused.code == 3
        assert refused.err.startswith(
            f"error ALREADY_RECORDING: already recording into {clip}; that recording goes on\n"
            "hint: One recording at a time: finish it (CLI `record stop`, MCP and bridge `record_stop`, "
            "wire `recordStop`; it completes clip.mp4)"
        ), refused.err
    assert not other.exists()
    assert run(web, "tap", "Account").code == 0
    stopped = run(web, "record", "stop")
    assert stopped.code == 0 and stopped.out.endswith(f"into {clip}\n"), stopped.out
    video = clip.read_bytes()
    assert video[4:8] == b"ftyp"  # the first recording went on through the refusals and was finished

    replaced = run(web, "record", "start", str(clip))  # start / stop / start with the same name
    assert replaced.code == 2
    assert replaced.err == (
        f"error INVALID_REQUEST: cannot record into {clip}: it exists already, and a recording never replaces a "
        f"file (an earlier video stays as it is)\nhint: Name a new file, e.g. {tmp_path / 'clip-2.mp4'}, or remove "
        f"{clip} first.\n"
    )
    assert clip.read_bytes() == video
    assert run(web, "record", "start", str(tmp_path / "clip-2.mp4")).code == 0  # the hinted name works
    assert run(web, "tap", "Inbox").code == 0
    assert run(web, "record", "stop").code == 0
    assert clip.read_bytes() == video and (tmp_path / "clip-2.mp4").read_bytes()[4:8] == b"ftyp"
