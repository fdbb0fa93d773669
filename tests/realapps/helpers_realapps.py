"""What an agent does today without `wait` / `find`: poll the screen, scroll until a selector shows up."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import phonewire


def labels(phone: phonewire.Phone) -> list[str]:
    return [str(n["label"]) for n in phone.snapshot().nodes if n.get("label")]


def wait_for(phone: phonewire.Phone, pred: Callable[[list[dict[str, Any]]], bool], timeout: float = 15.0) -> None:
    """Poll full snapshots until ``pred(nodes)`` holds."""
    deadline = time.monotonic() + timeout
    nodes: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        nodes = phone.snapshot().nodes
        if pred(nodes):
            return
        time.sleep(0.1)
    raise AssertionError(f"not seen within {timeout} s; last screen: {[n.get('label') for n in nodes][:40]}")


def wait_label(phone: phonewire.Phone, label: str, timeout: float = 15.0) -> None:
    wait_for(phone, lambda nodes: any(n.get("label") == label for n in nodes), timeout)


def wait_page(phone: phonewire.Phone, title: str, label: str, timeout: float = 15.0) -> None:
    """The page whose title starts with ``title``, built far enough to show ``label``."""

    def ready(nodes: list[dict[str, Any]]) -> bool:
        return (
            bool(nodes)
            and str(nodes[0].get("label", "")).startswith(title)
            and any(n.get("label") == label for n in nodes)
        )

    wait_for(phone, ready, timeout)


def tap_scrolling(phone: phonewire.Phone, selector: str, max_scrolls: int = 8) -> Any:
    """Tap ``selector``, scrolling down until it is on screen."""
    for _ in range(max_scrolls):
        try:
            return phone.tap(selector)
        except phonewire.ProtocolError as err:
            if err.code != "NOT_FOUND":
                raise
        phone.scroll("down", amount=0.84)
    return phone.tap(selector)


def scroll_to(phone: phonewire.Phone, pred: Callable[[dict[str, Any]], bool], max_scrolls: int = 8) -> dict[str, Any]:
    """The first node of the (viewport-culled) full snapshot that satisfies ``pred``, scrolling down to it."""
    for _ in range(max_scrolls + 1):
        found = [n for n in phone.snapshot().nodes if pred(n)]
        if found:
            return found[0]
        phone.scroll("down", amount=0.84)
    raise AssertionError("not found after scrolling")
