"""CLI argv parsing (pure): global options anywhere, verb flags, targets joined from shell words, batch steps."""

from __future__ import annotations

import pytest

from phonewire.agent.selectors import Term, parse
from phonewire.frontends.cli.verbs import (
    EXIT_COMMAND,
    EXIT_USAGE,
    GLOBAL_FLAGS,
    UsageError,
    exit_code_for,
    join_target,
    parse_argv,
    parse_steps,
    usage_text,
)
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


def test_global_options_may_come_before_or_after_the_verb() -> None:
    inv = parse_argv(["--device", "web:pixel-7", "snapshot", "-i", "--json", "--session=s2"])
    assert (inv.verb, inv.device, inv.session, inv.json) == ("snapshot", "web:pixel-7", "s2", True)
    assert inv.flags == {"--interactive": True}


def test_verb_flags_with_values() -> None:
    inv = parse_argv(["scroll", "down", "--amount", "0.3"])
    assert (inv.args, inv.flags) == (["down"], {"--amount": "0.3"})
    assert parse_argv(["tap", "@e3", "--count=2"]).flags == {"--count": "2"}


def test_scroll_takes_a_target_of_any_words_and_find_its_options() -> None:
    assert parse_argv(["scroll", "right", "120", "300"]).args == ["right", "120", "300"]
    assert parse_argv(["scroll", "down", "role=List", "label=Inbox"]).args == ["down", "role=List", "label=Inbox"]
    inv = parse_argv(["find", "Person", "150", "--max-scrolls", "5", "--direction=up"])
    assert (inv.args, inv.flags) == (["Person", "150"], {"--max-scrolls": "5", "--direction": "up"})
    with pytest.raises(UsageError) as info:
        parse_argv(["find"])
    assert info.value.message == "find takes more arguments (got 0)"


def test_negative_numbers_are_arguments_not_options() -> None:
    assert parse_argv(["swipe", "10", "-5", "10", "300"]).args == ["10", "-5", "10", "300"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "no verb given"),
        (["fly"], "unknown verb 'fly'"),
        (["tap"], "tap takes more arguments (got 0)"),
        (["type", "a", "b"], "type takes fewer (got 2)"),
        (["apps", "x"], "apps takes no arguments (got 1)"),
        (["snapshot", "--every"], "unknown option '--every' for snapshot"),
        (["snapshot", "--diff=yes"], "--diff takes no value"),
        (["scroll", "up", "--amount"], "--amount needs a value"),
    ],
)
def test_malformed_invocations_are_usage_errors_with_the_verbs_usage(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_argv(argv)
    assert info.value.message == message
    assert info.value.code == e.INVALID_REQUEST
    assert exit_code_for(info.value) == EXIT_USAGE


@pytest.mark.parametrize(
    ("verb", "meant"),
    [
        ("long-press", "longpress"),
        ("LONG_PRESS", "longpress"),
        ("snapshto", "snapshot"),
        ("trace-start", "trace start"),
    ],
)
def test_an_unknown_verb_names_the_one_meant_with_its_usage(verb: str, meant: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_argv([verb, "@e3"])
    assert info.value.message == f"unknown verb {verb!r}: did you mean `{meant}`?"
    assert (info.value.hint or "").startswith(f"usage: phonewire {meant}")


def test_other_errors_are_command_errors() -> None:
    assert exit_code_for(ProtocolError(e.STALE_REF, "x")) == EXIT_COMMAND


def test_shell_words_join_into_one_target_keeping_spaces_in_values() -> None:
    assert join_target(["120", "300"]) == "120 300"
    assert join_target(["@e3"]) == "@e3"
    joined = join_target(["role=Button", "label=Sign in"])
    assert parse(joined).alternatives[0] == (Term("role", "Button"), Term("label", "Sign in"))
    assert parse(join_target(["Sign in"])).alternatives[0] == (Term("text", "Sign in"),)
    exact = join_target(["role=Button", "label==Sign in"])
    assert parse(exact).alternatives[0] == (Term("role", "Button"), Term("label", "Sign in", "=="))
    pattern = parse(join_target(["id=price", r"text~=/Stock price: \$4\d/"])).alternatives[0]
    assert pattern[1].op == "~=" and pattern[1].value.pattern == r"Stock price: \$4\d"  # type: ignore[union-attr]
    assert parse(join_target(["id=price", "value<45.5"])).alternatives[0][1] == Term("value", 45.5, "<")


def test_batch_steps_are_argv_arrays() -> None:
    assert parse_steps('[["open", "x"], {"argv": ["tap", 10, 20]}]') == [["open", "x"], ["tap", "10", "20"]]
    assert parse_steps('{"steps": [["apps"]]}') == [["apps"]]
    for bad in ("nope", "{}", "[[]]", '[{"verb": "tap"}]', "[[null]]"):
        with pytest.raises(UsageError):
            parse_steps(bad)


def test_the_help_names_every_global_option_the_cli_accepts() -> None:
    first = usage_text().splitlines()[0]
    for option in GLOBAL_FLAGS:
        assert option in first


def test_batch_input_nested_100000_deep_is_a_usage_error_not_a_recursion_error() -> None:
    with pytest.raises(UsageError) as caught:
        parse_steps("[" * 100_000)
    assert "levels deep" in caught.value.message and caught.value.hint == "usage: phonewire batch [FILE|-] [--strict]"


def test_a_lone_dash_is_an_argument_so_batch_reads_stdin() -> None:
    inv = parse_argv(["batch", "-"])
    assert (inv.verb, inv.args) == ("batch", ["-"])
