"""phonewire: drive a phone's UI from an AI agent or a test script.

The public names are imported lazily (``phonewire.Phone`` loads the API on first use), so ``import phonewire``
stays cheap for the CLI's thin client.
"""

from __future__ import annotations

from phonewire.versions import PROTOCOL_VERSION as PROTOCOL_VERSION
from phonewire.versions import __version__

# Not `from typing import TYPE_CHECKING`: importing typing costs the CLI's warm path ~2 ms.
TYPE_CHECKING = False
__all__ = ["ActionResult", "AgentSession", "Phone", "ProtocolError", "View", "__version__"]

_LAZY = {
    "Phone": "phonewire.api",
    "AgentSession": "phonewire.agent.core",
    "ActionResult": "phonewire.agent.results",
    "View": "phonewire.agent.results",
    "ProtocolError": "phonewire.protocol.errors",
}

if TYPE_CHECKING:
    from phonewire.agent.core import AgentSession
    from phonewire.agent.results import ActionResult, View
    from phonewire.api import Phone
    from phonewire.protocol.errors import ProtocolError


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'phonewire' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
