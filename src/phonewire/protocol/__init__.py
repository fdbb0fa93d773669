"""The wire protocol v1 and phonewire's extensions: pure data and decisions, no I/O."""

from phonewire.protocol.envelope import Envelope, decode_envelope, encode_json, fail, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import Request, parse_request

__all__ = ["Envelope", "ProtocolError", "Request", "decode_envelope", "encode_json", "fail", "ok", "parse_request"]
