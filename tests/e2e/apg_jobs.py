"""The job of each W3C ARIA Authoring Practices example (tests/apg/), as a phone user does it: the CLI's own words
after ``open`` of the example's page — taps and fills of elements named by selectors (``find`` / ``scroll`` to
bring them on screen), no coordinates, no keys — and the check: the example's own state as the view shows it
(``find SELECTOR`` answers the element's line, which must hold the words), read from the widget itself or from the
page's own output element.  tests/e2e/test_apg_jobs.py runs them through the real CLI and its daemon.

``NOT_BY_TAPS`` lists the examples whose job is not done by taps on what the view names, with why (read in the
example's own js/).  Each job ends with `close` of its page.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Protocol

Step = tuple[str, ...]
#: What shows the job done: a command (``find SELECTOR``: its line; ``network --url PART``: the requests) and words
#: its answer holds — ``[state]`` among a line's states, ``/REGEX/`` found, else the words themselves.
Check = tuple[Step, str]


@dataclass(frozen=True)
class Job:
    example: str  #: the page, under tests/apg/content/
    steps: tuple[Step, ...]
    check: Check
    core: bool = False  #: one of the representative third that the default run does
    said: str = ""  #: a pattern the last step's reply (its ok line and settled diff) holds: a change, not a state
    inside: str = ""  #: the id of an element the checked one is inside, in the view (an option moved to a list)

    @property
    def name(self) -> str:
        return self.example.rsplit("/", 1)[-1].removesuffix(".html")


def _j(
    example: str, *steps: Step, check: tuple[str, str] | Check, core: bool = False, said: str = "", inside: str = ""
) -> Job:
    what, words = check
    return Job(f"patterns/{example}", steps, (find(what) if isinstance(what, str) else what, words), core, said, inside)


def asked(url: str) -> Check:
    """The page asked for ``url`` (a link followed: the phone has no internet, the request is what shows it)."""
    return ("network", "--url", url), url


def tap(selector: str) -> Step:
    return ("tap", selector)


def find(selector: str) -> Step:
    return ("find", selector)


def seek(selector: str) -> tuple[Step, Step]:
    """What a person does for something further along: scroll until it shows, then tap it."""
    return find(selector), tap(selector)


def fill(selector: str, text: str) -> Step:
    return ("fill", selector, text)


# fmt: off
JOBS: tuple[Job, ...] = (
    _j("accordion/examples/accordion.html",
       *seek('role=Button label="Billing Address"'), fill("id=b-city", "Springfield"),
       check=("id=b-city", 'value="Springfield"'), core=True),
    _j("alert/examples/alert.html",
       *seek("id=alert-trigger"),
       check=("role=Alert", "Hello")),
    _j("alertdialog/examples/alertdialog.html",
       *seek("id=notes_discard"), *seek('role=Button label="Yes"'),
       check=("id=notes", "/TextView \"Notes\" id=notes(?! value=)/")),
    _j("breadcrumb/examples/breadcrumb.html",
       ("network",), *seek('role=Link label="Patterns"'),
       check=asked("patterns/patterns.html")),
    _j("button/examples/button.html",
       *seek("id=toggle"),
       check=("id=toggle", "[selected]")),
    _j("button/examples/button_idl.html",
       *seek("id=toggle"),
       check=("id=toggle", "[selected]")),
    _j("carousel/examples/carousel-1-prev-next.html",
       *seek('label="Stop automatic slide show"'), tap('label="Next Slide"'),
       check=("id=myCarousel", "Group"), said=r'\+ @e\d+ Group "\d of 6"', core=True),
    _j("carousel/examples/carousel-2-tablist.html",
       *seek('label="Stop automatic slide show"'), tap("id=carousel-tab-3"),
       check=("id=carousel-tab-3", "[selected]")),
    _j("checkbox/examples/checkbox-mixed.html",
       *seek('role=CheckBox label="All condiments"'),
       check=('role=CheckBox label="Lettuce"', "[checked]")),
    _j("checkbox/examples/checkbox.html",
       *seek('role=CheckBox label="Lettuce"'),
       check=('role=CheckBox label="Lettuce"', "[checked]"), core=True),
    _j("combobox/examples/combobox-autocomplete-both.html",
       # the keyboard the fill raised covers the list below the field: scrolled into the open, as a person does
       find("id=cb1-input"), fill("id=cb1-input", "Ala"), *seek("label==Alabama"),
       check=("id=cb1-input", 'value="Alabama"'), core=True),
    _j("combobox/examples/combobox-autocomplete-list.html",
       find("id=cb1-input"), fill("id=cb1-input", "Ala"), *seek("label==Alaska"),
       check=("id=cb1-input", 'value="Alaska"')),
    _j("combobox/examples/combobox-autocomplete-none.html",
       *seek("id=cb1-button"), *seek("label==dictionary"),
       check=("id=cb1-input", 'value="dictionary"')),
    _j("combobox/examples/combobox-datepicker.html",
       *seek('label="Choose Date"'), *seek("role=Cell label==15"),
       check=("id=cb-textbox-1", "/15/"), core=True),
    _j("combobox/examples/combobox-select-only.html",
       *seek("id=combo1"), *seek("label==Banana"),
       check=("id=combo1", 'value="Banana"')),
    _j("combobox/examples/grid-combo.html",
       find("id=ex1-input"), fill("id=ex1-input", "app"), *seek("label==Apple"),
       check=("id=ex1-input", 'value="Apple"')),
    _j("dialog-modal/examples/datepicker-dialog.html",
       *seek('label="Choose Date"'), *seek("role=Cell label==15"),
       check=("id=id-textbox-1", "/15/"), core=True),
    _j("dialog-modal/examples/dialog.html",
       *seek('label="Add Delivery Address"'), fill('label="Street"', "1 Main St"), *seek('role=Button label="Add"'),
       check=('role=Heading label="Address Added"', "Address Added"), core=True),
    _j("disclosure/examples/disclosure-card.html",
       *seek("id=toggle-folk-futures"),
       check=("id=toggle-folk-futures", "[expanded]")),
    _j("disclosure/examples/disclosure-faq.html",
       *seek('role=Button label="Is there free parking on holidays?"'),
       check=('role=Button label="Is there free parking on holidays?"', "[expanded]"), core=True),
    _j("disclosure/examples/disclosure-image-description.html",
       *seek('role=Button label~=/Data Table/'),
       check=('role=Button label~=/Data Table/', "[expanded]"), core=True),
    _j("disclosure/examples/disclosure-navigation.html",
       *seek('role=Button label="Admissions"'), tap('role=Link label="Apply"'),
       check=("id=mythical-page-heading", "Apply")),
    _j("disclosure/examples/disclosure-navigation-hybrid.html",
       *seek('label="More Admissions pages"'), *seek('role=Link label="Apply"'),
       check=("id=mythical-page-heading", "Apply"), core=True),
    _j("grid/examples/data-grids.html",
       *seek('role=Button label="Date"'),
       check=("label=Date value=descending", 'value="descending"')),
    _j("grid/examples/layout-grids.html",
       *seek("id=rb1"),
       check=("id=ex2-grid", "Table"), said=r'- Button "Remove Recipient Name 1" id=rb1'),
    _j("link/examples/link.html",
       ("network",), *seek('role=Link label=="W3C website"'),
       check=asked("https://www.w3.org/")),
    _j("listbox/examples/listbox-actions.html",
       *seek("id=ss_elem_Everest"), *seek("id=ss_elem_Everest_delete"),
       check=("id=ss_elem_list", "Bucket List"), said=r'- Cell "favorite Climb Everest'),
    _j("listbox/examples/listbox-collapsible.html",
       *seek("id=exp_button"), *seek("id=exp_elem_Pu"),
       check=("id=exp_button", "Plutonium"), core=True),
    _j("listbox/examples/listbox-grouped.html",
       *seek('label=="Cat"'),
       check=('label=="Cat"', "[selected]")),
    _j("listbox/examples/listbox-rearrangeable.html",
       *seek('label="Proximity of grocery shopping"'), *seek("id=ex1-delete"),
       check=("id=ss_opt3", "Proximity of grocery shopping"), inside="ss_unimp_list", core=True),
    _j("listbox/examples/listbox-scrollable.html",
       *seek("label==Plutonium"),
       check=("label==Plutonium", "[selected]")),
    _j("menu-button/examples/menu-button-actions-active-descendant.html",
       *seek("id=menubutton1"), *seek('label="Action 3"'),
       check=("id=action_output", 'value="Action 3"')),
    _j("menu-button/examples/menu-button-actions.html",
       *seek("id=menubutton1"), *seek('label="Action 3"'),
       check=("id=action_output", 'value="Action 3"'), core=True),
    _j("menu-button/examples/menu-button-links.html",
       ("network",), *seek("id=menubutton"), *seek('label="W3C Home Page"'),
       check=asked("https://www.w3.org/")),
    _j("menubar/examples/menubar-editor.html",
       *seek('role=MenuItem label="Font"'), *seek('label="Serif"'), *seek('role=MenuItem label="Font"'),
       check=('label="Serif"', "[selected]")),
    _j("menubar/examples/menubar-navigation.html",
       *seek('role=MenuItem label="Admissions"'), *seek('role=MenuItem label="Apply"'),
       check=("id=id-page-title", "Apply")),
    _j("meter/examples/meter.html",
       *seek("label=Pause Updates"),
       check=("label=Start Updates", "Button")),
    _j("radio/examples/radio-activedescendant.html",
       *seek('role=RadioButton label="Thin Crust"'),
       check=('role=RadioButton label="Thin Crust"', "[checked]")),
    _j("radio/examples/radio-rating.html",
       *seek('role=RadioButton label="Four Stars"'),
       check=('role=RadioButton label="Four Stars"', "[checked]")),
    _j("radio/examples/radio.html",
       *seek('role=RadioButton label="Thin Crust"'),
       check=('role=RadioButton label="Thin Crust"', "[checked]")),
    _j("slider/examples/slider-rating.html",
       *seek("id=id-rating"),
       check=("id=id-rating", 'value="five"'), core=True),
    # a slider the page draws is set by `fill`: its thumb dragged to the value (devices/web/sliders.py); these
    # take a drag or keys only (slider-color-viewer.js: pointerdown on the thumb, no click handler on the rail)
    _j("slider/examples/slider-color-viewer.html",
       find("role=Slider label=Red"), fill("role=Slider label=Red", "200"),
       check=('label="Color (RGB):"', 'value="200, 128, 128"'), core=True),
    _j("slider/examples/slider-seek.html",
       find("id=id-seek"), fill("id=id-seek", "120"),
       check=("id=id-seek", 'value="2 Minutes"')),
    _j("slider-multithumb/examples/slider-multithumb.html",
       find('role=Slider label="Hotel Minimum Price in US dollars"'),
       fill('role=Slider label="Hotel Minimum Price in US dollars"', "150"),
       check=('role=Slider label="Hotel Minimum Price in US dollars"', 'value="150"')),
    _j("slider/examples/slider-temperature.html",
       find("id=id-temp-slider"), ("scroll", "down", "--amount", "0.5"), tap("id=id-temp-slider"),
       check=("id=id-temp-slider", r'/value="(?!25\.0 )\d+\.\d degrees Celsius"/')),
    _j("spinbutton/examples/datepicker-spinbuttons.html",
       *seek('label="next day"'),
       check=("role=Stepper label=Day", "Stepper"), said=r'~ @e\d+ Stepper "Day" value="\w+"  \(was: value="\w+"\)'),
    _j("spinbutton/examples/quantity-spinbutton.html",
       *seek('label="Add adult"'),
       check=("id=adults", 'value="2"'), core=True),
    _j("switch/examples/switch-button.html",
       *seek('role=Switch label="Outdoor Lights"'),
       check=('role=Switch label="Outdoor Lights"', "[checked]")),
    _j("switch/examples/switch-checkbox.html",
       *seek('role=Switch label="Show captions"'),
       check=('role=Switch label="Show captions"', "[checked]")),
    _j("switch/examples/switch.html",
       *seek("role=Switch"),
       check=("role=Switch", "[checked]"), core=True),
    _j("table/examples/sortable-table.html",
       *seek('role=Button label="Last Name"'),
       check=('label="Last Name" value=descending', 'value="descending"')),
    _j("tabs/examples/tabs-actions.html",
       *seek("id=tab-2"),
       check=("id=tab-2", "[selected]")),
    _j("tabs/examples/tabs-automatic.html",
       *seek('role=Tab label="Carl Andersen"'),
       check=("id=tabpanel-2", "id=tabpanel-2"), core=True),
    _j("tabs/examples/tabs-manual.html",
       *seek('role=Tab label="Carl Andersen"'),
       check=("id=tabpanel-2", "id=tabpanel-2")),
    _j("toolbar/examples/toolbar.html",
       *seek('role=Button label="Bold"'),
       check=('role=Button label="Bold"', "[selected]"), core=True),
    _j("treegrid/examples/treegrid-1.html",
       find('label="They are great for showing a lot of data, like a grid"'),
       ("tap", 'label="They are great for showing a lot of data, like a grid"', "--count", "2"),
       check=("id=treegrid", "Inbox"), said=r"~ @e\d+ Cell \[\+expanded[],]"),
    _j("treeview/examples/treeview-1a.html",
       *seek('label=="Projects"'), *seek('label=="project-1.docx"'),
       check=("id=last_action", "project-1.docx"), core=True),
    _j("treeview/examples/treeview-1b.html",
       *seek('label=="Projects"'), *seek('label=="project-1.docx"'),
       check=("id=last_action", "project-1.docx")),
    _j("treeview/examples/treeview-navigation.html",
       *seek('label=="Academics"'),
       check=("id=id_page_title", "Academics")),
)
# fmt: on


class CliCall(Protocol):
    def __call__(self, *argv: str) -> tuple[int, str, str]: ...


def run_job(call: CliCall, url: str, job: Job) -> str | None:
    """Do ``job`` on the page at ``url`` through ``call`` (the CLI's argv after ``--device web``, answering its exit
    code, stdout and stderr); None when the check holds, else what was said, step by step, and what is wrong."""
    try:
        return _done(call, url, job)
    finally:
        call("close")  # the example's page stops (a carousel, a meter keep running in the background)


def _done(call: CliCall, url: str, job: Job) -> str | None:
    said: list[str] = []
    replies: list[str] = []
    for argv in (("open", url), *job.steps, job.check[0]):
        code, out, err = call(*argv)
        said.append(f"$ {' '.join(argv)}\n{out.splitlines()[0] if out else ''}{err.strip()}")
        if code != 0:
            return "\n".join(said)
        replies.append(out)
    wrong = _wrong(call, job, replies[-2], replies[-1])
    return None if wrong is None else "\n".join([*said, wrong])


def _wrong(call: CliCall, job: Job, last: str, answer: str) -> str | None:
    if job.said and not re.search(job.said, last):
        return f"the last step's reply does not hold {job.said!r}:\n{last}"
    text = answer.splitlines()[0] if job.check[0][0] == "find" else answer
    if not _holds(text, job.check[1]):
        return f"that does not hold {job.check[1]!r}"
    if job.inside and job.inside not in _ancestors(call, text):
        return f"it is not inside id={job.inside} in the view"
    return None


def _ancestors(call: CliCall, line: str) -> list[str]:
    """The ids of the elements that the line's element (its ``@eN``) is inside, in the view."""
    ref = re.search(r"@(e\d+)", line)
    code, out, _ = call("--json", "snapshot")
    if ref is None or code != 0:
        return []
    data = json.loads(out)["data"]
    nodes, at = data["nodes"], data["refs"].get(ref.group(1))
    ids: list[str] = []
    while at is not None:
        at = nodes[at].get("parentIndex")
        if at is not None:
            ids.append(str(nodes[at].get("identifier") or ""))
    return ids


def _holds(text: str, words: str) -> bool:
    """``/REGEX/`` found in the text; ``[state]`` among its states (``[expanded,focused]``); else the words in it."""
    if words.startswith("/") and words.endswith("/"):
        return re.search(words[1:-1], text) is not None
    if words.startswith("[") and words.endswith("]"):
        states = {s for group in re.findall(r"\[([a-z,=\d-]+)\]", text) for s in group.split(",")}
        return words[1:-1] in states
    return words in text


#: The examples whose job is not done by taps on what the view names, and why (read in the example's own js/).
NOT_BY_TAPS: dict[str, str] = {
    "patterns/feed/examples/feed.html": "reading, not tapping: the feed (feed-display.html in a frame) loads articles "
    "as it scrolls; moving from article to article is keys only (feed.js: Page Down / Page Up, Control+Home / End)",
    "patterns/feed/examples/feed-display.html": "the same feed on its own: nothing to tap but Bookmark buttons, which "
    "have no handler (feedDisplay.js); `scroll down` loads the next articles",
    "patterns/grid/examples/advanced-data-grid.html": "no widget: the page says the example is not yet developed",
    "patterns/table/examples/table.html": "a static table: read, nothing to operate",
}
