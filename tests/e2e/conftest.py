"""Fixtures shared by the end-to-end tests (helpers live in web_runner.py).

``shared_runner`` is one runner process and one Chromium for the whole session (of each pytest process: every
xdist worker of scripts/test.sh has its own), for tests that need an app on a phone and not a fresh browser:
``shared_phone`` attaches a new ``phonewire.Phone`` (a fresh agent session) to it and closes every app first, so
each test starts from the home screen.  A test that stops, wedges or restarts its runner, or reads the browser's own
lifetime, starts a runner of its own (``runner_process`` / ``own_phone``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from aim_site import AimSite, ApgSite
from web_runner import HostileSite, SharedRunner, WebDriverServer, attached_phone

import phonewire


@pytest.fixture(scope="session")
def hostile_site() -> Iterator[HostileSite]:
    site = HostileSite()
    try:
        yield site
    finally:
        site.close()


@pytest.fixture(scope="module")
def site() -> Iterator[AimSite]:
    """The aim tests' site (aim_site.py: tests/e2e/aim over loopback, with its click recorder), one per module; a
    module with a site of another kind (a flow's folder) defines its own ``site``; the APG examples are
    ``apg_site``."""
    s = AimSite()
    try:
        yield s
    finally:
        s.close()


@pytest.fixture(scope="module")
def apg_site() -> Iterator[ApgSite]:
    """The vendored W3C APG examples on loopback (aim_site.py's ApgSite: each page with its click recorder)."""
    s = ApgSite()
    try:
        yield s
    finally:
        s.close()


@pytest.fixture(scope="session")
def shared_runner() -> Iterator[SharedRunner]:
    shared = SharedRunner()
    try:
        yield shared
    finally:
        shared.stop()


@pytest.fixture
def shared_phone(shared_runner: SharedRunner, tmp_path: Path) -> Iterator[phonewire.Phone]:
    """A phone on the session's runner with no app open; its agent session (refs, trace, diagnostics) is new."""
    with attached_phone(shared_runner.get(), tmp_path / "state") as phone:
        yield phone


@pytest.fixture(scope="module")
def web_phone() -> Iterator[phonewire.Phone]:
    """A web phone with a runner and browser of its own, for one module: what it sets of the phone (clipboard,
    permissions, location, the hover left by a tap) is that module's alone."""
    with phonewire.Phone("web") as phone:
        yield phone


@pytest.fixture(scope="module")
def module_phone(shared_runner: SharedRunner, tmp_path_factory: pytest.TempPathFactory) -> Iterator[phonewire.Phone]:
    """``shared_phone`` for a whole module: its tests open the page they start from."""
    with attached_phone(shared_runner.get(), tmp_path_factory.mktemp("state")) as phone:
        yield phone


@pytest.fixture(scope="module")
def server() -> Iterator[WebDriverServer]:
    """A ``phonewire webdriver`` server for a module of WebDriver tests."""
    s = WebDriverServer()
    try:
        yield s
    finally:
        s.stop()
