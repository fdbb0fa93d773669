from __future__ import annotations

from collections.abc import Iterator

import pytest
from runner_wire import RunnerProcess, running


@pytest.fixture(scope="module")
def runner() -> Iterator[RunnerProcess]:
    """A real runner process (``--device double``, time scale 1) shared by one test module."""
    with running() as proc:
        yield proc


@pytest.fixture
def fresh_runner() -> Iterator[RunnerProcess]:
    """A runner of its own for a test that changes device-wide state."""
    with running() as proc:
        yield proc
