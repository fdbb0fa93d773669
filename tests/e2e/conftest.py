"""Fixtures shared by the end-to-end tests (helpers live in web_runner.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_runner import HostileSite


@pytest.fixture(scope="module")
def hostile_site() -> Iterator[HostileSite]:
    site = HostileSite()
    try:
        yield site
    finally:
        site.close()
