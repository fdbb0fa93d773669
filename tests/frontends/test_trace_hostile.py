"""A trace directory is data, and may come from someone else (a bug report, a CI artifact, a directory another
user pre-created): ``phonewire trace export`` never turns its words into code, and ``phonewire trace view`` never
inlines another file of the reader's disk nor lets its text run as markup.  The real CLI, as a process."""

from __future__ import annotations

import ast
import base64
import json
import subprocess
import sys
from pathlib import Path

SECRET_FILE_TEXT = b"not-for-the-report-7f3a"
INJECTED = "__import__('pathlib').Path('/tmp/pw-export-pwned').touch()"


def _hostile_trace(base: Path) -> Path:
    directory = base / f'run"""\n{INJECTED}\n"""'
    (directory / "shots").mkdir(parents=True)
    secret = base / "private.txt"
    secret.write_bytes(SECRET_FILE_TEXT)
    (directory / "shots" / "00009.jpg").symlink_to(secret)
    lines = [
        {"kind": "trace", "version": 1},
        {"kind": "step", "n": 1, "op": f"tap\n{INJECTED}", "args": {}},
        {"kind": "step", "n": f"2\n{INJECTED}\n#", "op": "tap", "args": {"target": "id=x"}},
        {"kind": "step", "n": 3, "op": "tap", "args": {"target": "id=x"}, "error": {"code": f"X\n{INJECTED}"}},
        {"kind": "step", "n": 4, "op": "tap", "args": {"target": "e5\n"}},
        {"kind": "step", "n": 5, "op": "tap", "args": ["not", "a", "dict"]},
        {"kind": "step", "n": 6, "op": "tap", "args": {"target": "id=ok"}, "shot": str(secret),
         "before": f"../{secret.name}", "ms": "<img src=x onerror=alert(1)>",
         "target": {"selector": f'id="ok"\n{INJECTED}', "rect": {"x": "a", "y": 0, "width": 1, "height": 1}}},
        {"kind": "step", "n": 7, "op": "tap", "args": {"target": "id=ok"}, "shot": "shots/00009.jpg"},
        {"kind": "step", "n": "8", "op": "tap", "args": {"target": "id=ok"}},
    ]  # fmt: skip
    (directory / "trace.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return directory


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "phonewire", "trace", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_an_export_of_a_hostile_trace_holds_phone_calls_only(tmp_path: Path) -> None:
    directory = _hostile_trace(tmp_path)
    out = tmp_path / "test_replay.py"
    done = _cli("export", str(directory), "--pytest", str(out))
    assert done.returncode == 0, done.stderr
    module = ast.parse(out.read_text())
    kinds = [type(node).__name__ for node in module.body]
    assert kinds == ["Expr", "ImportFrom", "Import", "Import", "Import", "FunctionDef"], kinds
    (function,) = [node for node in module.body if isinstance(node, ast.FunctionDef)]
    (with_block,) = function.body
    assert isinstance(with_block, ast.With)
    calls = []
    for statement in with_block.body:
        assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call), ast.dump(statement)
        func = statement.value.func
        assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "phone"
        assert all(isinstance(a, ast.Constant) for a in statement.value.args)
        calls.append(ast.literal_eval(statement.value.args[0]))
    # the selector carrying code stays a string argument of phone.tap, never a statement
    assert f'id="ok"\n{INJECTED}' in calls
    assert not Path("/tmp/pw-export-pwned").exists()


def test_a_report_of_a_hostile_trace_inlines_no_other_file_and_runs_no_markup(tmp_path: Path) -> None:
    directory = _hostile_trace(tmp_path)
    report = tmp_path / "report.html"
    done = _cli("view", str(directory), "-o", str(report))
    assert done.returncode == 0, done.stderr
    text = report.read_text()
    for encoded in (base64.b64encode(SECRET_FILE_TEXT[i:] + b"\n"[:0]).decode()[:12] for i in range(3)):
        assert encoded not in text  # the file reached through an absolute name, ../ or a symlink is not inlined
    assert "<img src=x" not in text
    assert text.count("<script") == 1
    assert "Content-Security-Policy" in text and "script-src 'sha256-" in text


def test_a_shared_trace_directory_cannot_make_the_report_overwrite_a_file_of_yours(tmp_path: Path) -> None:
    directory = _hostile_trace(tmp_path)
    victim = tmp_path / "bashrc"
    victim.write_text("export KEEP=1\n")
    (directory / "report.html").symlink_to(victim)
    done = _cli("view", str(directory))  # the default output: DIR/report.html
    assert done.returncode == 3
    assert "error INVALID_REQUEST: cannot write" in done.stderr and "symlink" in done.stderr
    assert "Traceback" not in done.stderr
    assert victim.read_text() == "export KEEP=1\n"
    (tmp_path / "out.py").symlink_to(victim)
    done = _cli("export", str(directory), "--pytest", str(tmp_path / "out.py"))
    assert done.returncode == 3 and victim.read_text() == "export KEEP=1\n"
