"""A real Selenium Grid 4 (hub + two relay nodes, Java) in front of two ``phonewire webdriver`` servers, driven by
the Appium Python client through the hub: sessions spread over both nodes, every session drives its own phone,
a node whose phonewire dies is reported down and refuses new sessions, and a node's ``--session-timeout`` ends an
idle phonewire session.  One Grid for the module (tests/grid_harness.py); Java and the jar come from scripts/grid.sh
(skipped locally when they cannot be had, failed in CI).

The owner-only rule holds here as it is: the relay nodes run as the test's own user on loopback, send
``Host: 127.0.0.1:PORT`` and no ``Origin``, so phonewire admits them (nothing is configured for it)."""

from __future__ import annotations

import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from appium import webdriver as appium_webdriver
from appium.options.common.base import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import InvalidSessionIdException, SessionNotCreatedException, WebDriverException

from grid_harness import STEREOTYPE, TIMEOUT_STEREOTYPE, Grid, Proc, alive, server_jar
from loopback import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.grid, pytest.mark.timeout(420)]

DEMO = "dev.phonewire.demo"
#: Node b's phonewire runs with --allow-remote and these; its relay URL carries them (http://USER:PASSWORD@…), as
#: a relay on another machine would (docs/grid.md).
CREDENTIALS = "grid-relay:not-a-real-secret"
SESSION_TIMEOUT_S = 10  # Grid's minimum (it raises a shorter timeout to 10 s)


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Grid]:
    jar, why = server_jar()
    if jar is None:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    g = Grid(jar, tmp_path_factory.mktemp("grid"), credentials=[None, CREDENTIALS], timeout_node_s=SESSION_TIMEOUT_S)
    try:
        g.start()
        yield g
    finally:
        left = g.stop()
        assert left == set(), f"processes the Grid test started are still running: {sorted(left)}"


@pytest.fixture(scope="module", autouse=True)
def idle_session(grid: Grid) -> tuple[appium_webdriver.Remote, set[Proc]]:
    """A session on the timeout node, opened before the module's first test and left idle from then on (the node
    ends it while the other tests run); the session and the processes of its phone."""
    d = grid.connect({**TIMEOUT_STEREOTYPE, "appium:app": DEMO})
    assert grid.timeout_node is not None
    phonewire = grid.timeout_node.phonewire
    assert d.find_element(AppiumBy.ID, "title").text == "Inbox"
    assert phonewire.session_ids() == {d.session_id}
    grid.record()
    # the server's locator worker (issue 28: queries run in a worker process) serves every session and outlives them
    phones = {p for p in phonewire.seen if QUERY_WORKER not in _cmdline(p[0])}
    assert phones, "the session's runner and browser run under phonewire"
    return d, phones


QUERY_WORKER = "phonewire.frontends.webdriver.queries"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def connect(g: Grid, **caps: object) -> appium_webdriver.Remote:
    driver: appium_webdriver.Remote = g.connect(
        {**STEREOTYPE, "appium:deviceName": "iPhone 15", "appium:app": DEMO, **caps}
    )
    return driver


def likes(d: appium_webdriver.Remote) -> int:
    return int(d.find_element(AppiumBy.ID, "likes-total").text)


def test_four_concurrent_sessions_through_the_hub_land_on_both_nodes_and_each_drives_its_own_phone(g: Grid) -> None:
    with ThreadPoolExecutor(4) as pool:
        drivers = list(pool.map(lambda _: connect(g), range(4)))
    try:
        g.record()
        ids = [d.session_id for d in drivers]
        assert len(set(ids)) == 4
        # each phonewire's own view: two sessions each (max-sessions 2 per node), all four ids between them
        served = {node.uri: node.phonewire.session_ids() for node in g.nodes}
        assert sorted(len(s) for s in served.values()) == [2, 2], served
        assert set().union(*served.values()) == set(ids)
        # Grid's view (its /status slots, refreshed from the nodes' reports: waited for) is the same placement
        g.wait_until(lambda: g.sessions_by_node() == served, 30)
        # no cross-talk: a tap on one phone moves that phone's counter by exactly one and no other's
        before = [likes(d) for d in drivers]
        for i, d in enumerate(drivers):
            d.find_element(AppiumBy.ACCESSIBILITY_ID, "like-1").click()
            assert [likes(x) for x in drivers] == [b + (1 if j <= i else 0) for j, b in enumerate(before)]
        assert drivers[0].find_element(AppiumBy.ID, "like-1").text == f"Like {before[0] + 1}"
    finally:
        for d in drivers:
            d.quit()
    assert all(node.phonewire.session_ids() == set() for node in g.nodes)


def test_a_request_pinned_to_a_node_lands_there(g: Grid) -> None:
    node = g.nodes[1]
    d = connect(g, **{"phonewire:node": node.name})
    try:
        assert node.phonewire.session_ids() == {d.session_id}
        assert d.capabilities["phonewire:device"] == "web:iphone-15"
    finally:
        d.quit()


def test_the_hub_refuses_clients_without_its_router_credentials(g: Grid) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(g.router + "/status", timeout=5)
    assert refused.value.code == 401
    refused.value.close()
    options = AppiumOptions()
    options.load_capabilities({**STEREOTYPE, "appium:app": DEMO})
    with pytest.raises(WebDriverException, match="Authorization Required"):
        appium_webdriver.Remote(g.router, options=options)
    assert all(node.phonewire.session_ids() == set() for node in g.nodes)


def test_a_node_with_another_registration_secret_is_not_registered(g: Grid, tmp_path: Path) -> None:
    config = tmp_path / "node-rogue.toml"
    config.write_text(g.node_toml("rogue", free_port(), g.nodes[0].phonewire.url), encoding="utf-8")
    rogue = g.start_node("node-rogue", config, "not-the-grid-secret")
    try:
        hub_log = g.workdir / "hub.log"
        g.wait_until(lambda: "Rejecting message without a valid secret" in hub_log.read_text(errors="replace"), 60)
        assert rogue.poll() is None  # it runs and keeps trying; the hub does not take it
        assert set(g.availability()) == set(g.node_uris())
    finally:
        rogue.terminate()
        rogue.wait(20)


def test_the_nodes_session_timeout_ends_the_phonewire_session_and_its_phone(
    g: Grid, idle_session: tuple[appium_webdriver.Remote, set[Proc]]
) -> None:
    """Grid's node ``--session-timeout`` reaches phonewire: when a relayed session has had no command for that long,
    the node sends ``DELETE /session/{id}`` to the relayed service (Selenium 4.48: ``LocalNode.stopTimedOutSession``
    executes the DELETE through the session before stopping its slot; the relay's own ``stop()`` only closes its
    proxy), so phonewire ends the session and stops its phone — long before phonewire's own idle timeout (300 s).
    The session was opened by ``idle_session`` before the module's first test and has had no command since."""
    d, phones = idle_session
    assert g.timeout_node is not None
    phonewire = g.timeout_node.phonewire
    deadline = time.monotonic() + 6 * SESSION_TIMEOUT_S  # a liveness bound, not a timing assertion
    while phonewire.session_ids() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert phonewire.session_ids() == set()  # Grid sent DELETE: phonewire's own idle timeout is 300 s
    deadline = time.monotonic() + 20
    while any(alive(p) for p in phones) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(p) for p in phones)  # the runner and browser of that session were stopped
    with pytest.raises(InvalidSessionIdException, match=d.session_id):  # Grid's own message varies with timing
        d.find_element(AppiumBy.ID, "title")


def test_a_node_whose_phonewire_dies_is_reported_down_and_new_sessions_to_it_fail_clearly(g: Grid) -> None:
    # runs last in the module: it leaves node b down
    node = g.nodes[1]
    d = connect(g, **{"phonewire:node": node.name})
    node.phonewire.kill()
    with pytest.raises(WebDriverException) as running:
        d.find_element(AppiumBy.ID, "likes-total")
    assert str(running.value.msg).startswith("Connection error")  # the relay cannot reach its phonewire
    g.wait_until(lambda: g.availability().get(node.uri) == "DOWN", 30)
    assert g.availability()[g.nodes[0].uri] == "UP"
    with pytest.raises(SessionNotCreatedException) as refused:
        connect(g, **{"phonewire:node": node.name})
    # the hub runs with --reject-unsupported-caps: a request only a DOWN node could serve fails at once
    assert "No nodes support the capabilities in the request" in str(refused.value.msg)
    # the other node still serves
    other = connect(g)
    try:
        assert g.nodes[0].phonewire.session_ids() == {other.session_id}
    finally:
        other.quit()
    # the dead node's runner and browser are stopped by the fixture (by PID); nothing of theirs answers now
    assert not _answers(node.phonewire.url)


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url + "/status", timeout=2).close()
    except OSError:
        return False
    return True


@pytest.fixture
def g(grid: Grid) -> Grid:
    return grid
