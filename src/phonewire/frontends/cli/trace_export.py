"""``phonewire trace export DIR --pytest FILE``: a trace as a pytest module on the Python API.

The module replays the session's successful mutating steps in order, on a fresh :class:`phonewire.Phone`:

* an element the agent reached (by a ref or a selector) is named by the trace's stable selector (``id``, else
  ``role`` + ``label``, else ``text``), never by a ref or by coordinates; without one, by the agent's own selector;
  a bare point (``"X Y"``) or a swipe stays coordinates, because no element was known;
* ``wait`` steps are kept (they are what the agent verified, and where it waited) — and each text the agent waited
  for is asserted again at the end of its step by the wait itself;
* reads (``snapshot``, ``screenshot``, ``viewport``, ``list_apps``) and failed steps are left out, as comments;
* text typed into a password field comes from an environment variable the module names
  (``PHONEWIRE_SECRET_1`` …); the test is skipped when it is not set.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Final

from phonewire.agent.geometry import POINT
from phonewire.agent.operations import OPERATIONS
from phonewire.agent.trace import CONTROL_OPS, read_steps

_REF: Final = re.compile(r"^@?e\d+$")
SECRET_ENV: Final = "PHONEWIRE_SECRET_{}"


def _text(value: object) -> str:
    """``value`` as text that cannot leave a comment or a docstring of the module: one line, ASCII, every quote and
    backslash escaped (a trace file is data; its words never become code)."""
    return json.dumps(str(value), ensure_ascii=True)[1:-1]


def _target(step: dict[str, Any]) -> tuple[str | None, str]:
    """What the replay names the step's target by, and a comment when it could not do better than the agent."""
    given = str(step["args"].get("target", ""))
    found = step.get("target") or {}
    if found.get("selector"):
        return str(found["selector"]), ""
    if POINT.match(given):
        return given, ""
    if not _REF.match(given):
        return given, "  # the agent's selector (no unique one was found)"
    return None, ""


def _call(step: dict[str, Any], secrets: list[str]) -> list[str]:
    op = OPERATIONS.get(str(step.get("op")))
    n = _text(step.get("n"))
    if op is None:
        return [f"    # step {n}: {_text(step.get('op'))} is not an operation of this phonewire; left out"]
    if "error" in step:
        error = step["error"] if isinstance(step["error"], dict) else {}
        return [f"    # step {n}: {op.name} failed ({_text(error.get('code'))}); left out"]
    if op.name in CONTROL_OPS or (op.read_only and op.name != "wait"):
        return [f"    # step {n}: {op.name} (read only)"]
    if not isinstance(step.get("args") or {}, dict):
        return [f"    # step {n}: {op.name} with unreadable arguments; left out"]
    args = dict(step.get("args") or {})
    comment = ""
    if "target" in args:
        target, comment = _target(step)
        if target is None:
            given = _text(args["target"])
            return [f"    # step {n}: {op.name} on {given}: the element had no stable selector; left out"]
        args["target"] = target
    if step.get("secret") and "text" in args:
        secrets.append(SECRET_ENV.format(len(secrets) + 1))
        args["text"] = _Raw(f"os.environ[{secrets[-1]!r}]")
    # the API's positional parameters: the required ones, and a leading optional string (``wait(selector)``)
    positional = [p.name for i, p in enumerate(op.params) if p.required or (i == 0 and p.kind == "string")]
    words = [repr(args.pop(name)) for name in positional if name in args]
    defaults = {p.name: p.default for p in op.params}
    words += [f"{k}={v!r}" for k, v in args.items() if k in defaults and v != defaults[k]]
    return [f"    phone.{op.spelling('api')}({', '.join(words)}){comment}"]


class _Raw(str):
    """Source text that goes into the module as it is (its repr is itself)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def export_pytest(directory: str | Path, *, device: str = "web") -> str:
    """The pytest module replaying the trace in ``directory``."""
    steps = read_steps(directory)
    secrets: list[str] = []
    body: list[str] = []
    for step in steps:
        body += _call(step, secrets)
    if not any(line.strip().startswith("phone.") for line in body):
        body.append("    pass  # nothing to replay")
    skip: list[str] = []
    if secrets:
        reason = f"set {', '.join(secrets)} to the password(s) typed in the session"
        skip = [f"@pytest.mark.skipif(not all(os.environ.get(n) for n in {secrets!r}), reason={reason!r})"]
    head = [
        f'"""Replays the phonewire trace "{_text(Path(directory).name)}" ({len(steps)} step(s)); '
        "written by `phonewire trace export`.",
        "",
        "Elements are found by stable selectors (id, role + label, text), so the test does not depend on positions.",
        *([f"Passwords come from the environment: {', '.join(secrets)}."] if secrets else []),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "import os  # noqa: F401",
        "",
        "import pytest  # noqa: F401",
        "",
        "import phonewire",
        "",
        "",
        *skip,
        "def test_replay() -> None:",
        f"    with phonewire.Phone(device={device!r}) as phone:",
    ]
    return "\n".join(head + ["    " + line if line else line for line in body]) + "\n"


def write_pytest(directory: str | Path, output: str | Path, *, device: str = "web") -> Path:
    path = Path(output)
    from phonewire.runtime import open_private_output  # 0600, never through a symlink, never another user's file

    fd = open_private_output(path)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(export_pytest(directory, device=device))
    return path
