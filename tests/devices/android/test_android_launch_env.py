"""Launch options on Android (issue 24 item 5) against the agent double, built from Android's documented replies:
``--locale`` is the app's own language (``cmd locale set-app-locales``, Android 13's per-app languages: it prints
nothing when it took), set before the app starts; a phone without per-app languages and a time zone for one app (the
phone has one zone for all its apps) are UNSUPPORTED_OPERATION with a hint, and nothing is launched."""

from __future__ import annotations

from android_agent_double import AgentDouble
from test_android_device import SHOP, opened, protocol_error, run

from phonewire.protocol import errors as e


def test_a_locale_is_the_apps_own_language_set_before_it_starts() -> None:
    device, agent = opened()
    reply = run(device.launch_app(SHOP, locale="fr-FR"))
    assert reply["locale"] == "fr-FR" and agent.app_locales == {SHOP: "fr-FR"}
    names = agent.names()
    set_at = agent.calls.index(("shell", ("cmd", "locale", "set-app-locales", SHOP, "--locales", "fr-FR")))
    assert set_at < names.index("app_start")


def test_a_phone_without_per_app_languages_refuses_and_launches_nothing() -> None:
    device, agent = opened(AgentDouble(per_app_locales=False))
    error = protocol_error(device.launch_app(SHOP, locale="fr-FR"))
    assert error.code == e.UNSUPPORTED_OPERATION and "Android 13" in (error.hint or "")
    assert "app_start" not in agent.names() and SHOP not in agent.running


def test_a_time_zone_for_one_app_is_refused_before_anything_happens() -> None:
    device, agent = opened()
    error = protocol_error(device.launch_app(SHOP, locale="fr-FR", timezone="Asia/Tokyo"))
    assert error.code == e.UNSUPPORTED_OPERATION and "time zone" in error.message
    assert "Date & time" in (error.hint or "")
    assert "app_start" not in agent.names() and agent.app_locales == {}


def test_pick_file_is_unsupported_and_sends_nothing() -> None:
    device, agent = opened()
    mark = len(agent.calls)
    error = protocol_error(device.pick_file(SHOP, ["/tmp/a.png"]))
    assert error.code == e.UNSUPPORTED_OPERATION and "file chooser" in error.message
    error = protocol_error(device.pinch(SHOP, 100, 100, 2.0, 300))
    assert error.code == e.UNSUPPORTED_OPERATION and "pinch" in error.message
    assert agent.calls[mark:] == []
