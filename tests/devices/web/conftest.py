"""One real web phone (headless Chromium) per test module: fast enough to drive WebDevice directly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_phone import Phone

from phonewire.devices.web.home import DEMO_APP_ID


@pytest.fixture(scope="module")
def phone() -> Iterator[Phone]:
    p = Phone()
    try:
        p.run(p.device.launch_app(DEMO_APP_ID))
        yield p
    finally:
        p.close()
