"""The envelope: optional fields are encoded only when set, so clean replies stay byte-identical."""

from __future__ import annotations

import pytest

from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, decode_envelope, encode_json, fail, ok
from phonewire.protocol.errors import ProtocolError


def test_clean_ok_envelope_bytes() -> None:
    assert ok({"message": "tapped"}).encode() == b'{"ok":true,"data":{"message":"tapped"}}'
    assert ok().encode() == b'{"ok":true,"data":{}}'


def test_clean_error_envelope_bytes_with_and_without_hint() -> None:
    with_hint = fail(ProtocolError(e.RUNNER_BUSY, "busy", "retry"))
    assert with_hint.encode() == b'{"ok":false,"error":{"code":"RUNNER_BUSY","message":"busy","hint":"retry"}}'
    bare = fail(ProtocolError(e.COMMAND_FAILED, "boom"))
    assert bare.encode() == b'{"ok":false,"error":{"code":"COMMAND_FAILED","message":"boom"}}'


def test_reactivated_false_and_warning_none_are_not_encoded() -> None:
    assert ok({"a": 1}, reactivated=False, warning=None).encode() == ok({"a": 1}).encode()
    assert ok({"a": 1}, warning="").encode() == ok({"a": 1}).encode()
    assert fail(ProtocolError(e.COMMAND_FAILED, "x"), reactivated=False).encode() == (
        fail(ProtocolError(e.COMMAND_FAILED, "x")).encode()
    )


def test_reactivated_is_encoded_on_ok_and_error_envelopes_when_true() -> None:
    assert ok({}, reactivated=True).encode() == b'{"ok":true,"data":{},"reactivated":true}'
    assert fail(ProtocolError(e.COMMAND_FAILED, "x"), reactivated=True).to_json()["reactivated"] is True


def test_warning_composes_with_reactivated_and_is_never_on_an_error_envelope() -> None:
    both = ok({}, reactivated=True, warning="check")
    assert both.encode() == b'{"ok":true,"data":{},"reactivated":true,"warning":"check"}'
    error = Envelope(ok=False, error=ProtocolError(e.COMMAND_FAILED, "x"), warning="check")
    assert "warning" not in error.to_json()


def test_http_status_is_200_for_ok_and_500_for_error() -> None:
    assert ok().http_status == 200
    assert fail(ProtocolError(e.INVALID_REQUEST, "x")).http_status == 500


def test_non_finite_numbers_fail_loudly_instead_of_producing_invalid_json() -> None:
    with pytest.raises(ValueError):
        encode_json({"x": float("nan")})


def test_non_ascii_text_is_sent_as_utf8() -> None:
    assert ok({"t": "héllo"}).encode() == '{"ok":true,"data":{"t":"héllo"}}'.encode()


@pytest.mark.parametrize(
    "envelope",
    [
        ok({"a": [1, 2]}),
        ok({}, reactivated=True, warning="w"),
        fail(ProtocolError(e.APP_BACKGROUNDED, "bg", "front it"), reactivated=True),
        fail(ProtocolError(e.COMMAND_FAILED, "x")),
    ],
)
def test_decode_round_trips_byte_for_byte(envelope: Envelope) -> None:
    import json

    assert decode_envelope(json.loads(envelope.encode())).encode() == envelope.encode()


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        {"ok": "yes"},
        {"ok": True, "data": []},
        {"ok": False},
        {"ok": False, "error": {"code": 1, "message": "m"}},
        {"ok": True, "warning": 3},
    ],
)
def test_decode_refuses_malformed_envelopes(obj: object) -> None:
    with pytest.raises(ValueError):
        decode_envelope(obj)
