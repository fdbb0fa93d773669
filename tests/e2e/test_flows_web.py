"""Maestro flows on real Chromium, through the API, the CLI, MCP and the bridge: flows adapted from Maestro's
documentation examples run green on the demo, and what is checked afterwards is what the page itself shows (its
counters went up by exactly what the flow did; the rows it did not touch are unchanged).  A flow that cannot run
runs nothing on the phone.  A recorded session exported as a flow replays green after the rows change order."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import cli_for
from test_bridge_web import Bridge
from test_mcp_web import mcp_session, ok, text
from web_runner import SharedRunner, attached_env, node, own_phone

import phonewire
from loopback import serving
from phonewire.agent.trace import read_steps
from phonewire.frontends.cli.main import main as cli_main
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = pytest.mark.e2e

FLOWS = Path(__file__).parent / "flows"
DEMO = Path(phonewire.__file__).parent / "apps" / "demo"


@pytest.fixture
def flows(tmp_path: Path) -> Path:
    """A copy of tests/e2e/flows (takeScreenshot writes beside the flow)."""
    shutil.copytree(FLOWS, tmp_path / "flows")
    return tmp_path / "flows"


def label(phone: phonewire.Phone, ident: str) -> str:
    return str(node(phone, ident).get("label"))


def test_the_documentation_flows_run_green_and_the_page_saw_exactly_their_effects(
    flows: Path, shared_phone: phonewire.Phone
) -> None:
    result = shared_phone.flow_run(flows / "inbox.yaml")
    steps = result.data["steps"]
    assert [s["command"] for s in steps[:3]] == ["launchApp", "runFlow", "tapOn"]
    assert {s["file"] for s in steps} == {"inbox.yaml", "login.yaml"}
    assert label(shared_phone, "signin-count") == "1" and label(shared_phone, "signin-user") == "alice"
    assert label(shared_phone, "search-last") == "Item 40"  # copied from the row, pasted by typing, submitted
    shared_phone.tap("id=tab-list")
    shared_phone.find("id=like-40")
    assert label(shared_phone, "like-40") == "Like 3"  # the while loop stopped when it showed 3
    assert label(shared_phone, "like-39") == "Like 0"

    result = shared_phone.flow_run(flows / "detail.yaml")
    assert (flows / "detail.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert label(shared_phone, "carousel-index") != "1"  # the swipe from the carousel moved it
    shared_phone.tap("id=tab-list")
    assert label(shared_phone, "like-2") == "Like 1" and label(shared_phone, "like-1") == "Like 0"  # index: 1
    assert result.data["passed"] == len(result.data["steps"])


def test_a_flow_that_cannot_run_runs_nothing_on_the_phone(flows: Path, shared_phone: phonewire.Phone) -> None:
    (flows / "bad.yaml").write_text(
        "appId: dev.phonewire.demo\n---\n- launchApp\n- tapOn:\n    id: like-1\n- hideKeyboard\n"
    )
    shared_phone.open("dev.phonewire.demo")
    shared_phone.tap("id=like-1")
    with pytest.raises(ProtocolError) as caught:
        shared_phone.flow_run(flows / "bad.yaml")
    assert caught.value.code == e.FLOW_UNSUPPORTED and "bad.yaml:6" in caught.value.message
    assert label(shared_phone, "like-1") == "Like 1"  # not relaunched, not tapped


def test_the_cli_runs_a_flow_with_env_and_trace_and_trace_view_shows_it(
    flows: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_runner: SharedRunner
) -> None:
    with cli_for(tmp_path, monkeypatch) as cli:
        cli.env.update(attached_env(shared_runner.get()))
        for k, v in attached_env(shared_runner.get()).items():
            monkeypatch.setenv(k, v)
        monkeypatch.chdir(flows)
        assert cli("open", "dev.phonewire.demo").code == 0  # login.yaml is a sub-flow: no launchApp of its own
        done = cli("--json", "flow", "run", "login.yaml", "--env", "USERNAME=bob", "--env", "PASSWORD=pw",
                   "--trace", "run1")  # fmt: skip
        assert done.code == 0, done.err
        assert [s["line"] for s in done.json()["data"]["steps"]] == [4, 5, 7, 8, 9, 11, 12]
        assert cli("snapshot").code == 0
        shown = cli("--json", "find", "id=signin-user").json()["data"]
        assert shown["target"]["label"] == "bob"
        steps = read_steps(flows / "run1")  # the global --trace: the session is traced from that call on
        ran = [s for s in steps if "flow" in s]
        assert {s["flow"]["file"] for s in ran} == {"login.yaml"} and [s["op"] for s in steps[len(ran):]] == [
            "snapshot", "find"]  # fmt: skip
        assert [s["flow"]["line"] for s in ran if s["op"] != "press"] == [4, 5, 8, 9, 11, 12]
        assert cli_main(["trace", "view", str(flows / "run1"), "-o", str(tmp_path / "r.html")]) == 0
        report = (tmp_path / "r.html").read_text()
        assert report.count('class="step') == len(steps) and 'data-op="tap"' in report
        assert '<div class="flow">flow login.yaml:12 tapOn</div>' in report
        refused = cli("flow", "run", str(FLOWS / "missing.yaml"))
        assert refused.code == 3 and "FLOW_INVALID" in refused.err


def test_mcp_and_the_bridge_run_a_flow_as_one_tool_call(flows: Path) -> None:
    (flows / "like.yaml").write_text(
        "appId: dev.phonewire.demo\nenv:\n  N: 1\n---\n- tapOn:\n    id: like-4\n"
        "- assertVisible:\n    id: like-4\n    text: Like ${N}\n"
    )

    async def over_mcp() -> None:
        async with mcp_session() as session:
            result = await ok(session, "flow_run", {"file": str(flows / "like.yaml")})
            assert "2 step(s) passed" in text(result) and "like.yaml:5 tapOn: tapped" in text(result)
            shown = text(await ok(session, "find", {"selector": "id=like-4"}))
            assert '"Like 1"' in shown
            bad = await session.call_tool("flow_run", {"file": str(flows / "like.yaml"), "env": "X=1"})
            assert bad.is_error

    asyncio.run(over_mcp())
    bridge = Bridge()
    try:
        result = bridge.result("flow_run", file=str(flows / "like.yaml"))
        assert result["message"].count("tapOn") == 1 and "like.yaml:7 assertVisible" in result["message"]
        again = bridge.result("flow_run", file=str(flows / "like.yaml"), env=["N=2"])  # one more tap: Like 2
        assert "2 step(s) passed" in again["message"]
        assert "Like 2" in json.dumps(bridge.result("find", selector="id=like-4"))
    finally:
        bridge.stop()


#: The demo's script appends its rows in order 1..300; the patched copy puts rows 1..8 in the opposite order.
REORDER = (
    "  list.append(frag);\n",
    "  list.append(frag);\n  list.prepend(...Array.from(list.children).slice(0, 8).reverse());\n",
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "site"
    shutil.copytree(DEMO, root / "demo")
    with serving(root) as base:
        (root / "url").write_text(base + "demo/index.html")
        yield root


def test_a_session_exported_as_a_maestro_flow_replays_green_after_the_rows_change_order(
    site: Path, tmp_path: Path, shared_phone: phonewire.Phone
) -> None:
    url = (site / "url").read_text()
    directory = tmp_path / "session"
    with own_phone(tmp_path / "state", trace=directory) as phone:
        phone.open(url)
        refs = {n["identifier"]: r for r, n in phone.snapshot(interactive=True).refs.items() if n.get("identifier")}
        phone.tap("@" + refs["like-5"])
        phone.tap("@" + refs["like-2"], count=2)
        phone.wait('id=like-5 label="Like 1"')
        phone.tap("@" + refs["like-7"])
    recorded = {s["target"]["identifier"]: s["target"]["rect"] for s in read_steps(directory) if s["op"] == "tap"}
    flow = tmp_path / "replay.yaml"
    assert cli_main(["trace", "export", str(directory), "--maestro", str(flow)]) == 0
    exported = flow.read_text()
    assert f'url: "{url}"' in exported and 'id: "like-5"' in exported and "repeat: 2" in exported
    assert "@e" not in exported and "point" not in exported
    assert 'text: "Like 1"' in exported  # the wait, as an assertion

    page = site / "demo" / "index.html"
    source = page.read_text()
    assert source.count(REORDER[0]) == 1
    page.write_text(source.replace(*REORDER))
    shared_phone.open(url)
    now = {n["identifier"]: n["rect"] for n in shared_phone.snapshot().nodes if n.get("identifier") in recorded}
    assert all(now[i]["y"] != rect["y"] for i, rect in recorded.items())  # every row the session touched moved

    result = shared_phone.flow_run(flow)
    assert result.data["passed"] == len(result.data["steps"])
    assert [label(shared_phone, f"like-{i}") for i in (5, 2, 7, 1, 3)] == ["Like 1", "Like 2", "Like 1", "Like 0",
                                                                          "Like 0"]  # fmt: skip


STORING_PAGE = """<!doctype html><title>keeps</title><button id="seen">…</button><script>
const had = `ls=${localStorage.getItem("kept") ?? "none"} cookie=${/kept=yes/.test(document.cookie) ? "yes" : "none"}`;
localStorage.setItem("kept", "yes");
document.cookie = "kept=yes; path=/; max-age=3600";
document.getElementById("seen").textContent = had;
</script>"""


def test_launch_app_with_clear_state_clears_the_apps_storage_and_cookies_and_no_other_origins(
    flows: Path, tmp_path: Path, shared_phone: phonewire.Phone
) -> None:
    def seen() -> str:  # what the page itself read back as it loaded
        return label(shared_phone, "seen")

    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "app.html").write_text(STORING_PAGE)
    with serving(tmp_path / "a") as base_a, serving(tmp_path / "b") as base_b:
        app_a, app_b = base_a + "app.html", base_b + "app.html"
        shared_phone.open(app_a)
        assert seen() == "ls=none cookie=none"
        shared_phone.open(app_b)
        assert seen() == "ls=none cookie=yes"  # cookies are per host, not per port (the web's rule)
        shared_phone.open(app_a)
        assert seen() == "ls=yes cookie=yes"  # a plain relaunch keeps what the app stored
        (flows / "fresh.yaml").write_text(f"url: {app_a}\n---\n- launchApp:\n    clearState: true\n")
        result = shared_phone.flow_run(flows / "fresh.yaml")
        assert "stored data cleared" in result.data["steps"][0]["message"]
        assert seen() == "ls=none cookie=none"  # the page found nothing of its own
        shared_phone.open(app_b)
        assert seen().startswith("ls=yes")  # the other origin's storage is untouched
        assert shared_phone.open(app_a, clear_state=True).data["stateCleared"] is True
        assert seen() == "ls=none cookie=none"
        for app in (app_a, app_b):
            shared_phone.close_app(app)
