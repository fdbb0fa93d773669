"""The path of one ``tap @e3`` as it runs: the project's files it passes through and the calls between them.

    .venv/bin/python scripts/path_of_tap.py [--alone] [--hops]   # this checkout
    PYTHONPATH=OTHER/src .venv/bin/python scripts/path_of_tap.py   # another checkout (an older commit's worktree)

It starts a runner on the web phone, opens the demo, taps a corner, takes a snapshot (the ref ``@e3`` then names its
third element), and traces the next ``tap @e3`` through the Python API (agent layer, host session) and the runner
(dispatch, device) with a profile hook in both processes (the runner's calls are those between the tap's start and
end on the shared monotonic clock).  ``--alone``: the tap without its settled diff (``AgentSession.settled_diff``
off: the reply as the device gave it, as every tap answered before issue 23); ``--hops``: list them.  A hop is a
call from a function in one of the project's files to a function in another; printed: the files, the hops (each
caller → callee once) and the calls between files in all.  Issue 26 asks for fewer hops after the house's reshape.
Prints; asserts nothing.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import phonewire

SRC = Path(phonewire.__file__).resolve().parent
#: Run in the runner's interpreter: records every call between two of the project's functions, dumped at exit.
TRACER = """
import atexit, json, os, runpy, sys, threading, time
SRC = os.environ["PATH_OF_TAP_SRC"]
out = []
def hook(frame, event, arg):
    if event != "call":
        return
    code, back = frame.f_code, frame.f_back
    if back is None or not code.co_filename.startswith(SRC) or not back.f_code.co_filename.startswith(SRC):
        return
    out.append((time.perf_counter(), back.f_code.co_filename, back.f_code.co_qualname, code.co_filename,
                code.co_qualname))
sys.setprofile(hook)
threading.setprofile(hook)
atexit.register(lambda: open(os.environ["PATH_OF_TAP_OUT"], "w").write(json.dumps(out)))
sys.argv = ["phonewire", "runner", "--device", "web"]
runpy.run_module("phonewire", run_name="__main__")
"""

Call = tuple[float, str, str, str, str]


def recorder(into: list[Call], on: Callable[[], bool]) -> Callable[[FrameType, str, Any], None]:
    src = str(SRC)

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not on():
            return
        code, back = frame.f_code, frame.f_back
        if back is None or not code.co_filename.startswith(src) or not back.f_code.co_filename.startswith(src):
            return
        into.append((time.perf_counter(), back.f_code.co_filename, back.f_code.co_qualname, code.co_filename,
                     code.co_qualname))  # fmt: skip

    return hook


def main() -> None:
    token = secrets.token_urlsafe(24)
    dump = Path(tempfile.mkdtemp(prefix="path-of-tap-")) / "runner.json"
    env = {**os.environ, "PHONEWIRE_RUNNER_TOKEN": token, "PATH_OF_TAP_SRC": str(SRC), "PATH_OF_TAP_OUT": str(dump)}
    env.pop("PHONEWIRE_RUNNER_PORT", None)
    proc = subprocess.Popen([sys.executable, "-c", TRACER], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("PHONEWIRE_RUNNER_LISTENING port="):
        proc.kill()
        raise SystemExit(f"the runner did not start: {line!r}")
    port = line.strip().split("=", 1)[1]
    os.environ["PHONEWIRE_RUNNER_TOKEN"] = token
    mine: list[Call] = []
    recording = threading.Event()
    hook = recorder(mine, recording.is_set)
    threading.setprofile(hook)  # (the API's event loop runs in a thread of its own)
    sys.setprofile(hook)
    try:
        with phonewire.Phone(runner=f"127.0.0.1:{port}") as phone:
            phone.open("dev.phonewire.demo")
            phone.tap("5 5")  # (a tap a moment ago: the host skips the uptime probe, as in an agent's run of taps)
            phone.snapshot()
            if "--alone" in sys.argv[1:]:
                phone.session.settled_diff = False
            time.sleep(0.7)  # (apart from the last tap: no double-click wait in the path)
            start = time.perf_counter()
            recording.set()
            phone.tap("@e3")
            recording.clear()
            end = time.perf_counter()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        proc.terminate()
        proc.wait(30)
    theirs = [c for c in json.loads(dump.read_text()) if start <= c[0] <= end]
    calls = [c for c in mine + theirs if c[1] != c[3]]
    files = {c[1] for c in mine + theirs} | {c[3] for c in mine + theirs}
    hops = {(c[1], c[2], c[3], c[4]) for c in calls}
    print(f"phonewire from {SRC}")
    print(f"files {len(files)}, hops {len(hops)} (caller → callee, each once), calls between files {len(calls)}")
    for path in sorted(files):
        print("  ", Path(path).relative_to(SRC))
    if "--hops" in sys.argv[1:]:
        for a, f, b, g in sorted(hops):
            print(f"   {Path(a).relative_to(SRC)}:{f} -> {Path(b).relative_to(SRC)}:{g}")


if __name__ == "__main__":
    main()
