"""The rest of the phone's environment (issue 24 item 5) on the real web phone, each asserted by the page's own
observation: ``open --locale --timezone`` (the page reads ``navigator.language``, ``Intl``'s locale and time zone and
its own clock), through the API, the CLI, MCP, the bridge and WebDriver; bad launch options refused with a hint
before anything is launched.  The module has a phone of its own: launch options are the phone's business."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = pytest.mark.e2e

PAGE = "launch_env.html"


@pytest.fixture(scope="module")
def phone() -> Iterator[phonewire.Phone]:
    with phonewire.Phone("web") as phone:
        yield phone


def shown(phone: phonewire.Phone, ident: str) -> str:
    """The text of the page's element ``ident`` as the view shows it."""
    nodes = phone.snapshot(all=True).nodes
    return str(next(n for n in nodes if n.get("identifier") == ident).get("label") or "")


# -- locale and time zone on launch --------------------------------------------------------------------------------
def test_open_with_a_locale_and_a_time_zone_is_what_the_page_reads(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    result = phone.open(hostile_site.url(PAGE), locale="fr-FR", timezone="Asia/Tokyo")
    assert (result.data["locale"], result.data["timezone"]) == ("fr-FR", "Asia/Tokyo")
    assert shown(phone, "language") == "fr-FR"
    assert shown(phone, "intl") == "fr-FR"
    assert shown(phone, "zone") == "Asia/Tokyo"
    assert shown(phone, "hour") == "9"  # midnight UTC is 09:00 in Tokyo
    phone.open(hostile_site.url(PAGE))  # the next launch without them has the phone's own
    assert shown(phone, "zone") != "Asia/Tokyo" and shown(phone, "language") == "en-US"


def test_an_unknown_time_zone_is_refused_and_the_app_keeps_running(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url(PAGE), timezone="America/New_York")
    with pytest.raises(ProtocolError) as info:
        phone.open(hostile_site.url(PAGE), timezone="Mars/Olympus_Mons")
    assert info.value.code == e.INVALID_REQUEST and "Mars/Olympus_Mons" in info.value.message
    assert "Europe/Paris" in (info.value.hint or "")
    assert shown(phone, "zone") == "America/New_York"  # nothing was launched or stopped
    phone.open(hostile_site.url(PAGE), locale="de-DE")  # the refused zone left nothing behind
    assert shown(phone, "language") == "de-DE" and shown(phone, "zone") != "Mars/Olympus_Mons"


@pytest.mark.parametrize(("option", "value"), [("locale", "fr_FR"), ("locale", "french!"), ("timezone", "+02:00")])
def test_a_malformed_launch_option_is_refused_with_a_hint(phone: phonewire.Phone, option: str, value: str) -> None:
    with pytest.raises(ProtocolError) as info:
        phone._call(phone.session.open_app("dev.phonewire.demo", **{option: value}))
    assert info.value.code == e.INVALID_REQUEST and value in info.value.message
    assert ("fr-FR" if option == "locale" else "Europe/Paris") in (info.value.hint or "")
