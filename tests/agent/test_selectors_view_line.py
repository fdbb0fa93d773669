"""A line of the view pasted as a selector names the element it shows (issue 23: ``tap 'Link "20"'`` read as the
text "Link 20" and matched nothing): its role, label and identifier; its value and flags do not matter (they change
while it stays the element); words that only look like a line still match as words."""

from __future__ import annotations

from agent_fakes import screen
from phonewire.agent import selectors
from phonewire.protocol.snapshot import RawNode, Rect


def nodes() -> list[dict[str, object]]:
    return screen(
        RawNode("StaticText", label="20", rect=Rect(10, 10, 30, 20)),
        RawNode("Link", label="20", rect=Rect(50, 10, 30, 20)),
        RawNode("ComboBox", value="Medium", identifier="speed-button", rect=Rect(10, 50, 180, 36)),
        RawNode("Button", label="Save", identifier="save", enabled=False, rect=Rect(10, 100, 80, 36)),
        RawNode("Button", label="Link 20 more", rect=Rect(10, 150, 120, 36)),
        RawNode("StaticText", label="A long paragraph that the view cut short", rect=Rect(10, 200, 300, 20)),
    )


def found(selector: str) -> list[tuple[object, object]]:
    return [(n.get("type"), n.get("label")) for n in selectors.match(selectors.parse(selector), nodes())]


def test_a_view_line_names_its_element() -> None:
    assert found('Link "20"') == [("Link", "20")]
    assert found('@e12 Button "Save" id=save [disabled]') == [("Button", "Save")]
    assert found('ComboBox id=speed-button value="Fast" [collapsed]') == [("ComboBox", None)]  # value changed
    assert found('StaticText "A long paragraph that…"') == [("StaticText", "A long paragraph that the view cut short")]


def test_words_that_only_look_like_a_line_still_match_as_words() -> None:
    assert found('Link "20 more"') == [("Button", "Link 20 more")]  # no Link "20 more": the words
    assert found('Deselect "x"') == []  # no role: words, as before
