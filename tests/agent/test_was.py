"""A ``~`` line's ``(was: …)`` says only what changed (agent/was.py): each changed field as it was, and its states
marked where they changed (``[+focused,-covered]``)."""

from __future__ import annotations

import pytest

from phonewire.agent.was import brief, briefly, fields, marked, unmarked


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('StaticText "Count 0" id=count', 'StaticText "Count 1" id=count', '"Count 0"'),
        ('Button "Add" id=add', 'Button "Add" id=add [focused]', ""),  # (its states say it: [+focused])
        ('TextField "Email" value="ada" [focused]', 'TextField "Email" value="ada@" [focused]', 'value="ada"'),
        ('TextField "Email"', 'TextField "Email" value="x" [focused]', "no value"),
        ('TextField "Email" value="x"', 'TextField "Email"', 'value="x"'),
        ('Link "Home" id=a', 'Link "Home" id=b', "id=a"),
        ('Link "Home"', 'Link "Home" id=b', "no id"),
        (
            "Keyboard (covers the screen below y=516: x)",
            "Keyboard (covers the screen below y=400: x)",
            "(covers the screen below y=516: x)",
        ),
        ('StaticText "a" [checked]', 'Button "a" [checked]', "StaticText"),
    ],
)
def test_what_a_changed_element_was_is_the_fields_that_changed(old: str, new: str, said: str) -> None:
    assert briefly(old, new) == said


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("", "focused", "+focused"),
        ("focused,covered", "focused", "focused,-covered"),
        ("", "focused,covered", "+focused,+covered"),
        ("focused", "covered", "+covered,-focused"),
        ("checked", "", "-checked"),
        ('selected text="e,l]l"', "", '-selected text="e,l]l"'),  # a quoted comma is no separator
        ('selected text="e"', 'selected text="el"', '+selected text="el",-selected text="e"'),
    ],
)
def test_states_are_marked_where_they_changed(old: str, new: str, said: str) -> None:
    assert marked(old, new) == said


def test_a_line_not_read_whole_by_its_fields_keeps_its_whole_old_line() -> None:
    assert fields('StaticText "x" stray words') is None
    assert briefly('StaticText "x" stray words', 'StaticText "y"') == 'StaticText "x" stray words'
    assert briefly('Button "x"', 'Button "x"') == 'Button "x"'  # nothing differs: said whole


def test_a_diff_says_each_changed_line_briefly_and_leaves_the_others() -> None:
    lines = [
        '+ @e4 Button "Undo"',
        '~ @e3 Button "Like 1" id=like-1 [focused]  (was: Button "Like 0" id=like-1)',
        '+ @e5 Button "Row"',
        '~ @e6 Heading "Stops"  (moved: y 760 → 44)',
        '- StaticText "Saving…"',
        "- Keyboard (covers the screen below y=516: `keyboard hide` dismisses it)",
        '- ComboBox "Size" value="L" (3 options, select one)',
    ]
    assert brief(lines) == [
        lines[0],
        '~ @e3 Button "Like 1" id=like-1 [+focused]  (was: "Like 0")',
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
    assert moved == ['~ @e2 SecureTextField "Password" [+focused]']
    alone = brief(['~ @e1 TextField "User" value="ann"  (was: TextField "User" value="ann" [focused])'])
    assert alone == ['~ @e1 TextField "User" value="ann" [-focused]']
    added = brief(['~ @e1 TextField "User"  (was: TextField "User" [focused])', '+ @e5 TextField "Code" [focused]'])
    assert added == ['+ @e5 TextField "Code" [focused]']


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            '~ @e4 Button "Submit" id=s [focused,covered]  (was: Button "Submit" id=s)',
            '~ @e4 Button "Submit" id=s [+focused,+covered]',
        ),
        ("~ @e4 TextField id=tt  (was: TextField id=tt [covered])", "~ @e4 TextField id=tt [-covered]"),
        (
            '~ @e5 ComboBox "S" value="a" (3 options, select one)'
            '  (was: ComboBox "S" value="a" [covered] (3 options, select one))',
            '~ @e5 ComboBox "S" value="a" [-covered] (3 options, select one)',
        ),
        (
            "~ Keyboard (covers the screen below y=400: x)"
            "  (was: Keyboard [focused] (covers the screen below y=516: x))",
            "~ Keyboard [-focused] (covers the screen below y=400: x)  (was: (covers the screen below y=516: x))",
        ),
        ('~ @e6 StaticText "x" stray  (was: StaticText "y")', '~ @e6 StaticText "x" stray  (was: StaticText "y")'),
    ],
)
def test_a_changed_line_marks_its_states_in_place_and_says_the_rest_after_it(line: str, said: str) -> None:
    """A state gained or lost is marked in the line's own ``[…]`` (one made for it, before the notes, when the line
    had none); the rest of what changed follows in ``(was: …)``, and nothing follows when only states changed."""
    assert brief([line]) == [said]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ('@e4 Button "Submit" id=s [+focused,+covered]', '@e4 Button "Submit" id=s [focused,covered]'),
        (
            '@e4 TextField id=tt value="Cristin" [+focused]  (was: no value)',
            '@e4 TextField id=tt value="Cristin" [focused]',
        ),
        ("@e4 TextField id=tt [-covered]", "@e4 TextField id=tt"),
        (
            '@e5 ComboBox "S" [checked,-covered] (3 options, select one)',
            '@e5 ComboBox "S" [checked] (3 options, select one)',
        ),
        ("Keyboard [-focused] (covers x)  (was: (covers y))", "Keyboard (covers x)"),
        ('@e6 StaticText "x" stray  (was: StaticText "y")', '@e6 StaticText "x" stray'),
    ],
)
def test_a_line_said_briefly_reads_back_as_the_element_now(said: str, line: str) -> None:
    """What an agent keeps of a ``~`` line: the element as it is now, with no marks and no ``(was: …)``."""
    assert unmarked(said) == line
    assert unmarked(brief([f"~ {line}  (was: {line})"])[0][2:]) == line


def test_a_note_a_line_gained_is_not_said_as_no_note_before() -> None:
    """A select whose option count note appeared (it closed) read ``(was: value="Japan", no note)``: the note shows in
    the line now; what it had not before says nothing.  A note it lost is said as it was."""
    assert brief(
        ['~ @e1 ComboBox "Country" value="Peru" (3 options, select one)  (was: ComboBox "Country" value="Japan")']
    ) == ['~ @e1 ComboBox "Country" value="Peru" (3 options, select one)  (was: value="Japan")']
    assert brief(
        ['~ @e1 ComboBox "Country" value="Peru"  (was: ComboBox "Country" value="Peru" (3 options, select one))']
    ) == ['~ @e1 ComboBox "Country" value="Peru"  (was: (3 options, select one))']
