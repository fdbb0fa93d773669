"""JavaScript dialogs on the real web phone (issue 10 item 6; docs/realapps-findings-3.md E1), on a page of our own
(tests/e2e/hostile/dialogs.html): an action that opens alert/confirm/prompt answers at once and says so, the
snapshot shows the dialog as an ``Alert`` over the covered page, a tap on OK / Cancel, ``fill`` on a prompt's
field, ``press escape`` and back answer it, and what the page did with the answer is on its screen exactly once."""

from __future__ import annotations

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e
from phonewire.protocol.snapshot import Node

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(shared_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    shared_phone.open(hostile_site.url("dialogs.html"))  # the session's runner, every app closed first
    return shared_phone


def text_of(phone: phonewire.Phone, ident: str) -> str:
    return str(next(n for n in phone.snapshot().nodes if n.get("identifier") == ident).get("label"))


def alert_of(view: phonewire.View) -> Node:
    return next(n for n in view.nodes if n.get("type") == "Alert")


def test_a_tap_that_opens_a_confirm_answers_at_once_and_ok_reaches_the_page_once(phone: phonewire.Phone) -> None:
    result = phone.tap("id=delete").data
    assert result["dialog"] == {"type": "confirm", "message": "Delete this record?"}
    assert 'a confirm dialog opened: "Delete this record?"' in result["message"]
    assert result["changed"] is True
    view = phone.snapshot()
    alert = alert_of(view)
    assert alert["label"] == "Delete this record?" and view.nodes[1] is alert  # on top, first under the root
    buttons = [n["label"] for n in view.nodes if n.get("type") == "Button" and not n.get("coveredBy")]
    assert buttons == ["Cancel", "OK"]
    delete = next(n for n in view.nodes if n.get("identifier") == "delete")
    assert delete["coveredBy"] == 'Alert "Delete this record?"'  # the page under it, as last walked
    answered = phone.tap('"OK"').data
    assert "the confirm dialog was accepted" in answered["message"] and "dialog" not in answered
    assert text_of(phone, "deleted") == "1" and text_of(phone, "kept") == "0"
    assert not [n for n in phone.snapshot().nodes if n.get("type") == "Alert"]


def test_cancel_by_ref_and_press_escape_dismiss_and_the_page_sees_false(phone: phonewire.Phone) -> None:
    phone.tap("id=delete")
    view = phone.snapshot(interactive=True)
    cancel = next(ref for ref, n in view.refs.items() if n.get("label") == "Cancel")
    phone.tap("@" + cancel)
    assert text_of(phone, "kept") == "1"
    phone.tap("id=delete")
    pressed = phone.press("escape").data
    assert "the confirm dialog was dismissed" in pressed["message"]
    assert text_of(phone, "kept") == "2" and text_of(phone, "deleted") == "0"


def test_press_back_dismisses_the_dialog_and_stays_on_the_page(phone: phonewire.Phone) -> None:
    phone.tap("id=delete")
    pressed = phone.press("back").data
    assert pressed["back"] == "closed"
    assert pressed["message"].startswith('pressed back: dismissed the confirm dialog "Delete this record?"')
    assert text_of(phone, "kept") == "1"
    assert text_of(phone, "deleted") == "0"  # and back did not go on to leave the page


def test_fill_on_a_prompt_field_then_ok_sends_the_text(phone: phonewire.Phone) -> None:
    result = phone.tap("id=ask").data
    assert result["dialog"] == {"type": "prompt", "message": "Your name?", "defaultText": "Ann"}
    field = next(n for n in phone.snapshot().nodes if n.get("type") == "TextField" and not n.get("coveredBy"))
    assert field["value"] == "Ann"
    filled = phone.fill("role=TextField", "Zoë Li").data
    assert filled["cleared"] == 3
    assert (
        next(n for n in phone.snapshot().nodes if n.get("type") == "TextField" and not n.get("coveredBy"))["value"]
        == "Zoë Li"
    )
    phone.tap('"OK"')
    assert text_of(phone, "name") == "Zoë Li"


def test_a_prompt_cancelled_answers_null(phone: phonewire.Phone) -> None:
    phone.tap("id=ask")
    phone.tap('"Cancel"')
    assert text_of(phone, "name") == "(cancelled)"


def test_commands_refused_under_a_dialog_say_how_to_answer_and_nothing_reaches_the_page(
    phone: phonewire.Phone,
) -> None:
    phone.tap("id=warn")
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap("id=delete")  # covered: refused by the agent, nothing sent
    assert info.value.code == e.ELEMENT_COVERED
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.scroll("down")
    assert info.value.code == e.ELEMENT_COVERED and 'tap its Button "OK"' in (info.value.hint or "")
    assert phone.viewport()["width"] > 0
    phone.tap('"OK"')
    assert text_of(phone, "alerts") == "1"
    assert text_of(phone, "deleted") == "0" and text_of(phone, "kept") == "0"


def test_a_dialog_a_timer_opens_is_shown_and_answered(phone: phonewire.Phone) -> None:
    phone.tap("id=later")
    phone.wait("role=Alert")
    assert alert_of(phone.snapshot())["label"] == "Timer fired"
    phone.tap('"OK"')
    assert text_of(phone, "alerts") == "1"


def test_a_dialog_the_page_opens_while_loading_is_shown(phone: phonewire.Phone, hostile_site: HostileSite) -> None:
    opened = phone.open_url(hostile_site.url("dialogs.html?welcome=1")).data  # the running app navigates
    assert opened["dialog"] == {"type": "alert", "message": "Welcome back"}
    assert alert_of(phone.snapshot())["label"] == "Welcome back"
    phone.press("return")
    assert text_of(phone, "alerts") == "1"


def test_an_app_launched_into_a_dialog_opens_and_shows_it(phone: phonewire.Phone, hostile_site: HostileSite) -> None:
    app = hostile_site.url("dialogs.html?welcome=1").replace("127.0.0.1", "localhost")  # an app of its own
    opened = phone.open(app).data
    assert opened["dialog"] == {"type": "alert", "message": "Welcome back"} and opened["state"] == "foreground"
    assert alert_of(phone.snapshot())["label"] == "Welcome back"
    phone.tap('"OK"')
    assert text_of(phone, "alerts") == "1"


def test_a_screenshot_under_a_dialog_is_refused_at_once_saying_how_to_answer(phone: phonewire.Phone) -> None:
    phone.tap("id=delete")
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.screenshot()
    assert info.value.code == e.ELEMENT_COVERED and "press back" in (info.value.hint or "")
    phone.tap('"Cancel"')
    assert phone.screenshot()  # and once answered, the page draws again
    assert text_of(phone, "kept") == "1"


def test_going_home_dismisses_an_open_dialog_and_the_app_comes_back_answered(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.tap("id=delete")
    phone.press("home")
    assert phone.viewport()["width"] > 0  # an app-scoped command brings the app back to the front, as it was
    assert text_of(phone, "kept") == "1" and text_of(phone, "deleted") == "0"
    assert not [n for n in phone.snapshot().nodes if n.get("type") == "Alert"]


def test_closing_an_app_with_a_dialog_open_never_wedges(phone: phonewire.Phone, hostile_site: HostileSite) -> None:
    phone.tap("id=delete")
    phone.close_app()
    phone.open(hostile_site.url("dialogs.html"))
    assert text_of(phone, "deleted") == "0"


def test_beforeunload_on_back_is_shown_and_ok_leaves(phone: phonewire.Phone, hostile_site: HostileSite) -> None:
    phone.tap("id=next")
    phone.wait('"Step 2"')
    phone.tap("id=guard")  # a tap: the user activation that beforeunload asks for
    pressed = phone.press("back").data
    assert pressed.get("dialog", {}).get("type") == "beforeunload" and pressed["back"] == "history", pressed
    assert pressed["message"].startswith("pressed back: asked to go back to ")
    alert = alert_of(phone.snapshot())
    assert alert["label"] == "Leave site? Changes that you made may not be saved."
    phone.tap('"Cancel"')  # stay: the page is still the second one
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "guard")["value"] == "1"
    phone.press("back")
    phone.tap('"OK"')  # leave: the first page shows, its checkbox unticked
    phone.wait('"Step 2"', gone=True)
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "guard").get("value") in (None, "0")


def test_e15_back_right_after_a_modal_opened_closes_it_and_does_nothing_more(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    """Findings 3, E15: the key that changed the DOM ends the back even when the page was not still before it
    (the tap that opened the modal had just run); back waits for the page to be still first."""
    phone.open(hostile_site.url("back_modal.html"))
    phone.tap("id=deep")
    assert text_of(phone, "section") == "#/pets/item1"
    phone.tap("id=authorize")
    pressed = phone.press("back").data  # at once: no snapshot between the tap and the back
    assert pressed["back"] == "closed", pressed
    view = phone.snapshot()
    assert not [n for n in view.nodes if n.get("label") == "Available authorizations"]  # the modal closed
    assert text_of(phone, "section") == "#/pets/item1"  # and the history step was not taken


def test_beforeunload_on_a_deep_link_is_shown_and_ok_goes_there(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.tap("id=guard")
    opened = phone.open_url(hostile_site.url("dialogs.html?step=2")).data
    assert opened["dialog"]["type"] == "beforeunload"
    phone.tap('"OK"')
    phone.wait('"Step 2"')
    assert not [n for n in phone.snapshot().nodes if n.get("type") == "Alert"]
