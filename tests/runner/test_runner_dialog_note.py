"""The runner's note of a page's own dialog on an action's reply (handlers.noted_dialog): pure."""

from __future__ import annotations

from phonewire.runner.handlers import noted_dialog


def test_a_dialog_that_opened_during_the_command_is_in_the_reply_and_its_message() -> None:
    opened = {"type": "confirm", "message": "Delete?"}
    data = noted_dialog({"message": "tapped (1, 2)"}, None, opened)
    assert data["dialog"] is opened
    assert data["message"] == (
        'tapped (1, 2); a confirm dialog opened: "Delete?" (answer it: tap OK or Cancel, or press back to dismiss it)'
    )


def test_the_same_dialog_still_open_adds_nothing_and_none_at_all_adds_nothing() -> None:
    same = {"type": "alert", "message": "Hi"}
    assert noted_dialog({"message": "typed 1 character(s)"}, same, same) == {"message": "typed 1 character(s)"}
    assert noted_dialog({"message": "pressed tab"}, None, None) == {"message": "pressed tab"}


def test_an_answered_dialog_is_named_and_one_that_follows_it_is_announced() -> None:
    first = {"type": "confirm", "message": "Sure?", "answer": "accepted"}
    then = {"type": "alert", "message": "Done"}
    data = noted_dialog({"message": "pressed escape"}, first, None)
    assert data == {"message": "pressed escape; the confirm dialog was accepted"}
    data = noted_dialog({"message": "tapped (1, 2)"}, first, then)
    assert data["message"] == (
        'tapped (1, 2); the confirm dialog was accepted; an alert dialog opened: "Done" (answer it: tap OK, or press '
        "back to dismiss it)"
    )


def test_the_system_permission_dialog_is_answered_by_its_own_buttons() -> None:
    opened = {"type": "permission", "message": '"shop" Would Like to Use Your Current Location'}
    data = noted_dialog({"message": "tapped"}, None, opened)
    assert data["message"].endswith("(answer it: tap Allow or Don't Allow, or press back to dismiss it)")
    assert "a permission dialog opened" in data["message"]


def test_a_system_menu_says_the_choice_made_in_it_or_that_it_was_dismissed() -> None:
    menu = {"type": "link menu", "message": "https://x.test/", "choices": ["Open", "Copy Link"]}
    chose = noted_dialog({"message": "tapped (1, 2)"}, {**menu, "answer": "Copy Link"}, None)
    assert chose["message"] == 'tapped (1, 2); "Copy Link" chosen in the link menu'
    # back closes it: no choice of it was made (it said `"dismissed" chosen in the link menu`)
    dismissed = {**menu, "answer": "dismissed"}
    escaped = noted_dialog({"message": "pressed escape"}, dismissed, None)
    assert escaped["message"] == "pressed escape; the link menu dialog was dismissed"
    # back's reply names what it closed: said once
    back = {"message": 'dismissed the link menu "https://x.test/" (Cancel)', "back": "closed", "closed": "link menu"}
    assert noted_dialog(back, dismissed, None) == back
