"""The CLI client's wire format (pure): requests and replies survive any text, malformed bytes are ValueError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phonewire import PROTOCOL_VERSION, __version__
from phonewire.frontends.cli.client import (
    DAEMON_VERSION_MISMATCH,
    EXIT_DAEMON,
    decode_reply,
    decode_request,
    encode_reply,
    encode_request,
)

no_nul = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\0"))


@given(
    st.lists(no_nul, max_size=6),
    no_nul,
    st.dictionaries(st.from_regex(r"[A-Z_]{1,12}", fullmatch=True), no_nul, max_size=3),
    st.none() | st.text(),
)
def test_a_request_round_trips(argv: list[str], cwd: str, env: dict[str, str], stdin: str | None) -> None:
    req = decode_request(encode_request("tok", argv, cwd, env, stdin))
    assert (req.token, req.argv, req.cwd, req.env, req.stdin) == ("tok", argv, cwd, env, stdin)


def test_a_request_carries_the_clients_phonewire_and_protocol_versions() -> None:
    req = decode_request(encode_request("tok", ["apps"], "/", {}, None))
    assert (req.version, req.protocol) == (__version__, str(PROTOCOL_VERSION))
    req = decode_request(encode_request("tok", ["apps"], "/", {}, None, version="9.9", protocol=7))
    assert (req.version, req.protocol) == ("9.9", "7")


@given(st.integers(0, 255), st.sampled_from(["", "DAEMON_AUTH"]), st.text(), st.text())
def test_a_reply_round_trips(code: int, daemon_code: str, out: str, err: str) -> None:
    assert decode_reply(encode_reply(code, out, err, daemon_code=daemon_code)) == (code, daemon_code, out, err)


def test_a_reply_in_an_older_daemons_format_means_a_stale_daemon() -> None:
    # what a daemon of the previous wire ("pw1": exit NUL len NUL stdout stderr) answers to any request
    exit_code, daemon_code, _, _ = decode_reply(b"4\x000\0error DAEMON_PROTOCOL: malformed request")
    assert (exit_code, daemon_code) == (EXIT_DAEMON, DAEMON_VERSION_MISMATCH)


@pytest.mark.parametrize(
    "data", [b"", b"garbage", b"pw1\0tok\0/\0x", b"pw2\0v\x001\0tok\0/\x000\x002\0only-one", b"pw3\0t"]
)
def test_malformed_requests_are_value_errors(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode_request(data)


@pytest.mark.parametrize("data", [b"", b"0", b"x\x000\0", b"pw2\x000\0\x005\0abc", b"pw2\0x\0\x000\0"])
def test_malformed_replies_are_value_errors(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode_reply(data)
