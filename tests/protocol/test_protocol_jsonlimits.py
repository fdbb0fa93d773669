"""JSON from clients is depth-limited before it is parsed (issue 15 item 7): deep nesting is a refusal with a hint,
never a RecursionError."""

from __future__ import annotations

import pytest

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.jsonlimits import MAX_JSON_DEPTH, json_depth, loads_limited


def test_depth_counts_arrays_and_objects_but_not_brackets_inside_strings() -> None:
    assert json_depth('"[[["') == 0
    assert json_depth('[["tap", "a]b[c\\"["]]') == 2
    assert json_depth('{"a": [{"b": 1}]}') == 3


def test_100000_nested_brackets_are_invalid_request_with_a_hint_not_a_recursion_error() -> None:
    with pytest.raises(ProtocolError) as caught:
        loads_limited("[" * 100_000, what="batch input", hint="Send a flat list.")
    assert caught.value.code == e.INVALID_REQUEST
    assert "100000 levels" in caught.value.message and caught.value.hint == "Send a flat list."


def test_json_at_the_limit_is_parsed_and_one_level_more_is_refused() -> None:
    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert json_depth(at_limit) == MAX_JSON_DEPTH
    assert loads_limited(at_limit, hint="h") is not None
    with pytest.raises(ProtocolError):
        loads_limited("[" + at_limit + "]", hint="h")


def test_malformed_json_and_bad_utf8_are_invalid_request() -> None:
    for bad in ("nope", b"\xff[]"):
        with pytest.raises(ProtocolError) as caught:
            loads_limited(bad, what="request line", hint="h")
        assert caught.value.code == e.INVALID_REQUEST and caught.value.message.startswith("request line is not")
