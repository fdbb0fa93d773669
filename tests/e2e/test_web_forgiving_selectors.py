"""Selectors forgive what a person would (issue 25, item 4), on the real web phone (hostile/forgiving.html): the
select Django names "Action:" by ``label=Action``, Jupyter's ``Deselect file "Sums.ipynb"`` by the words a person
typed, ``wait`` on a number or a pattern, ``find`` of a name that an instruction mentions before its row in an inner
list.  Each check reads the page's own report of what happened (its status line, the chosen row)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_harness import Cli
from web_runner import HostileSite, SharedRunner, attached_env

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(module_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    module_phone.open(hostile_site.url("forgiving.html"))  # a fresh load: the price back at $39.50
    return module_phone


def text_of(phone: phonewire.Phone, ident: str) -> str:
    return str(next(n["label"] for n in phone.snapshot().nodes if n.get("identifier") == ident))


def test_label_action_selects_in_the_select_named_action_colon(phone: phonewire.Phone) -> None:
    phone.select("label=Action", ["Delete selected people"])
    assert text_of(phone, "status") == "action=delete_selected"  # the page's own change handler saw it
    with pytest.raises(phonewire.ProtocolError) as refused:
        phone.select("label==Action", ["Export"])  # exact: "Action" is not "Action:"
    assert refused.value.code == e.NOT_FOUND
    assert text_of(phone, "status") == "action=delete_selected"


def test_a_text_with_quotes_inside_is_waited_for_and_tapped_once(phone: phonewire.Phone) -> None:
    waited = phone.wait('Deselect file "Sums.ipynb"', timeout_ms=0)  # on screen: found on the first look
    assert 'Button "Deselect file \\"Sums.ipynb\\""' in str(waited.data["message"])
    phone.tap('Deselect file "Sums.ipynb"')
    assert text_of(phone, "status") == "deselected=1"


def test_wait_on_a_number_returns_once_the_price_passes_it(phone: phonewire.Phone) -> None:
    with pytest.raises(phonewire.ProtocolError) as before:
        phone.wait("id=price value>45", timeout_ms=0)  # $39.50 now
    assert before.value.code == e.WAIT_TIMED_OUT
    phone.tap("id=rise")
    waited = phone.wait("id=price value>45", timeout_ms=20_000)
    assert "Stock price: $46.20" in str(waited.data["message"])
    assert phone.wait("id=price value<=46.2 value>=46.2", timeout_ms=0).data["target"]["label"] == (
        "Stock price: $46.20"
    )


def test_wait_on_a_pattern_returns_once_the_text_matches_it(phone: phonewire.Phone) -> None:
    with pytest.raises(phonewire.ProtocolError) as before:
        phone.wait(r"text~=/Stock price: \$4\d/", timeout_ms=0)
    assert before.value.code == e.WAIT_TIMED_OUT
    phone.tap("id=rise")
    waited = phone.wait(r"text~=/Stock price: \$4\d/", timeout_ms=20_000)
    assert waited.data["target"]["label"].startswith("Stock price: $4")


@pytest.mark.parametrize("selector", ["id=price value<cheap", r"text~=/Stock (/", "role~=/Button/", "id<3"])
def test_a_selector_that_cannot_be_read_is_refused_and_nothing_is_tapped(phone: phonewire.Phone, selector: str) -> None:
    calls: tuple[Callable[[], object], ...] = (lambda: phone.tap(selector), lambda: phone.wait(selector, timeout_ms=0))
    for call in calls:
        with pytest.raises(phonewire.ProtocolError) as refused:
            call()
        assert refused.value.code == e.INVALID_REQUEST and refused.value.hint
    assert text_of(phone, "status") == "ready"


def test_find_prefers_the_row_in_the_inner_list_over_the_instruction_that_mentions_it(phone: phonewire.Phone) -> None:
    """MiniWoB's click-scroll-list: ``find Janessa`` stopped on the instruction; now it scrolls the list the name is
    in (not the page: the instruction stays where it was) and answers the row, whose ref taps it."""
    instruction = next(n for n in phone.snapshot().nodes if n.get("identifier") == "instruction")
    found = phone.find("Janessa")
    assert found.data["line"].endswith('"Janessa"') and "Select Janessa" not in found.data["line"]
    assert found.data["scrolls"] >= 1
    again = next(n for n in phone.snapshot().nodes if n.get("identifier") == "instruction")
    assert again["rect"] == instruction["rect"]  # the page did not scroll
    phone.tap("@" + found.data["ref"])
    assert text_of(phone, "chosen") == "chosen=Janessa"


def test_find_scrolls_a_list_box_to_the_option_an_instruction_mentions(
    module_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    """The same in MiniWoB's own shape (hostile/scroll_list.html): the options of a multiple select scroll inside
    it; ``find`` moves that list box, not the page, and the option's ref selects it."""
    phone = module_phone
    phone.open(hostile_site.url("scroll_list.html"))
    query = next(n for n in phone.snapshot().nodes if n.get("identifier") == "query")
    found = phone.find("Janessa")
    assert found.data["line"].endswith('Cell "Janessa"'), found.data
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "query")["rect"] == query["rect"]
    phone.tap("@" + found.data["ref"])
    assert text_of(phone, "status") == "selected=Janessa"


def test_find_answers_the_mention_when_nothing_else_matches(phone: phonewire.Phone) -> None:
    found = phone.find("click Submit")  # only the instruction holds these words
    assert "Select Janessa from the list and click Submit." in found.data["line"] and found.data["scrolls"] <= 1


# -- the same through the CLI ----------------------------------------------------------------------------------------
@pytest.fixture
def cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_runner: SharedRunner, hostile_site: HostileSite
) -> Iterator[Cli]:
    c = Cli(tmp_path, monkeypatch)
    for name, value in attached_env(shared_runner.get()).items():
        c.setenv(name, value)
    try:
        assert c("open", hostile_site.url("forgiving.html")).code == 0
        yield c
    finally:
        c.stop()


def test_the_cli_waits_for_a_quoted_name_and_on_numbers_and_patterns(cli: Cli) -> None:
    shown = cli("wait", 'Deselect file "Sums.ipynb"', "--timeout", "0")
    assert shown.code == 0 and "Deselect file" in shown.out, shown.err
    assert cli("tap", "id=rise").code == 0
    risen = cli("wait", "id=price value>45", "--timeout", "20000")
    assert risen.code == 0 and "Stock price: $46.20" in risen.out, risen.err
    matched = cli("wait", r"text~=/Stock price: \$46\.\d+/", "--timeout", "0")
    assert matched.code == 0 and "$46.20" in matched.out, matched.err
    bad = cli("wait", "id=price value<cheap")
    assert bad.code != 0 and "INVALID_REQUEST" in bad.err and "takes a number" in bad.err
