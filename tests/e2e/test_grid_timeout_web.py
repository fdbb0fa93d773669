"""Grid's node ``--session-timeout`` reaches phonewire: when a relayed session has had no command for that long, the
node sends ``DELETE /session/{id}`` to the relayed service (Selenium 4.48: ``LocalNode.stopTimedOutSession``
executes the DELETE through the session before stopping its slot; the relay's own ``stop()`` only closes its
proxy), so phonewire ends the session and stops its phone — long before phonewire's own idle timeout (300 s).
Grid raises a timeout below 10 s to 10 s.  A Grid of its own (one node), as it needs a short session timeout."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import InvalidSessionIdException

from grid_harness import STEREOTYPE, Grid, alive, server_jar

pytestmark = [pytest.mark.e2e, pytest.mark.grid, pytest.mark.timeout(300)]

SESSION_TIMEOUT_S = 10  # Grid's minimum


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Grid]:
    jar, why = server_jar()
    if jar is None:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    g = Grid(jar, tmp_path_factory.mktemp("grid-timeout"), credentials=[None], max_sessions=1)
    try:
        g.start(session_timeout_s=SESSION_TIMEOUT_S)
        yield g
    finally:
        left = g.stop()
        assert left == set(), f"processes the Grid test started are still running: {sorted(left)}"


def test_the_nodes_session_timeout_ends_the_phonewire_session_and_its_phone(grid: Grid) -> None:
    d = grid.connect({**STEREOTYPE, "appium:app": "dev.phonewire.demo"})
    phonewire = grid.nodes[0].phonewire
    assert d.find_element(AppiumBy.ID, "title").text == "Inbox"
    assert phonewire.session_ids() == {d.session_id}
    grid.record()
    phones = set(phonewire.seen)
    assert phones, "the session's runner and browser run under phonewire"
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
