"""The CLI against a real daemon and a real runner process (``--device double``): the contract of the front end.

The web device's end-to-end tests are in test_cli_web.py; these cover what does not need a browser.
"""

from __future__ import annotations

import http.client
import json
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import Cli, cli_for
from PIL import Image
from procs import wait_gone

import phonewire
from phonewire.frontends.cli.client import DAEMON_HINTS, connect, decode_reply, encode_request, ensure_private_dir
from phonewire.frontends.cli.daemon import ECHOED_WORD, TEST_ONLY_VERSION_ENV
from phonewire.runtime import runner_token_path

D = ("--device", "double")


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    with cli_for(tmp_path, monkeypatch) as c:
        yield c


def taps_shown(cli: Cli) -> str:
    snap = cli(*D, "snapshot")
    assert snap.code == 0, snap.err
    return next(line for line in snap.out.splitlines() if "taps=" in line).split('"')[1]


def test_first_call_starts_the_daemon_and_a_ref_tap_lands_exactly_once(cli: Cli) -> None:
    opened = cli(*D, "open", "app.one")
    assert (opened.code, opened.out) == (0, "ok opened app.one\n")
    snap = cli(*D, "snapshot", "-i")
    assert snap.out.splitlines() == ['@e1 Button "Counter"', "@e2 TextField"]
    tapped = cli(*D, "tap", "@e1")
    assert tapped.code == 0
    assert tapped.out.startswith("ok tapped (120, 122) @e1 Button")
    assert taps_shown(cli) == "taps=1"


def test_the_subprocess_cli_shares_the_daemon_and_its_session(cli: Cli) -> None:
    assert cli.sub(*D, "open", "app.sub").code == 0
    pid = cli.daemon_pid()
    assert cli.sub(*D, "tap", "id=counter").code == 0
    assert cli(*D, "tap", "120", "122").code == 0
    assert taps_shown(cli) == "taps=2"
    assert cli.daemon_pid() == pid


def test_usage_errors_exit_2_with_a_hint_and_the_daemon_keeps_serving(cli: Cli) -> None:
    assert cli(*D, "open", "app.u").code == 0
    pid = cli.daemon_pid()
    unknown = cli(*D, "frobnicate")
    assert unknown.code == 2
    assert unknown.err.startswith("error INVALID_REQUEST: unknown verb 'frobnicate'\nhint:")
    missing = cli(*D, "tap")
    assert missing.code == 2 and "usage: phonewire tap TARGET" in missing.err
    bad_option = cli(*D, "snapshot", "--everything")
    assert bad_option.code == 2
    bad_number = cli(*D, "swipe", "1", "2", "three", "4")
    assert bad_number.code == 2
    bad_selector = cli(*D, "tap", "colour=red")
    assert bad_selector.code == 2 and "unknown selector key 'colour'" in bad_selector.err
    assert cli(*D, "tap", "@e1").code == 3  # no snapshot issued refs yet: a command error, not usage
    assert cli(*D, "snapshot").code == 0
    assert cli.daemon_pid() == pid


def test_a_device_spec_no_runner_could_open_is_a_usage_error_and_starts_no_runner(cli: Cli) -> None:
    profile = cli("--device", "web:nope", "apps")
    assert profile.code == 2
    assert profile.err.startswith("error INVALID_REQUEST: unknown web device profile 'nope'\nhint: Use one of: ")
    kind = cli("--device", "zz", "apps")
    assert kind.code == 2 and "unknown device kind 'zz'" in kind.err
    assert cli(*D, "open", "app.s").code == 0  # the daemon keeps serving
    assert cli("--json", "daemon", "status").json()["data"]["devices"] == ["double"]


def test_device_errors_exit_3_and_json_errors_are_envelopes(cli: Cli) -> None:
    res = cli(*D, "--json", "open", "unknown.app")
    assert res.code == 3
    assert res.json()["ok"] is False and res.json()["error"]["code"] == "APP_UNKNOWN"
    no_app = cli(*D, "--session", "fresh", "snapshot")
    assert no_app.code == 3
    assert "APP_BUNDLE_ID_REQUIRED" in no_app.err and "open an app first" in no_app.err.lower()


def test_json_output_everywhere_is_one_parseable_object(cli: Cli) -> None:
    assert cli(*D, "--json", "open", "app.j").json() == {
        "ok": True,
        "data": {"appBundleId": "app.j", "state": "foreground"},
    }
    snap = cli(*D, "snapshot", "--json").json()
    assert snap["ok"] is True
    assert {n["type"] for n in snap["data"]["nodes"]} >= {"Button", "StaticText"}
    assert snap["data"]["refs"]["e2"] == next(n["index"] for n in snap["data"]["nodes"] if n["type"] == "Button")
    tap = cli(*D, "tap", "--json", "@e2").json()
    assert tap["data"]["target"] == {"ref": "e2", "type": "Button", "label": "Counter", "x": 120.0, "y": 122.0}
    apps = cli(*D, "apps", "--json").json()
    assert apps["data"]["apps"] == [{"appBundleId": "app.j", "state": "foreground"}]


def test_named_sessions_keep_their_own_app(cli: Cli) -> None:
    assert cli(*D, "--session", "a", "open", "app.a").code == 0
    assert cli(*D, "--session", "b", "open", "app.b").code == 0
    assert cli(*D, "--session", "a", "tap", "id=counter").code == 0  # re-fronts app.a
    snap_a = cli(*D, "--session", "a", "snapshot").out
    assert snap_a.startswith('@e1 Application "app.a"') and "taps=1" in snap_a
    tapped_b = cli(*D, "--session", "b", "--json", "tap", "id=counter").json()
    assert tapped_b["reactivated"] is True  # app.b was in the background behind app.a
    assert "taps=1" in cli(*D, "--session", "b", "snapshot").out


def test_batch_runs_steps_and_stops_at_the_first_error_with_partial_results(cli: Cli) -> None:
    steps = [["open", "app.batch"], ["tap", "id=counter"], ["tap", "label=Nope"], ["tap", "id=counter"]]
    res = cli(*D, "--json", "batch", stdin=json.dumps(steps))
    assert res.code == 3
    doc = res.json()
    assert (doc["ok"], doc["completed"], doc["steps"]) == (False, 2, 4)
    assert [r["ok"] for r in doc["results"]] == [True, True, False]
    assert doc["results"][2]["error"]["code"] == "NOT_FOUND"
    assert taps_shown(cli) == "taps=1"  # the step after the failure never ran


def test_batch_reads_a_file_and_rejects_malformed_input(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "steps.json").write_text(json.dumps([["open", "app.f"], {"argv": ["tap", "120", "122"]}]))
    res = cli(*D, "batch", str(tmp_path / "steps.json"))
    assert res.code == 0 and "[1] tap 120 122\nok tapped" in res.out and "steps" not in res.out
    assert cli(*D, "batch", stdin="not json").code == 2
    assert cli(*D, "batch", stdin='[["batch"]]').code == 2


def test_batch_dash_reads_the_steps_from_stdin_as_documented(cli: Cli) -> None:
    res = cli(*D, "batch", "-", stdin=json.dumps([["open", "app.dash"], ["tap", "id=counter"]]))
    assert res.code == 0, res.err
    assert "[1] tap id=counter\nok " in res.out and "steps" not in res.out
    assert taps_shown(cli) == "taps=1"


def test_a_batch_names_each_step_by_its_words_with_a_long_one_cut(cli: Cli) -> None:
    """The step's own reply says the rest (the app opened, the characters filled): a long word is not said twice."""
    app = "app." + "x" * 60
    res = cli(*D, "batch", "-", stdin=json.dumps([["open", app], ["tap", "id=counter"]]))
    assert res.code == 0, res.err
    lines = res.out.splitlines()
    assert lines[0] == f"[0] open {app[: ECHOED_WORD - 1]}…"
    assert lines[1] == f"ok opened {app}"
    assert "[1] tap id=counter" in lines
    assert json.loads(cli(*D, "--json", "batch", "-", stdin=json.dumps([["open", app]])).out)["results"][0]["argv"] == [
        "open", app]  # fmt: skip


def test_batch_stdin_nested_100000_deep_is_refused_with_a_hint(cli: Cli) -> None:
    res = cli(*D, "--json", "batch", "-", stdin="[" * 100_000)
    assert res.code == 2
    error = res.json()["error"]
    assert error["code"] == "INVALID_REQUEST" and "levels deep" in error["message"]
    assert error["hint"] == "usage: phonewire batch [FILE|-] [--strict]"


def test_screenshot_writes_a_png_and_overlay_refs_draws_on_it(cli: Cli, tmp_path: Path) -> None:
    assert cli(*D, "open", "app.s").code == 0
    plain = cli(*D, "screenshot", str(tmp_path / "plain.png"))
    assert plain.out == f"ok screenshot {tmp_path / 'plain.png'}\n"
    with Image.open(tmp_path / "plain.png") as img:
        assert img.format == "PNG"
    marked = cli(*D, "screenshot", str(tmp_path / "marked.png"), "--overlay-refs")
    assert marked.code == 0
    with Image.open(tmp_path / "marked.png") as img:
        img.load()
        assert img.format == "PNG"


def test_the_daemon_is_private_to_its_user(cli: Cli) -> None:
    assert cli(*D, "apps").code == 0
    assert stat.S_IMODE(cli.dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((cli.dir / "token").stat().st_mode) == 0o600
    assert stat.S_IMODE((cli.dir / "daemon.sock").stat().st_mode) == 0o600
    assert stat.S_IMODE((cli.dir / "daemon.pid").stat().st_mode) == 0o600


def test_a_request_without_the_token_is_refused_and_the_daemon_keeps_serving(cli: Cli) -> None:
    assert cli(*D, "open", "app.t").code == 0
    wrong = encode_request("wrong", ["apps"], "/", {}, None)
    for payload, code in ((wrong, "DAEMON_AUTH"), (b"garbage", "DAEMON_PROTOCOL"), (b"", "DAEMON_PROTOCOL")):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(str(cli.dir / "daemon.sock"))
            s.sendall(payload)
            s.shutdown(socket.SHUT_WR)
            exit_code, daemon_code, out, err = decode_reply(s.makefile("rb").read())
        assert (exit_code, daemon_code, err) == (4, code, "")
        assert out in ("bad or missing token", "malformed request")
    assert cli(*D, "apps").out == "app.t\tforeground\n"


def test_daemon_stop_stops_its_runners(cli: Cli) -> None:
    assert cli(*D, "open", "app.x").code == 0
    status = cli("daemon", "status", "--json").json()["data"]
    [runner_pid] = status["runnerPids"]
    daemon_pid = status["pid"]
    assert cli("daemon", "stop").out == "ok daemon stopping\n"
    assert wait_gone(daemon_pid)
    assert wait_gone(runner_pid)
    assert not (cli.dir / "daemon.sock").exists()


def test_an_idle_daemon_stops_itself_and_its_runner(cli: Cli) -> None:
    cli.setenv("PHONEWIRE_DAEMON_IDLE_S", "0.5")
    assert cli(*D, "open", "app.idle").code == 0
    status = cli("daemon", "status", "--json").json()["data"]
    assert status["idleTimeoutS"] == 0.5
    assert wait_gone(status["pid"])
    assert wait_gone(status["runnerPids"][0])
    again = cli(*D, "apps")  # the next call starts a new daemon (and runner)
    assert again.code == 0
    assert cli.daemon_pid() != status["pid"]


def test_devices_lists_the_web_profiles(cli: Cli) -> None:
    res = cli("devices", "--json")
    assert res.code == 0
    names = [d["device"] for d in res.json()["data"]["devices"]]
    assert names[:2] == ["web:iphone-15", "web:iphone-15-landscape"]
    assert "web:pixel-7" in names


def test_help_prints_the_verbs_without_a_daemon(cli: Cli) -> None:
    res = cli("help")
    assert res.code == 0 and "snapshot [-i] [--diff]" in res.out
    assert cli.daemon_pid() is None
    assert cli().code == 2


def test_a_warm_command_imports_nothing_heavy_in_the_client(cli: Cli) -> None:
    assert cli(*D, "open", "app.light").code == 0
    probe = (
        "import sys\n"
        "from phonewire.frontends.cli.main import main\n"
        "code = main(['--device', 'double', 'tap', '1', '2'])\n"
        "heavy = {'asyncio', 'json', 'socket', 'selectors', 'enum', 're', 'typing', 'subprocess', 'h11',\n"
        "         'PIL', 'phonewire.agent.core', 'phonewire.protocol'}\n"
        "print(code, sorted(heavy & set(sys.modules)))\n"
    )
    res = subprocess.run([sys.executable, "-c", probe], env=cli.env, capture_output=True, text=True, check=True)
    assert res.stdout.splitlines()[-1] == "0 []"


def test_a_cli_process_ends_right_after_the_answer_with_all_of_it_written_and_its_exit_code(cli: Cli) -> None:
    # The console script ends its process without the interpreter's shutdown once the daemon answered: what it
    # printed must still all be there, on both streams, and the exit code must be the daemon's.
    assert cli.sub(*D, "open", "app.exit").code == 0
    in_process = cli(*D, "snapshot", "--json")
    as_process = cli.sub(*D, "snapshot", "--json")
    assert (as_process.code, as_process.out) == (0, in_process.out)
    assert json.loads(as_process.out)["ok"] is True
    failed = cli.sub(*D, "tap", "id=no-such-element")
    assert failed.code == cli(*D, "tap", "id=no-such-element").code != 0
    assert failed.err.startswith("error ") and "hint" in failed.err


def daemons_for(directory: Path) -> list[int]:
    """Pids of daemon processes serving (or trying to serve) ``directory`` — only ever ones this test started."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"phonewire.frontends.cli.daemon" in argv and str(directory).encode() in argv:
            found.append(int(proc.name))
    return found


def test_concurrent_first_calls_start_exactly_one_daemon(cli: Cli) -> None:
    argv = [sys.executable, "-m", "phonewire", *D, "apps"]
    procs = [subprocess.Popen(argv, env=cli.env, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = []
    for proc in procs:
        out, _ = proc.communicate(timeout=60)
        outputs.append((proc.returncode, out))
    assert outputs == [(0, "")] * 3  # no app launched yet: an empty list, from one daemon
    status = cli("daemon", "status", "--json").json()["data"]
    assert cli.daemon_pid() == status["pid"]
    assert (cli.dir / "daemon.log").read_text().count("serving") == 1
    deadline = time.monotonic() + 10
    while daemons_for(cli.dir) != [status["pid"]] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert daemons_for(cli.dir) == [status["pid"]]  # the daemons that lost the race exited


def test_a_daemon_whose_socket_was_removed_stops_itself(cli: Cli) -> None:
    assert cli(*D, "open", "app.gone").code == 0
    status = cli("daemon", "status", "--json").json()["data"]
    (cli.dir / "daemon.sock").unlink()  # e.g. its directory was deleted: no client can reach it any more
    assert wait_gone(status["pid"])
    assert wait_gone(status["runnerPids"][0])


def test_device_and_runner_defaults_come_from_the_calling_shell(cli: Cli) -> None:
    runner = subprocess.Popen(
        [sys.executable, "-m", "phonewire", "runner", "--device", "double"],
        env=cli.env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert runner.stdout is not None
        port = int(runner.stdout.readline().split("port=")[1])
        cli.setenv("PHONEWIRE_RUNNER_ADDR", f"127.0.0.1:{port}")
        assert cli("open", "app.attached").code == 0
        assert cli("tap", "id=counter").code == 0
        body = json.dumps({"command": "snapshot", "commandId": "probe-1", "appBundleId": "app.attached"}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        token = Path(runner_token_path(port, cli.env)).read_text().strip()  # what the daemon attached with, too
        conn.request("POST", "/", body, {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        reply = json.loads(conn.getresponse().read())
        assert reply["ok"], reply
        labels = [n["label"] for n in reply["data"]["nodes"]]
        conn.close()
        assert "taps=1" in labels  # the tap went to the runner named by the shell's environment
        assert cli("daemon", "status", "--json").json()["data"]["runnerPids"] == []  # attached, not owned
        cli.setenv("PHONEWIRE_DEVICE", "double")  # now the device wins over the address
        assert cli("apps").out == ""  # a fresh double runner: no apps
    finally:
        runner.terminate()
        runner.wait(timeout=20)
        assert runner.stdout is not None
        runner.stdout.close()


def test_a_runner_token_from_the_calling_shell_reaches_the_daemon(cli: Cli) -> None:
    """A runner given its token in the environment writes no token file; the CLI's daemon (started by another
    shell) attaches with the token of the shell that calls it."""
    env = {**cli.env, "PHONEWIRE_RUNNER_TOKEN": "shell-token-1"}
    runner = subprocess.Popen(
        [sys.executable, "-m", "phonewire", "runner", "--device", "double"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert runner.stdout is not None
        port = int(runner.stdout.readline().split("port=")[1])
        assert not Path(runner_token_path(port, cli.env)).exists()
        assert cli("apps").code == 0  # the daemon starts from this shell, without the token
        cli.setenv("PHONEWIRE_RUNNER_ADDR", f"127.0.0.1:{port}")
        refused = cli("--json", "open", "app.tokened")
        assert refused.code != 0 and "UNAUTHORIZED" in refused.out + refused.err
        cli.setenv("PHONEWIRE_RUNNER_TOKEN", "shell-token-1")
        assert cli("open", "app.tokened").code == 0
        assert cli("tap", "id=counter").code == 0
        assert "taps=1" in cli("snapshot").out
    finally:
        runner.terminate()
        runner.wait(timeout=20)
        assert runner.stdout is not None
        runner.stdout.close()


def test_daemon_status_and_stop_without_a_daemon_start_none(cli: Cli) -> None:
    assert cli("daemon", "status").out == "ok no daemon running\n"
    assert cli("daemon", "status", "--json").json() == {"ok": True, "data": {"running": False}}
    assert cli("daemon", "stop").code == 0
    assert cli.daemon_pid() is None and not cli.dir.joinpath("daemon.sock").exists()


def test_a_snapshot_of_a_background_app_says_how_to_bring_it_back(cli: Cli) -> None:
    assert cli(*D, "--session", "a", "open", "app.a").code == 0
    assert cli(*D, "--session", "b", "open", "app.b").code == 0
    res = cli(*D, "--session", "a", "snapshot")
    assert res.code == 3
    assert res.err.startswith("error APP_BACKGROUNDED:") and "`viewport`" in res.err
    assert cli(*D, "--session", "a", "viewport").out == "0 0 390 844\n"  # re-fronts app.a
    assert cli(*D, "--session", "a", "snapshot").out.startswith('@e1 Application "app.a"')


def test_version_prints_the_package_version_without_a_daemon(cli: Cli) -> None:
    from phonewire import __version__

    res = cli("--version")
    assert res.code == 0 and res.out.strip() == f"phonewire {__version__}"
    assert cli.daemon_pid() is None


def test_a_runner_address_where_nothing_listens_is_reported_unreachable_whatever_the_verb(cli: Cli) -> None:
    # issue 15 item 7: `--runner 127.0.0.1:1 tap …` used to answer APP_BUNDLE_ID_REQUIRED (no app is open)
    for verb in (["tap", "1", "1"], ["snapshot"], ["apps"], ["close"]):
        res = cli("--runner", "127.0.0.1:1", "--json", *verb)
        assert res.code == 3, verb
        error = res.json()["error"]
        assert error["code"] == "RUNNER_UNAVAILABLE", (verb, error)
        assert "127.0.0.1:1" in error["message"] and error["hint"], verb


def _start_stale_daemon(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> int:
    """A daemon that claims another phonewire version (the test-only override), as one left over by an upgrade."""
    monkeypatch.setenv(TEST_ONLY_VERSION_ENV, "0.0.0-stale")
    connect(ensure_private_dir(str(cli.dir))).close()  # starts it with this environment
    pid = cli.daemon_pid()
    assert pid is not None
    cli.daemon_pids.add(pid)
    return pid


def test_a_daemon_of_another_version_is_stopped_and_replaced_once_and_the_command_runs(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = _start_stale_daemon(cli, monkeypatch)
    monkeypatch.delenv(TEST_ONLY_VERSION_ENV)
    res = cli(*D, "open", "app.fresh")
    assert (res.code, res.out) == (0, "ok opened app.fresh\n"), res.err
    assert wait_gone(stale)
    status = cli("daemon", "status", "--json").json()["data"]
    assert status["pid"] != stale and status["version"] == phonewire.__version__


def test_a_replacement_that_is_stale_too_is_a_version_mismatch_with_a_hint_not_a_loop(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = _start_stale_daemon(cli, monkeypatch)  # the override stays set: the replacement claims it as well
    res = cli(*D, "--json", "apps")
    assert res.code == 4
    error = res.json()["error"]
    assert error["code"] == "DAEMON_VERSION_MISMATCH"
    assert "0.0.0-stale" in error["message"] and phonewire.__version__ in error["message"]
    assert error["hint"] == DAEMON_HINTS["DAEMON_VERSION_MISMATCH"]
    assert wait_gone(stale)
