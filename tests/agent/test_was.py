"""A ``~`` line's ``(was: …)`` says only what changed (agent/was.py): each changed field as it was."""

from __future__ import annotations

import pytest

from phonewire.agent.was import brief, briefly, fields


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('StaticText "Count 0" id=count', 'StaticText "Count 1" id=count', '"Count 0"'),
        ('Button "Add" id=add', 'Button "Add" id=add [focused]', "not focused"),
        ('Button "Add" [focused,covered]', 'Button "Add" [focused]', "covered"),
        ('TextField "Email" value="ada" [focused]', 'TextField "Email" value="ada@" [focused]', 'value="ada"'),
        ('TextField "Email"', 'TextField "Email" value="x" [focused]', "no value, not focused"),
        ('TextField "Email" value="x"', 'TextField "Email"', 'value="x"'),
        ('Button "a, [b]" [covered]', 'Button "a, [b]"', "covered"),
        ('Link "Home" id=a', 'Link "Home" id=b', "id=a"),
        ('Link "Home"', 'Link "Home" id=b', "no id"),
        ('StaticText "hello"', 'StaticText "hello" [selected text="e,l]l"]', "no selected text"),
        (
            'StaticText "hello" [selected text="e"]',
            'StaticText "hello" [selected text="el"]',
            'selected text="e"',
        ),
        (
            "Keyboard (covers the screen below y=516: x)",
            "Keyboard (covers the screen below y=400: x)",
            "(covers the screen below y=516: x)",
        ),
        ('Switch "Wi-Fi" [checked]', 'Switch "Wi-Fi"', "checked"),
    ],
)
def test_what_a_changed_element_was_is_the_fields_that_changed(old: str, new: str, said: str) -> None:
    assert briefly(old, new) == said


def test_a_line_not_read_whole_by_its_fields_keeps_its_whole_old_line() -> None:
    assert fields('StaticText "x" stray words') is None
    assert briefly('StaticText "x" stray words', 'StaticText "y"') == 'StaticText "x" stray words'
    assert briefly('Button "x"', 'Button "x"') == 'Button "x"'  # nothing differs: said whole


def test_a_diff_says_each_changed_line_briefly_and_leaves_the_others() -> None:
    lines = [
        '+ @e4 Button "Undo"',
        '~ @e3 Button "Like 1" id=like-1 [focused]  (was: Button "Like 0" id=like-1)',
        '~ @e5 Button "Row"  (drawn anew: @e2 is gone)',
        '~ @e6 Heading "Stops"  (moved: y 760 → 44)',
        '- StaticText "Saving…"',
        "- Keyboard (covers the screen below y=516: `keyboard hide` dismisses it)",
        '- ComboBox "Size" value="L" (3 options, select one)',
    ]
    assert brief(lines) == [
        lines[0],
        '~ @e3 Button "Like 1" id=like-1 [focused]  (was: "Like 0", not focused)',
        *lines[2:5],
        "- Keyboard",
        '- ComboBox "Size" value="L"',
    ]


def test_a_line_that_only_lost_focus_goes_when_another_gained_it() -> None:
    """A form's second field tapped: the first lost focus (a whole line for it) and the second gained it; the focus
    moved, and the line of the element that has it says so.  Alone (focus went nowhere listed) it stays."""
    moved = brief([
        '~ @e1 TextField "User" value="ann"  (was: TextField "User" value="ann" [focused])',
        '~ @e2 SecureTextField "Password" [focused]  (was: SecureTextField "Password")',
    ])  # fmt: skip
    assert moved == ['~ @e2 SecureTextField "Password" [focused]  (was: not focused)']
    alone = brief(['~ @e1 TextField "User" value="ann"  (was: TextField "User" value="ann" [focused])'])
    assert alone == ['~ @e1 TextField "User" value="ann"  (was: focused)']
    added = brief(['~ @e1 TextField "User"  (was: TextField "User" [focused])', '+ @e5 TextField "Code" [focused]'])
    assert added == ['+ @e5 TextField "Code" [focused]']
