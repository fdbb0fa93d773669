"""The phone's repertoire on Android (issue 24) against the agent double (uiautomator2's documented calls and
reply shapes): the device clipboard, rotation (the viewport turns, taps still map points to pixels), keys with
Android's meta state; what the platform's API does not offer is UNSUPPORTED_OPERATION with nothing sent."""

from __future__ import annotations

import pytest
from android_agent_double import AgentDouble
from test_android_device import FIXTURES, SHOP, opened, protocol_error, run

from phonewire.protocol import errors as e


def test_the_clipboard_is_the_devices_through_the_agent() -> None:
    device, agent = opened(AgentDouble(clip="from the phone"))
    assert run(device.get_clipboard())["text"] == "from the phone"
    run(device.set_clipboard("two  spaces\tand a tab"))
    assert agent.clip == "two  spaces\tand a tab"
    assert ("set_clipboard", "two  spaces\tand a tab") in agent.calls
    assert run(device.get_clipboard())["text"] == "two  spaces\tand a tab"


def test_an_empty_clipboard_reads_as_empty_text() -> None:
    device, _ = opened(AgentDouble(clip=None))
    assert run(device.get_clipboard())["text"] == ""


def test_rotate_turns_the_display_and_the_viewport_follows() -> None:
    device, agent = opened()
    portrait = run(device.viewport(SHOP))
    run(device.rotate("landscape"))
    assert ("set_orientation", "left") in agent.calls
    landscape = run(device.viewport(SHOP))
    assert (landscape.width, landscape.height) == (portrait.height, portrait.width)
    run(device.tap(SHOP, 100, 50))  # points still map to pixels by the density
    assert agent.calls[-1] == ("click", round(100 * device.density), round(50 * device.density))
    run(device.rotate("portrait"))
    assert ("set_orientation", "natural") in agent.calls


@pytest.mark.parametrize(
    ("key", "modifiers", "code", "meta"),
    [("a", ["ctrl"], 29, 0x1000), ("v", ["ctrl"], 50, 0x1000), ("arrowRight", ["shift"], 22, 0x1),
     ("z", ["ctrl", "shift"], 54, 0x1001), ("enter", ["alt"], 66, 0x2)],
)  # fmt: skip
def test_a_key_combination_is_one_key_code_with_androids_meta_state(
    key: str, modifiers: list[str], code: int, meta: int
) -> None:
    device, agent = opened()
    run(device.key_combo(SHOP, key, modifiers))
    assert agent.calls[-1] == ("press", code, meta)


def test_dark_mode_is_the_systems_night_mode() -> None:
    device, agent = opened()
    assert run(device.set_appearance("dark"))["appearance"] == "dark"
    assert agent.night == "yes" and ("shell", ("cmd", "uimode", "night", "yes")) in agent.calls
    run(device.set_appearance("light"))
    assert agent.night == "no"


def test_a_phone_without_cmd_uimode_refuses_dark_mode_with_a_hint() -> None:
    device, _ = opened(AgentDouble(uimode=False))
    error = protocol_error(device.set_appearance("dark"))
    assert error.code == e.UNSUPPORTED_OPERATION and "Android 10" in (error.hint or "")


@pytest.mark.parametrize(
    "call",
    [lambda d: d.select_text(SHOP, 10, 10, "word"), lambda d: d.set_location((1.0, 2.0, 3.0)),
     lambda d: d.set_connectivity("offline"), lambda d: d.set_permissions("grant", ["camera"])],
)  # fmt: skip
def test_what_the_agent_cannot_do_is_unsupported_and_sends_nothing(call: object) -> None:
    device, agent = opened()
    before = len(agent.calls)
    error = protocol_error(call(device))  # type: ignore[operator]
    assert error.code == e.UNSUPPORTED_OPERATION and error.hint
    assert len(agent.calls) == before


def test_enter_on_a_focused_button_presses_enter_and_with_nothing_focused_is_refused() -> None:
    dialog = (FIXTURES / "android-anr-system-dialog-appium-uiautomator2.xml").read_text(encoding="utf-8")
    head, sep, tail = dialog.partition('text="Wait"')
    device, agent = opened(AgentDouble(xml=head + sep + tail.replace('focused="false"', 'focused="true"', 1)))
    run(device.keyboard_return(SHOP))  # a hardware keyboard's Enter activates the focused button
    assert agent.calls[-1] == ("press", "enter")
    agent.xml = dialog
    assert protocol_error(device.keyboard_return(SHOP)).code == e.TEXT_INPUT_NOT_FOCUSED
    assert protocol_error(device.type_text(SHOP, "x")).code == e.TEXT_INPUT_NOT_FOCUSED  # typing still needs a field
