"""docs/protocol.md cannot drift: its command table and error-code table must match the protocol module exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def table_after(heading: str) -> list[dict[str, str]]:
    """The first Markdown table after ``heading``, as rows keyed by the header cells (backticks stripped)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append([cell.strip().strip("`") for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) > 2, f"no table under {heading!r}"
    header, _separator, *body = rows
    return [dict(zip(header, row, strict=True)) for row in body]


COMMANDS = {row["command"]: row for row in table_after("## Commands")}
CODES = {row["code"]: row for row in table_after("## Error codes")}


def test_the_command_table_lists_exactly_the_protocol_commands_once_each() -> None:
    documented = [row["command"] for row in table_after("## Commands")]
    assert len(documented) == len(set(documented))
    assert set(documented) == set(c.ALL_COMMANDS)


@pytest.mark.parametrize("command", c.ALL_COMMANDS)
def test_each_documented_command_matches_its_kind_sets_and_budgets(command: str) -> None:
    row = COMMANDS[command]
    timing = c.Timing()
    assert row["origin"] == ("v1" if command in c.V1_COMMANDS else "extension")
    if command in c.APP_SCOPED:
        scope = "app"
    elif command in c.APP_LIFECYCLE:
        scope = "lifecycle"
    elif command in c.TRANSPORT_PATH:
        scope = "transport"
    else:
        scope = "device"
    assert row["scope"] == scope
    assert row["read-only"] == ("yes" if command in c.READ_ONLY else "no")
    retained = command not in c.NOT_RETAINED and command not in c.TRANSPORT_PATH
    assert row["retained"] == ("yes" if retained else "no")
    assert float(row["budget"]) == timing.budget(command)
    assert float(row["window"]) == timing.window(command)


def test_the_error_table_lists_exactly_the_protocol_codes_once_each() -> None:
    documented = [row["code"] for row in table_after("## Error codes")]
    assert len(documented) == len(set(documented))
    assert documented == list(e.ALL_CODES)  # same order as errors.py, too


@pytest.mark.parametrize("code", e.ALL_CODES)
def test_each_documented_code_matches_who_produces_it_and_whether_it_is_retryable(code: str) -> None:
    row = CODES[code]
    assert (row["from"] == "runner") == (code in e.RUNNER_CODES)
    assert row["from"] in ("runner", "host", "agent")
    assert (row["retry"] == "yes") == (code in e.RETRYABLE_CODES)
    assert row["meaning"]


def test_every_code_constant_in_errors_py_is_in_a_tuple() -> None:
    constants = {v for k, v in vars(e).items() if k.isupper() and isinstance(v, str)}
    assert constants == set(e.ALL_CODES)
