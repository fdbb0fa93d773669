"""The Python examples of README.md and docs/cli.md run as written, on the web phone (docs must match the code)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def phone_examples(doc: str) -> list[str]:
    return [code for code in BLOCK.findall((ROOT / doc).read_text(encoding="utf-8")) if "phonewire.Phone(" in code]


@pytest.mark.parametrize(("doc", "saved"), [("README.md", "out/after.png"), ("docs/cli.md", "form.png")])
def test_the_python_api_example_runs_as_written(
    doc: str, saved: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    [code] = phone_examples(doc)
    exec(compile(code, doc, "exec"), {})  # raises ProtocolError if a step does not work on the demo
    assert (tmp_path / saved).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
