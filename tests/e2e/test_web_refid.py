"""A ref never names another element, end to end (issue 10, item 5): real runner, real Chromium, a page of ours.

tests/e2e/refid/rows.html shows rows the test publishes (long poll): a repeating title, an unlabeled delete
button in every row (twins), a ``Like N`` button and a phone number whose ids encode the row's *position*.
Hypothesis draws rows, a ref to one part of one row from a real snapshot, then inserts, removes, reorders rows,
bumps counters and lets the page recycle removed rows' elements for new rows, and taps the old ref through the
Python API.  The page counts every tap per row key and part (its own ground truth, which the snapshot does not
show): exactly the intended counter went up by one, or the tap was refused with STALE_REF and no counter moved.
On the web device a ref re-finds by the element's serial, so an element that is still there is always found.

Every example is a few real taps, so the default run draws only a few scenarios after the ``@example`` cases that
pin the ones that matter (a removed row, a removed row's elements recycled for a new row, a row shifted by an
insert — it fails when a web ref stops re-finding by serial —, look-alike rows that move, a counter that
changes its label); ``PHONEWIRE_REFID_EXAMPLES=200`` draws that many for a long run (the default is 6).
"""

from __future__ import annotations

import contextlib
import http.server
import itertools
import json
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import phonewire
from loopback import serve
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e

PAGE = (Path(__file__).resolve().parent / "refid" / "rows.html").read_bytes()
TITLES = ("Milk", "Eggs", "Jam")


class RowsSite:
    """Serves rows.html and the states the test publishes, on loopback, from a thread of the test process."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.state: dict[str, Any] = {"v": 0, "rows": [], "recycle": False}
        self.acked = 0
        self.closing = False
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                url = urlparse(self.path)
                seen = int(parse_qs(url.query).get("v", ["0"])[0])
                if url.path == "/":
                    self.reply(200, "text/html", PAGE)
                elif url.path == "/next":
                    with site.changed:
                        site.changed.wait_for(lambda: site.closing or site.state["v"] > seen, timeout=5)
                        body = json.dumps(site.state).encode() if site.state["v"] > seen else None
                    self.reply(200, "application/json", body) if body else self.reply(204, "text/plain", b"")
                elif url.path == "/ack":
                    with site.changed:
                        site.acked = max(site.acked, seen)
                        site.changed.notify_all()
                    self.reply(204, "text/plain", b"")
                else:
                    self.reply(404, "text/plain", b"")

            def reply(self, status: int, kind: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                with contextlib.suppress(OSError):  # the browser went away mid-poll
                    self.wfile.write(body)

        self._serving = contextlib.ExitStack()
        self.url = self._serving.enter_context(serve(Handler, "refid-site")) + "/"

    def publish(self, rows: list[Row], *, recycle: bool = False) -> None:
        """Show ``rows`` and return once the page has rendered them."""
        with self.changed:
            version = self.state["v"] + 1
            self.state = {"v": version, "recycle": recycle,
                          "rows": [{"key": r.key, "title": r.title, "likes": r.likes} for r in rows]}  # fmt: skip
            self.changed.notify_all()
            assert self.changed.wait_for(lambda: self.acked >= version, timeout=15), "the page did not render"

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()
        self._serving.close()


@dataclass(frozen=True)
class Row:
    key: int
    title: str
    likes: int = 0


@pytest.fixture(scope="module")
def site() -> Iterator[RowsSite]:
    served = RowsSite()
    try:
        yield served
    finally:
        served.close()


@pytest.fixture(scope="module")
def phone(site: RowsSite, module_phone: phonewire.Phone) -> phonewire.Phone:
    module_phone.open(site.url)
    return module_phone


def hits(nodes: list[dict[str, Any]]) -> dict[str, int]:
    found = [n for n in nodes if n.get("identifier") == "hits"]
    assert len(found) == 1, "the page's tap counters must be on screen"
    counts: dict[str, int] = json.loads(found[0]["label"])
    return counts


def part_of(node: dict[str, Any], nodes: list[dict[str, Any]]) -> tuple[int, str] | None:
    """(row position, part) of a node inside a row, else None."""
    identifier = node.get("identifier") or ""
    if node["type"] == "Button":
        kind: str | None = "like" if identifier.startswith("like-") else "delete"
    elif identifier.startswith("cell-"):
        kind = "phone"
    else:
        kind = "title" if node["type"] == "StaticText" else None
    parent = node.get("parentIndex")
    while kind and parent is not None:
        row = re.fullmatch(r"row-(\d+)", nodes[parent].get("identifier") or "")
        if row:
            return int(row.group(1)), kind
        parent = nodes[parent].get("parentIndex")
    return None


_keys = itertools.count(1)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[list[Row], list[Row], bool, int]:
    """Rows at snapshot time (keys never used before in this page), rows at tap time, whether the page recycles
    removed rows' elements, and a number that picks the ref."""
    titles = draw(st.lists(st.sampled_from(TITLES), min_size=1, max_size=6))
    before = [Row(next(_keys), title, draw(st.integers(0, 2))) for title in titles]
    rows = list(before)
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(("insert", "remove", "move", "like")))
        if op == "insert" or not rows:  # titles repeat freely: a serial tells look-alikes apart
            rows.insert(draw(st.integers(0, len(rows))), Row(next(_keys), draw(st.sampled_from(TITLES))))
        elif op == "remove":
            rows.pop(draw(st.integers(0, len(rows) - 1)))
        elif op == "move":
            moved = rows.pop(draw(st.integers(0, len(rows) - 1)))
            rows.insert(draw(st.integers(0, len(rows))), moved)
        else:
            i = draw(st.integers(0, len(rows) - 1))
            rows[i] = Row(rows[i].key, rows[i].title, rows[i].likes + 1)
    return before, rows, draw(st.booleans()), draw(st.integers(0, 10_000))


# The pinned cases (run first, every time); their keys come from the drawn ones' counter, so none is shared.
_a, _b, _c, _d, _e, _f, _g, _h, _i, _j, _k, _l = (next(_keys) for _ in range(12))
Scenario = tuple[list[Row], list[Row], bool, int]
# the only row is removed: its ref is refused, whichever part it named
REMOVED: Scenario = ([Row(_a, "Milk")], [], False, 2)
# the only row is removed and its elements are recycled for a new row with another title: refused, not tapped
RECYCLED: Scenario = ([Row(_b, "Eggs", 1)], [Row(_c, "Jam")], True, 1)
# a row inserted before the only row shifts it (and the ids that encode its position): tapped, found by its serial
SHIFTED: Scenario = ([Row(_k, "Milk")], [Row(_l, "Milk"), Row(_k, "Milk")], False, 3)
# look-alike rows (one title, twin delete buttons) reorder, one's counter changes its label, one is inserted
LOOKALIKES: Scenario = (
    [Row(_d, "Milk"), Row(_e, "Milk"), Row(_f, "Milk")],
    [Row(_f, "Milk"), Row(_d, "Milk", 1), Row(_g, "Milk"), Row(_e, "Milk")],
    True,
    5,
)
# one of two rows is removed and recycled for a row inserted before the other, which survives
RECYCLED_BESIDE: Scenario = ([Row(_h, "Eggs"), Row(_i, "Jam", 2)], [Row(_j, "Jam"), Row(_i, "Jam", 2)], True, 6)


@settings(
    max_examples=int(os.environ.get("PHONEWIRE_REFID_EXAMPLES", "6")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@example(REMOVED)
@example(RECYCLED)
@example(SHIFTED)
@example(LOOKALIKES)
@example(RECYCLED_BESIDE)
@given(scenarios())
def test_a_tap_through_an_old_ref_reaches_its_own_row_or_is_refused(
    phone: phonewire.Phone, site: RowsSite, scenario: Scenario
) -> None:
    before, after, recycle, pick = scenario
    site.publish(before)
    view = phone.snapshot()
    targets = sorted((ref, where) for ref, node in view.refs.items() if (where := part_of(node, view.nodes)))
    assert len(targets) == 4 * len(before), "every part of every row has a ref"
    ref, (position, part) = targets[pick % len(targets)]
    intended = f"{before[position].key}:{part}"
    counts = hits(view.nodes)
    site.publish(after, recycle=recycle)
    try:
        phone.tap("@" + ref)
        tapped = True
    except phonewire.ProtocolError as exc:
        assert exc.code == e.STALE_REF, exc
        tapped = False
    now = hits(phone.snapshot().nodes)
    moved = {k: now.get(k, 0) - counts.get(k, 0) for k in now.keys() | counts.keys() if now.get(k) != counts.get(k)}
    if tapped:
        assert moved == {intended: 1}
    else:
        assert moved == {}
    # The same element is still on the page (its key survived; recycling only reuses removed rows): found.
    assert tapped == (before[position].key in {r.key for r in after})
