"""The test command: ``scripts/test.sh`` is the one place pytest's flags live (the worker processes), the README
names them as they are, and plain ``pytest tests/x.py`` still runs in one process."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTEST = ".venv/bin/python -m pytest "


def pytest_line() -> str:
    lines = [line for line in (ROOT / "scripts" / "test.sh").read_text().splitlines() if line.startswith(PYTEST)]
    assert len(lines) == 1, lines
    return lines[0]


def test_the_test_command_runs_pytest_once_in_worker_processes_with_the_callers_arguments_last() -> None:
    line = pytest_line()
    assert line.endswith(' "$@"')  # `bash scripts/test.sh -n 0` (or -m …) overrides or adds to the flags
    flags = line.removeprefix(PYTEST).removesuffix(' "$@"').split()
    assert flags[flags.index("-n") + 1].isdigit()
    assert flags[flags.index("--dist") + 1] == "loadfile"  # a module's fixtures (the Grid, a real app) start once


def test_the_readme_names_the_flags_of_the_test_command() -> None:
    flags = pytest_line().removeprefix(PYTEST).removesuffix(' "$@"')
    assert f"`pytest {flags}`" in (ROOT / "README.md").read_text()


def test_plain_pytest_runs_in_one_process() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-n" not in options["addopts"].split() and "--dist" not in options["addopts"]
