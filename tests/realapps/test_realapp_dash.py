"""Dash 4.4 (from the Python package index) on the web phone, through the CLI as an agent drives it, with no
coordinates (issue 23): its tabs read as tabs with the chosen one selected, its dropdown chosen by taps and a
callback's answer read, its DataTable sorted by the arrow named for its column and filtered by a field, and its
plotly chart without the eleven unnamed Buttons its drag layers made.  Each step's reply is checked for what it says;
the page's answer (the callback's line, the rows' order) is what the view shows after it."""

from __future__ import annotations

import re

from realapps_env import Cli, CliResult


def ok(result: CliResult) -> str:
    assert result.code == 0, (result.out, result.err)
    assert "Traceback" not in result.out + result.err
    return result.out


def cities(view: str) -> list[str]:
    """The DataTable's city column, top to bottom: each row's first cell."""
    rows = re.findall(r"^@e\d+ Cell\n  @e\d+ Other \"([^\"]+)\"", view, re.MULTILINE)
    return rows


def test_tabs_dropdown_callback_sorting_and_filtering_by_taps_and_names(cli: Cli, dash_app: str) -> None:
    ok(cli("url", dash_app))
    ok(cli("wait", 'role=Button label="Greet"', "--timeout", "30000"))
    view = ok(cli("snapshot", "-i"))
    assert 'Tab "Pick" [selected]' in view and 'Tab "Table"' in view, view  # were Buttons, the chosen one unmarked
    assert "No greeting yet" not in view, view  # an html.Div with an id is text (it was a Button)
    menu = ok(cli("tap", 'role=Button label="Select a city"'))
    assert 'RadioButton "Delhi"' in menu, menu
    ok(cli("tap", "role=RadioButton label=Delhi"))
    greeted = ok(cli("tap", "role=Button label=Greet"))
    assert '"Hello, Delhi! (1)"' in greeted, greeted  # the callback's answer, in the tap's own reply
    table = ok(cli("tap", "role=Tab label=Table"))
    assert 'Tab "Table" [+selected]' in table, table  # (a diff marks the state it gained)
    view = ok(cli("snapshot", "-i"))
    assert cities(view) == ["Tokyo", "Delhi", "Shanghai", "Cairo", "Lagos"], view
    assert view.count('Button "sort ') == 3, view  # one per column, each named for it (was three Button "sort")
    assert not re.search(r"^@e\d+ Button$", view, re.MULTILINE), view  # the chart's drag layers are no buttons
    sorted_ = ok(cli("tap", 'role=Button label="sort Population"'))
    assert 'Button "sort up Population"' in sorted_, sorted_  # the arrow now says how it sorts
    assert cities(ok(cli("snapshot", "-i"))) == ["Lagos", "Cairo", "Shanghai", "Delhi", "Tokyo"]
    fields = re.findall(r"TextField \"filter data\.\.\. (\w+)\"", ok(cli("snapshot", "-i")))
    assert fields == ["City", "Country", "Population"], fields  # one name was all three's
    ok(cli("fill", 'role=TextField label="filter data... City"', "Tokyo"))
    ok(cli("press", "enter"))
    assert cities(ok(cli("snapshot", "-i"))) == ["Tokyo"]
