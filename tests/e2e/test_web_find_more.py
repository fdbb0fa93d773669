"""The leftovers of finding and scrolling (issue 10, after item 7), on the real web phone: ``find`` by any selector
(hostile/rows.html: 200 rows with a delete button each), ``find`` in a virtual list that recycles its row nodes
(hostile/virtual.html: 10,000 rows, 30 nodes), a snapshot after a tap that starts a smooth scroll
(hostile/smooth.html), and refs that survive a row scrolling out of view and back.

How long ``find`` takes on the virtual list is in bench/bench_web.py (``find_virtual``); here the number of scrolls."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory, hostile_site: HostileSite) -> Iterator[phonewire.Phone]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PHONEWIRE_STATE_DIR", str(tmp_path_factory.mktemp("findmore") / "state"))
        mp.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
        with phonewire.Phone(device="web") as p:
            yield p


def status(phone: phonewire.Phone, prefix: str) -> str:
    return next(str(n["label"]) for n in phone.snapshot().nodes if str(n.get("label") or "").startswith(prefix))


def page_offset(phone: phonewire.Phone) -> int:
    return int(re.search(r"page=(\d+)", status(phone, "page="))[1])  # type: ignore[index]


# -- a snapshot after a tap that starts a smooth scroll shows where it came to rest ------------------------------


@pytest.mark.parametrize("button", ["id=smooth", "id=anchor"])
def test_a_snapshot_after_a_tap_that_starts_a_smooth_scroll_shows_where_it_came_to_rest(
    phone: phonewire.Phone, hostile_site: HostileSite, button: str
) -> None:
    phone.open(hostile_site.url("smooth.html"))
    assert page_offset(phone) == 0
    phone.tap(button)
    view = phone.snapshot().text
    time.sleep(1.5)
    assert phone.snapshot().text == view  # nothing moved after the snapshot: it was taken at rest
    spot = "Middle spot" if button == "id=smooth" else "Bottom spot"
    assert f'"{spot}"' in view and '"Top spot"' not in view
    assert page_offset(phone) > 5000
