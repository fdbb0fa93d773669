"""Fixes of docs/realapps-findings-3.md on the real web phone, on a page of our own (tests/e2e/hostile/findings3.html):
E2 `fill` and `type` read the field back once the page's key handlers ran, and fail naming what it holds when a
picker rewrote it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hostile_site: HostileSite) -> Iterator[phonewire.Phone]:
    monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
    with phonewire.Phone(device="web") as p:
        p.open(hostile_site.url("findings3.html"))
        yield p


def node_of(phone: phonewire.Phone, ident: str) -> dict[str, object]:
    return next(n for n in phone.snapshot().nodes if n.get("identifier") == ident)


def test_e2_fill_into_a_field_a_picker_rewrites_fails_naming_what_it_holds(phone: phonewire.Phone) -> None:
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.fill("id=published", "2024-02-29")
    assert info.value.code == e.COMMAND_FAILED
    assert "the field holds '0002-01-01024-02-29', not '2024-02-29'" in info.value.message
    assert "widget" in (info.value.hint or "")
    assert node_of(phone, "published")["value"] == "0002-01-01024-02-29"  # the error says what the screen shows
    assert node_of(phone, "keyups")["label"] == "10"  # every key went in, each with its keyup


def test_e2_type_into_a_rewritten_field_fails_too_and_a_plain_field_reads_back_ok(phone: phonewire.Phone) -> None:
    phone.tap("id=published")
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.type("7")
    assert info.value.code == e.COMMAND_FAILED and "holds '0007-01-01', not '7'" in info.value.message
    result = phone.fill("id=note", "hello world").data
    assert "typed 11 character(s)" in result["message"]
    phone.type("!")  # typed at the caret (the end): read back as expected
    assert node_of(phone, "note")["value"] == "hello world!"


def test_e6_a_box_drawn_for_a_hidden_select_is_a_combobox_named_by_its_label_showing_its_text(
    phone: phonewire.Phone,
) -> None:
    view = phone.snapshot()
    author = [n for n in view.nodes if n.get("identifier") == "author"]
    assert len(author) == 1  # the box stands for the hidden select: one element, not two
    assert author[0]["type"] == "ComboBox" and author[0]["label"] == "Author"
    assert author[0]["value"] == "Choose an author"
    assert 'ComboBox "Author" id=author value="Choose an author"' in view.text
    assert not any(n.get("type") == "Link" and n.get("label") == "Choose an author" for n in view.nodes)


def test_e6_select_on_the_drawn_box_sets_the_hidden_select_once_and_reads_the_box_back(phone: phonewire.Phone) -> None:
    result = phone.select("id=author", ["Ursula Le Guin"]).data
    assert result["selected"] == ["Ursula Le Guin"] and result["shown"] == "Ursula Le Guin"
    assert node_of(phone, "author")["value"] == "Ursula Le Guin"
    assert node_of(phone, "author-changes")["label"] == "1"  # one change event, which the library redrew on
    ref = next(r for r, n in phone.snapshot(interactive=True).refs.items() if n.get("identifier") == "author")
    assert phone.select("@" + ref, ["Jorge Borges"]).data["shown"] == "Jorge Borges"
    assert node_of(phone, "author-changes")["label"] == "2"
