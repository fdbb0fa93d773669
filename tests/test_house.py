"""The house rules that hold for every module: no file under ``src/`` over 600 lines (an allow-list of today's
offenders that may only shrink), and every page script under ``src/`` parses (the test command's JS check), with
page JavaScript in ``.js`` files rather than Python strings."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
MAX_LINES = 600
#: The modules over MAX_LINES today, each with its size when it was listed: none may grow, and one that is split
#: below MAX_LINES must leave the list (it may only shrink).
OVER_MAX: dict[str, int] = {}
#: Python modules of the web device that still carry page JavaScript in strings: none may be added.
JS_IN_PYTHON: frozenset[str] = frozenset()


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*") if p.suffix in (".py", ".js") and p.is_file())


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_in_src_is_over_600_lines_but_the_listed_ones_which_do_not_grow() -> None:
    sizes = {p.relative_to(SRC).as_posix(): _lines(p) for p in _sources()}
    over = {name: n for name, n in sizes.items() if n > MAX_LINES and name not in OVER_MAX}
    assert not over, f"split these below {MAX_LINES} lines: {over}"
    grown = {name: (sizes[name], cap) for name, cap in OVER_MAX.items() if sizes.get(name, 0) > cap}
    assert not grown, f"an allowed offender grew (lines now, cap): {grown}"
    done = [name for name in OVER_MAX if sizes.get(name, 0) <= MAX_LINES]
    assert not done, f"remove from OVER_MAX (now within {MAX_LINES} lines, or gone): {done}"


def test_the_size_rule_counts_both_kinds_of_source() -> None:
    kinds = {p.suffix for p in _sources()}
    assert kinds == {".py", ".js"}


def _js_check() -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "check_js.sh")], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_page_script_in_src_parses() -> None:
    assert "bash scripts/check_js.sh" in (ROOT / "scripts" / "test.sh").read_text()
    result = _js_check()
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_js_check_fails_on_a_script_that_does_not_parse(tmp_path: Path) -> None:
    broken = tmp_path / "broken.js"
    broken.write_text("(x) => { return x +; }\n")
    result = subprocess.run(["node", "--check", str(broken)], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode != 0 and "SyntaxError" in result.stderr


_PAGE_JS = re.compile(r"=>\s*\{|\bfunction\s*\(|document\.(querySelector|activeElement|readyState)|new Promise")


def test_web_device_page_javascript_lives_in_js_files() -> None:
    """No multi-line string of a devices/web module but the listed ones holds page JavaScript."""
    carriers = set()
    for path in sorted((SRC / "phonewire" / "devices" / "web").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
            if "\n" in text and _PAGE_JS.search(text) and not text.lstrip().startswith(("The ", "A ", "An ")):
                carriers.add(path.name)
    assert carriers <= JS_IN_PYTHON, f"move the page JavaScript of {sorted(carriers - JS_IN_PYTHON)} to .js files"
    assert carriers == JS_IN_PYTHON, f"remove from JS_IN_PYTHON (no page JavaScript left): {JS_IN_PYTHON - carriers}"
