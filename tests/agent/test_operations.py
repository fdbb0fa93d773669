"""The operation table is the one declaration of each operation: every front end projects it, none disagrees on a
parameter's limits, and the docs' tables are the table."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from pathlib import Path

import pytest

from phonewire.agent.core import AgentSession
from phonewire.agent.operations import DOCS, FRONT_ENDS, OPERATIONS, Operation, with_table
from phonewire.agent.params import Param
from phonewire.api import Phone
from phonewire.frontends.bridge.methods import METHODS, BadCall, parse_call
from phonewire.frontends.cli.verbs import VERBS, UsageError, option, parse_argv
from phonewire.frontends.mcp_server import TOOLS, tool_list
from phonewire.protocol.request import MAX_DURATION_MS, MAX_SCROLL_AMOUNT, MAX_TAPS

ROOT = Path(__file__).resolve().parents[2]
OPS = list(OPERATIONS.values())


def _limits(p: Param) -> tuple[object, ...]:
    return (p.kind, p.choices, p.minimum, p.maximum)


def _bridge_params(name: str) -> dict[str, list[Param]]:
    found: dict[str, list[Param]] = {}
    for form in METHODS[name].forms:
        for p in form.params:
            found.setdefault(p.name, []).append(p)
    return found


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_every_front_end_offers_every_operation_under_its_declared_spelling(op: Operation) -> None:
    assert VERBS[op.spelling("cli")].operation is op
    assert TOOLS[op.spelling("mcp")].operation is op
    assert op.spelling("bridge") in METHODS
    for alias in op.bridge_aliases:
        assert alias in METHODS
    assert callable(getattr(Phone, op.spelling("api")))


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_the_agent_session_method_takes_the_tables_parameters_with_its_defaults(op: Operation) -> None:
    signature = inspect.signature(getattr(AgentSession, op.method))
    taken = {name: p for name, p in signature.parameters.items() if name != "self"}
    assert list(taken) == [p.name for p in op.params]
    for p in op.params:
        expected = inspect.Parameter.empty if p.required else p.default
        assert taken[p.name].default == expected, p.name


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_the_python_api_takes_the_tables_parameters_with_its_defaults(op: Operation) -> None:
    taken = inspect.signature(getattr(Phone, op.spelling("api"))).parameters
    for p in op.params_for("api"):
        assert p.name in taken, p.name
        assert taken[p.name].default == (inspect.Parameter.empty if p.required else p.default), p.name


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_mcp_and_bridge_take_every_parameter_with_the_tables_limits(op: Operation) -> None:
    schema = TOOLS[op.spelling("mcp")].form
    mcp = {p.name: p for p in schema.params}
    bridge = _bridge_params(op.spelling("bridge"))
    for table, bridged in zip(op.params, op.params_for("bridge"), strict=True):
        assert _limits(mcp[table.name]) == _limits(table), table.name
        assert bridged.name in bridge, bridged.name
        assert all(_limits(p) == _limits(table) for p in bridge[bridged.name]), bridged.name


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_cli_options_are_checked_by_the_tables_parameters(op: Operation) -> None:
    spec = VERBS[op.spelling("cli")]
    for flag, name in spec.options.items():
        assert flag in spec.flags
        assert name in {p.name for p in op.params}


def test_mcp_annotations_follow_the_table() -> None:
    for tool in tool_list():
        op = TOOLS[tool.name].operation
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is op.read_only
        assert tool.annotations.destructive_hint is (op.destructive and not op.read_only)
    assert {t.name for t in tool_list() if t.annotations and t.annotations.destructive_hint} == {"close_app", "fill"}


def test_limits_are_the_protocols() -> None:
    assert OPERATIONS["tap"].param("count").maximum == MAX_TAPS
    assert OPERATIONS["long_press"].param("duration_ms").maximum == MAX_DURATION_MS
    assert OPERATIONS["scroll"].param("amount").maximum == MAX_SCROLL_AMOUNT == 1


@pytest.mark.parametrize(("doc", "front_end"), DOCS.items())
def test_the_docs_tables_are_the_operation_table(doc: str, front_end: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert text == with_table(text, front_end)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("argv", "flag", "message"),
    [
        (["tap", "@e1", "--count", "21"], "--count", f"tap --count must be at most {MAX_TAPS}, got 21"),
        (["tap", "@e1", "--count", "1.5"], "--count", "tap --count must be a whole number, got 1.5"),
        (["scroll", "up", "--amount", "1.5"], "--amount", "scroll --amount must be at most 1, got 1.5"),
        (["swipe", "1", "2", "3", "4", "--duration", "-1"], "--duration", "swipe --duration must be at least 0"),
        (["screenshot", "--format", "gif"], "--format", "screenshot --format must be one of png, jpeg"),
    ],
)
def test_the_cli_refuses_an_option_past_the_tables_limit_before_anything_runs(
    argv: list[str], flag: str, message: str
) -> None:
    with pytest.raises(UsageError) as info:
        option(parse_argv(argv), flag)
    assert info.value.message.startswith(message)


def test_the_bridge_refuses_a_scroll_amount_past_the_protocols_limit() -> None:
    with pytest.raises(BadCall) as info:
        parse_call(b'{"id": 1, "method": "scroll", "params": {"direction": "down", "amount": 5}}')
    assert info.value.error.message == "scroll parameter 'amount' must be at most 1, got 5"
    # the hint says the range (issue 22 trial: it said only the parameter's description)
    assert info.value.error.hint == "scroll takes amount from 0.01 to 1, default 0.6: Fraction of the screen to scroll."


def test_every_front_end_has_a_spelling_for_every_operation() -> None:
    assert all(op.spelling(fe) for op in OPS for fe in FRONT_ENDS)


def test_a_new_operations_cli_usage_and_arguments_come_from_its_table_entry_alone() -> None:
    selector = Param("selector", "string", "What to wait for.", required=True)
    timeout = Param("timeout_ms", "number", "How long.", minimum=0, maximum=60_000, metavar="MS")
    gone = Param("gone", "boolean", "Wait until it is gone.", default=False)
    op = Operation("wait", "wait", "Wait for an element.", (selector, gone, timeout),
                   renames={"cli": {"timeout_ms": "timeout"}})  # fmt: skip
    assert op.cli_usage == "wait SELECTOR [--gone] [--timeout MS]"
    assert op.cli_arguments() == (selector,)
    assert op.cli_options() == {"--gone": gone, "--timeout": timeout}


def test_the_cli_verbs_arity_and_options_follow_the_table() -> None:
    assert (VERBS["swipe"].min_args, VERBS["swipe"].max_args) == (4, 4)
    assert (VERBS["fill"].min_args, VERBS["fill"].max_args) == (2, None)  # the target takes the words left over
    assert (VERBS["close"].min_args, VERBS["close"].max_args) == (0, 1)
    assert (VERBS["screenshot"].min_args, VERBS["screenshot"].max_args) == (0, 1)  # its own [PATH]
    assert VERBS["longpress"].options == {"--duration": "duration_ms"}
    assert VERBS["snapshot"].aliases == {"-i": "--interactive"}
    assert VERBS["tap"].usage == "tap TARGET [--count N]"


def _offered() -> dict[str, set[str]]:
    """Each face's operations, as the face itself declares them."""
    from phonewire.frontends.webdriver import routes

    return {
        "cli": {spec.operation.name for spec in VERBS.values() if spec.operation is not None},
        "mcp": {tool.operation.name for tool in TOOLS.values()},
        "bridge": {op.name for op in OPS if op.spelling("bridge") in METHODS},
        "api": {op.name for op in OPS if callable(getattr(Phone, op.spelling("api"), None))},
        "webdriver": routes.operations(),
    }


def _lacks() -> dict[str, Mapping[str, str]]:
    """What each face deliberately lacks, with why (only WebDriver lacks any)."""
    from phonewire.frontends.webdriver.routes import NOT_OFFERED

    return {"webdriver": NOT_OFFERED}


@pytest.mark.parametrize("face", ["cli", "mcp", "bridge", "api", "webdriver"])
def test_no_face_lacks_an_operation_but_those_it_names_with_a_reason(face: str) -> None:
    offered, lacks = _offered()[face], _lacks().get(face, {})
    assert offered <= set(OPERATIONS), f"{face} declares operations the table lacks: {offered - set(OPERATIONS)}"
    assert set(OPERATIONS) - offered == set(lacks), f"{face} lacks these without a reason: {set(OPERATIONS) - offered}"
    assert not offered & set(lacks), f"{face} offers what it says it lacks: {offered & set(lacks)}"
    assert all(len(reason.split()) >= 5 for reason in lacks.values())


def test_each_mobile_command_performs_the_operation_it_declares() -> None:
    from phonewire.frontends.webdriver.mobile import MOBILE

    for name, command in MOBILE.items():
        source = inspect.getsource(command.handler)
        assert f"{OPERATIONS[command.operation].method}(" in source or "flow_run.run(" in source, name
