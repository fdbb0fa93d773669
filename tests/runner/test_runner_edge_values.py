"""Smaller findings of issue 15 (items 4, 7), over the real runner process: edge values are refused at the edge."""

from __future__ import annotations

import json

import pytest
from runner_wire import RunnerProcess, exchange, fate, new_id, parse_response, post, post_raw, request_bytes, taps

from phonewire.protocol import errors as e
from phonewire.protocol.envelope import encode_json

APP = "app.edge"


@pytest.mark.parametrize(
    ("command", "fields"),
    [("tap", {"x": 3.5e38, "y": 5}), ("drag", {"fromX": 1e39, "fromY": 5, "toX": 10, "toY": 10}),
     ("drag", {"fromX": 1e308, "fromY": 0, "toX": -1e308, "toY": 0}), ("longPress", {"x": 1, "y": -3.5e38})],
)  # fmt: skip
def test_a_coordinate_past_float32s_range_is_refused_and_never_reaches_the_device(
    runner: RunnerProcess, command: str, fields: dict[str, float]
) -> None:
    post(runner.port, "launchApp", appBundleId=APP)
    before = taps(runner.port, APP)
    command_id = new_id("huge")
    response = post(runner.port, command, appBundleId=APP, commandId=command_id, **fields)
    assert response.code == e.INVALID_REQUEST and "100000" in response.envelope["error"]["message"]
    assert fate(runner.port, command_id)["state"] == "notAccepted"
    assert taps(runner.port, APP) == before
    assert post(runner.port, "status").data["state"] == "idle"  # nothing running, nothing draining


def test_a_command_id_with_a_lone_surrogate_is_refused_and_status_keeps_answering(runner: RunnerProcess) -> None:
    post(runner.port, "launchApp", appBundleId="hang.300")
    body = b'{"command":"tap","appBundleId":"hang.300","x":1,"y":1,"commandId":"\\ud800"}'
    response = post_raw(runner.port, body)
    assert response.code == e.INVALID_REQUEST and response.envelope["error"]["hint"]
    looked_up = post_raw(runner.port, b'{"command":"status","statusCommandId":"x\\udfff"}')
    assert looked_up.code == e.INVALID_REQUEST
    assert post(runner.port, "status").status == 200


@pytest.mark.parametrize("version", ["HTTP/0.9", "HTTP/2.0", "HTTP/1.2", "HTTP/3.0"])
def test_request_lines_that_are_not_http_1_0_or_1_1_are_400(runner: RunnerProcess, version: str) -> None:
    raw = request_bytes(b'{"command":"status"}').replace(b"HTTP/1.1", version.encode(), 1)
    response = parse_response(exchange(runner.port, raw))
    assert response.status == 400
    assert response.code == e.INVALID_REQUEST and version in response.envelope["error"]["message"]


def test_100000_nested_brackets_are_invalid_request_and_the_runner_keeps_serving(runner: RunnerProcess) -> None:
    for body in (b"[" * 100_000, b'{"command":"status","deep":' + b"[" * 100_000 + b"]" * 100_000 + b"}"):
        response = post_raw(runner.port, body)
        assert response.code == e.INVALID_REQUEST and "nests too deeply" in response.envelope["error"]["message"]
    assert post(runner.port, "uptime").status == 200


def test_any_string_encodes_even_a_lone_surrogate_and_decodes_back_to_itself() -> None:
    value = {"message": "unknown app 'x\ud800y'", "plain": "caf\u00e9 \U0001f600"}
    encoded = encode_json(value)
    assert json.loads(encoded) == value
    assert b"\\ud800" in encoded and "caf\u00e9".encode() in encoded
