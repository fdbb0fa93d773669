"""What an action answers: :class:`ActionResult` (the data and the envelope's stamps) and :class:`View` (a
rendered snapshot), and the note every front end shows when app state was reset."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from phonewire.host.reply import HostReply
from phonewire.protocol.envelope import Envelope
from phonewire.protocol.snapshot import Node

Reply = HostReply | Envelope  # what a CommandSender answers: both carry data, warning, reactivated, state_reset

#: What every front end says when a reply carries ``state_reset`` (the device or the runner was restarted).
STATE_RESET_NOTE = (
    "the phone was restarted: every app's state (open apps, sign-in, navigation, typed text) was lost; "
    "open the app again and take a snapshot"
)


#: What the CLI and MCP say when an action's reply carries ``reactivated``.
REACTIVATED_NOTE = "the app was in the background and was brought to the front first"


def stamp_fields(warning: str | None, reactivated: bool, state_reset: bool) -> dict[str, Any]:
    """An action's envelope stamps as the JSON fields every front end answers with (only those that are set)."""
    out: dict[str, Any] = {}
    if warning:
        out["warning"] = warning
    if reactivated:
        out["reactivated"] = True
    if state_reset:
        out["stateReset"] = True
    return out


@dataclass(frozen=True)
class ActionResult:
    data: dict[str, Any]
    warning: str | None = None
    reactivated: bool = False
    #: The device or runner restarted before this action: every app's state (open apps, sign-in, navigation)
    #: was lost.  Front ends show it on every reply that carries it.
    state_reset: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"data": self.data, **stamp_fields(self.warning, self.reactivated, self.state_reset)}

    @property
    def diff(self) -> list[str] | None:
        """What the action changed on screen: the lines of the view that changed from before it to after it (once
        still), as ``snapshot --diff`` prints them, refs included (``[]``: nothing; None: the screen could not be
        read before or after it, or the call is no action)."""
        lines = self.data.get("diff")
        return [str(line) for line in lines] if isinstance(lines, list) else None

    @property
    def changed(self) -> bool | None:
        """Whether the action changed the screen: a line of :attr:`diff` (None where nobody could tell)."""
        value = self.data.get("changed")
        return value if isinstance(value, bool) else None


class View:
    """A rendered snapshot: the compact text, the raw nodes, the refs it issued and the snapshot quality."""

    def __init__(self, text: str, nodes: list[Node], refs: dict[str, Node], quality: dict[str, Any]) -> None:
        self.text = text
        self.nodes = nodes
        self.refs = refs
        self.quality = quality
        #: As :attr:`ActionResult.state_reset`.
        self.state_reset = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "nodes": self.nodes,
            "quality": self.quality,
            "refs": {r: n["index"] for r, n in self.refs.items()},
        }
        if self.state_reset:
            out["stateReset"] = True
        return out


def action_result(env: Reply, extra: Mapping[str, Any] | None = None) -> ActionResult:
    data = dict(env.data or {})
    if extra:
        data.update(extra)
    return ActionResult(data=data, warning=env.warning, reactivated=env.reactivated)
