"""Traces against the real runner and Chromium: a demo flow recorded with ``Phone(trace=DIR)``, its report opened in
headless Chromium, and its pytest export run green against a fresh phone."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from web_runner import SharedRunner, attached_env, own_phone

import phonewire
from phonewire.agent.trace import REDACTED, read_steps
from phonewire.frontends.cli.main import main as cli_main

pytestmark = pytest.mark.e2e

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "s3cret-pass"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo flow, traced: a like by ref, the Account tab, name and password, sign in, a wait, a failed tap."""
    base = tmp_path_factory.mktemp("trace")
    directory = base / "flow"
    with own_phone(base / "state", trace=directory) as phone:
        phone.open("dev.phonewire.demo")
        view = phone.snapshot(interactive=True)
        like = next(r for r, n in view.refs.items() if n["identifier"] == "like-5")
        phone.tap("@" + like)
        phone.tap("Account")
        phone.fill("label=Name || id=name", "Grace")
        phone.fill("id=password", PASSWORD)
        phone.tap('role=Button label="Sign in"')
        phone.wait("text=Grace")
        with pytest.raises(phonewire.ProtocolError):
            phone.tap("label=Nothing-like-this")
    yield directory


def test_each_step_has_its_target_selector_a_css_jpeg_and_no_password(recorded: Path) -> None:
    steps = read_steps(recorded)
    assert [s["op"] for s in steps] == ["open_app", "snapshot", "tap", "tap", "fill", "fill", "tap", "wait", "tap"]
    by_ref = steps[2]
    assert by_ref["args"]["target"].startswith("@e")
    assert by_ref["target"]["selector"] == 'id="like-5"'
    assert by_ref["changed"] is True  # the like counter went up
    assert steps[5]["args"]["text"] == REDACTED and steps[5]["secret"] is True
    assert steps[-1]["error"]["code"] == "NOT_FOUND"
    with Image.open(recorded / steps[2]["shot"]) as img:
        assert img.format == "JPEG" and img.size == (393, 852)
    assert "User:" in steps[-2]["view"] or "Grace" in steps[-2]["view"]
    for path in (p for p in recorded.rglob("*") if p.is_file()):
        assert PASSWORD.encode() not in path.read_bytes(), path


def test_the_report_renders_in_chromium_with_a_timeline_screens_and_the_error_highlighted(
    recorded: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.html"
    assert cli_main(["trace", "view", str(recorded), "-o", str(report)]) == 0
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    from lxml import html as lxml_html

    page = lxml_html.fromstring(dom)
    sections = _all(page, "section", "step")
    assert [s.get("data-op") for s in sections][:3] == ["open_app", "snapshot", "tap"]
    assert len(sections) == 9
    failed = _all(page, "section", "step", "error")
    assert [s.get("data-n") for s in failed] == ["9"]
    assert "NOT_FOUND" in failed[0].text_content()
    shots = _all(page, "img", "shot")
    assert shots and all(img.get("src", "").startswith("data:image/jpeg;base64,") for img in shots)
    assert len(page.xpath("//nav//a")) == len(shots)
    thumbs = [img.get("src") for img in page.xpath("//nav//img")]  # pointed at the steps' images by the script
    assert thumbs == [img.get("src") for img in shots]
    assert _all(page, "div", "outline")  # the touched element is outlined
    assert 'id="like-5"' in sections[2].text_content()
    assert PASSWORD not in dom
    screenshot = tmp_path / "report.png"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={screenshot}",
         "--window-size=1200,900", report.as_uri()],
        capture_output=True, timeout=60, check=True,
    )  # fmt: skip
    with Image.open(screenshot) as img:
        assert img.size == (1200, 900)


def _all(page: Any, tag: str, *classes: str) -> list[Any]:
    """Elements ``tag.class1.class2`` of the parsed page."""
    test = "".join(f"[contains(concat(' ', normalize-space(@class), ' '), ' {c} ')]" for c in classes)
    found: list[Any] = page.xpath(f"//{tag}{test}")
    return found


def _run_export(module: Path, env: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(module)],
        check=False, capture_output=True, text=True, timeout=240, env=env, cwd=module.parent,
    )  # fmt: skip


def test_the_pytest_export_uses_stable_selectors_and_replays_green_on_a_fresh_phone(
    recorded: Path, tmp_path: Path, shared_runner: SharedRunner
) -> None:
    module = tmp_path / "test_flow.py"
    assert cli_main(["trace", "export", str(recorded), "--pytest", str(module)]) == 0
    source = module.read_text()
    assert "@e" not in source  # no refs
    assert "phone.tap('id=\"like-5\"')" in source
    assert "phone.wait('text=Grace')" in source
    assert "os.environ['PHONEWIRE_SECRET_1']" in source and PASSWORD not in source
    assert "NOT_FOUND" in source and "Nothing-like-this" not in source.split("def test_replay")[1].split("#")[0]
    env = {**os.environ, "PHONEWIRE_STATE_DIR": str(tmp_path / "state"), "PHONEWIRE_SECRET_1": PASSWORD}
    env.update(attached_env(shared_runner.get()))  # every app closed: the demo starts afresh (it keeps no state)
    done = _run_export(module, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
