"""create_device: a device spec names a backend, or answers a specific error that says what to use instead."""

from __future__ import annotations

import pytest

from phonewire.devices import KINDS, create_device
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


def test_ios_is_refused_as_unsupported_with_a_hint_naming_what_works() -> None:
    with pytest.raises(ProtocolError) as info:
        create_device("ios:00008150-0001")
    assert info.value.code == e.UNSUPPORTED_OPERATION
    assert info.value.hint is not None and "web:iphone-15" in info.value.hint


def test_an_unknown_kind_is_invalid_request_listing_exactly_the_kinds_that_exist() -> None:
    with pytest.raises(ProtocolError) as info:
        create_device("toaster")
    assert info.value.code == e.INVALID_REQUEST
    assert info.value.hint is not None
    for kind in KINDS:
        assert kind in info.value.hint
    assert "ios" not in info.value.hint and "double" not in info.value.hint


@pytest.mark.parametrize("spec", ["web", "web:pixel-7", "android", "android:emulator-5554", "double"])
def test_known_specs_build_a_device_without_opening_it(spec: str) -> None:
    device = create_device(spec)
    assert device.kind == spec.partition(":")[0]
