"""Lines the MCP SDK cannot read are answered (JSON-RPC 2.0: a parse error or an invalid request gets an error reply,
id null when it cannot be found), not dropped: a client waiting on its id would wait for ever.  End to end:
tests/e2e/test_bridge_process.py::test_mcp_process_keeps_serving_after_a_malformed_line_an_unknown_method_and_bad_params."""

from __future__ import annotations

import mcp.types as mt
import pytest
from pydantic import ValidationError

from phonewire.frontends.mcp_server import unreadable_reply
from phonewire.protocol.jsonlimits import top_level_id

DEEP = "[" * 300 + "]" * 300


def sdk_error(line: str) -> ValidationError:
    with pytest.raises(ValidationError) as failed:
        mt.jsonrpc_message_adapter.validate_json(line, by_name=False)
    return failed.value


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('{"jsonrpc":"2.0","id":7,"params":' + DEEP + "}", 7),
        ('{"params":' + DEEP + ',"id":"late"}', "late"),
        ('{"method":"id","params":{"id":5}}', None),  # a value "id" and a nested key are not the id
        ('{"id":true}', None),
        ('{"id":' + DEEP + "}", None),
        ("not json", None),
    ],
)
def test_the_top_level_id_is_found_without_parsing_the_rest(text: str, found: object) -> None:
    assert top_level_id(text) == found


def test_a_request_deeper_than_the_sdk_parses_is_invalid_request_by_its_id() -> None:
    line = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tap","arguments":{"target":' + DEEP + "}}}"
    reply = unreadable_reply(sdk_error(line))
    assert isinstance(reply, mt.JSONRPCError)
    assert (reply.id, reply.error.code) == (7, mt.INVALID_REQUEST)
    assert reply.error.message == "the request nests JSON 303 levels deep; at most 200 are read"


def test_text_that_is_not_json_is_a_parse_error_with_a_null_id() -> None:
    reply = unreadable_reply(sdk_error("{ not json"))
    assert isinstance(reply, mt.JSONRPCError) and (reply.id, reply.error.code) == (None, mt.PARSE_ERROR)
    assert isinstance(reply.error.data, dict) and reply.error.data["hint"]


def test_json_that_is_no_message_is_invalid_request_but_a_malformed_notification_gets_no_reply() -> None:
    reply = unreadable_reply(sdk_error('{"jsonrpc":"2.0","id":"x","method":5}'))
    assert isinstance(reply, mt.JSONRPCError) and (reply.id, reply.error.code) == ("x", mt.INVALID_REQUEST)
    assert unreadable_reply(sdk_error('{"jsonrpc":"2.0","method":5}')) is None


def test_json_with_a_lone_surrogate_escape_is_invalid_request_by_its_id_not_a_parse_error() -> None:
    reply = unreadable_reply(sdk_error('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"type",'
                                       '"arguments":{"text":"\\ud800x"}}}'))  # fmt: skip
    assert isinstance(reply, mt.JSONRPCError) and (reply.id, reply.error.code) == (4, mt.INVALID_REQUEST)
    assert reply.error.message.startswith("the request is JSON this server cannot read (Invalid JSON:")
