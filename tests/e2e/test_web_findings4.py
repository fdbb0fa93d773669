"""Fixes of docs/realapps-findings-4.md (Streamlit and Gradio), on the real web phone and a page of our own built
like the apps' markup (tests/e2e/hostile/findings4.html): F4 `select` on a text input drawn as a drop-down (Gradio's
Dropdown) is refused instead of answering ok for a text that the page throws away."""

from __future__ import annotations

import pytest
from web_runner import HostileSite, node

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    """The module's phone on the session's runner (conftest.py): each test opens the page it starts from."""
    return module_phone


def test_f4_select_on_a_text_box_drawn_as_a_drop_down_is_refused_and_sets_nothing(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings4.html"))
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.select("id=product", ["Cocoa"])
    assert info.value.code == e.INVALID_REQUEST
    assert "setting it chooses nothing" in info.value.message
    assert info.value.hint == "Tap it, then tap the option in the list it opens (`snapshot` shows the options)."
    assert node(phone, "product")["value"] == "Tea"  # the field's text was not touched
    assert node(phone, "chosen")["label"] == "chosen: Tea"
    # what the hint says works: tap the box, then the option
    phone.tap("id=product")
    phone.tap('role=Cell label="Cocoa"')
    assert node(phone, "chosen")["label"] == "chosen: Cocoa"
    assert node(phone, "product")["value"] == "Cocoa"


def test_f4_select_still_sets_an_input_with_a_real_datalist(phone: phonewire.Phone, hostile_site: HostileSite) -> None:
    phone.open(hostile_site.url("findings4.html"))
    phone.select("id=city", ["Lima"])
    assert node(phone, "city")["value"] == "Lima"


def test_f2_radios_and_checkbox_inside_a_visually_hidden_box_are_listed_by_their_labels_and_tap_sets_them(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings4.html"))
    view = phone.snapshot(interactive=True).text
    assert 'RadioButton "EUR"' in view and 'RadioButton "USD"' in view and 'CheckBox "Show totals"' in view
    assert (node(phone, "opt-eur")["value"], node(phone, "opt-usd")["value"]) == ("1", "0")
    phone.tap('role=RadioButton label="USD"')
    assert (node(phone, "opt-eur")["value"], node(phone, "opt-usd")["value"]) == ("0", "1")
    phone.tap('role=CheckBox label="Show totals"')
    assert node(phone, "totals")["value"] == "0"


def test_f6_a_text_field_inside_its_label_is_not_named_by_its_own_value_and_keeps_its_ref(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings4.html"))
    before = phone.snapshot(interactive=True).text
    line = next(ln for ln in before.splitlines() if 'TextView "Name"' in ln)
    ref = line.split()[0]
    phone.fill(ref, "Grace Hopper")
    after = phone.snapshot(interactive=True).text
    assert f'{ref} TextView "Name" value="Grace Hopper"' in after  # the same ref, the same name, the new value


def test_f3_a_diff_says_an_element_the_page_drew_anew_gone_and_added_under_its_new_ref(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings4_redraw.html"))
    before = phone.snapshot(interactive=True).text
    old = next(ln for ln in before.splitlines() if '"Shipping details"' in ln).split()[0]
    changes = phone.tap("id=add").diff or []  # the tap's settled diff: the view before it against after it
    new = next(ln for ln in changes if ln.startswith("+ ") and '"Shipping details"' in ln).split()[1]
    assert new != old
    assert '- Button "Shipping details"' in changes and f'+ {new} Button "Shipping details"' in changes
    phone.tap(new)  # the ref the diff gave names the button on the screen


def test_f7_a_key_whose_answer_renders_a_frame_later_answers_changed(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings4.html"))
    assert '"Escape hides this line"' in phone.snapshot().text
    reply = phone.press("escape")
    assert reply.data["changed"] is True
    assert '"Escape hides this line"' not in phone.snapshot().text
    assert phone.press("escape").data["changed"] is False  # nothing left to close: nothing changed
