"""create_device: a device spec names a backend, or answers a specific error that says what to use instead."""

from __future__ import annotations

import pytest

from phonewire.devices import KINDS, create_device
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


def test_ios_builds_a_webdriveragent_device_without_opening_it() -> None:
    device = create_device("ios:http://127.0.0.1:8100")
    assert device.kind == "ios" and device.describe()["url"] is None  # nothing contacted before open()


def test_an_unknown_kind_is_invalid_request_listing_exactly_the_kinds_that_exist() -> None:
    with pytest.raises(ProtocolError) as info:
        create_device("toaster")
    assert info.value.code == e.INVALID_REQUEST
    assert info.value.hint is not None
    for kind in KINDS:
        assert kind in info.value.hint
    assert "double" not in info.value.hint


@pytest.mark.parametrize(
    "spec", ["web", "web:pixel-7", "android", "android:emulator-5554", "double", "ios", "ios:00008150-0001"]
)
def test_known_specs_build_a_device_without_opening_it(spec: str) -> None:
    device = create_device(spec)
    assert device.kind == spec.partition(":")[0]


def test_an_unknown_kind_is_refused_before_any_backend_is_imported() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from phonewire.devices.registry import check_spec, create_device\n"
        "from phonewire.protocol.errors import ProtocolError\n"
        "for call in (check_spec, create_device):\n"
        "    try:\n"
        "        call('toaster:1')\n"
        "    except ProtocolError as exc:\n"
        "        print(exc.code)\n"
        "loaded = [m for m in sys.modules if m.startswith('phonewire.devices.')]\n"
        "print(sorted(set(loaded) - {'phonewire.devices.registry'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:3] == ["INVALID_REQUEST", "INVALID_REQUEST", "[]"]


def test_check_spec_returns_the_canonical_spec_of_each_kind() -> None:
    from phonewire.devices.registry import check_spec

    assert check_spec("web") == check_spec("web:iphone-15") == "web:iphone-15"
    assert check_spec("android:emulator-5554") == "android:emulator-5554"
    assert (
        check_spec("ios:HTTP://LocalHost:8100/")
        == check_spec("ios:http://localhost:8100")
        == "ios:http://localhost:8100"
    )
    with pytest.raises(ProtocolError) as bad:
        check_spec("ios:http://127.0.0.1:8100/wd/hub")
    assert bad.value.code == e.INVALID_REQUEST and bad.value.hint
    with pytest.raises(ProtocolError) as info:
        check_spec("web:toaster")
    assert info.value.code == e.INVALID_REQUEST


def test_the_runner_help_and_the_launch_hint_come_from_the_registry() -> None:
    from phonewire.devices.registry import REGISTRY, kinds_help, start_hint

    assert kinds_help() == "web[:PROFILE], android[:SERIAL], double or ios[:UDID|:http://HOST:PORT]"
    assert "chromium" in start_hint("web:pixel-7")
    assert "'android:X' is connected" in start_hint("android:X")
    assert "curl http://HOST:PORT/status" in start_hint("ios:http://127.0.0.1:8100")
    assert REGISTRY["ios"].public


def test_devices_lists_every_kind_with_a_lister(monkeypatch: pytest.MonkeyPatch) -> None:
    from phonewire.devices import registry

    monkeypatch.setattr(registry, "_adb_answers", lambda *a: False)
    listed = registry.list_devices()
    assert {d["kind"] for d in listed} == {"web"}
    assert "web:pixel-7" in {d["device"] for d in listed}
