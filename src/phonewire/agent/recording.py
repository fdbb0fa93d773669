"""What a recording that was cut holds: ``record stop`` after the runner or its browser restarted mid-recording
finds nothing recording on the device, and says instead which file the lost recording went to and what is in it
(its size, and the frames a decoder reads from it: the file is a fragmented MP4 or a WebM, decodable up to its last
written frames — devices/video.py)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any


def frames_in(path: str) -> int | None:
    """The video frames a decoder reads from ``path`` (``None``: PyAV is not installed, or nothing decodes)."""
    try:
        import av
    except ImportError:
        return None
    frames = 0
    with contextlib.suppress(Exception), av.open(path) as container:  # a cut file ends in a partial fragment
        for packet in container.demux(video=0):
            if packet.size:
                frames += 1
    return frames


def lost(path: str) -> dict[str, Any]:
    """``record stop``'s answer for a recording into ``path`` that the device no longer has."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        return {"message": f"the recording into {path} was lost (the phone restarted while it recorded), and the "
                           "file is gone", "path": path, "lost": True, "frames": 0}  # fmt: skip
    frames = frames_in(path)
    holds = f"{size} bytes" + (f", {frames} frame(s) a player can show" if frames is not None else "")
    return {
        "message": f"the recording into {path} was lost (the phone restarted while it recorded); the file keeps "
        f"what was written until then: {holds}",
        "path": path, "lost": True, "frames": frames or 0, "bytes": size,
    }  # fmt: skip
