"""The native thin client (fastclient.c), compiled here, against a real daemon and a real double runner: the same
stdout, stderr and exit code as the Python client, the warm path without a Python start, and a fallback to the
Python client for everything else.

The binary under test is built with a fallback script that notes each call in a file before it execs the Python
client: the note is how a test sees whether the native client served the command itself or handed it over.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_harness import Cli, Result, cli_for
from PIL import Image
from procs import children, wait_gone

import phonewire
from phonewire.frontends.cli import fastclient
from phonewire.frontends.cli.client import MAY_HAVE_RUN_HINT
from phonewire.frontends.cli.daemon import TEST_ONLY_VERSION_ENV

D = ("--device", "double")
PYTHON_CLI = (sys.executable, "-m", "phonewire")
NOBODY = 65534


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if fastclient.compiler() is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH: the native client cannot be built here")
    root = tmp_path_factory.mktemp("fastclient")
    fallback = root / "phonewire-py"
    fallback.write_text(
        f'#!/bin/sh\necho "$*" >> "$PHONEWIRE_TEST_FALLBACK_LOG"\nexec {sys.executable} -P -m phonewire "$@"\n'
    )
    fallback.chmod(0o755)
    return fastclient.build(root / "phonewire", fallback=str(fallback))


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    with cli_for(tmp_path, monkeypatch) as c:
        c.setenv("PHONEWIRE_TEST_FALLBACK_LOG", str(tmp_path / "fallbacks.log"))
        yield c


def run(cli: Cli, command: tuple[str, ...], *argv: str, stdin: str | None = None, cwd: Path | None = None) -> Result:
    proc = subprocess.run(
        [*command, *argv], env=cli.env, input=stdin, capture_output=True, text=True, cwd=cwd, timeout=90, check=False
    )
    cli._note_daemon()
    return Result(proc.returncode, proc.stdout, proc.stderr)


def fallbacks(cli: Cli) -> list[str]:
    """The invocations the native client handed to the Python client so far (and forgets them)."""
    log = Path(cli.env["PHONEWIRE_TEST_FALLBACK_LOG"])
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return lines


def both(cli: Cli, native: Path, *argv: str, stdin: str | None = None) -> Result:
    """The invocation through the native client and through the Python client: the same answer; the native one."""
    fast = run(cli, (str(native),), *argv, stdin=stdin)
    slow = run(cli, PYTHON_CLI, *argv, stdin=stdin)
    assert (fast.code, _timeless(fast.out), fast.err) == (slow.code, _timeless(slow.out), slow.err), argv
    return fast


def _timeless(out: str) -> str:
    """``out`` without what changes between two calls: the daemon's uptime in ``daemon status``, and an action's
    settled diff (the second call acts on the screen the first one left: another diff, each true to its call)."""
    out = "".join(line for line in out.splitlines(keepends=True) if not re.match(r"[-+~] ", line))
    out = re.sub(r'"diff":\s*\[(?:"(?:[^"\\]|\\.)*",?\s*)*\]', '"diff": [#]', out)
    return re.sub(r'("uptimeS":\s*)[0-9.]+|(uptime )[0-9.]+', r"\1\2#", out)


def taps_shown(cli: Cli) -> str:
    snap = cli(*D, "snapshot")
    return next(line for line in snap.out.splitlines() if "taps=" in line).split('"')[1]


def test_warm_verbs_answer_like_the_python_client_without_starting_python(cli: Cli, native: Path) -> None:
    assert cli(*D, "open", "app.fast").code == 0  # the daemon runs: everything below is the warm path
    fallbacks(cli)
    assert both(cli, native, *D, "snapshot", "-i").out == '@e1 Button "Counter"\n@e2 TextField\n'
    data = both(cli, native, *D, "--json", "snapshot", "-i")
    assert json.loads(data.out)["ok"] is True
    usage = both(cli, native, *D, "tap", "colour=red")
    assert usage.code == 2 and usage.err.startswith("error INVALID_REQUEST: unknown selector key 'colour'\nhint:")
    assert both(cli, native, *D, "frobnicate").code == 2
    unicode = both(cli, native, *D, "tap", "label=Grüße ✓ 日本")
    assert unicode.code == 3 and "Grüße ✓ 日本" in unicode.err
    as_json = both(cli, native, *D, "--json", "tap", "label=Grüße ✓ 日本")
    assert json.loads(as_json.out)["error"]["message"] == "nothing on screen matches 'label=Grüße ✓ 日本'"
    filled = both(cli, native, *D, "fill", "@e2", "naïve – text")
    assert filled.code == 0
    assert fallbacks(cli) == []  # not one of them went through Python
    before = taps_shown(cli)
    tapped = run(cli, (str(native),), *D, "tap", "id=counter")
    assert tapped.code == 0 and tapped.out.startswith("ok tapped")
    assert int(taps_shown(cli).split("=")[1]) == int(before.split("=")[1]) + 1  # exactly once


def test_the_environment_defaults_travel_like_the_python_clients(cli: Cli, native: Path) -> None:
    cli.setenv("PHONEWIRE_DEVICE", "double")
    cli.setenv("PHONEWIRE_SESSION", "other")
    assert run(cli, (str(native),), "open", "app.env").code == 0
    fallbacks(cli)
    shown = both(cli, native, "--json", "snapshot", "-i")
    assert json.loads(shown.out)["ok"] is True
    assert fallbacks(cli) == []
    cli.setenv("PHONEWIRE_SESSION", "")
    assert both(cli, native, "apps").code == 0


def test_a_cwd_relative_screenshot_lands_in_the_callers_directory(cli: Cli, native: Path, tmp_path: Path) -> None:
    assert cli(*D, "open", "app.shot").code == 0
    here = tmp_path / "work dir ü"
    here.mkdir()
    fallbacks(cli)
    fast = run(cli, (str(native),), *D, "screenshot", "shot.png", cwd=here)
    slow = run(cli, PYTHON_CLI, *D, "screenshot", "py.png", cwd=here)
    assert (fast.code, fast.out, fast.err) == (0, f"ok screenshot {here / 'shot.png'}\n", "")
    assert slow.out == f"ok screenshot {here / 'py.png'}\n"
    with Image.open(here / "shot.png") as a, Image.open(here / "py.png") as b:
        assert a.size == b.size and a.size[0] > 0
    # names that are not UTF-8 (an invalid byte, a truncated sequence, an encoded surrogate) reach the daemon as
    # bytes and come back in its answer: both clients print them with the same replacement characters
    for raw in (b"\xff\xfe.png", b"\xe2\x82.png", b"\xed\xa0\x80.png", b"\xf0\x9f\x98.png", "日本.png".encode()):
        fast = run(cli, (str(native),), *D, "screenshot", raw.decode("utf-8", "surrogateescape"), cwd=here)
        slow = run(cli, PYTHON_CLI, *D, "screenshot", raw.decode("utf-8", "surrogateescape"), cwd=here)
        assert (fast.code, fast.out, fast.err) == (slow.code, slow.out, slow.err), raw
        assert fast.code == 0 and (here.joinpath(os.fsdecode(raw))).exists()
    assert fallbacks(cli) == []


def test_stdin_help_version_and_local_verbs_go_to_the_python_client(cli: Cli, native: Path, tmp_path: Path) -> None:
    steps = json.dumps([["open", "app.batch"], ["tap", "id=counter"]])
    piped = both(cli, native, *D, "--json", "batch", stdin=steps)
    assert [step["ok"] for step in json.loads(piped.out)["results"]] == [True, True]
    assert fallbacks(cli) == ["--device double --json batch"]
    (tmp_path / "steps.json").write_text(steps)
    before = int(taps_shown(cli).split("=")[1])
    fast = run(cli, (str(native),), *D, "--json", "batch", "steps.json", cwd=tmp_path)  # relative to the cwd
    assert [step["ok"] for step in json.loads(fast.out)["results"]] == [True, True]
    assert taps_shown(cli) == f"taps={before + 1}"  # the file's one tap, once
    for argv in (["--help"], ["--version"], [], ["help"], ["tap", "--help"], ["daemon", "status", "--json"]):
        assert both(cli, native, *argv).code in (0, 2), argv
    logged = fallbacks(cli)
    assert "--help" in logged and "--version" in logged and "daemon status --json" in logged
    assert not any("batch" in line for line in logged)  # a batch file is a plain request


def test_a_verbs_help_is_that_verbs_usage_through_either_client(cli: Cli, native: Path) -> None:
    """`phonewire scroll --help` printed the whole verb list (issue 22 trial): it is scroll's usage, its words and
    its options with their ranges, the same through the native client and the Python one, exit 0."""
    for argv in (["scroll", "--help"], [*D, "scroll", "-h"], ["help", "scroll"]):
        shown = both(cli, native, *argv)
        assert shown.code == 0, argv
        lines = shown.out.splitlines()
        assert lines[0] == "usage: phonewire scroll DIR [TARGET] [--amount F]", shown.out
        assert "verbs:" not in lines
        assert any(
            line.split()[:2] == ["--amount", "F"] and "From 0.01 to 1, default 0.6." in line for line in lines
        ), shown.out
        assert any(line.split()[:1] == ["DIR"] and "up, down, left, right" in line for line in lines), shown.out
    listed = both(cli, native, "--help")
    assert listed.code == 0 and "verbs:" in listed.out.splitlines()  # no verb: the list of them


def test_with_no_daemon_the_python_client_starts_one_then_the_native_client_serves(cli: Cli, native: Path) -> None:
    first = run(cli, (str(native),), *D, "open", "app.cold")
    assert (first.code, first.out, first.err) == (0, "ok opened app.cold\n", "")
    assert fallbacks(cli) == ["--device double open app.cold"]
    pid = cli.daemon_pid()
    assert run(cli, (str(native),), *D, "tap", "id=counter").code == 0
    assert fallbacks(cli) == []
    assert cli.daemon_pid() == pid and taps_shown(cli) == "taps=1"


def test_a_daemon_of_another_version_is_replaced_by_the_python_client(
    cli: Cli, native: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale_env = dict(cli.env, **{TEST_ONLY_VERSION_ENV: "0.0.0-stale"})
    started = subprocess.run([*PYTHON_CLI, "daemon", "start"], env=stale_env, capture_output=True, check=False)
    stale = cli.daemon_pid()
    assert stale is not None, started.stderr
    cli.daemon_pids.add(stale)
    fallbacks(cli)
    res = run(cli, (str(native),), *D, "open", "app.fresh")
    assert (res.code, res.out, res.err) == (0, "ok opened app.fresh\n", "")
    assert fallbacks(cli) == ["--device double open app.fresh"]  # refused as a mismatch: nothing ran, so Python
    assert wait_gone(stale)
    assert cli.daemon_pid() not in (None, stale)
    assert run(cli, (str(native),), *D, "tap", "id=counter").code == 0
    assert fallbacks(cli) == [] and taps_shown(cli) == "taps=1"


def test_a_stale_native_binary_is_refused_as_a_mismatch_and_python_runs_the_command_once(
    cli: Cli, native: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fastclient, "__version__", "0.0.0-old")  # baked into this build only
    old = fastclient.build(tmp_path / "phonewire-old", fallback=str(native.with_name("phonewire-py")))
    assert cli(*D, "open", "app.old").code == 0
    daemon, before = cli.daemon_pid(), int(taps_shown(cli).split("=")[1])
    fallbacks(cli)
    res = run(cli, (str(old),), *D, "tap", "id=counter")
    assert res.code == 0 and res.out.startswith("ok tapped"), res.err
    assert fallbacks(cli) == ["--device double tap id=counter"]
    assert taps_shown(cli) == f"taps={before + 1}"  # the refused request ran nothing; Python's ran once
    assert cli.daemon_pid() == daemon  # Python is the daemon's version: nothing to replace


def test_a_daemon_directory_open_to_others_is_refused_by_both_clients(cli: Cli, native: Path) -> None:
    cli.dir.mkdir(mode=0o755)
    cli.dir.chmod(0o755)
    res = both(cli, native, *D, "apps")
    assert res.code == 4 and res.err.startswith(f"error DAEMON_UNAVAILABLE: daemon directory {cli.dir} is not private")
    assert fallbacks(cli) == ["--device double apps"]
    assert not (cli.dir / "daemon.sock").exists()


def _planted_listener(path: Path) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(4)
    listener.setblocking(False)
    return listener


@pytest.mark.skipif(os.getuid() != 0, reason="giving a socket to another user needs root")
def test_a_socket_of_another_user_never_gets_the_token(cli: Cli, native: Path) -> None:
    cli.dir.mkdir(mode=0o700)
    (cli.dir / "token").write_text("secret-token-of-this-user")
    (cli.dir / "token").chmod(0o600)
    sock_path = cli.dir / "daemon.sock"
    with contextlib.closing(_planted_listener(sock_path)) as listener:
        os.chown(sock_path, NOBODY, NOBODY)
        sock_path.chmod(0o600)
        res = both(cli, native, *D, "apps")
        assert res.code == 4
        assert res.err.startswith(f"error DAEMON_UNAVAILABLE: the daemon socket {sock_path} belongs to another user")
        assert fallbacks(cli) == ["--device double apps"]
        with pytest.raises(BlockingIOError):
            listener.accept()  # neither client connected


@pytest.mark.skipif(os.getuid() != 0, reason="giving a directory to another user needs root")
def test_a_daemon_directory_of_another_user_is_refused(cli: Cli, native: Path) -> None:
    cli.dir.mkdir(mode=0o700)
    os.chown(cli.dir, NOBODY, NOBODY)
    res = both(cli, native, *D, "apps")
    assert res.code == 4 and "is not private to this user" in res.err
    assert fallbacks(cli) == ["--device double apps"]


def _has_socket(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return any(str(fd.readlink()).startswith("socket:") for fd in Path(f"/proc/{pid}/fd").iterdir())
    return False


def test_a_daemon_that_dies_mid_request_is_reported_and_the_command_not_repeated(cli: Cli, native: Path) -> None:
    assert cli(*D, "open", "app.dies").code == 0
    daemon = cli.daemon_pid()
    assert daemon is not None
    runners = children(daemon)
    fallbacks(cli)
    waiting = subprocess.Popen(
        [str(native), *D, "--json", "wait", "id=never-there", "--timeout", "30000"],
        env=cli.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while not _has_socket(waiting.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the request is in the daemon (its wait polls the runner for 30 s)
        os.kill(daemon, signal.SIGKILL)
        out, err = waiting.communicate(timeout=60)
    finally:
        if waiting.poll() is None:
            waiting.kill()
            waiting.communicate()
        for pid in runners:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            assert wait_gone(pid)
    assert waiting.returncode == 4, err
    error = json.loads(out)["error"]
    assert (error["code"], error["message"]) == (
        "DAEMON_UNAVAILABLE",
        "the daemon closed the connection without a reply",
    )
    assert error["hint"] == f"{MAY_HAVE_RUN_HINT} See {cli.dir / 'daemon.log'} if it persists."
    assert fallbacks(cli) == []  # reported, not handed to Python to run again
    assert (cli.dir / "daemon.sock").exists()  # left by the killed daemon: connecting is refused
    again = run(cli, (str(native),), *D, "open", "app.again")
    assert (again.code, again.out) == (0, "ok opened app.again\n")
    # the new daemon says what the restart lost (issue 28): the app this session had open
    assert again.err.startswith("note: the daemon was restarted") and "app.dies" in again.err, again.err
    assert fallbacks(cli) == ["--device double open app.again"]  # Python started a fresh daemon
    assert cli.daemon_pid() not in (None, daemon)


def test_install_keeps_pips_script_as_the_fallback_and_survives_a_pip_rerun(tmp_path: Path) -> None:
    if fastclient.compiler() is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH: the native client cannot be built here")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = f"#!{sys.executable}\nimport sys\nfrom phonewire.__main__ import main\nsys.exit(main())\n"
    (bin_dir / "phonewire").write_text(script)
    (bin_dir / "phonewire").chmod(0o755)
    assert "installed" in fastclient.install(bin_dir)
    assert (bin_dir / "phonewire").read_bytes()[:4] == b"\x7fELF"
    assert (bin_dir / "phonewire-py").read_text() == script
    assert "up to date" in fastclient.install(bin_dir)
    (bin_dir / "phonewire").write_text(script)  # what `pip install -e .` does again
    assert "installed" in fastclient.install(bin_dir)
    version = subprocess.run([str(bin_dir / "phonewire"), "--version"], capture_output=True, text=True, check=False)
    assert (version.returncode, version.stdout) == (0, f"phonewire {phonewire.__version__}\n")


def test_the_documented_fallback_verbs_are_the_native_clients() -> None:
    """docs/cli.md lists the verbs the native client hands to Python: the list in fastclient.c."""
    source = fastclient.SOURCE.read_text()
    declared = source.split("LOCAL_VERBS[] = {", 1)[1].split("}", 1)[0]
    verbs = [word.strip().strip('"') for word in declared.split(",")]
    rule = Path(__file__).resolve().parents[2].joinpath("docs", "cli.md").read_text()
    bullet = next(line for line in rule.split("\n* ") if line.startswith("verbs the Python client handles itself"))
    documented = {w.strip("`,;.") for w in bullet.split() if w.startswith("`")}
    assert set(verbs) <= documented, set(verbs) - documented
    for also in ('"--help"', '"--version"', '"view"', '"export"', '"batch"'):  # the other rules, in the C source
        assert also in source and also.strip('"') in bullet


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_answer_that_cannot_be_written_is_one_error_line_from_both_clients_not_a_traceback(
    cli: Cli, native: Path
) -> None:
    """stdout full, a broken pipe, stdout closed: the command ran, and both clients say so the same way (exit 120)."""
    assert cli(*D, "open", "app.full").code == 0
    fallbacks(cli)
    before = taps_shown(cli)

    def tap(command: tuple[str, ...], stdout: Any) -> tuple[int, str]:
        proc = subprocess.run([*command, *D, "tap", "id=counter"], env=cli.env, stdout=stdout, stderr=subprocess.PIPE,
                              text=True, timeout=90, check=False)  # fmt: skip
        return proc.returncode, proc.stderr

    with Path("/dev/full").open("w") as full:
        fast, slow = tap((str(native),), full), tap(PYTHON_CLI, full)
    assert fast == slow
    assert fast[0] == 120 and fast[1].startswith("error OUTPUT_FAILED: cannot write the answer to stdout: No space")
    assert "\nhint: The command ran" in fast[1] and "Traceback" not in fast[1]
    assert fallbacks(cli) == []  # the native client wrote that itself
    assert int(taps_shown(cli).split("=")[1]) == int(before.split("=")[1]) + 2  # each ran exactly once
    reader, writer = os.pipe()
    os.close(reader)  # a broken pipe
    try:
        piped = tap(PYTHON_CLI, writer)
    finally:
        os.close(writer)
    assert piped[0] == 120 and piped[1].startswith(
        "error OUTPUT_FAILED: cannot write the answer to stdout: Broken pipe"
    )
    shell = ["/bin/sh", "-c", 'exec "$0" "$@" >&-', str(native), *D, "snapshot"]  # stdout closed
    closed = subprocess.run(shell, env=cli.env, stderr=subprocess.PIPE, text=True, timeout=90, check=False)
    assert closed.returncode == 120 and closed.stderr.startswith(
        "error OUTPUT_FAILED: cannot write the answer to stdout"
    )


def test_ctrl_c_while_the_daemon_works_is_one_error_line_from_both_clients_and_the_daemon_keeps_serving(
    cli: Cli, native: Path
) -> None:
    """SIGINT during a long `wait`: exit 130 with INTERRUPTED and its hint (the Python client printed a
    KeyboardInterrupt traceback, the native one died silently); the daemon answers the next command.  The daemon
    finishes an abandoned wait, one after the other, before that command: 3 s each is well past the ~0.5 s until
    the SIGINT, and keeps the test from spending 12 s on it."""
    assert cli(*D, "open", "app.ctrlc").code == 0
    fallbacks(cli)
    answers = []
    for command in ((str(native),), PYTHON_CLI):
        proc = subprocess.Popen([*command, *D, "wait", "text=never", "--timeout", "3000"], env=cli.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while not _has_socket(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.02)
            time.sleep(0.5)  # the request is sent right after the connection
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        answers.append((proc.returncode, out, err))
    assert answers[0] == answers[1]
    code, out, err = answers[0]
    assert (code, out) == (130, "") and err.startswith("error INTERRUPTED: interrupted before the answer came\nhint: ")
    assert fallbacks(cli) == []
    assert cli(*D, "snapshot").code == 0
