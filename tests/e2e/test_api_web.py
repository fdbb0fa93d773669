"""The Python API against a real runner and Chromium: a test script's view of the demo app."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from PIL import Image
from procs import wait_gone

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


def label_of(phone: phonewire.Phone, identifier: str) -> object:
    return next(n for n in phone.snapshot().nodes if n["identifier"] == identifier)["label"]


def test_a_script_drives_the_demo_and_the_runner_stops_with_the_phone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
    with phonewire.Phone(device="web") as phone:
        phone.open("dev.phonewire.demo")
        view = phone.snapshot(interactive=True)
        like = next(r for r, n in view.refs.items() if n["identifier"] == "like-5")
        assert phone.tap("@" + like).data["target"]["label"] == "Like 0"
        assert label_of(phone, "like-5") == "Like 1"
        phone.tap("id=tab-form")
        phone.fill("label=Name", "Grace")
        phone.press("enter")  # submits the sign-in form
        assert label_of(phone, "signin-user") == "Grace"
        with pytest.raises(phonewire.ProtocolError) as info:
            phone.tap("role=Link")
        assert info.value.code == e.AMBIGUOUS_MATCH
        image = phone.screenshot(tmp_path / "form.png", scale="css")
        with Image.open(tmp_path / "form.png") as img:
            assert img.size == (393, 852)
        assert image[:8] == b"\x89PNG\r\n\x1a\n"
        jpeg = phone.screenshot(tmp_path / "form.jpg", scale="css")  # the extension chooses JPEG
        assert jpeg[:2] == b"\xff\xd8"
        with Image.open(tmp_path / "form.jpg") as img:
            assert (img.format, img.size) == ("JPEG", (393, 852))
        with pytest.raises(phonewire.ProtocolError) as refused:
            phone.screenshot(tmp_path / "bad.png", format="jpeg")
        assert refused.value.code == e.INVALID_REQUEST
        pid = phone.session.sender.runner.process.pid  # type: ignore[attr-defined]
    assert wait_gone(pid)


def test_scroll_moves_the_content_by_the_amount_asked_and_does_not_fling(shared_phone: phonewire.Phone) -> None:
    def row_tops(phone: phonewire.Phone) -> dict[str, float]:
        return {str(n["identifier"]): n["rect"]["y"] for n in phone.snapshot().nodes if n["type"] == "Button"}

    with contextlib.nullcontext(shared_phone) as phone:
        phone.open("dev.phonewire.demo")
        height = phone.viewport()["height"]
        before = row_tops(phone)
        phone.scroll("down", amount=0.5)
        after = row_tops(phone)
        after_again = row_tops(phone)  # a fling would still be moving the list
        assert after == after_again
        moved = [before[i] - after[i] for i in before.keys() & after.keys() if i.startswith("like-")]
        assert moved, "some row must stay on screen after half a screen of scrolling"
        assert 0.4 * height <= moved[0] <= 0.6 * height  # half a screen, give or take touch slop


def test_fill_replaces_the_whole_value_even_beyond_the_fields_width_or_first_lines(
    shared_phone: phonewire.Phone,
) -> None:
    # The tap that focuses a field puts the caret where it lands: before the end of a value wider than the field
    # or spread over several lines.  fill must still leave exactly the new text, never the old text's tail.

    def value_of(phone: phonewire.Phone, identifier: str) -> object:
        return next(n for n in phone.snapshot().nodes if n["identifier"] == identifier)["value"]

    long = "Ada Lovelace, Countess of Lovelace — mathematician 🧮👩‍💻 ünïcødé ✓ 東京, and text past the edge"
    with contextlib.nullcontext(shared_phone) as phone:
        phone.open("dev.phonewire.demo")
        phone.tap("id=tab-form")
        phone.fill("id=name", long)
        assert value_of(phone, "name") == long
        phone.tap("id=search")  # the name field loses focus and scrolls back to its start
        phone.fill("id=name", "Bob ✓")
        assert value_of(phone, "name") == "Bob ✓"
        phone.fill("id=notes", "line one\nline two is here\nline three")
        phone.tap("id=search")
        phone.fill("id=notes", "X")
        assert value_of(phone, "notes") == "X"
        # at a point: the field there is cleared the same way (it kept its old text in front of the new before)
        rect = next(n for n in phone.snapshot().nodes if n["identifier"] == "name")["rect"]
        result = phone.fill(f"{rect['x'] + rect['width'] / 2} {rect['y'] + rect['height'] / 2}", "Cy")
        assert value_of(phone, "name") == "Cy"
        assert result.data["cleared"] == len("Bob ✓")
        assert result.data["target"]["type"] == "TextField"
