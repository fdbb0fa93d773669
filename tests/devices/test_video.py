"""Video files (phonewire.devices.video): a recording is written into a new file only, and never replaces one."""

from __future__ import annotations

from pathlib import Path

import pytest

from phonewire.devices.video import VideoWriter, already_recording, free_name
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytest.importorskip("av")


def test_a_recording_into_an_earlier_video_is_refused_and_the_video_stays_as_it_was(tmp_path: Path) -> None:
    earlier = tmp_path / "clip.mp4"
    earlier.write_bytes(b"the earlier video")
    with pytest.raises(ProtocolError) as refused:
        VideoWriter(str(earlier), 100, 100)
    assert refused.value.code == e.INVALID_REQUEST
    assert "exists already, and a recording never replaces a file" in refused.value.message
    assert refused.value.hint == f"Name a new file, e.g. {tmp_path / 'clip-2.mp4'}, or remove {earlier} first."
    assert earlier.read_bytes() == b"the earlier video"


def test_the_hinted_name_is_the_first_free_one(tmp_path: Path) -> None:
    (tmp_path / "clip.mp4").touch()
    (tmp_path / "clip-2.mp4").touch()
    (tmp_path / "clip-3.mp4").symlink_to(tmp_path / "nowhere")  # a dangling link is taken too
    assert free_name(str(tmp_path / "clip.mp4")) == str(tmp_path / "clip-4.mp4")


def test_a_symlink_is_refused_as_a_symlink_and_its_target_is_not_touched(tmp_path: Path) -> None:
    target = tmp_path / "talk.mp4"
    target.write_bytes(b"my talk")
    (tmp_path / "clip.mp4").symlink_to(target)
    with pytest.raises(ProtocolError) as refused:
        VideoWriter(str(tmp_path / "clip.mp4"), 100, 100)
    assert refused.value.message.endswith("it is a symlink") and refused.value.code == e.INVALID_REQUEST
    assert target.read_bytes() == b"my talk"


def test_a_new_file_is_created_0600(tmp_path: Path) -> None:
    path = tmp_path / "new.webm"
    writer = VideoWriter(str(path), 100, 100)
    writer.close(0.0)
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_already_recording_names_the_running_file_with_its_own_code() -> None:
    error = already_recording("/videos/first.mp4")
    assert error.code == e.ALREADY_RECORDING == "ALREADY_RECORDING"
    assert error.message == "already recording into /videos/first.mp4; that recording goes on"
    assert error.hint is not None and "record stop" in error.hint and "first.mp4" in error.hint
