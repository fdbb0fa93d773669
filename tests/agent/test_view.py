"""The agent view: one line per useful node, refs in emission order, the interactive filter, diffs."""

from __future__ import annotations

import json
from pathlib import Path

from agent_fakes import row, screen
from phonewire.agent.view import render
from phonewire.agent.view_diff import diff
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
        '@e4 Switch "Wi-Fi" [checked,disabled]',  # a state, not a value,
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
    nodes = screen(RawNode("Button", label='say "hi" ' + "x" * 200, rect=Rect(0, 0, 390, 20)))
    line = render(nodes).text
    assert line.startswith('@e1 Button "say \\"hi\\" xxx')
    assert line.endswith('…"')
    assert len(line) < 110


def test_a_text_line_keeps_a_whole_instruction() -> None:
    # MiniWoB's search-engine task: at 80 characters the view said "…then find and click the…", not which result
    task = 'Use the textbox to enter "Nathalie" and press "Search", then find and click the 3rd search result.'
    lines = render(
        screen(
            RawNode("StaticText", label=task, rect=Rect(0, 0, 390, 20)),
            RawNode("StaticText", label="y" * 300, rect=Rect(0, 20, 390, 20)),
            RawNode("Button", label="z" * 300, rect=Rect(0, 40, 390, 20)),
        )
    ).text.splitlines()
    assert lines[0] == "@e1 StaticText " + json.dumps(task)
    assert lines[1] == '@e2 StaticText "' + "y" * 199 + '…"'  # a longer text is still cut, at 200
    assert lines[2] == '@e3 Button "' + "z" * 79 + '…"'  # a control's name at 80, as before


def test_diff_shows_added_removed_and_changed_lines() -> None:
    before = render(screen(row(1, 70, 0), row(2, 120)), name=lambda n: f"e{n['index']}")
    # (a text whose label changed is another element, with a ref of its own: a ref both screens carry is one
    # element, the test below)
    own = {"count 1": "e99", "Done": "e98"}
    after = render(screen(row(1, 70, 1), RawNode("Button", label="Done", rect=Rect(0, 300, 90, 40))),
                   name=lambda n: own.get(str(n.get("label")), f"e{n['index']}"))  # fmt: skip
    changes = diff(before, after)
    assert not any('(was: StaticText "count 0")' in c for c in changes)  # label changes: not in place
    assert '- StaticText "count 0"' in changes
    assert any(c.startswith("+ @e") and c.endswith('StaticText "count 1"') for c in changes), changes
    assert '- StaticText "Row 2"' in changes
    assert any(c.startswith("+ @e") and c.endswith('Button "Done"') for c in changes), changes
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


def test_text_beside_a_control_that_borrowed_its_label_keeps_its_line_and_read_only_is_a_flag() -> None:
    """A checkbox named by its row's text (``nameFrom``, never printed) does not swallow the text a person reads;
    a read-only field is marked ``[read-only]``."""
    nodes = screen(
        RawNode("CheckBox", label="B second", value="0", rect=Rect(0, 0, 40, 40), name_from="row"),
        RawNode("StaticText", label="B second", rect=Rect(40, 0, 200, 40)),
        RawNode("TextField", label="Date", rect=Rect(0, 60, 300, 40), read_only=True),
    )
    assert render(nodes).text.splitlines() == [
        '@e1 CheckBox "B second"',
        '@e2 StaticText "B second"',
        '@e3 TextField "Date" [read-only]',
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


# --- issue 10 item 8 / issue 14: what -i and the default view leave out -------------------------------------


def _images(count: int, top: float = 0) -> list[RawNode]:
    return [RawNode("Image", label=f"photo {i}", rect=Rect(10 * i, top, 10, 10)) for i in range(1, count + 1)]


def test_a_run_of_more_than_20_same_role_siblings_shows_three_and_one_summary_line() -> None:
    nodes = screen(*_images(25), RawNode("Button", label="Next", rect=Rect(0, 100, 60, 40)))
    assert render(nodes).text.splitlines() == [
        '@e1 Image "photo 1"', '@e2 Image "photo 2"', '@e3 Image "photo 3"', "… 22 more Image", '@e4 Button "Next"'
    ]  # fmt: skip
    everything = render(nodes, full=True)
    assert len(everything.refs) == 26 and "more Image" not in everything.text


def test_a_run_of_20_is_not_summarised_and_interactive_siblings_never_are() -> None:
    assert len(render(screen(*_images(20))).refs) == 20
    buttons = [RawNode("Button", label=f"Tool {i}", rect=Rect(0, 20 * i, 60, 20)) for i in range(30)]
    assert len(render(screen(*buttons)).refs) == 30


def test_a_sibling_with_a_control_inside_breaks_the_run_and_keeps_its_control() -> None:
    cards = [RawNode("Group", label=f"Card {i}", rect=Rect(0, 15 * i, 300, 15)) for i in range(51)]
    cards[25].children.append(RawNode("Button", label="Buy", rect=Rect(200, 375, 60, 15)))
    lines = render(screen(*cards)).text.splitlines()
    assert lines[3] == "… 22 more Group"  # Card 0-2 shown, 3-24 summarised; Card 25 holds a button
    assert lines[4:6] == ['@e4 Group "Card 25"', '  @e5 Button "Buy"']
    assert lines[-1] == "… 22 more Group" and len(lines) == 10  # Card 26-28 shown, 29-50 summarised


def test_a_wrapper_with_only_an_id_gets_no_line_but_its_children_do_and_all_lists_it() -> None:
    wrap = RawNode("Other", identifier="wrap", rect=Rect(0, 0, 390, 400),
                   children=[RawNode("Button", label="Go", rect=Rect(0, 0, 50, 40))])  # fmt: skip
    nodes = screen(wrap, RawNode("ScrollView", identifier="feed", rect=Rect(0, 400, 390, 400)))
    assert render(nodes).text.splitlines() == ['@e1 Button "Go"', "@e2 ScrollView id=feed"]
    assert render(nodes, full=True).text.splitlines() == [
        "@e1 Other id=wrap",
        '  @e2 Button "Go"',
        "@e3 ScrollView id=feed",
    ]


def test_the_interactive_view_prints_an_id_only_where_there_is_no_label() -> None:
    nodes = screen(
        RawNode("TextField", identifier="username", rect=Rect(0, 0, 300, 40)),
        RawNode("Button", label="Login", identifier="subbtn", rect=Rect(0, 50, 90, 40)),
    )
    assert render(nodes, interactive=True).text.splitlines() == ["@e1 TextField id=username", '@e2 Button "Login"']
    assert '@e2 Button "Login" id=subbtn' in render(nodes).text  # the full view keeps it
    likes = screen(
        *(RawNode("Button", label="Like 0", identifier=f"like-{i}", rect=Rect(0, 40 * i, 90, 30)) for i in (1, 2))
    )
    # a label that two lines share does not tell them apart: their ids stay
    assert render(likes, interactive=True).text.splitlines() == [
        '@e1 Button "Like 0" id=like-1',
        '@e2 Button "Like 0" id=like-2',
    ]


def test_an_interactive_diff_names_an_element_by_its_id_even_where_the_line_no_longer_prints_it() -> None:
    def likes(first: int) -> list[dict[str, object]]:
        return screen(*(RawNode("Button", label=f"Like {n}", identifier=f"like-{i}", rect=Rect(0, 40 * i, 90, 30))
                        for i, n in ((1, first), (2, 0))))  # fmt: skip

    before, after = render(likes(0), interactive=True), render(likes(1), interactive=True)
    assert after.text.splitlines()[0] == '@e1 Button "Like 1"'  # its label is its own now: no id printed
    # one element changed; the other only lost its printed id (its label is its own too now): not a change
    assert diff(before, after) == ['~ @e1 Button "Like 1"  (was: Button "Like 0" id=like-1)']


def test_a_list_box_gets_its_line_in_the_interactive_view_above_its_options() -> None:
    box = RawNode("List", identifier="names", rect=Rect(0, 0, 200, 80), children=[
        RawNode("Cell", label="Dannie", rect=Rect(0, 0, 200, 20)),
        RawNode("Cell", label="Dari", selected=True, rect=Rect(0, 20, 200, 20)),
        RawNode("StaticText", label="… 4 more options", rect=Rect(0, 0, 0, 0)),
    ])  # fmt: skip
    assert render(screen(box), interactive=True).text.splitlines() == [
        "@e1 List id=names",
        '  @e2 Cell "Dannie"',
        '  @e3 Cell "Dari" [selected]',
        '  @e4 StaticText "… 4 more options"',
    ]


def test_a_closed_select_is_one_line_in_the_interactive_view_counting_its_options_the_full_view_lists_them() -> None:
    placeless = Rect(0, 0, 0, 0)
    select = RawNode("ComboBox", label="Sort", value="id", rect=Rect(0, 0, 200, 40), children=[
        RawNode("StaticText", label="id", selected=True, rect=placeless),
        RawNode("StaticText", label="name", rect=placeless),
        RawNode("StaticText", label="… 51 more options", rect=placeless),
    ])  # fmt: skip
    nodes = screen(select, RawNode("Button", label="Apply", rect=Rect(0, 50, 80, 40)))
    assert render(nodes, interactive=True).text.splitlines() == [
        '@e1 ComboBox "Sort" value="id" (53 options, select one)',
        '@e2 Button "Apply"',
    ]
    assert render(nodes).text.splitlines()[:4] == [
        '@e1 ComboBox "Sort" value="id"',
        '  @e2 StaticText "id" [selected]',
        '  @e3 StaticText "name"',
        '  @e4 StaticText "… 51 more options"',
    ]


def test_a_checkbox_radio_or_switch_shows_checked_as_a_flag_and_nothing_when_off() -> None:
    nodes = screen(
        RawNode("CheckBox", label="Gift wrap", value="0", rect=Rect(0, 0, 40, 40)),
        RawNode("CheckBox", label="All", value="2", rect=Rect(0, 50, 40, 40)),
        RawNode("RadioButton", label="Pickup", value="1", rect=Rect(0, 100, 40, 40)),
        RawNode("Switch", label="Wi-Fi", value="off", rect=Rect(0, 150, 40, 40)),
        RawNode("Slider", label="Volume", value="1", rect=Rect(0, 200, 200, 40)),
    )
    assert render(nodes, interactive=True).text.splitlines() == [
        '@e1 CheckBox "Gift wrap"',
        '@e2 CheckBox "All" [mixed]',
        '@e3 RadioButton "Pickup" [checked]',
        '@e4 Switch "Wi-Fi"',
        '@e5 Slider "Volume" value="1"',  # a slider's value is a value
    ]


def test_the_doc_shows_the_closed_select_and_checkbox_lines_as_rendered() -> None:
    doc = " ".join((Path(__file__).resolve().parents[2] / "docs" / "agent-view.md").read_text().split())
    placeless = Rect(0, 0, 0, 0)
    options = [RawNode("StaticText", label=f"c{k}", rect=placeless) for k in range(7)]
    select = RawNode("ComboBox", label="Sort", value="id", rect=Rect(0, 0, 200, 40), children=options)
    box = RawNode("CheckBox", label="Buy milk", value="0", name_from="row", rect=Rect(0, 50, 40, 40))
    lines = [line.split(" ", 1)[1] for line in render(screen(select, box), interactive=True).text.splitlines()]
    assert lines == ['ComboBox "Sort" value="id" (7 options, select one)', 'CheckBox "Buy milk"']
    assert all(f"`{line}`" in doc for line in lines)


def test_diff_says_an_element_drawn_anew_with_the_same_line_gone_and_the_new_one_added_with_its_ref() -> None:
    # findings 4, F3: Streamlit rebuilds the expander below a table it grew; the line reads the same, the ref is new
    nodes = screen(RawNode("Button", label="Shipping details", rect=Rect(0, 0, 300, 40)))
    before = render(nodes, name=lambda n: "e11")
    after = render(nodes, name=lambda n: "e35")  # the same line, the ref of a new element
    assert diff(before, after) == ['- Button "Shipping details"', '+ @e35 Button "Shipping details"']
    assert diff(before, render(nodes, name=lambda n: "e11")) == []  # the same element keeps its ref: no line


def test_a_line_that_moved_in_the_order_and_changed_is_one_change_when_it_carries_its_ref() -> None:
    """A popup laid over the page, first in the order: the lines behind it come after it now, each [covered].  The
    matcher sees them removed and added; the same ref on both is the same element: one ``~`` line (a new user's
    NiceGUI select said every line behind its menu twice).  A line only moved in the order, unchanged, has no line
    of its own (where it went on the screen is moves.py's)."""
    rows = [RawNode("Button", label=f"Row {i}", rect=Rect(0, 100 + 50 * i, 200, 40)) for i in range(3)]
    before = render(screen(*rows), name=lambda n: f"e{n['index']}")
    menu = [RawNode("Button", label=f"Pick {i}", rect=Rect(0, 400 + 50 * i, 200, 40)) for i in range(4)]
    covered = [RawNode("Button", label=f"Row {i}", rect=Rect(0, 100 + 50 * i, 200, 40), covered_by="menu")
               for i in range(3)]  # fmt: skip
    after_nodes = screen(*menu, *covered)
    refs = {f"Row {i}": f"e{i}" for i in range(3)}  # each row keeps the ref it had (its index before)
    after = render(after_nodes, name=lambda n: refs.get(str(n.get("label")), f"e{int(n['index']) + 20}"))
    changes = diff(before, after)
    assert [c for c in changes if "Row" in c] == [
        f'~ @e{i} Button "Row {i}" [covered]  (was: Button "Row {i}")' for i in range(3)
    ], changes


def test_an_element_drawn_anew_with_an_id_is_said_gone_and_added_not_left_out() -> None:
    """Paired by its id (a line whose label is a counter), an element under another ref that reads the same is
    another element: its ``-`` and ``+`` stay (a pair dropped as "only moved in the order" hid the new ref)."""
    nodes = screen(RawNode("Button", label="Save", identifier="save", rect=Rect(0, 0, 300, 40)))
    before = render(nodes, name=lambda n: "e11")
    after = render(nodes, name=lambda n: "e35")
    assert diff(before, after) == ['- Button "Save" id=save', '+ @e35 Button "Save" id=save']
