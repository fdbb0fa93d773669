"""docs/ios.md matches the code (role table, failure codes), and ``ios`` / ``ios:UDID`` discovery through stand-in
``xcrun`` (simctl, devicectl) and go-ios ``ios`` executables on PATH that replay tool output.  That output is
RECONSTRUCTED in the tools' documented JSON shapes (fixtures/tools/README.md), not captured from a Mac."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from wda_double import FORM_APP, WdaDouble

from phonewire.devices.ios.device import IosDevice
from phonewire.devices.ios.discovery import DEFAULT_WDA_URL, Found, ios_devices, phones, resolve
from phonewire.devices.ios.source import TYPE_ROLES
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import Request
from phonewire.runner.dispatch import Dispatcher

DOC = (Path(__file__).resolve().parents[3] / "docs" / "ios.md").read_text(encoding="utf-8")
TYPE_ROW = next(line for line in DOC.splitlines() if line.startswith("| `type` | `XCUIElementType"))


@pytest.mark.parametrize(("xcui_type", "role"), sorted(TYPE_ROLES.items()))
def test_the_type_row_of_docs_ios_md_names_every_mapped_type(xcui_type: str, role: str) -> None:
    assert xcui_type in TYPE_ROW and role in TYPE_ROW


def test_the_failure_table_names_every_code_the_backend_maps_to() -> None:
    for code in ("DEVICE_UNAVAILABLE", "APP_UNKNOWN", "TEXT_INPUT_NOT_FOCUSED", "UNSUPPORTED_OPERATION",
                 "INVALID_REQUEST", "SNAPSHOT_FAILED", "COMMAND_FAILED"):  # fmt: skip
        assert f"| {code} |" in DOC, code


TOOLS = Path(__file__).parent / "fixtures" / "tools"  # reconstructed outputs, not captured: see its README.md
SIM_UDID = "5B1E6A0C-3C5A-4B7E-9F0B-2A6F3E1D8C11"
PHONE_UDID = "00008110-001A2B3C4D5E801E"
AWAY_UDID = "00008030-000C1D2E3F40802E"
DEVICECTL_FAILS = "ERROR: The operation couldn’t be completed. (CoreDevice error 1.)"
NO_DEVICECTL = 'xcrun: error: unable to find utility "devicectl", not a developer tool or in PATH'


def executable(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def stand_ins(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    simctl: str | None = "simctl-list-devices-booted.json",
    simctl_code: int = 0,
    devicectl: str | None = "devicectl-list-devices.json",
    go_ios: str | None = None,
) -> Path:
    """Stand-in ``xcrun`` (simctl prints a listing; devicectl writes one to its --json-output FILE, or is missing as
    on Xcode 14) and, when ``go_ios`` is given, a stand-in go-ios ``ios``; PATH holds only them (and /bin for sh,
    cat).  Each records its argv in argv.txt."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "argv.txt"
    record.touch()
    if simctl is not None:
        sim_out = TOOLS / simctl if (TOOLS / simctl).exists() else None
        if sim_out is None:
            (tmp_path / "sim.txt").write_text(simctl, encoding="utf-8")
        sim_file = sim_out or tmp_path / "sim.txt"
        if devicectl is None:
            devicectl_part = f"  echo '{NO_DEVICECTL}' >&2; exit 72 ;;\n"
        elif devicectl == "fail":
            devicectl_part = f"  echo '{DEVICECTL_FAILS}' >&2; exit 1 ;;\n"
        else:
            devicectl_part = (
                f'  out=""; prev=""\n  for a in "$@"; do [ "$prev" = "--json-output" ] && out="$a"; prev="$a"; done\n'
                f'  cat "{TOOLS / devicectl}" > "$out"; exit 0 ;;\n'
            )
        executable(
            bin_dir / "xcrun",
            f'#!/bin/sh\necho "xcrun $*" >> "{record}"\ncase "$1" in\n'
            f'simctl)\n  cat "{sim_file}"; exit {simctl_code} ;;\ndevicectl)\n{devicectl_part}esac\nexit 1\n',
        )
    if go_ios is not None:
        executable(bin_dir / "ios", f'#!/bin/sh\necho "ios $*" >> "{record}"\ncat "{TOOLS / go_ios}"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/bin{os.pathsep}/usr/bin")
    return record


def test_ios_lists_simulators_and_devicectl_devices_and_needs_a_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = stand_ins(tmp_path, monkeypatch)
    assert [(p.udid, p.simulator, p.source, p.problem) for p in phones()] == [
        (SIM_UDID, True, "simctl", None),
        (PHONE_UDID, False, "devicectl", None),
        (AWAY_UDID, False, "devicectl", "not connected"),  # the watch in the listing is skipped
    ]
    lines = record.read_text().splitlines()
    assert lines[0] == "xcrun simctl list devices booted --json"
    assert lines[1].startswith("xcrun devicectl list devices --json-output /")
    with pytest.raises(ProtocolError) as two:
        resolve(None, {})
    assert two.value.code == e.DEVICE_UNAVAILABLE and "2 phones are available" in two.value.message
    assert SIM_UDID in (two.value.hint or "") and PHONE_UDID in (two.value.hint or "")
    assert resolve(SIM_UDID, {}) == Found(SIM_UDID, DEFAULT_WDA_URL, True)
    device = resolve(PHONE_UDID, {"PHONEWIRE_WDA_URL": "http://127.0.0.1:8200"})
    assert device == Found(PHONE_UDID, "http://127.0.0.1:8200", False)
    with pytest.raises(ProtocolError) as away:
        resolve(AWAY_UDID, {})
    assert away.value.code == e.DEVICE_UNAVAILABLE and "not connected" in away.value.message
    assert "Plug it in" in (away.value.hint or "")
    listed = {d["device"]: d["description"] for d in ios_devices()}
    assert listed == {
        f"ios:{SIM_UDID}": "iPhone 15 (simulator, iOS 17.5)",
        f"ios:{PHONE_UDID}": "Ann’s iPhone (device, iOS 17.5.1)",
        f"ios:{AWAY_UDID}": "Test iPhone SE (device, iOS 16.7.2): not connected",
    }


def test_ios_picks_the_only_booted_simulator_and_its_wda_on_8100(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = stand_ins(tmp_path, monkeypatch, devicectl=None)  # Xcode 14: no devicectl, no go-ios
    found = resolve(None, {})
    assert found == Found(SIM_UDID, DEFAULT_WDA_URL, True)
    assert record.read_text().splitlines()[0] == "xcrun simctl list devices booted --json"
    assert resolve(None, {"PHONEWIRE_WDA_URL": "http://127.0.0.1:8200"}).url == "http://127.0.0.1:8200"
    assert ios_devices() == [{"device": f"ios:{SIM_UDID}", "kind": "ios",
                              "description": "iPhone 15 (simulator, iOS 17.5)"}]  # fmt: skip


def test_without_xcode_go_ios_lists_the_connected_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = stand_ins(tmp_path, monkeypatch, simctl=None, go_ios="go-ios-list-details.json")
    assert resolve(None, {}) == Found(PHONE_UDID, DEFAULT_WDA_URL, False)
    assert record.read_text().splitlines() == ["ios list --details"]
    assert ios_devices() == [{"device": f"ios:{PHONE_UDID}", "kind": "ios",
                              "description": "iPhone14,2 (device, iOS 17.5.1)"}]  # fmt: skip


def test_xcode_without_devicectl_falls_back_to_go_ios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = stand_ins(tmp_path, monkeypatch, devicectl=None, go_ios="go-ios-list-details.json")
    assert [p.udid for p in phones()] == [SIM_UDID, PHONE_UDID]
    assert [line.split()[:2] for line in record.read_text().splitlines()] == [
        ["xcrun", "simctl"], ["xcrun", "devicectl"], ["ios", "list"]]  # fmt: skip


def test_a_failing_devicectl_leaves_the_simulators_usable_and_is_named_when_nothing_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stand_ins(tmp_path, monkeypatch, devicectl="fail")
    assert resolve(None, {}) == Found(SIM_UDID, DEFAULT_WDA_URL, True)
    with pytest.raises(ProtocolError) as info:
        resolve(PHONE_UDID, {})
    assert info.value.code == e.DEVICE_UNAVAILABLE and "CoreDevice error 1" in info.value.message


def test_ios_udid_not_listed_names_the_listed_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_ins(tmp_path, monkeypatch, devicectl=None)
    with pytest.raises(ProtocolError) as info:
        resolve("00008150-0001", {})
    assert info.value.code == e.DEVICE_UNAVAILABLE and SIM_UDID in (info.value.hint or "")
    assert "ios:http://127.0.0.1:8100" in (info.value.hint or "")


def test_no_booted_simulator_and_no_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_ins(tmp_path, monkeypatch, simctl='{"devices": {}}', devicectl=None)
    with pytest.raises(ProtocolError) as none:
        resolve(None, {})
    assert none.value.code == e.DEVICE_UNAVAILABLE and "no simulator is booted" in none.value.message
    assert none.value.hint


def test_a_failing_simctl_is_device_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_ins(tmp_path, monkeypatch, simctl="xcrun: error: unable to find utility simctl", simctl_code=72)
    with pytest.raises(ProtocolError) as info:
        resolve(None, {})
    assert info.value.code == e.DEVICE_UNAVAILABLE and info.value.hint
    assert ios_devices() == []


def test_no_tools_at_all_says_what_to_install_or_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_ins(tmp_path, monkeypatch, simctl=None)
    with pytest.raises(ProtocolError) as info:
        resolve(None, {})
    assert info.value.code == e.DEVICE_UNAVAILABLE and "xcrun" in info.value.message
    assert "go-ios" in (info.value.hint or "") and "ios:http://" in (info.value.hint or "")
    assert ios_devices() == []


# --- the calls table of docs/ios.md, measured -----------------------------------------------------------------------
def _calls_rows() -> dict[str, tuple[str, str]]:
    lines = DOC.split("| command | WDA (session-scoped unless marked) |", 1)[1].splitlines()[2:]
    rows = {}
    for line in lines:
        if not line.startswith("| "):
            break
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        rows[cells[0]] = (cells[-2], cells[-1])
    return rows


CALLS_ROWS = _calls_rows()
NOTIFY = ("“Settings” Would Like to Send You Notifications", ["Don’t Allow", "Allow"])
Step = tuple[str, dict[str, Any]]
#: Row → (setup commands, the measured command, a change to the double before the setup).  All on the form app.
MEASURED: dict[str, tuple[list[Step], Step, str]] = {
    "`tap`": ([], ("tap", {"x": 10, "y": 300}), ""),
    "`tap` with `numberOfTaps` > 1": ([], ("tap", {"x": 10, "y": 300, "numberOfTaps": 2}), ""),
    "`longPress`": ([], ("longPress", {"x": 10, "y": 300, "durationMs": 500}), ""),
    "`drag`": ([], ("drag", {"fromX": 180, "fromY": 600, "toX": 180, "toY": 200}), ""),
    "`type`": ([("tap", {"x": 300, "y": 115})], ("type", {"text": "a"}), ""),
    "`keyboardDelete` / `keyboardReturn`": ([("tap", {"x": 300, "y": 115})], ("keyboardDelete", {}), ""),
    "`snapshot`": ([], ("snapshot", {}), ""),
    "`snapshot` with the app's own alert up": ([], ("snapshot", {}), "app alert"),
    "`snapshot` with a system alert up": ([], ("snapshot", {}), "system alert"),
    "`tap` inside an alert button of the last snapshot": ([], ("tap", {"button": "Allow"}), "system alert"),
    "`viewport`": ([], ("viewport", {}), ""),
    "`button`": ([], ("button", {"button": "home"}), ""),
    "`screenshot`": ([], ("screenshot", {"format": "png", "scale": "device"}), ""),
    "`launchApp`": ([], ("launchApp", {}), ""),
    "`terminateApp`": ([], ("terminateApp", {}), ""),
    "`listApps`": ([], ("listApps", {}), ""),
    "`openUrl`": ([], ("openUrl", {"url": "prefs:root=General"}), ""),
    "`reset`": ([], ("reset", {}), ""),
}
DEVICE_SCOPED = {"button", "screenshot", "listApps", "openUrl", "reset"}


def _measure(row: str, after_snapshot: bool) -> int:
    """WDA calls of the row's command through the runner's dispatcher: right after a snapshot of the app, or right
    after a tap (a mutation)."""
    setup, (command, given), change = MEASURED[row]

    async def main(wda: WdaDouble) -> int:
        device = IosDevice(wda.url, scale=1.0)
        await device.open()
        dispatcher = Dispatcher(device)

        async def send(name: str, fields: dict[str, Any]) -> dict[str, Any]:
            app = None if name in DEVICE_SCOPED else FORM_APP
            env = await dispatcher.run(Request(name, app_id=app, args=fields))
            assert env.ok, (row, name, env.error)
            return dict(env.data or {})

        try:
            await send("launchApp", {})
            for name, fields in setup:
                await send(name, fields)
            if change == "app alert":
                wda.show_app_alert("Discard?", "Your changes will be lost.", ["Cancel", "Discard"])
            elif change == "system alert":
                wda.alert = NOTIFY
            if after_snapshot:
                snap = await send("snapshot", {})
            else:
                await send("tap", {"x": 1, "y": 1})
            args = given
            if "button" in given and command == "tap":
                node = next(n for n in snap["nodes"] if n["label"] == given["button"] and n["type"] == "Button")
                r = node["rect"]
                args = {"x": r["x"] + r["width"] / 2, "y": r["y"] + r["height"] / 2}
            mark = len(wda.calls)
            await send(command, args)
            return len(wda.calls) - mark
        finally:
            await device.close()

    with WdaDouble.with_fixture_apps() as wda:
        return asyncio.run(main(wda))


def test_the_calls_table_has_a_measured_row_for_every_command() -> None:
    assert set(CALLS_ROWS) - {"`status`, `uptime`"} == set(MEASURED)  # status never reaches the device


@pytest.mark.parametrize("row", sorted(MEASURED))
def test_the_calls_table_of_docs_ios_md_is_what_the_double_counts(row: str) -> None:
    after_snapshot, otherwise = CALLS_ROWS[row]
    assert str(_measure(row, after_snapshot=True)) == after_snapshot
    if otherwise != "–":
        assert str(_measure(row, after_snapshot=False)) == otherwise
