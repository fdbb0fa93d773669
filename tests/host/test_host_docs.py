"""docs/host.md must not drift from the code: every reason name, event kind and event field is documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from phonewire.host import diagnostics as d
from phonewire.host import rules as r

DOC = (Path(__file__).resolve().parents[2] / "docs" / "host.md").read_text(encoding="utf-8")
PREFIXES = ("SKIP_", "PREFLIGHT_", "RECOVER", "INVALIDATE_", "EVIDENCE_")
REASONS = sorted({v for k, v in vars(r).items() if k.startswith(PREFIXES) and isinstance(v, str)})


@pytest.mark.parametrize("name", REASONS)
def test_reason_name_is_documented(name: str) -> None:
    assert f"`{name}`" in DOC


@pytest.mark.parametrize("kind", d.EVENT_KINDS)
def test_event_kind_and_fields_are_documented(kind: str) -> None:
    [row] = [line for line in DOC.splitlines() if line.startswith(f"| `{kind}` |")]
    for field in d.EVENT_FIELDS[kind]:
        assert f"`{field}`" in row, field


@pytest.mark.parametrize("stop", [m.value for m in r.StopMode])
def test_stop_modes_are_documented(stop: str) -> None:
    assert f"`{stop}`" in DOC


def test_public_surface_is_exact() -> None:
    """STYLE 12: the host's public names, listed and importable."""
    from phonewire import host

    assert sorted(host.__all__) == ["CommandSender", "HostError", "HostReply", "HostSession", "RunnerSession"]
    for name in host.__all__:
        assert getattr(host, name) is not None
