"""The CLI's argv grammar around the verbs is declared once (frontends/cli/grammar.py): the daemon's parser, the
Python thin client and the native client's C tables are that declaration, and a test fails when one disagrees."""

from __future__ import annotations

import re

import pytest

from phonewire.frontends.cli import grammar, main, verbs
from phonewire.frontends.cli.fastclient import SOURCE


def c_array(source: str, name: str) -> tuple[str, ...]:
    """The strings of ``static const char *const NAME[] = {...};`` in a C source."""
    found = re.search(rf"\b{name}\[\]\s*=\s*\{{([^}}]*)\}}", source)
    assert found, f"no array {name} in the C source"
    return tuple(re.findall(r'"((?:[^"\\]|\\.)*)"', found.group(1)))


@pytest.mark.parametrize("name", ["VALUE_OPTIONS", "LOCAL_VERBS"])
def test_the_native_clients_tables_are_the_grammars(name: str) -> None:
    assert c_array(SOURCE.read_text(), name) == tuple(getattr(grammar, name))


def test_a_native_table_that_drifts_is_caught() -> None:
    drifted = SOURCE.read_text().replace('"--trace"}', '"--trace", "--profile"}', 1)
    assert drifted != SOURCE.read_text()
    assert c_array(drifted, "VALUE_OPTIONS") != tuple(grammar.VALUE_OPTIONS)


def test_the_native_client_hands_the_offline_trace_verbs_to_python() -> None:
    source = SOURCE.read_text()
    rule = source[source.index('strcmp(argv[verb], "trace")') :].split(")\n", 1)[0]
    assert all(f'"{word}"' in rule for word in grammar.OFFLINE_TRACE)
    assert len(re.findall(r'strcmp\(argv\[verb \+ 1\], "(\w+)"\)', rule)) == len(grammar.OFFLINE_TRACE)


def test_the_daemons_global_options_are_the_grammars() -> None:
    assert set(verbs.GLOBAL_FLAGS) == {*grammar.VALUE_OPTIONS, *grammar.FLAG_OPTIONS}
    assert all(verbs.GLOBAL_FLAGS[o] == "value" for o in grammar.VALUE_OPTIONS)
    for option in grammar.VALUE_OPTIONS:  # each takes its value before the verb, in every client
        inv = verbs.parse_argv([option, "x", "viewport"])
        assert inv.verb == "viewport" and not inv.args
        assert main._verb_and_args([option, "x", "viewport"])[0] == "viewport"


def test_the_help_shows_the_grammars_global_options() -> None:
    assert verbs.usage_text().split("\n")[0] == (
        "usage: phonewire [--device SPEC] [--session NAME] [--runner HOST:PORT] [--trace DIR] [--json] [--quiet] "
        "VERB ..."
    )


def test_the_native_clients_local_verbs_are_no_daemon_verbs_but_daemon() -> None:
    assert set(grammar.LOCAL_VERBS) & set(verbs.VERBS) == {"daemon"}
    assert set(grammar.SERVERS) <= set(grammar.LOCAL_VERBS)
