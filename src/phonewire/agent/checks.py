"""Refusals the agent core makes before anything is sent: arguments the runner would refuse, targets that
cannot be acted on, a field that would not clear.  Each is INVALID_REQUEST (or its own code) with a hint."""

from __future__ import annotations

import math
import os
from pathlib import Path

from phonewire.agent.view import node_line
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import DEFAULT_WAIT_MS, MAX_DURATION_MS, MAX_TAPS, MAX_WAIT_MS, SCROLL_DIRECTIONS
from phonewire.protocol.snapshot import TEXT_INPUT_ROLES, Node

#: Most deletes ``fill`` sends to clear a field (in all rounds together).
MAX_CLEAR = 500


def invalid(message: str, hint: str) -> ProtocolError:
    return ProtocolError(e.INVALID_REQUEST, message, hint)


def checked_path(text: str, what: str, hint: str) -> Path:
    """``text`` (a file or directory an agent named) made absolute: ``~`` expanded, the directories on the way
    resolved -- but not the last part: a symlink planted there (``/tmp/clip.mp4`` → ``~/talk.mp4``) must reach the
    writer's no-symlink check as the symlink it is.  A name no file can have (a NUL byte), a ``~user`` that does
    not exist or a path that cannot be resolved is INVALID_REQUEST naming ``what``, with ``hint``: never a raw
    ``ValueError``/``RuntimeError`` from the path library."""
    if "\0" in text:
        raise invalid(f"{what} contains a NUL byte, which no file name can hold", hint)
    try:
        os.fsencode(text)  # a lone surrogate: no file name (UnicodeEncodeError, a ValueError)
        path = Path(text).expanduser()
        if path.name in ("", ".", ".."):
            return path.resolve()
        return path.parent.resolve() / path.name
    except (RuntimeError, ValueError, OSError) as exc:
        raise invalid(f"cannot use {what} {text!r}: {exc}", hint) from exc


#: The environment variables whose directories an agent may have phonewire write a trace or a video into, besides
#: the home directory, the working directory and the temporary directory (see :func:`output_place`).
OUTPUT_PLACE_ENV = ("PHONEWIRE_STATE_DIR", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "TMPDIR")


def output_places() -> list[Path]:
    """Where a trace or a video may go: the home directory, the working directory, the temporary directories, and
    the directories of :data:`OUTPUT_PLACE_ENV` that are set."""
    import tempfile

    named = [os.environ.get(name, "") for name in OUTPUT_PLACE_ENV]
    places = [Path.home(), Path.cwd(), Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp")]
    places += [Path(p) for p in named if p.startswith("/")]
    return [p.resolve() for p in places if str(p) != "/"]


def output_place(text: str, what: str, hint: str) -> Path:
    """``text`` as :func:`checked_path` makes it, refused (INVALID_REQUEST) unless it lies under one of
    :func:`output_places`: an agent that names ``/etc`` gets a refusal, not ``/etc/trace.jsonl`` — phonewire often
    runs with more rights than the agent driving it should have.  The symlink and other-user checks stay the
    writer's."""
    if not text.strip():
        raise invalid(f"{what} is empty", hint)
    path = checked_path(text, what, hint)
    places = output_places()
    if not any(path == place or place in path.parents for place in places):
        shown = ", ".join(dict.fromkeys(str(p) for p in places))
        raise invalid(
            f"{what} {str(path)!r} is outside the places phonewire writes to ({shown})",
            f"{hint} Under your home, the working directory or the temporary directory; not a system directory.",
        )
    return path


# Options the runner would refuse (protocol.request) are refused here first, with a hint, before anything is sent.
def check_count(count: object) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_TAPS:
        raise invalid(
            f"count must be a whole number from 1 to {MAX_TAPS}, got {count!r}",
            "Use count 1 for a tap, 2 for a double tap.",
        )


def check_duration(duration_ms: object) -> None:
    if (
        isinstance(duration_ms, bool)
        or not isinstance(duration_ms, int | float)
        or not 0 <= duration_ms <= MAX_DURATION_MS
    ):
        raise invalid(
            f"duration must be from 0 to {MAX_DURATION_MS:.0f} ms, got {duration_ms!r}",
            "Give the gesture's duration in milliseconds, e.g. 800 for a long press or 300 for a swipe.",
        )


def check_points(*values: object) -> None:
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise invalid(
                f"coordinates must be finite numbers, got {value!r}",
                "Give points as numbers, as in the snapshot's rects (or use a ref or selector).",
            )


def check_choice(name: str, value: object, choices: tuple[str, ...], hint: str) -> None:
    if value not in choices:
        raise invalid(f"{name} must be one of {', '.join(choices)}; got {value!r}", f"Use {hint}.")


def check_reachable(node: Node, target: str) -> None:
    """ELEMENT_COVERED for a node that something else covers (nothing is sent)."""
    cover = node.get("coveredBy")
    if cover:
        raise ProtocolError(
            e.ELEMENT_COVERED,
            f"{target} ({node_line(node)}) is covered by {cover}: a tap there would land on that instead",
            "Close what covers it first (its close or cancel button, or `press back`), or scroll the "
            "element into the open; `snapshot` marks covered elements [covered] and `snapshot -i` leaves them out.",
        )


def is_text_input(node: Node) -> bool:
    return node.get("type") in TEXT_INPUT_ROLES


def uncleared(node: Node, deletes: int) -> ProtocolError:
    held = str(node.get("value") or "")
    held = held if len(held) <= 60 else held[:59] + "…"
    return ProtocolError(
        e.COMMAND_FAILED,
        f"could not clear {node.get('type')} {node.get('label') or ''!r}: it still holds {held!r} after {deletes} "
        "delete(s), so nothing was typed",
        f"Check the field with `snapshot`, then edit it yourself with `tap`, `press delete` and `type` (fill deletes "
        f"at most {MAX_CLEAR} characters, and some fields keep text the delete key does not remove).",
    )


def check_wait(selector: str | None, *, gone: bool, idle: bool, timeout_ms: object) -> str:
    """``wait``'s arguments, refused before anything is sent; the selector text (stripped)."""
    target = (selector or "").strip()
    if idle == bool(target):
        raise invalid(
            "wait needs a selector or --idle (not both)",
            'Use `wait SELECTOR` (e.g. wait "Saved"), `wait SELECTOR --gone`, or `wait --idle`.',
        )
    if gone and idle:
        raise invalid("--gone goes with a selector, not --idle", "Use `wait SELECTOR --gone`.")
    if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int | float) or not 0 <= timeout_ms <= MAX_WAIT_MS:
        raise invalid(
            f"timeout must be from 0 to {MAX_WAIT_MS} ms, got {timeout_ms!r}",
            f"Give --timeout in milliseconds (default {DEFAULT_WAIT_MS}, at most {MAX_WAIT_MS}).",
        )
    return target


def check_direction(direction: str) -> str:
    """A scroll direction, normalised (``Down`` → ``down``)."""
    d = direction.strip().lower() if isinstance(direction, str) else ""
    if d not in SCROLL_DIRECTIONS:
        raise invalid(f"unknown scroll direction {direction!r}", "Directions: up, down, left, right.")
    return d
