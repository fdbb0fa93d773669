"""The walker is sent and compiled once per document (walk.py's walker_call): later snapshots call the function the
first one stored in the page, which the page can neither replace nor delete; a new document gets it again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_phone import Phone, requires_chromium

from phonewire.devices.web.home import DEMO_APP_ID
from phonewire.devices.web.walk import _WALKER, DEFINE_WALKER, walker_call

pytestmark = requires_chromium

#: The walker functions stored in the page's window (symbols named phonewire.walker.*), as a list of descriptions.
STORED = """Object.getOwnPropertySymbols(window)
  .filter((s) => (s.description || "").startsWith("phonewire.walker.")).map((s) => s.description)"""
#: The first stored walker of the window.
FIRST = f"window[Symbol.for(({STORED})[0])]"


@pytest.fixture
def app(phone: Phone) -> Iterator[str]:
    """An app of its own (the demo at its own URL), closed afterwards; the demo is in front again."""
    url = phone.device.describe()["demoUrl"] + "?walker"
    phone.run(phone.device.launch_app(url))
    try:
        yield url
    finally:
        phone.run(phone.device.terminate_app(url))
        phone.run(phone.device.activate(DEMO_APP_ID))


def ids(phone: Phone, app: str) -> set[str]:
    return {str(n["identifier"]) for n in phone.snapshot(app)["nodes"] if n["identifier"]}


def test_a_snapshot_call_is_short_and_only_the_defining_one_carries_the_walker() -> None:
    for probe in (None, (10.0, 20.0)):
        assert len(walker_call(probe)) < 300 and _WALKER not in walker_call(probe)
        assert _WALKER in walker_call(probe, define=True)


def test_the_walker_is_stored_once_and_called_by_later_snapshots(phone: Phone, app: str) -> None:
    first = ids(phone, app)
    assert {"like-1", "rows"} <= first
    assert len(phone.eval(STORED, app)) == 1
    phone.eval(f"window.__firstWalker = {FIRST}; 1", app)
    assert ids(phone, app) == first and ids(phone, app) == first
    assert phone.eval(f"[({STORED}).length, window.__firstWalker === {FIRST}]", app) == [1, True]


def test_the_page_can_neither_replace_nor_delete_the_stored_walker(phone: Phone, app: str) -> None:
    first = ids(phone, app)
    descriptor = phone.eval(
        f"(() => {{ const d = Object.getOwnPropertyDescriptor(window, Symbol.for(({STORED})[0]));"
        " return [d.writable, d.enumerable, d.configurable]; })()",
        app,
    )
    assert descriptor == [False, False, False]
    attempts = phone.eval(
        f"""(() => {{
          const key = Symbol.for(({STORED})[0]), fake = () => ({{w: 1, h: 1, nodes: []}});
          const tried = [];
          try {{ window[key] = fake; tried.push("assigned"); }} catch (e) {{ tried.push("assign refused"); }}
          tried.push(delete window[key] ? "deleted" : "delete refused");
          try {{ Object.defineProperty(window, key, {{value: fake}}); tried.push("redefined"); }}
          catch (e) {{ tried.push("redefine refused"); }}
          return tried;
        }})()""",
        app,
    )
    assert attempts == ["assigned", "delete refused", "redefine refused"]  # (sloppy mode: the assignment is ignored)
    assert ids(phone, app) == first


def test_a_new_document_gets_the_walker_again(phone: Phone, app: str) -> None:
    ids(phone, app)
    phone.eval("window.__firstWalker = " + FIRST + "; 1", app)
    phone.run(phone.device.launch_app(app))  # the same app again: relaunched, a new document
    assert {"like-1", "rows"} <= ids(phone, app)
    assert phone.eval(f"[({STORED}).length, window.__firstWalker === undefined]", app) == [1, True]


def test_a_document_whose_commit_the_device_has_not_seen_still_gets_the_walk(phone: Phone, app: str) -> None:
    ids(phone, app)
    phone.run(phone.device.launch_app(app))  # a new document
    page = phone.device._live(app)
    page.walker_in = page.documents  # as if its commit event were still on its way: the device tries the short call
    assert {"like-1", "rows"} <= ids(phone, app)
    assert len(phone.eval(STORED, app)) == 1


def test_a_tap_in_a_new_document_names_what_it_hit(phone: Phone, app: str) -> None:
    node = next(n for n in phone.snapshot(app)["nodes"] if n["identifier"] == "like-2")
    phone.run(phone.device.launch_app(app))  # a new document: the tap's probe defines the walker
    r = node["rect"]
    hit = phone.run(phone.device.tap(app, r["x"] + r["width"] / 2, r["y"] + r["height"] / 2))
    assert hit is not None and '"Like 0"' in hit and "like-2" in hit
    assert len(phone.eval(STORED, app)) == 1
    assert next(n for n in phone.snapshot(app)["nodes"] if n["identifier"] == "like-2")["label"] == "Like 1"


def test_defining_the_walker_again_in_the_same_document_keeps_the_first(phone: Phone, app: str) -> None:
    # (a document back from the back/forward cache commits again: the device defines the walker there again)
    first = ids(phone, app)
    phone.eval(f"window.__firstWalker = {FIRST}; 1", app)
    page = phone.device._live(app)
    page.walker_in = None  # the device takes the document for a new one
    assert ids(phone, app) == first
    assert phone.eval(f"[({STORED}).length, window.__firstWalker === {FIRST}]", app) == [1, True]


def test_a_tap_whose_probe_finds_no_walker_defines_it_and_lands_once(phone: Phone, app: str) -> None:
    node = next(n for n in phone.snapshot(app)["nodes"] if n["identifier"] == "like-3")
    phone.run(phone.device.launch_app(app))  # a new document ...
    page = phone.device._live(app)
    page.walker_in = page.documents  # ... whose commit the device has not seen: the probe's short call misses
    r = node["rect"]
    hit = phone.run(phone.device.tap(app, r["x"] + r["width"] / 2, r["y"] + r["height"] / 2))
    assert hit is not None and "like-3" in hit
    assert next(n for n in phone.snapshot(app)["nodes"] if n["identifier"] == "like-3")["label"] == "Like 1"


def test_a_new_documents_walker_is_defined_while_its_first_snapshot_waits_for_the_screen_to_settle(
    phone: Phone, app: str
) -> None:
    """The first snapshot after a launch waits for a quiet screen; the walker is defined meanwhile, so the walk itself
    is the short call, and the page was asked to define it once."""
    phone.run(phone.device.launch_app(app))  # a new document, not settled yet
    sent: list[str] = []
    real = phone.device._eval

    async def recording(page: object, expression: str, **kwargs: object) -> object:
        sent.append(expression)
        return await real(page, expression, **kwargs)  # type: ignore[arg-type]

    phone.device._eval = recording  # type: ignore[method-assign]
    try:
        assert {"like-1", "rows"} <= ids(phone, app)
    finally:
        del phone.device._eval
    defining = [x for x in sent if _WALKER in x]
    assert defining == [DEFINE_WALKER], [x[:80] for x in sent]
    assert sent.index(DEFINE_WALKER) < sent.index(walker_call())
    assert len(phone.eval(STORED, app)) == 1
