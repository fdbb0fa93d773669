"""docs/protocol.md cannot drift: its command table and error-code table must match the protocol module exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.request import ID_CHARSET, ID_PATTERN, MAX_ID_LENGTH, NUMBER_BOUNDS

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


def _documented_ranges() -> dict[str, str]:
    """field → its documented type cell, from the request-fields table (a row may list several fields)."""
    out: dict[str, str] = {}
    for row in table_after("## Request fields"):
        for name in row["field"].split(","):
            out[name.strip().strip("`")] = row["type"]
    return out


@pytest.mark.parametrize("field", sorted(NUMBER_BOUNDS))
def test_each_numeric_bound_is_documented_in_the_request_table_as_the_code_checks_it(field: str) -> None:
    low, high = NUMBER_BOUNDS[field]
    documented = re.search(r"(-?\d+(?:\.\d+)?)–(\d+(?:\.\d+)?)", _documented_ranges()[field])
    assert documented is not None, f"{field}: no range in docs/protocol.md"
    assert (float(documented[1]), float(documented[2])) == (low, high)


def test_every_documented_numeric_range_is_one_the_validator_checks() -> None:
    ranged = {
        name for name, kind in _documented_ranges().items() if re.search(r"(number|integer) -?\d+(?:\.\d+)?–", kind)
    }
    assert ranged == set(NUMBER_BOUNDS)


def test_the_documented_command_id_rule_is_the_validators() -> None:
    cell = _documented_ranges()["commandId"]
    assert f"1–{MAX_ID_LENGTH} characters of `{ID_CHARSET}" in cell  # (the table parser strips the last backtick)
    assert ID_PATTERN.pattern == rf"[A-Za-z0-9._:-]{{1,{MAX_ID_LENGTH}}}"
