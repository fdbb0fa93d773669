"""Screen recordings: frames (JPEG, with their time) in, one video file out, encoded with PyAV.

PyAV (``av`` on PyPI, the ``video`` extra) wraps FFmpeg's libraries and ships wheels with FFmpeg inside, so it
installs without a system toolchain or an ``ffmpeg`` binary, and is maintained with FFmpeg's releases.  The codec
comes from the file's extension (:data:`CODECS`).  Frames keep their own times (a screen that holds still sends
no frames, so the video has a variable frame rate, in milliseconds); the last frame is repeated at the stop so the
video lasts as long as the recording did.  Frame sizes are made even (4:2:0 needs it) and every frame is scaled to
the first one's size.
"""

from __future__ import annotations

import io
import os
import stat
from fractions import Fraction
from pathlib import Path
from typing import Any, BinaryIO, Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

#: extension → (FFmpeg encoder, its options)
CODECS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    ".mp4": ("libx264", {"preset": "veryfast", "tune": "zerolatency", "crf": "28", "g": "30"}),
    ".webm": (
        "libvpx",
        {"deadline": "realtime", "cpu-used": "8", "crf": "30", "b": "1M", "g": "30", "lag-in-frames": "0"},
    ),
}
#: extension → the muxer's options.  The file stays decodable up to its last written frames when the recording is
#: cut (the runner or the browser killed): every frame is encoded at once (no lookahead: zerolatency, lag 0) and
#: written at once — a fragmented MP4 (a fragment per frame, after an empty index) instead of one index written
#: at the end; WebM's clusters are readable without the cues written at the end.
CONTAINER_OPTIONS: Final[dict[str, dict[str, str]]] = {
    ".mp4": {"movflags": "frag_every_frame+empty_moov+default_base_moof"},
    ".webm": {"cluster_time_limit": "1", "flush_packets": "1"},  # a cluster per frame, written at once
}
#: The free space a recording needs at its start (bytes): a full disk is refused then, not at the stop.
MIN_FREE_BYTES: Final = 64 * 1024 * 1024
#: extension → FFmpeg muxer (the file is opened here, not by FFmpeg: _private_file)
FORMATS: Final[dict[str, str]] = {".mp4": "mp4", ".webm": "webm"}
_NO_AV_HINT = "Install the video extra (pip install 'phonewire[video]': PyAV, wheels with FFmpeg inside)."


def codec_for(path: str) -> str:
    """The encoder for ``path``'s extension; INVALID_REQUEST for another."""
    suffix = Path(path).suffix.lower()
    if suffix not in CODECS:
        raise ProtocolError(
            e.INVALID_REQUEST, f"cannot record into {Path(path).name!r}: unknown video extension {suffix or '(none)'}",
            f"Name the file {' or '.join('*' + s for s in CODECS)}.",
        )  # fmt: skip
    return CODECS[suffix][0]


def already_recording(path: str) -> ProtocolError:
    """``recordStart`` while the device records into ``path`` (one recording at a time): ALREADY_RECORDING."""
    return ProtocolError(
        e.ALREADY_RECORDING, f"already recording into {path}; that recording goes on",
        f"One recording at a time: finish it (CLI `record stop`, MCP and bridge `record_stop`, wire `recordStop`; "
        f"it completes {Path(path).name}), then start the new one.",
    )  # fmt: skip


def free_name(path: str) -> str:
    """The first of ``STEM-2.EXT``, ``STEM-3.EXT`` … beside ``path`` that names nothing (for a hint)."""
    p = Path(path)
    n = 2
    while os.path.lexists(p.with_name(f"{p.stem}-{n}{p.suffix}")):
        n += 1
    return str(p.with_name(f"{p.stem}-{n}{p.suffix}"))


def _taken(path: str) -> ProtocolError:
    """Why ``path``, which exists, is refused: a recording never replaces a file (an earlier video included)."""
    try:
        st = os.lstat(path)
    except OSError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        why, hint = "it is a symlink", "Name a new file in a directory of yours (not a symlink)."
    elif st is None or st.st_uid != os.geteuid() or not stat.S_ISREG(st.st_mode):
        why, hint = "it is another user's file or not a regular file", "Name a new file in a directory of yours."
    else:
        why = "it exists already, and a recording never replaces a file (an earlier video stays as it is)"
        hint = f"Name a new file, e.g. {free_name(path)}, or remove {path} first."
    return ProtocolError(e.INVALID_REQUEST, f"cannot record into {path}: {why}", hint)


def check_free_space(path: str) -> None:
    """INVALID_REQUEST when the disk that would hold ``path`` has less than :data:`MIN_FREE_BYTES` free."""
    directory = Path(path).absolute().parent
    try:
        st = os.statvfs(directory)
    except OSError:
        return  # the open says what is wrong with the directory
    free = st.f_bavail * st.f_frsize
    if free < MIN_FREE_BYTES:
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"cannot record into {path}: the disk holding {directory} has {free // (1024 * 1024)} MiB free",
            f"A recording needs at least {MIN_FREE_BYTES // (1024 * 1024)} MiB: free some space, or name a file on "
            "another disk.",
        )


def _private_file(path: str) -> BinaryIO:
    """``path`` created for writing, 0600 (a recording shows whatever the screen showed): a new file only
    (``O_EXCL``: never an earlier video, never through a symlink, never another user's file: INVALID_REQUEST)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except FileExistsError as exc:
        raise _taken(path) from exc
    except OSError as exc:
        raise ProtocolError(
            e.INVALID_REQUEST, f"cannot record into {path}: {exc.strerror}",
            "Name a new file in a directory of yours (not a symlink).",
        ) from exc  # fmt: skip
    return os.fdopen(fd, "w+b", buffering=0)  # every write reaches the file: a cut recording keeps its frames


class VideoWriter:
    """One video file being written.  Not thread-safe; the device calls it from one worker thread at a time."""

    def __init__(self, path: str, width: int, height: int) -> None:
        try:
            import av
        except ImportError as exc:
            raise ProtocolError(e.UNSUPPORTED_OPERATION, "video recording needs PyAV", _NO_AV_HINT) from exc
        self.path = path
        self.codec = codec_for(path)
        self.width, self.height = width - width % 2, height - height % 2
        self.frames = 0
        self._av: Any = av
        check_free_space(path)
        self._file = _private_file(path)
        suffix = Path(path).suffix.lower()
        try:
            self._container: Any = av.open(
                self._file, mode="w", format=FORMATS[suffix], options=CONTAINER_OPTIONS[suffix]
            )
            stream: Any = self._container.add_stream(self.codec, options=CODECS[Path(path).suffix.lower()][1])
        except BaseException:  # the file this call created goes too: the name stays free for the next try
            self._file.close()
            Path(path).unlink(missing_ok=True)
            raise
        stream.width, stream.height, stream.pix_fmt = self.width, self.height, "yuv420p"
        stream.time_base = Fraction(1, 1000)
        stream.codec_context.time_base = Fraction(1, 1000)
        self._stream = stream
        self._t0: float | None = None
        self._last_pts = -1
        self._last: Any = None

    def add(self, jpeg: bytes, at_s: float) -> None:
        from PIL import Image

        with Image.open(io.BytesIO(jpeg)) as img:
            rgb = img.convert("RGB")
        if rgb.size != (self.width, self.height):
            rgb = rgb.resize((self.width, self.height))
        self._encode(rgb, at_s)

    def _encode(self, rgb: Any, at_s: float) -> None:
        if self._t0 is None:
            self._t0 = at_s
        pts = max(self._last_pts + 1, round((at_s - self._t0) * 1000))
        frame = self._av.VideoFrame.from_image(rgb)
        frame.pts, frame.time_base = pts, Fraction(1, 1000)
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        self._last_pts, self._last = pts, rgb
        self.frames += 1

    def discard(self) -> None:
        """Close without a frame more and remove the file: a recording that never started (its screencast was
        refused) leaves nothing, and its name stays free."""
        try:
            self._container.close()
        finally:
            self._file.close()
            Path(self.path).unlink(missing_ok=True)

    def close(self, at_s: float) -> dict[str, Any]:
        """Repeat the last frame at ``at_s``, flush the encoder and close the file."""
        try:
            if self._last is not None and self._t0 is not None and round((at_s - self._t0) * 1000) > self._last_pts:
                self._encode(self._last, at_s)
            for packet in self._stream.encode(None):
                self._container.mux(packet)
        finally:
            try:
                self._container.close()
            finally:
                self._file.close()
        seconds = 0.0 if self._t0 is None else round(at_s - self._t0, 3)
        return {"path": self.path, "frames": self.frames, "seconds": seconds, "width": self.width,
                "height": self.height, "codec": self.codec}  # fmt: skip
