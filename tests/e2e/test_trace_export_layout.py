"""An exported trace does not depend on positions: the demo flow is recorded against a copy of the demo served
over loopback HTTP, exported, and the export runs green after the copy's first rows are put in the opposite order
(every row the flow touched moved, and what now sits at the recorded points is another row)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_runner import SharedRunner, attached_env, own_phone

import phonewire
from loopback import serving
from phonewire.agent.trace import read_steps
from phonewire.frontends.cli.main import main as cli_main

pytestmark = pytest.mark.e2e

DEMO = Path(phonewire.__file__).parent / "apps" / "demo"
#: The demo's script appends its rows in order 1..300; the patched copy puts rows 1..8 in the opposite order.
REORDER = (
    "  list.append(frag);\n",
    "  list.append(frag);\n  list.prepend(...Array.from(list.children).slice(0, 8).reverse());\n",
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    """A copy of the demo under tmp/site/demo, served on 127.0.0.1 (yields the site's directory)."""
    root = tmp_path / "site"
    shutil.copytree(DEMO, root / "demo")
    with serving(root) as base:
        (root / "url").write_text(base + "demo/index.html")
        yield root


def test_the_export_replays_green_after_the_rows_change_order(
    site: Path, tmp_path: Path, shared_runner: SharedRunner, shared_phone: phonewire.Phone
) -> None:
    url = (site / "url").read_text()
    env = {**os.environ, "PHONEWIRE_STATE_DIR": str(tmp_path / "state")}
    env.pop("PHONEWIRE_RUNNER_ADDR", None)
    directory = tmp_path / "flow"
    with own_phone(tmp_path / "state", trace=directory) as phone:
        phone.open(url)
        view = phone.snapshot(interactive=True)
        refs = {n["identifier"]: r for r, n in view.refs.items() if n.get("identifier")}
        phone.tap("@" + refs["like-5"])
        phone.tap("@" + refs["like-2"])
        phone.tap("@" + refs["like-2"])
        phone.wait('id=like-5 label="Like 1"')
        phone.wait('id=like-2 label="Like 2"')
    recorded = {s["target"]["identifier"]: s["target"]["rect"] for s in read_steps(directory) if s["op"] == "tap"}
    module = tmp_path / "test_flow.py"
    assert cli_main(["trace", "export", str(directory), "--pytest", str(module)]) == 0
    exported = module.read_text()
    assert "phone.tap('id=\"like-5\"')" in exported and "@e" not in exported
    assert "phone.wait('id=like-5 label=\"Like 1\"')" in exported

    page = site / "demo" / "index.html"
    source = page.read_text()
    assert source.count(REORDER[0]) == 1
    page.write_text(source.replace(*REORDER))
    shared_phone.open(url)  # the layout changed: the recorded points hold other rows
    nodes = shared_phone.snapshot().nodes
    now = {n["identifier"]: n["rect"] for n in nodes if n.get("identifier") in recorded}
    for identifier, rect in recorded.items():
        assert now[identifier]["y"] != rect["y"], identifier
        centre = (rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2)
        there = [n for n in nodes if str(n.get("identifier", "")).startswith("like-") and _inside(centre, n)]
        assert [n["identifier"] for n in there] != [identifier]
    env.update(attached_env(shared_runner.get()))  # the replay records nothing: the session's runner will do
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(module)],
        check=False, capture_output=True, text=True, timeout=240, env=env, cwd=module.parent,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def _inside(point: tuple[float, float], node: dict[str, object]) -> bool:
    rect = node["rect"]
    assert isinstance(rect, dict)
    return bool(
        rect["x"] <= point[0] <= rect["x"] + rect["width"] and rect["y"] <= point[1] <= rect["y"] + rect["height"]
    )
