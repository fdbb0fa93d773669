"""Fixes of docs/realapps-findings-3.md, round 3b (NiceGUI: Vue + Quasar), on the real web phone and a page of our
own (tests/e2e/hostile/findings3_nicegui.html): E16 an input whose ``list`` names no datalist is a text field; E18 a
tapped button whose content span got listeners from the press is still one button."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[phonewire.Phone]:
    mp = pytest.MonkeyPatch()
    mp.setenv("PHONEWIRE_STATE_DIR", str(tmp_path_factory.mktemp("state")))
    mp.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
    try:
        with phonewire.Phone(device="web") as p:
            yield p
    finally:
        mp.undo()


def node(phone: phonewire.Phone, ident: str) -> dict[str, object]:
    return dict(next(n for n in phone.snapshot().nodes if n.get("identifier") == ident))


def test_e16_an_input_whose_list_names_no_datalist_is_a_text_field_and_fill_finds_it(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_nicegui.html"))
    assert node(phone, "name")["type"] == "TextField"
    assert node(phone, "fruit")["type"] == "ComboBox"  # a list naming a real datalist still is one
    phone.fill("role=TextField label=Name", "Grace Hopper")
    assert node(phone, "name")["value"] == "Grace Hopper"


def test_e18_a_tapped_button_is_one_button_not_a_button_inside_a_button(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_nicegui.html"))
    phone.tap('role=Button label="Add contact"')
    nodes = phone.snapshot().nodes
    assert [n.get("identifier") for n in nodes if n.get("label") == "Add contact"] == ["add"]
    assert node(phone, "added")["label"] == "1"
    phone.tap('role=Button label="Add contact"')  # one match: no ambiguity between the button and its content
    assert node(phone, "added")["label"] == "2"
