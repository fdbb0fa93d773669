"""The reply envelope.

``{"ok": true, "data": {...}}`` or ``{"ok": false, "error": {"code", "message", "hint"?}}``, plus optional
top-level fields that are encoded only when set, so a clean reply stays byte-identical on the wire:

* ``reactivated: true`` — the target app was alive but backgrounded and was re-fronted before the command ran
  (ok and error envelopes alike: the re-front precedes the command).
* ``warning: "..."`` — only on ok replies of mutating commands: the suppressed-issue counter grew while the
  command ran; re-observe the screen and confirm the effect.
* ``stateReset: true`` — the first reply after the device (or, stamped by the host, the runner) was restarted:
  every app's state (open apps, sign-in, navigation, typed text) is gone.  Ok and error envelopes alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from phonewire.protocol.errors import ProtocolError

JSONObject = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Envelope:
    ok: bool
    data: JSONObject | None = None
    error: ProtocolError | None = None
    reactivated: bool = False
    warning: str | None = None
    state_reset: bool = False

    def to_json(self) -> JSONObject:
        out: JSONObject = {"ok": self.ok}
        if self.ok:
            out["data"] = self.data if self.data is not None else {}
        else:
            assert self.error is not None
            out["error"] = self.error.to_wire()
        if self.reactivated:
            out["reactivated"] = True
        if self.state_reset:
            out["stateReset"] = True
        if self.warning and self.ok:
            out["warning"] = self.warning
        return out

    def encode(self) -> bytes:
        return encode_json(self.to_json())

    @property
    def http_status(self) -> int:
        """Informational only; the envelope is authoritative."""
        return 200 if self.ok else 500


def ok(
    data: JSONObject | None = None, *, reactivated: bool = False, warning: str | None = None, state_reset: bool = False
) -> Envelope:
    return Envelope(ok=True, data=data or {}, reactivated=reactivated, warning=warning, state_reset=state_reset)


def fail(error: ProtocolError, *, reactivated: bool = False, state_reset: bool = False) -> Envelope:
    if state_reset:
        error.state_reset = True
    return Envelope(ok=False, error=error, reactivated=reactivated, state_reset=state_reset)


def encode_json(obj: object) -> bytes:
    """Compact, deterministic JSON (no NaN: non-finite numbers are a bug upstream and fail loudly).

    Total for any ``str``: a lone surrogate (JSON text may carry ``"\\ud800"``) cannot be UTF-8, so it is written as
    the same ``\\uXXXX`` escape it came in as — surrogates occur only inside JSON strings, where that escape is valid.
    """
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode(
        "utf-8", "backslashreplace"
    )


def decode_envelope(obj: object) -> Envelope:
    """Parse a reply object into an :class:`Envelope`; raises ``ValueError`` for anything malformed."""
    if not isinstance(obj, dict) or not isinstance(obj.get("ok"), bool):
        raise ValueError("reply is not an envelope object with a boolean 'ok'")
    reactivated = obj.get("reactivated") is True
    state_reset = obj.get("stateReset") is True
    warning = obj.get("warning")
    if warning is not None and not isinstance(warning, str):
        raise ValueError("envelope 'warning' is not a string")
    if obj["ok"]:
        data = obj.get("data", {})
        if not isinstance(data, dict):
            raise ValueError("envelope 'data' is not an object")
        return Envelope(ok=True, data=data, reactivated=reactivated, warning=warning, state_reset=state_reset)
    err = obj.get("error")
    if not isinstance(err, dict) or not isinstance(err.get("code"), str) or not isinstance(err.get("message"), str):
        raise ValueError("error envelope lacks error.code / error.message strings")
    hint = err.get("hint")
    return Envelope(
        ok=False,
        error=ProtocolError(
            err["code"], err["message"], hint if isinstance(hint, str) else None, state_reset=state_reset
        ),
        reactivated=reactivated,
        state_reset=state_reset,
    )
