"""D8 of docs/realapps-findings-2.md on the real web phone, on a page of our own (tests/e2e/hostile/occlusion.html):
a popup covers the centre and the left of two rows while their right part shows.  Such a row is listed by
``snapshot -i``, its node carries the ``tapPoint`` the device found, and a tap on it lands on the row, not on the
popup; a button wholly under the popup is still ELEMENT_COVERED and nothing is tapped."""

from __future__ import annotations

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(shared_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    shared_phone.open(hostile_site.url("occlusion.html"))
    return shared_phone


def counts(phone: phonewire.Phone) -> dict[str, str]:
    nodes = phone.snapshot().nodes
    return {
        str(n["identifier"])[2:]: str(n.get("label")) for n in nodes if str(n.get("identifier") or "").startswith("n-")
    }


def test_a_row_whose_centre_is_under_a_popup_is_listed_and_a_tap_lands_on_its_visible_part(
    phone: phonewire.Phone,
) -> None:
    nodes = {n.get("identifier"): n for n in phone.snapshot().nodes}
    popup = nodes["popup"]["rect"]
    row = nodes["row1"]
    assert "coveredBy" not in row
    assert row["tapPoint"]["x"] > popup["x"] + popup["width"]  # right of the popup, inside the row
    assert row["rect"]["y"] < row["tapPoint"]["y"] < row["rect"]["y"] + row["rect"]["height"]
    assert nodes["under"]["coveredBy"] == 'Dialog "Column menu" id=popup' and "tapPoint" not in nodes["under"]
    view = phone.snapshot(interactive=True)
    assert "tapPoint" not in view.text and "tapPoint" not in phone.snapshot().text
    refs = {n.get("identifier"): r for r, n in view.refs.items()}
    assert "row1" in refs and "row2" in refs and "under" not in refs
    assert 'Button "Row one"' in view.text
    phone.tap("@" + refs["row1"])
    assert counts(phone) == {"row1": "1", "row2": "0", "under": "0", "popup": "0"}
    phone.tap("id=row2")
    assert counts(phone) == {"row1": "1", "row2": "1", "under": "0", "popup": "0"}


def test_a_button_wholly_under_the_popup_is_still_element_covered_and_nothing_is_tapped(
    phone: phonewire.Phone,
) -> None:
    for target in ("id=under", '"Under the popup"'):
        with pytest.raises(phonewire.ProtocolError) as info:
            phone.tap(target)
        assert info.value.code == e.ELEMENT_COVERED
        assert 'Dialog "Column menu" id=popup' in info.value.message
    assert counts(phone) == {"row1": "0", "row2": "0", "under": "0", "popup": "0"}
