"""A Maestro flow on a real-app suite page: TodoMVC (npm ``todomvc``), run through the API and the CLI, checked by
what the app itself shows afterwards (its own list and its own count)."""

from __future__ import annotations

from pathlib import Path

from realapps_env import Cli, StaticSite
from test_realapp_todomvc import items_left, rows

import phonewire

FLOW = Path(__file__).parent / "flows" / "todomvc.yaml"


def test_the_todomvc_flow_adds_completes_and_filters(phone: phonewire.Phone, todomvc: StaticSite) -> None:
    result = phone.flow_run(FLOW, [f"TODOMVC={todomvc.base}", "N=1"])
    assert result.data["passed"] == len(result.data["steps"]) == 17  # 13 commands, and the repeat ran 2 twice
    assert rows(phone) == ["buy milk", "chore 1", "chore 1"]  # the active filter: walk dog was completed
    assert items_left(phone.snapshot().nodes) == 3


def test_the_cli_runs_the_flow_and_reports_each_line(cli: Cli, todomvc: StaticSite) -> None:
    done = cli("flow", "run", str(FLOW), "--env", f"TODOMVC={todomvc.base}", "--env", "N=2")
    assert done.code == 0, done.err
    assert "todomvc.yaml:19 tapOn:" in done.out and "todomvc.yaml:26 assertVisible:" in done.out
