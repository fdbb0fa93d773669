"""``fill`` on a slider the page draws (devices/web/sliders.py): its thumb dragged to the value, as a finger sets it,
on the W3C's APG sliders (each takes a drag or keys only: no value to set, no click on its rail) and on a page's
whole-control slider that moves in steps (Quasar's shape).  Judged by each page's own state: the color the color
viewer shows, the seek slider's time, the page's log of the values it set."""

from __future__ import annotations

import pytest
from aim_site import ApgSite
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


def line(phone: phonewire.Phone, selector: str) -> str:
    lines = [ln for ln in phone.snapshot().text.splitlines() if selector in ln]
    assert len(lines) == 1, lines
    return lines[0]


def test_the_apg_color_viewer_slider_is_set_by_fill_and_the_page_shows_the_color(
    web_phone: phonewire.Phone, apg_site: ApgSite
) -> None:
    phone = web_phone
    phone.open(apg_site.url("patterns/slider/examples/slider-color-viewer.html"))
    phone.find("role=Slider label=Red")
    for value, rgb in (("200", "200, 128, 128"), ("37", "37, 128, 128"), ("255", "255, 128, 128")):
        result = phone.fill("role=Slider label=Red", value)
        assert str(result.data.get("message")).startswith(f"set to '{value}' (its thumb dragged"), result.data
        assert f'value="{rgb}"' in line(phone, 'TextField "Color (RGB):"')  # the example's own reading
    assert 'value="128"' in line(phone, 'Slider "Green"')  # the other sliders are as they were


def test_the_apg_vertical_temperature_and_seek_sliders_take_their_values(
    web_phone: phonewire.Phone, apg_site: ApgSite
) -> None:
    phone = web_phone
    phone.open(apg_site.url("patterns/slider/examples/slider-temperature.html"))
    phone.find("id=id-temp-slider")
    phone.scroll("down", amount=0.5)  # (the whole 341-point slider on the screen)
    phone.fill("id=id-temp-slider", "30")
    assert 'value="30.0 degrees Celsius"' in line(phone, "id=id-temp-slider")
    phone.fill("id=id-temp-slider", "12.5")
    assert 'value="12.5 degrees Celsius"' in line(phone, "id=id-temp-slider")
    phone.open(apg_site.url("patterns/slider/examples/slider-seek.html"))
    phone.find("id=id-seek")
    phone.fill("id=id-seek", "120")
    assert 'value="2 Minutes"' in line(phone, 'Slider "Seek"')


def test_a_stepped_slider_ends_on_the_nearest_value_and_says_so(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone = web_phone
    phone.open(hostile_site.url("sliders.html"))
    lines = phone.snapshot().text.splitlines()
    at = next(i for i, ln in enumerate(lines) if 'Slider "Volume"' in ln)
    assert not lines[at + 1].startswith("  "), lines  # its focusable thumb is part of it (children presentational)
    done = phone.fill("role=Slider label=Volume", "80")
    assert done.data.get("message", "").startswith("set to '80'"), done.data
    assert "volume 80" in phone.snapshot().text
    near = phone.fill("role=Slider label=Volume", "33")
    message = str(near.data.get("message"))
    took = message.split("'")[1]
    assert took in ("30", "35") and "asked '33', the closest it took" in message, message  # steps of 5
    assert f"volume {took}" in phone.snapshot().text
    phone.fill("role=Slider label=Volume", "35")
    back = phone.fill("role=Slider label=Volume", "34")  # its closest is where it stands: moved, and back again
    assert str(back.data.get("message")).startswith("set to '35'"), back.data
    with pytest.raises(phonewire.ProtocolError) as options:
        phone.select("role=Slider label=Volume", ["40"])
    assert options.value.code == e.INVALID_REQUEST and "fill" in (options.value.hint or ""), options.value


def test_a_slider_that_takes_no_drag_and_values_it_cannot_hold_are_refused(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone = web_phone
    phone.open(hostile_site.url("sliders.html"))
    with pytest.raises(phonewire.ProtocolError) as stuck:
        phone.fill("role=Slider label=Stuck", "8")
    assert stuck.value.code == e.COMMAND_FAILED and "did not move" in stuck.value.message, stuck.value
    assert "press arrowright" in (stuck.value.hint or "")
    for value, words in (("140", "outside the slider's range (0 to 100)"), ("loud", "takes a number")):
        with pytest.raises(phonewire.ProtocolError) as refused:
            phone.fill("role=Slider label=Volume", value)
        assert refused.value.code == e.INVALID_REQUEST and words in refused.value.message, refused.value
    said = next(n for n in phone.snapshot().nodes if n.get("identifier") == "log")
    assert said.get("label") == "set:", said  # nothing was dragged by the refusals
