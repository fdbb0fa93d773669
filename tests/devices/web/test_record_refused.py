"""A ``record start`` that the page refuses (a JavaScript dialog covers it) leaves nothing behind: no recording that
would answer ALREADY_RECORDING to the next start, no file that would refuse the same name."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from web_phone import Phone, requires_chromium

from phonewire.devices.web.home import DEMO_APP_ID
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = requires_chromium
pytest.importorskip("av")


def test_a_record_start_a_dialog_refused_leaves_no_recording_and_no_file(phone: Phone, tmp_path: Path) -> None:
    phone.eval("setTimeout(() => alert('Hold on'), 0), 1")
    for _ in range(100):  # until the device has seen the dialog open (a liveness bound, not a speed check)
        if phone.device.dialog(DEMO_APP_ID) is not None:
            break
        phone.run(asyncio.sleep(0.02))
    clip = tmp_path / "clip.webm"
    with pytest.raises(ProtocolError) as refused:
        phone.run(phone.device.record_start(str(clip)))
    assert refused.value.code == e.ELEMENT_COVERED and "Hold on" in refused.value.message
    assert not clip.exists()  # the name stays free
    assert phone.run(phone.device.record_stop())["frames"] == 0  # nothing records
    phone.run(phone.device.button("back"))  # answers the alert
    assert phone.device.dialog(DEMO_APP_ID) is None
    started = phone.run(phone.device.record_start(str(clip)))  # the same name, started for real this time
    assert started["path"] == str(clip)
    assert phone.run(phone.device.record_stop())["path"] == str(clip) and clip.is_file()
