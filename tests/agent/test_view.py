"""The agent view: one line per useful node, refs in emission order, the interactive filter, diffs."""

from __future__ import annotations

from agent_fakes import row, screen
from phonewire.agent.view import diff, render
from phonewire.protocol.snapshot import RawNode, Rect, build_snapshot


def test_one_line_per_useful_node_with_refs_in_emission_order() -> None:
    nodes = screen(
        RawNode("Heading", label="Settings", rect=Rect(0, 0, 390, 40)),
        RawNode("Button", label="Save", identifier="save-btn", rect=Rect(0, 50, 100, 40)),
        RawNode("TextField", label="Email", value="a@b.c", focused=True, rect=Rect(0, 100, 300, 40)),
        RawNode("Switch", label="Wi-Fi", value="on", enabled=False, rect=Rect(0, 150, 60, 30)),
    )
    view = render(nodes)
    assert view.text.splitlines() == [
        '@e1 Heading "Settings"',
        '@e2 Button "Save" id=save-btn',
        '@e3 TextField "Email" value="a@b.c" [focused]',
        '@e4 Switch "Wi-Fi" value="on" [disabled]',
    ]
    assert view.refs["e2"]["identifier"] == "save-btn"


def test_unlabeled_wrappers_get_no_line_and_their_children_move_up() -> None:
    wrapper = RawNode(
        "Other",
        rect=Rect(0, 0, 390, 400),
        children=[
            RawNode(
                "Other", rect=Rect(0, 0, 390, 200), children=[RawNode("Button", label="Go", rect=Rect(0, 0, 50, 40))]
            )
        ],
    )
    view = render(screen(wrapper))
    assert view.text == '@e1 Button "Go"'


def test_children_are_indented_under_their_emitted_ancestor() -> None:
    group = RawNode(
        "Group",
        label="Account",
        rect=Rect(0, 0, 390, 200),
        children=[
            RawNode(
                "Other",
                rect=Rect(0, 0, 390, 200),
                children=[RawNode("Button", label="Log out", rect=Rect(0, 0, 90, 40))],
            )
        ],
    )
    assert render(screen(group)).text.splitlines() == ['@e1 Group "Account"', '  @e2 Button "Log out"']


def test_a_caption_repeating_its_button_label_gets_no_line() -> None:
    button = RawNode("Button", label="Save", rect=Rect(0, 0, 90, 40),
                     children=[RawNode("StaticText", label="Save", rect=Rect(5, 5, 80, 30))])  # fmt: skip
    assert render(screen(button)).text == '@e1 Button "Save"'


def test_interactive_filter_keeps_controls_and_the_text_of_their_row() -> None:
    nodes = screen(
        RawNode("Heading", label="Rows", rect=Rect(0, 0, 390, 40)),
        RawNode("StaticText", label="A paragraph nobody taps", rect=Rect(0, 42, 390, 20)),
        row(1, 70, 2),
        row(2, 120),
    )
    assert render(nodes, interactive=True).text.splitlines() == [
        '@e1 Heading "Rows"',
        '@e2 StaticText "Row 1"',
        '@e3 StaticText "count 2"',
        '@e4 Button "+"',
        '@e5 StaticText "Row 2"',
        '@e6 StaticText "count 0"',
        '@e7 Button "+"',
    ]
    full = render(nodes).text
    assert "A paragraph nobody taps" in full


def test_interactive_filter_keeps_text_inside_a_cell() -> None:
    cell = RawNode("Cell", rect=Rect(0, 0, 390, 60), children=[
        RawNode("StaticText", label="Inbox", rect=Rect(10, 5, 100, 20)),
        RawNode("StaticText", label="3 unread", rect=Rect(10, 30, 100, 20)),
    ])  # fmt: skip
    assert render(screen(cell), interactive=True).text.splitlines() == [
        "@e1 Cell",
        '  @e2 StaticText "Inbox"',
        '  @e3 StaticText "3 unread"',
    ]


def test_long_texts_are_cut_and_quotes_escaped() -> None:
    nodes = screen(RawNode("StaticText", label='say "hi" ' + "x" * 200, rect=Rect(0, 0, 390, 20)))
    line = render(nodes).text
    assert line.startswith('@e1 StaticText "say \\"hi\\" xxx')
    assert line.endswith('…"')
    assert len(line) < 110


def test_diff_shows_added_removed_and_changed_lines() -> None:
    before = render(screen(row(1, 70, 0), row(2, 120)))
    after = render(screen(row(1, 70, 1), RawNode("Button", label="Done", rect=Rect(0, 300, 90, 40))))
    changes = diff(before, after)
    assert '~ @e2 StaticText "count 1"  (was: StaticText "count 0")' not in changes  # label changes: not in place
    assert '- StaticText "count 0"' in changes
    assert '+ @e2 StaticText "count 1"' in changes
    assert '- StaticText "Row 2"' in changes
    assert '+ @e4 Button "Done"' in changes
    assert not any("Row 1" in c for c in changes)


def test_diff_marks_a_value_change_of_the_same_element_as_changed() -> None:
    def field(v: str) -> RawNode:
        return RawNode("TextField", label="Email", value=v, rect=Rect(0, 0, 300, 40))

    changes = diff(render(screen(field("a"))), render(screen(field("ab"))))
    assert changes == ['~ @e1 TextField "Email" value="ab"  (was: TextField "Email" value="a")']


def test_diff_of_identical_screens_is_empty() -> None:
    nodes = screen(row(1, 70))
    assert diff(render(nodes), render(nodes)) == []


def test_the_screen_root_gets_a_line_but_does_not_indent_the_screen() -> None:
    root = RawNode("Application", label="Demo", rect=Rect(0, 0, 390, 844), children=[
        RawNode("Button", label="Go", rect=Rect(0, 0, 50, 40)),
        RawNode("Group", label="Box", rect=Rect(0, 50, 390, 100),
                children=[RawNode("Button", label="In", rect=Rect(0, 60, 50, 40))]),
    ])  # fmt: skip
    nodes = build_snapshot(root, Rect(0, 0, 390, 844), "test")["nodes"]
    assert render(nodes).text.splitlines() == [
        '@e1 Application "Demo"',
        '@e2 Button "Go"',
        '@e3 Group "Box"',
        '  @e4 Button "In"',
    ]


def test_a_form_label_next_to_the_control_it_names_gets_no_line() -> None:
    nodes = screen(
        RawNode("StaticText", label="Name", rect=Rect(0, 0, 100, 20)),
        RawNode("TextField", label="Name", rect=Rect(0, 20, 300, 40)),
        RawNode("StaticText", label="Volume", rect=Rect(0, 70, 100, 20)),
        RawNode("StaticText", label="Other text", rect=Rect(0, 90, 100, 20)),
    )
    assert render(nodes).text.splitlines() == [
        '@e1 TextField "Name"',
        '@e2 StaticText "Volume"',
        '@e3 StaticText "Other text"',
    ]


def test_interactive_filter_drops_an_unlabeled_row_whose_controls_are_listed() -> None:
    cell = RawNode("Cell", identifier="row-1", rect=Rect(0, 0, 390, 44), children=[
        RawNode("Link", label="Item 1", rect=Rect(10, 5, 200, 34)),
        RawNode("Button", label="Like 0", rect=Rect(300, 5, 80, 34)),
    ])  # fmt: skip
    text_only = RawNode("Cell", rect=Rect(0, 50, 390, 44),
                        children=[RawNode("StaticText", label="Alpha", rect=Rect(10, 55, 100, 20))])  # fmt: skip
    assert render(screen(cell, text_only), interactive=True).text.splitlines() == [
        '@e1 Link "Item 1"',
        '@e2 Button "Like 0"',
        "@e3 Cell",
        '  @e4 StaticText "Alpha"',
    ]
    assert render(screen(cell)).text.splitlines()[0] == "@e1 Cell id=row-1"  # the full view keeps the row


def test_diff_pairs_lines_by_identifier_when_the_label_is_a_counter() -> None:
    def like(n: int) -> list[dict[str, object]]:
        return screen(RawNode("Button", label=f"Like {n}", identifier="like-1", rect=Rect(0, 0, 90, 40)))

    assert diff(render(like(0)), render(like(1))) == [
        '~ @e1 Button "Like 1" id=like-1  (was: Button "Like 0" id=like-1)'
    ]


def test_interactive_filter_keeps_the_instruction_just_above_the_controls() -> None:
    nodes = screen(
        RawNode("StaticText", label="Welcome back to the shop", rect=Rect(0, 0, 390, 20)),
        RawNode("Heading", label="Task", rect=Rect(0, 30, 390, 30)),
        RawNode("StaticText", label="Some unrelated paragraph of text", rect=Rect(0, 70, 390, 20)),
        RawNode("StaticText", label='Click on the "ONE" button.', rect=Rect(0, 100, 390, 20)),
        RawNode("Button", label="ONE", rect=Rect(0, 200, 80, 40)),
        RawNode("Button", label="TWO", rect=Rect(100, 200, 80, 40)),
        RawNode("StaticText", label="none", rect=Rect(0, 300, 80, 20)),
        RawNode("Button", label="Submit", rect=Rect(0, 400, 80, 40)),
    )
    assert render(nodes, interactive=True).text.splitlines() == [
        '@e1 Heading "Task"',
        '@e2 StaticText "Click on the \\"ONE\\" button."',  # the last sentence before the buttons
        '@e3 Button "ONE"',
        '@e4 Button "TWO"',
        '@e5 Button "Submit"',  # "none" is a value, not an instruction
    ]
