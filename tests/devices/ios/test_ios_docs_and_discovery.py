"""docs/ios.md matches the code (role table, failure codes), and ``ios`` / ``ios:UDID`` discovery through a stand-in
``xcrun`` on PATH that replays ``simctl list devices booted --json`` output in the shape simctl prints."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from phonewire.devices.ios.discovery import DEFAULT_WDA_URL, ios_devices, resolve
from phonewire.devices.ios.source import TYPE_ROLES
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

DOC = (Path(__file__).resolve().parents[3] / "docs" / "ios.md").read_text(encoding="utf-8")
TYPE_ROW = next(line for line in DOC.splitlines() if line.startswith("| `type` | `XCUIElementType"))


@pytest.mark.parametrize(("xcui_type", "role"), sorted(TYPE_ROLES.items()))
def test_the_type_row_of_docs_ios_md_names_every_mapped_type(xcui_type: str, role: str) -> None:
    assert xcui_type in TYPE_ROW and role in TYPE_ROW


def test_the_failure_table_names_every_code_the_backend_maps_to() -> None:
    for code in ("DEVICE_UNAVAILABLE", "APP_UNKNOWN", "TEXT_INPUT_NOT_FOCUSED", "UNSUPPORTED_OPERATION",
                 "INVALID_REQUEST", "SNAPSHOT_FAILED", "COMMAND_FAILED"):  # fmt: skip
        assert f"| {code} |" in DOC, code


BOOTED = {
    "devices": {
        "com.apple.CoreSimulator.SimRuntime.iOS-17-5": [
            {"state": "Booted", "isAvailable": True, "name": "iPhone 15",
             "udid": "5B1E6A0C-3C5A-4B7E-9F0B-2A6F3E1D8C11", "deviceTypeIdentifier": "iPhone-15"},
        ],
        "com.apple.CoreSimulator.SimRuntime.iOS-16-4": [],
    }
}  # fmt: skip


def stand_in_xcrun(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, listing: object, code: int = 0) -> Path:
    """An ``xcrun`` on PATH that records its argv and prints ``listing`` as simctl's JSON."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "argv.txt"
    (tmp_path / "listing.json").write_text(json.dumps(listing))
    script = bin_dir / "xcrun"
    script.write_text(
        f'#!/bin/sh\necho "$@" >> {record}\ncat {tmp_path / "listing.json"}\nexit {code}\n', encoding="utf-8"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return record


def test_ios_picks_the_only_booted_simulator_and_its_wda_on_8100(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = stand_in_xcrun(tmp_path, monkeypatch, BOOTED)
    found = resolve(None, {})
    assert (found.udid, found.url) == ("5B1E6A0C-3C5A-4B7E-9F0B-2A6F3E1D8C11", DEFAULT_WDA_URL)
    assert record.read_text().split() == ["simctl", "list", "devices", "booted", "--json"]
    assert resolve(None, {"PHONEWIRE_WDA_URL": "http://127.0.0.1:8200"}).url == "http://127.0.0.1:8200"
    assert ios_devices() == [{"device": "ios:5B1E6A0C-3C5A-4B7E-9F0B-2A6F3E1D8C11", "kind": "ios",
                              "description": "iPhone 15 (simulator)"}]  # fmt: skip


def test_ios_udid_not_booted_lists_the_booted_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in_xcrun(tmp_path, monkeypatch, BOOTED)
    with pytest.raises(ProtocolError) as info:
        resolve("00008150-0001", {})
    assert info.value.code == e.DEVICE_UNAVAILABLE and "5B1E6A0C" in (info.value.hint or "")


def test_no_booted_simulator_and_a_failing_simctl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in_xcrun(tmp_path, monkeypatch, {"devices": {}})
    with pytest.raises(ProtocolError) as none:
        resolve(None, {})
    assert none.value.code == e.DEVICE_UNAVAILABLE and "no simulator is booted" in none.value.message


def test_a_failing_simctl_is_device_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in_xcrun(tmp_path, monkeypatch, "xcrun: error: unable to find utility simctl", code=72)
    with pytest.raises(ProtocolError) as info:
        resolve(None, {})
    assert info.value.code == e.DEVICE_UNAVAILABLE and info.value.hint
    assert ios_devices() == []
