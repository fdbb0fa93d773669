"""The CLI client's wire format (pure): requests and replies survive any text, malformed bytes are ValueError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phonewire.frontends.cli.client import decode_reply, decode_request, encode_reply, encode_request

no_nul = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\0"))


@given(
    st.lists(no_nul, max_size=6),
    no_nul,
    st.dictionaries(st.from_regex(r"[A-Z_]{1,12}", fullmatch=True), no_nul, max_size=3),
    st.none() | st.text(),
)
def test_a_request_round_trips(argv: list[str], cwd: str, env: dict[str, str], stdin: str | None) -> None:
    assert decode_request(encode_request("tok", argv, cwd, env, stdin)) == ("tok", argv, cwd, env, stdin)


@given(st.integers(0, 255), st.text(), st.text())
def test_a_reply_round_trips(code: int, out: str, err: str) -> None:
    assert decode_reply(encode_reply(code, out, err)) == (code, out, err)


@pytest.mark.parametrize("data", [b"", b"garbage", b"pw1\0tok\0/\0x", b"pw1\0tok\0/\x000\x002\0only-one", b"pw2\0t"])
def test_malformed_requests_are_value_errors(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode_request(data)


@pytest.mark.parametrize("data", [b"", b"0", b"0\x005\0abc", b"x\x000\0"])
def test_malformed_replies_are_value_errors(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode_reply(data)
