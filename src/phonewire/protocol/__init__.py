"""The wire protocol v1 and phonewire's extensions: pure data and decisions, no I/O."""

# The names below load on first use: importing a submodule (``phonewire.protocol.errors``) runs this file first, and
# the runner reads its device registry before anything else (it starts the browser while it imports the rest).
TYPE_CHECKING = False  # not typing's, for the same reason

__all__ = ["Envelope", "ProtocolError", "Request", "decode_envelope", "encode_json", "fail", "ok", "parse_request"]

_LAZY = {
    "Envelope": "envelope",
    "decode_envelope": "envelope",
    "encode_json": "envelope",
    "fail": "envelope",
    "ok": "envelope",
    "ProtocolError": "errors",
    "Request": "request",
    "parse_request": "request",
}

if TYPE_CHECKING:
    from phonewire.protocol.envelope import Envelope, decode_envelope, encode_json, fail, ok
    from phonewire.protocol.errors import ProtocolError
    from phonewire.protocol.request import Request, parse_request


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'phonewire.protocol' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"phonewire.protocol.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
