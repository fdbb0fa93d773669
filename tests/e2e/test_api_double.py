"""The Python API (phonewire.Phone) against a real runner process with the double device."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from procs import wait_gone

import phonewire
from phonewire.protocol import errors as e


@pytest.fixture(autouse=True)
def _state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)


def test_public_names_are_exactly_these() -> None:
    assert sorted(phonewire.__all__) == [
        "ActionResult",
        "AgentSession",
        "Phone",
        "ProtocolError",
        "View",
        "__version__",
    ]
    assert phonewire.Phone is phonewire.api.Phone


def test_phone_drives_the_runner_and_stops_it_on_exit(tmp_path: Path) -> None:
    with phonewire.Phone(device="double") as phone:
        assert phone.open("app.api").data["appBundleId"] == "app.api"
        assert phone.app_id == "app.api"
        view = phone.snapshot(interactive=True)
        assert view.text.splitlines()[0] == '@e1 Button "Counter"'  # -i: a labelled line is named by its label
        result = phone.tap("@e1")
        assert result.data["target"]["label"] == "Counter"
        assert "taps=1" in phone.snapshot().text
        phone.fill("role=TextField", "hello")
        assert 'TextField value="hello"' in phone.snapshot().text
        image = phone.screenshot(tmp_path / "shot.png")
        assert image.startswith(b"\x89PNG") and (tmp_path / "shot.png").read_bytes() == image
        runner = phone.session.sender.runner  # type: ignore[attr-defined]
        pid = runner.process.pid
        assert pid and Path(f"/proc/{pid}").exists()
    assert wait_gone(pid)


def test_phone_errors_carry_code_and_hint() -> None:
    with phonewire.Phone(device="double") as phone:
        with pytest.raises(phonewire.ProtocolError) as info:
            phone.snapshot()
        assert info.value.code == e.APP_BUNDLE_ID_REQUIRED
        phone.open("app.err")
        with pytest.raises(phonewire.ProtocolError) as info:
            phone.tap("label=Nowhere")
        assert info.value.code == e.NOT_FOUND and info.value.hint
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.apps()
    assert info.value.code == e.RUNNER_UNAVAILABLE


def test_a_device_spec_no_runner_could_open_raises_invalid_request_and_starts_nothing() -> None:
    threads = threading.active_count()
    for spec, what in (("web:nope", "unknown web device profile 'nope'"), ("zz", "unknown device kind 'zz'")):
        with pytest.raises(phonewire.ProtocolError) as info:
            phonewire.Phone(device=spec)
        assert info.value.code == e.INVALID_REQUEST and what in info.value.message
        assert info.value.hint and info.value.hint.startswith("Use one of")
    assert threading.active_count() == threads
