"""docs/grid.md restates the relay node's configuration the Grid e2e test runs (tests/grid_harness.py): every TOML
block parses, every ``[relay]`` has the keys and the shape the harness writes, and the one-machine block is the
harness's own configuration (no Grid started here)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from grid_harness import STEREOTYPE, Grid

DOC = Path(__file__).resolve().parents[2] / "docs" / "grid.md"


def toml_blocks() -> list[dict[str, Any]]:
    text = DOC.read_text(encoding="utf-8")
    return [tomllib.loads(block) for block in re.findall(r"```toml\n(.*?)```", text, flags=re.S)]


def test_every_relay_block_has_the_harness_keys_and_a_stereotype_that_matches_its_requests() -> None:
    harness = tomllib.loads(Grid(Path("jar"), Path(), credentials=[None]).node_toml("a", 5555, "http://x"))
    relays = [b["relay"] for b in toml_blocks() if "relay" in b]
    assert len(relays) == 3
    for relay in relays:
        assert set(relay) == set(harness["relay"])
        assert relay["status-endpoint"] == "/status"
        count, stereotype = relay["configs"]
        assert int(count) >= 1
        assert json.loads(stereotype).items() >= STEREOTYPE.items()


def test_the_one_machine_configuration_is_the_one_the_e2e_test_runs() -> None:
    first = toml_blocks()[0]
    harness = tomllib.loads(Grid(Path("jar"), Path(), credentials=[None]).node_toml("a", 5555, "http://x"))
    assert first["server"] == {"host": "127.0.0.1", "port": 5555}
    assert first["node"] == harness["node"]
    assert json.loads(first["relay"]["configs"][1]) == STEREOTYPE


def test_the_doc_names_the_flags_the_harness_starts_grid_with() -> None:
    text = DOC.read_text(encoding="utf-8")
    for flag in ("--publish-events", "--subscribe-events", "--reject-unsupported-caps true", "--registration-secret",
                 "--allow-remote", "WWW-Authenticate"):  # fmt: skip
        assert flag in text, flag
