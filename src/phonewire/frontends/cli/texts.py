"""What the CLI prints for an operation's result: the operation table's ``cli_text`` templates (agent/operations.py)
filled with the result's data and the call's arguments, and the pieces they name (``target_text``: the element an
action reached and where, ``into_text``: the field a fill typed into, ``fill_text``: what it did to it,
``title_text``: the title of the page an open loaded)."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from typing import Any, Final

from phonewire.agent.operations import Operation


class _Template(string.Formatter):
    """The operation table's ``cli_text`` templates (agent/operations.py): ``{a|b}``, ``{ a}``, ``!l``."""

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        text = str(key)
        names = text.lstrip(" \t")
        for name in names.split("|"):
            if not name:
                return ""
            value = kwargs.get(name)
            if value is not None:
                return f"{text[: len(text) - len(names)]}{value}" if names != text else value
        raise KeyError(names)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        return str(value).lower() if conversion == "l" else super().convert_field(value, conversion)


_TEMPLATE: Final = _Template()


def cli_text(op: Operation, data: Mapping[str, Any], kwargs: Mapping[str, Any]) -> str:
    """The operation's declared CLI text for a result's ``data`` and the call's arguments."""
    done = _TEMPLATE.format(op.cli_done, **kwargs) if op.cli_done else op.spelling("cli")
    text = kwargs.get("text")
    length = len(text) if isinstance(text, str) else None
    title = data.get("title")
    pieces = {"target_text": target_text(data), "into_text": fill_target(data), "text_length": length,
              "fill_text": _fill_text(data, length),
              # (the page an open loaded, by its title: a login page where the app was asked says so)
              "title_text": f'"{title}"' if isinstance(title, str) and title else None}  # fmt: skip
    return _TEMPLATE.format(op.cli_text or "{message}", **{"message": done, **kwargs, **data, **pieces})


def _fill_text(data: Mapping[str, Any], length: int | None) -> str:
    """What a fill did: typed ``length`` characters into its field, or (``whole``: a number, a date, a slider
    dragged) set its value, as its message says (``set @e8 Slider to '64' (its thumb dragged 1 time(s))``)."""
    into = fill_target(data)
    message = str(data.get("message") or "")
    if data.get("whole") and message.startswith("set "):
        return f"set{into.removeprefix(' into')}{message[3:]}"
    return f"filled {length} character(s){into}"


def fill_target(data: Mapping[str, Any]) -> str:
    target = data.get("target")
    if not isinstance(target, dict):
        return ""
    ref = f" @{target['ref']}" if target.get("ref") else ""
    return f" into{ref} {target.get('type')}" + (f' "{target["label"]}"' if target.get("label") else "")


def target_text(data: Mapping[str, Any]) -> str:
    target = data.get("target")
    if not isinstance(target, dict):
        return ""
    label = target.get("label")
    what = f'{target.get("type")} "{label}"' if label else str(target.get("type"))
    ref = f" @{target['ref']}" if target.get("ref") else ""
    if "x" not in target:
        return ""
    # the point once: a reply whose message names it already (`tapped (25.55, 40.3)`: the target's point is that,
    # rounded to a tenth) is not told it again
    said = _SAID_POINT.search(str(data.get("message", "")))
    x, y = float(target["x"]), float(target["y"])
    if said is not None and abs(float(said.group(1)) - x) <= 0.051 and abs(float(said.group(2)) - y) <= 0.051:
        return f"{ref} {what}"
    return f"{ref} {what} at {x:g},{y:g}"


#: The point an action's message names (``tapped (25.55, 40.3)``).
_SAID_POINT: Final = re.compile(r"\((-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\)")
