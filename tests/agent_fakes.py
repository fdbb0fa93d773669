"""A scripted CommandSender for unit tests of the agent core (no runner, no browser)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect, build_snapshot

VIEWPORT = Rect(0, 0, 390, 844)


def screen(*children: RawNode) -> list[dict[str, Any]]:
    root = RawNode("Application", rect=VIEWPORT, children=list(children))
    nodes: list[dict[str, Any]] = build_snapshot(root, VIEWPORT, "fake")["nodes"]
    return nodes


def row(i: int, y: float, count: int = 0, *, title: str | None = None) -> RawNode:
    """A list row: title text, counter text and a "+" button, all in one band."""
    return RawNode(
        "Other",
        rect=Rect(0, y, 390, 44),
        children=[
            RawNode("StaticText", label=title or f"Row {i}", rect=Rect(10, y + 12, 100, 20)),
            RawNode("StaticText", label=f"count {count}", rect=Rect(150, y + 12, 80, 20)),
            RawNode("Button", label="+", rect=Rect(320, y + 4, 60, 36)),
        ],
    )


class FakeSender:
    """Answers each command from ``self.nodes`` (the current screen) and records what was sent."""

    def __init__(self, nodes: list[dict[str, Any]] | None = None) -> None:
        self.nodes = nodes or []
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.screens: list[list[dict[str, Any]]] = []  # screens to switch to after each snapshot
        self.closed = False

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        body = dict(fields or {})
        self.sent.append((command, body))
        if command == "snapshot":
            reply = ok({"nodes": self.nodes, "quality": {"state": "healthy", "backend": "fake"}})
            if self.screens:
                self.nodes = self.screens.pop(0)
            return reply
        if command == "launchApp":
            if body["appBundleId"].startswith("unknown"):
                raise ProtocolError(e.APP_UNKNOWN, "no such app", "listApps shows the apps.")
            return ok({"appBundleId": body["appBundleId"], "state": "foreground"})
        if command == "viewport":
            return ok({"x": 0, "y": 0, "width": 390, "height": 844})
        if command == "listApps":
            return ok({"apps": [{"appBundleId": "dev.phonewire.demo", "state": "foreground"}]})
        return ok({})

    def commands(self, name: str) -> list[dict[str, Any]]:
        return [body for command, body in self.sent if command == name]

    async def close(self) -> None:
        self.closed = True
