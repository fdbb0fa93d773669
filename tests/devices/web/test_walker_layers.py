"""The walker is three layers and a walk (issue 26 item 2, issue 23 item 2): each its own file under the size
limit, joined in the one order walk.py declares; every rule beyond the spec is one entry of walker_rules.js's RULES
with the finding it came from and a test page that exists, and every place the code applies a rule names an entry."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from phonewire.devices.web import scrolling, walk

WEB = Path(walk.__file__).resolve().parent
ROOT = WEB.parents[3]
ENTRY = re.compile(r'^  "([a-z-]+)": \{finding: "([^"]+)",\s*\n?\s*page: "([^"]+)"', re.M)


def rules() -> dict[str, tuple[str, str]]:
    text = (WEB / "walker_rules.js").read_text()
    return {name: (finding, page) for name, finding, page in ENTRY.findall(text)}


def test_layers_are_files_under_the_limit_joined_in_one_order() -> None:
    assert walk.WALKER_LAYERS == ("walker_spec.js", "walker_rules.js", "walker_perception.js", "walker.js")
    for name in walk.WALKER_LAYERS:
        assert len((WEB / name).read_text().splitlines()) < 600, name
    joined = walk._WALKER
    at = [joined.index((WEB / name).read_text()) for name in walk.WALKER_LAYERS]
    assert at == sorted(at)


def test_every_rule_has_a_finding_and_a_test_page_and_is_applied() -> None:
    table = rules()
    assert len(table) >= 20
    for name, (finding, page) in table.items():
        assert finding.strip(), name
        assert (ROOT / page).is_file(), (name, page)
    code = "\n".join((WEB / n).read_text() for n in walk.WALKER_LAYERS)
    start = code.index("const RULES")
    code = code[:start] + code[code.index("};", start) :]  # all but the table itself
    named: set[str] = set()
    for group in re.findall(r"\(rules? ([a-z, -]+)\)", code):
        named.update(part.strip() for part in group.split(","))
    fired = set(re.findall(r'shape\("([a-z-]+)"\)', code))
    assert named | fired == set(table)
    assert fired <= set(table)  # a rule a row names is an entry of the table


def test_scroll_plan_uses_the_walkers_role_table() -> None:
    plan = scrolling.plan_expression("down", 0.5, None, ["role=Button"])
    assert (WEB / "walker_spec.js").read_text() in plan
    assert "TAG_ROLES" not in plan and "INPUT_ROLES = {" in plan  # the walker's, not a second table


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_page_scripts_parse() -> None:
    for path in sorted(WEB.glob("*.js")):
        done = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True, check=False)
        assert done.returncode == 0, (path.name, done.stderr)
    for expression in (walk._WALKER, scrolling.plan_expression("up", 1, (1, 2), None), scrolling.REST_JS):
        done = subprocess.run(["node", "--check", "-"], input=expression, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
