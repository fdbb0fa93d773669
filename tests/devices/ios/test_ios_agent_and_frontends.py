"""The agent view and selectors on the iOS fixtures, and every front end (Python API, CLI + daemon, bridge, MCP)
driving a real runner for ``ios:http://127.0.0.1:PORT`` against the WDA double (screens: the recorded XML sources;
JSON source derived from them).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import mcp.types as mt
import pytest
from cli_harness import Cli, cli_for
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from procs import wait_gone
from wda_double import FIXTURES, FORM_APP, SETTINGS_APP, WdaDouble

import phonewire
from phonewire.agent.selectors import match, parse
from phonewire.agent.view import render
from phonewire.devices.ios.source import parse_xml_source
from phonewire.protocol import errors as e
from phonewire.protocol.snapshot import build_snapshot


@pytest.fixture
def wda() -> Iterator[WdaDouble]:
    with WdaDouble.with_fixture_apps() as double:
        yield double


def fixture_nodes(name: str) -> list[dict[str, object]]:
    tree = parse_xml_source((FIXTURES / name).read_text(encoding="utf-8"), "app")
    nodes: list[dict[str, object]] = build_snapshot(tree, tree.rect, "ios-wda")["nodes"]
    return nodes


# --- agent view and selectors on the fixtures -----------------------------------------------------------------------
def test_agent_view_of_settings_lists_the_title_and_each_cell_once() -> None:
    """issue 27: ``-i`` says each thing once: a cell's caption (with an id of its own) and subtitle are on the cell's
    line, the screen's title (a navigation bar's text) is kept."""
    lines = render(fixture_nodes("ios-settings-home-appium-xcuitest.xml"), interactive=True).text.splitlines()
    assert lines[:3] == [
        '@e1 StaticText "Settings"',
        '@e2 Cell "Sign in to your iPhone" value="Set up iCloud, the App Store, and more."',
        '@e3 Cell "General"',
    ]
    assert len(lines) == 14 and all(line.startswith("@e") for line in lines)  # the title and 13 cells, no indent


def test_the_full_view_of_settings_keeps_the_captions_with_their_identifiers() -> None:
    lines = render(fixture_nodes("ios-settings-home-appium-xcuitest.xml")).text.splitlines()
    assert '  @e5 StaticText "Sign in to your iPhone" id=APPLE_ACCOUNT' in lines


def test_the_interactive_view_of_settings_leaves_out_nothing_a_person_sees() -> None:
    """issue 27: every label and value of every element the XML marks visible is in ``snapshot -i``'s text."""
    from xml.etree import ElementTree

    xml = (FIXTURES / "ios-settings-home-appium-xcuitest.xml").read_text(encoding="utf-8")
    text = render(fixture_nodes("ios-settings-home-appium-xcuitest.xml"), interactive=True).text
    seen = {
        el.get(attr) or ""
        for el in ElementTree.fromstring(xml).iter()
        if el.get("visible") == "true" and el.tag != "XCUIElementTypeApplication"
        for attr in ("label", "value")
    } - {""}
    assert len(seen) == 15  # the title, 13 cell captions and one subtitle
    assert sorted(t for t in seen if f'"{t}"' not in text) == []


def test_agent_view_of_the_form_shows_fields_and_secure_fields() -> None:
    text = render(fixture_nodes("ios-signup-form-textfields-appium-xcuitest.xml"), interactive=True).text
    assert '@e6 TextField "hoge@example.com"' in text
    assert '@e8 SecureTextField "password1"' in text
    assert '@e13 TextField value="First Name"' in text


@pytest.mark.parametrize(
    ("selector", "want"),
    [
        ("General", ("Cell", "General")),
        ("id=APPLE_ACCOUNT", ("StaticText", "Sign in to your iPhone")),
        ("role=Cell label=Privacy", ("Cell", "Privacy")),
        ("text=passwords", ("Cell", "Passwords")),
    ],
)
def test_selectors_find_one_node_on_the_settings_fixture(selector: str, want: tuple[str, str]) -> None:
    found = match(parse(selector), fixture_nodes("ios-settings-home-appium-xcuitest.xml"))
    assert [(n["type"], n["label"]) for n in found] == [want]


def test_selectors_on_the_keyboards_fixture_read_switch_values() -> None:
    nodes = fixture_nodes("ios-settings-general-keyboards-appium-xcuitest.xml")
    assert [n["value"] for n in match(parse("role=Switch label=Auto-Correction"), nodes)] == ["0"]
    on = match(parse("role=Switch value=1"), nodes)
    assert on and all(n["value"] == "1" for n in on)


def test_agent_view_renders_every_fixture() -> None:
    for path in sorted(FIXTURES.glob("*.xml")):
        view = render(fixture_nodes(path.name), interactive=False)
        assert view.lines and all(line.lstrip().startswith("@e") for line in view.lines), path.name


# --- front ends ---------------------------------------------------------------------------------------------------
@pytest.fixture
def _state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)


@pytest.mark.usefixtures("_state_dir")
def test_python_api_opens_taps_by_selector_and_fills_a_field(wda: WdaDouble) -> None:
    with phonewire.Phone(device=f"ios:{wda.url}") as phone:
        assert phone.open(SETTINGS_APP).data["appBundleId"] == SETTINGS_APP
        assert '@e3 Cell "General"' in phone.snapshot(interactive=True).text
        before = wda.count("POST /wda/tap")
        phone.tap("General")
        assert wda.count("POST /wda/tap") == before + 1  # one tap, one /wda/tap
        assert wda.bodies("POST /wda/tap")[-1] == {"x": 195, "y": 270.5}  # the centre of the cell (0,248 390x45)
        phone.open(FORM_APP)
        phone.fill('label="hoge@example.com"', "me@example.org")
        assert 'TextField "hoge@example.com" value="me@example.org"' in phone.snapshot().text
        with pytest.raises(phonewire.ProtocolError) as info:
            phone.tap("label=Nowhere")
        assert info.value.code == e.NOT_FOUND and info.value.hint
        with pytest.raises(phonewire.ProtocolError) as back:
            phone.press("back")
        assert back.value.code == e.UNSUPPORTED_OPERATION
        runner_pid = phone.session.sender.runner.process.pid  # type: ignore[attr-defined]
    assert wait_gone(runner_pid)


@pytest.mark.usefixtures("_state_dir")
def test_python_api_answers_alerts_by_tapping_their_buttons_and_fills_a_prompt(wda: WdaDouble) -> None:
    """Through the real runner: a system alert is an Alert whose buttons a tap answers with exactly one
    POST /alert/accept; what is under it is covered (refused, nothing sent); an app's prompt alert is filled."""
    with phonewire.Phone(device=f"ios:{wda.url}") as phone:
        phone.open(SETTINGS_APP)
        wda.alert = ("“Settings” Would Like to Send You Notifications", ["Don’t Allow", "Allow"])
        view = phone.snapshot(interactive=True).text
        assert 'Alert "“Settings” Would Like to Send You Notifications"' in view and 'Button "Allow"' in view
        taps = wda.count("POST /wda/tap")
        with pytest.raises(phonewire.ProtocolError) as covered:
            phone.tap("General")
        assert covered.value.code == e.ELEMENT_COVERED and covered.value.hint
        mark = len(wda.calls)
        phone.tap("Allow")
        routes = wda.routes()[mark:]
        assert routes.count("POST /alert/accept") == 1 and wda.bodies("POST /alert/accept") == [{"name": "Allow"}]
        after = routes[routes.index("POST /alert/accept") + 1 :]  # the reply's settled diff reads the screen again
        assert all(route.startswith("GET ") or route == "POST /wda/apps/state" for route in after), after  # reads
        assert wda.count("POST /wda/tap") == taps
        assert wda.alert_answers == ["Allow"] and "Alert" not in phone.snapshot(interactive=True).text
        wda.show_app_alert("Rename", "Enter a name", ["Cancel", "Save"], field="Name")
        phone.fill("role=TextField", "Home")
        assert 'TextField "Name" value="Home"' in phone.snapshot().text
        phone.tap("Save")
        assert wda.alert_answers == ["Allow", "Save"] and wda.app_alert is None


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    with cli_for(tmp_path, monkeypatch) as c:
        yield c


def test_cli_through_the_daemon_drives_the_ios_runner(cli: Cli, wda: WdaDouble) -> None:
    device = ("--device", f"ios:{wda.url}/")  # a trailing slash names the same phone
    assert cli(*device, "open", SETTINGS_APP).code == 0
    snap = cli(*device, "snapshot", "-i")
    assert snap.code == 0 and '@e3 Cell "General"' in snap.out, snap.err
    taps = wda.count("POST /wda/tap")
    assert cli(*device, "tap", "@e3").code == 0
    assert wda.count("POST /wda/tap") == taps + 1
    devices = cli("devices", "--json")
    assert devices.code == 0
    failed = cli(*device, "press", "back")
    assert failed.code != 0 and e.UNSUPPORTED_OPERATION in failed.err + failed.out
    assert cli(*device, "close").code == 0


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_TIME_SCALE",
                                                              "PHONEWIRE_RUNNER_PORT")}  # fmt: skip


def test_bridge_get_tree_and_tap_element(wda: WdaDouble) -> None:
    argv = [sys.executable, "-m", "phonewire", "bridge", "--port", "0", "--device", f"ios:{wda.url}",
            "--app", SETTINGS_APP]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env())
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(b"PHONEWIRE_BRIDGE_READY port="), line
        port = int(line.split(b"=")[1])
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock, sock.makefile("rwb") as stream:

            def call(method: str, **params: object) -> dict[str, object]:
                stream.write(json.dumps({"id": 1, "method": method, "params": params}).encode() + b"\n")
                stream.flush()
                reply: dict[str, object] = json.loads(stream.readline())
                return reply

            tree = call("get_tree")
            assert "General" in json.dumps(tree), tree
            before = wda.count("POST /wda/tap")
            tapped = call("tap", target="General")
            assert "error" not in tapped, tapped
            assert wda.count("POST /wda/tap") == before + 1
    finally:
        proc.terminate()
        proc.wait(30)
        if proc.stdout is not None:
            proc.stdout.close()


def test_mcp_snapshot_and_tap(wda: WdaDouble) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "phonewire", "mcp", "--device", f"ios:{wda.url}", "--app", SETTINGS_APP],
        env=_env(),
    )

    async def main() -> None:
        with Path(os.devnull).open("w") as errlog:  # noqa: ASYNC230 - opened once, before any await
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                opened = await session.call_tool("open_app", {"app_id": SETTINGS_APP})
                assert not opened.is_error, opened.content
                snap = await session.call_tool("snapshot", {"interactive": True})
                block = snap.content[0]
                assert isinstance(block, mt.TextContent) and 'Cell "General"' in block.text
                before = wda.count("POST /wda/tap")
                tapped = await session.call_tool("tap", {"target": "General"})
                assert not tapped.is_error, tapped.content
                assert wda.count("POST /wda/tap") == before + 1

    asyncio.run(main())
