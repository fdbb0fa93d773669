"""The file chooser's sheet and its refusals (chooser.py), pure: where the sheet is drawn and what a tap on it
reaches, what the view shows, and the files a pick takes (one for a single input, regular files that exist)."""

from __future__ import annotations

from pathlib import Path

import pytest

from phonewire.devices.web import chooser
from phonewire.devices.web.chooser import FileChooser
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Rect

SCREEN = Rect.of(0, 0, 390, 844)


def test_the_sheet_runs_along_the_bottom_with_cancel_last() -> None:
    sheet, button = chooser.layout(SCREEN)
    assert (sheet.y + sheet.height, sheet.width) == (844, 390)
    assert button.y + button.height == 844 and button.y > sheet.y


def test_a_tap_on_cancel_is_taken_and_anywhere_else_is_covered() -> None:
    single = FileChooser.opening({"backendNodeId": 7, "mode": "selectSingle"})
    chooser.hit(single, SCREEN, 195, 820)  # Cancel
    for x, y, where in ((195, 700, "on the sheet"), (20, 20, "on the page under it")):
        with pytest.raises(ProtocolError) as info:
            chooser.hit(single, SCREEN, x, y)
        assert info.value.code == e.ELEMENT_COVERED and where in info.value.message
        assert "pick-file PATH" in (info.value.hint or "")


def test_the_view_names_the_sheet_by_what_the_input_takes() -> None:
    several = FileChooser.opening({"backendNodeId": 7, "mode": "selectMultiple"})
    several.accept = "image/*"
    node = chooser.node(several, SCREEN)
    assert (node.type, node.label, node.value) == ("Dialog", "Choose files", "image/*")
    assert [c.label for c in node.children] == ["Cancel"]


def test_a_pick_takes_existing_files_only_and_one_for_a_single_input(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("a")
    b.write_text("b")
    single = FileChooser(1, multiple=False)
    assert chooser.checked_files(single, [str(a)]) == [str(a)]
    for files, says in (([str(a), str(b)], "one file"), ([str(tmp_path / "c.txt")], "no file"),
                        ([str(tmp_path)], "a directory"), ([], "at least one")):  # fmt: skip
        with pytest.raises(ProtocolError) as info:
            chooser.checked_files(single, files)
        assert info.value.code == e.INVALID_REQUEST and says in info.value.message and info.value.hint
    assert chooser.checked_files(FileChooser(1, multiple=True), [str(a), str(b)]) == [str(a), str(b)]
