"""The command path of a real runner process (``--device double``): validation, dispatch, journal, send-once."""

from __future__ import annotations

import base64
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from runner_wire import RunnerProcess, fate, new_id, post, post_raw, run_ok, status, taps, wait_for_state

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.commands import PROTOCOL_VERSION
from phonewire.runner.dispatch import BACKEND_CODES

# -- request validation: INVALID_REQUEST / APP_BUNDLE_ID_REQUIRED ----------------------------------------------------
BAD_BODIES = {
    "not JSON": b"{command: status}",
    "empty body": b"",
    "JSON array": b'["status"]',
    "JSON string": b'"status"',
    "JSON null": b"null",
    "NaN literal": b'{"command":"tap","commandId":"n1","appBundleId":"app.a","x":NaN,"y":1}',
    "Infinity literal": b'{"command":"status","x":Infinity}',
    "invalid UTF-8": b'{"command":"st\xffatus"}',
    "deep nesting": b'{"command":"status","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "no command": b'{"commandId":"x"}',
    "unknown command": b'{"command":"selfDestruct","commandId":"x"}',
    "command not a string": b'{"command":7}',
    "integer too large for a float": b'{"command":"tap","commandId":"t0","appBundleId":"app.a","x":1'
    + b"0" * 400
    + b',"y":1}',
    "x not a number": b'{"command":"tap","commandId":"t1","appBundleId":"app.a","x":"1","y":1}',
    "boolean as number": b'{"command":"tap","commandId":"t2","appBundleId":"app.a","x":true,"y":1}',
    "numberOfTaps zero": b'{"command":"tap","commandId":"t3","appBundleId":"app.a","x":1,"y":1,"numberOfTaps":0}',
    "numberOfTaps float": b'{"command":"tap","commandId":"t4","appBundleId":"app.a","x":1,"y":1,"numberOfTaps":1.5}',
    "negative duration": b'{"command":"longPress","commandId":"t5","appBundleId":"app.a","x":1,"y":1,"durationMs":-1}',
    "unknown button": b'{"command":"button","commandId":"t6","button":"power"}',
    "missing field": b'{"command":"drag","commandId":"t7","appBundleId":"app.a","fromX":1,"fromY":1,"toX":2}',
    "commandId not a string": b'{"command":"listApps","commandId":12}',
    "empty commandId": b'{"command":"listApps","commandId":""}',
    "missing commandId": b'{"command":"listApps"}',
    "bad screenshot format": b'{"command":"screenshot","commandId":"t8","format":"gif"}',
}


@pytest.mark.parametrize("body", BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_bad_bodies_are_invalid_request_with_a_hint_or_message(runner: RunnerProcess, body: bytes) -> None:
    response = post_raw(runner.port, body)
    assert response.status == 500
    assert response.code == e.INVALID_REQUEST
    assert response.envelope["error"]["message"]
    assert status(runner.port)["state"] == "idle"  # and the runner keeps serving


@pytest.mark.parametrize("command", sorted(c.APP_SCOPED | c.APP_LIFECYCLE))
def test_app_scoped_commands_without_app_id_are_app_bundle_id_required(runner: RunnerProcess, command: str) -> None:
    fields = {"x": 1, "y": 1, "fromX": 1, "fromY": 1, "toX": 2, "toY": 2, "text": "a"}
    response = post(runner.port, command, **fields)
    assert response.code == e.APP_BUNDLE_ID_REQUIRED
    assert response.envelope["error"]["hint"]


# -- status, uptime --------------------------------------------------------------------------------------------------
def test_status_answers_uptime_state_counters_and_device_facts(runner: RunnerProcess) -> None:
    data = status(runner.port)
    assert isinstance(data["uptimeMs"], int) and data["uptimeMs"] >= 0
    assert data["state"] == "idle"
    assert isinstance(data["suppressedIssues"], int)
    assert isinstance(data["recordedFailures"], int)
    assert data["device"]["kind"] == "double"
    assert data["protocolVersion"] == PROTOCOL_VERSION
    assert data["deviceHealth"] is None
    assert data["running"] is None
    assert (data["queued"], data["draining"]) == (0, 0)


def test_uptime_answers_only_uptime_and_the_protocol_version_and_grows(runner: RunnerProcess) -> None:
    first = post(runner.port, "uptime").data
    second = post(runner.port, "uptime").data
    assert first == {"uptimeMs": first["uptimeMs"], "protocolVersion": PROTOCOL_VERSION}
    assert second["uptimeMs"] >= first["uptimeMs"]


def test_status_of_an_unknown_id_is_not_accepted(runner: RunnerProcess) -> None:
    assert fate(runner.port, "never-sent") == {"commandId": "never-sent", "state": "notAccepted"}


# -- dispatch ---------------------------------------------------------------------------------------------------------
def test_tap_on_an_app_that_is_not_running_is_app_not_available(runner: RunnerProcess) -> None:
    response = post(runner.port, "tap", appBundleId="app.cold", x=1, y=1)
    assert response.code == e.APP_NOT_AVAILABLE
    assert "reactivated" not in response.envelope
    assert taps(runner.port, "app.cold") == 0


def test_foreground_tap_is_clean_and_byte_identical_without_optional_fields(runner: RunnerProcess) -> None:
    run_ok(runner.port, "launchApp", appBundleId="app.front")
    response = post(runner.port, "tap", appBundleId="app.front", x=10, y=20)
    assert response.body == b'{"ok":true,"data":{"message":"tapped (10, 20)"}}'


def test_background_app_snapshot_is_app_backgrounded_and_tap_reactivates(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="app.bg")
    run_ok(port, "button", button="home")
    snap = post(port, "snapshot", appBundleId="app.bg")
    assert snap.code == e.APP_BACKGROUNDED
    assert "app.bg" in snap.envelope["error"]["message"]
    assert "reactivated" not in snap.envelope
    tap = post(port, "tap", appBundleId="app.bg", x=1, y=1)
    assert tap.envelope["reactivated"] is True
    assert tap.envelope["ok"] is True
    assert taps(port, "app.bg") == 1
    again = post(port, "tap", appBundleId="app.bg", x=1, y=1)  # now in front: no stamp
    assert "reactivated" not in again.envelope


def test_error_reply_after_a_refront_still_carries_reactivated(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="crash")
    run_ok(port, "button", button="home")
    response = post(port, "tap", appBundleId="crash", x=1, y=1)
    assert response.code == e.COMMAND_FAILED
    assert response.envelope["reactivated"] is True


def test_backend_exception_is_command_failed(runner: RunnerProcess) -> None:
    run_ok(runner.port, "launchApp", appBundleId="crash")
    response = post(runner.port, "tap", appBundleId="crash", x=1, y=1)
    assert response.code == e.COMMAND_FAILED
    assert "RuntimeError" in response.envelope["error"]["message"]


@pytest.mark.parametrize("code", [code for code in e.RUNNER_CODES if code in BACKEND_CODES])
def test_backend_protocol_errors_pass_through_with_their_code(runner: RunnerProcess, code: str) -> None:
    """The codes only the runner may give are not a backend's to pass through: see
    test_a_backend_cannot_claim_a_code_only_the_runner_or_host_can_vouch_for (and the wire check below)."""
    app = f"fail.{code}"
    run_ok(runner.port, "launchApp", appBundleId=app)
    response = post(runner.port, "keyboardReturn", appBundleId=app)
    assert response.status == 500
    assert response.envelope["error"] == {"code": code, "message": f"scripted failure {code}", "hint": "scripted hint"}


@pytest.mark.parametrize("code", sorted(set(e.RUNNER_CODES) - BACKEND_CODES))
def test_a_backend_claiming_nothing_ran_is_command_failed_on_the_wire(runner: RunnerProcess, code: str) -> None:
    app = f"fail.{code}"
    run_ok(runner.port, "launchApp", appBundleId=app)
    response = post(runner.port, "keyboardReturn", appBundleId=app)
    assert response.code == e.COMMAND_FAILED
    assert code in response.envelope["error"]["message"]


def test_unknown_app_is_app_unknown(runner: RunnerProcess) -> None:
    assert post(runner.port, "tap", appBundleId="unknown.app", x=1, y=1).code == e.APP_UNKNOWN


def test_absent_button_is_unsupported_operation(runner: RunnerProcess) -> None:
    assert post(runner.port, "button", button="volumeUp").code == e.UNSUPPORTED_OPERATION


def test_noisy_mutation_carries_a_warning_but_a_noisy_read_does_not(runner: RunnerProcess) -> None:
    run_ok(runner.port, "launchApp", appBundleId="noisy")
    before = status(runner.port)["suppressedIssues"]
    tap = post(runner.port, "tap", appBundleId="noisy", x=1, y=1)
    assert tap.envelope["ok"] is True
    assert "re-observe" in tap.envelope["warning"].lower()
    view = post(runner.port, "viewport", appBundleId="noisy")
    assert view.data == {"x": 0, "y": 0, "width": 390, "height": 844}
    assert "warning" not in view.envelope
    assert status(runner.port)["suppressedIssues"] == before + 2


def test_screenshot_returns_inline_image_with_format_and_size(runner: RunnerProcess) -> None:
    data = post(runner.port, "screenshot", format="png", scale="css", quality=50).data
    assert base64.b64decode(data["imageBase64"]).startswith(b"\x89PNG")
    assert (data["format"], data["width"], data["height"]) == ("png", 1, 1)


def test_extensions_launch_list_terminate_open_url_reset(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    assert post(port, "launchApp", appBundleId="app.one").data == {"appBundleId": "app.one", "state": "foreground"}
    assert post(port, "openUrl", url="https://example.org/").data == {"appBundleId": "https://example.org/"}
    apps = post(port, "listApps").data["apps"]
    assert {"appBundleId": "app.one", "state": "background"} in apps
    assert {"appBundleId": "https://example.org/", "state": "foreground"} in apps
    assert post(port, "terminateApp", appBundleId="app.one").data == {"appBundleId": "app.one", "wasRunning": True}
    assert post(port, "reset").data == {"reset": True}
    assert post(port, "tap", appBundleId="app.one", x=1, y=1).code == e.APP_NOT_AVAILABLE


def test_every_command_with_minimal_fields_answers_an_envelope(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="app.all")
    fields: dict[str, dict[str, object]] = {
        c.VIEWPORT: {}, c.TAP: {"x": 1, "y": 2}, c.LONG_PRESS: {"x": 1, "y": 2}, c.TYPE: {"text": "hi"},
        c.DRAG: {"fromX": 1, "fromY": 2, "toX": 3, "toY": 4}, c.KEYBOARD_RETURN: {}, c.KEYBOARD_DELETE: {},
        c.SNAPSHOT: {},
    }  # fmt: skip
    for command, extra in fields.items():
        response = post(port, command, appBundleId="app.all", **extra)
        assert response.envelope["ok"] is True, (command, response.envelope)
    nodes = post(port, "snapshot", appBundleId="app.all").data["nodes"]
    assert {"type": "TextField", "value": "h"}.items() <= next(n for n in nodes if n["type"] == "TextField").items()


def test_a_dead_device_is_replaced_at_once_and_the_reply_says_app_state_was_reset(
    fresh_runner: RunnerProcess,
) -> None:
    """Issue 15 item 3: a device whose health says it is gone is replaced by a fresh one on the next command,
    which runs on it; that reply carries stateReset, and the apps the old device ran are gone."""
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="app.before")
    run_ok(port, "launchApp", appBundleId="device.lost")
    assert status(port)["deviceHealth"] == "scripted: the device was lost"
    response = post(port, "listApps")
    assert response.envelope == {"ok": True, "data": {"apps": []}, "stateReset": True}
    after = status(port)
    assert after["deviceHealth"] is None and after["deviceRestarts"] == 1
    # Only the first reply says so; an app of the old device is not running on the new one, and says why not.
    assert "stateReset" not in post(port, "listApps").envelope
    gone = post(port, "tap", appBundleId="app.before", x=1, y=1)
    assert gone.code == e.APP_NOT_AVAILABLE and "stateReset" not in gone.envelope
    assert taps(port, "app.before") == 0


def test_an_app_scoped_command_on_a_dead_device_says_what_was_lost(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="app.kept")
    run_ok(port, "launchApp", appBundleId="device.lost")
    response = post(port, "tap", appBundleId="app.kept", x=1, y=1)
    assert response.code == e.APP_NOT_AVAILABLE and response.envelope["stateReset"] is True
    assert "restarted" in response.envelope["error"]["message"]
    assert "launchApp" in response.envelope["error"]["hint"]
    assert taps(port, "app.kept") == 0


# -- journal and send-once --------------------------------------------------------------------------------------------
def test_resend_of_a_finished_id_is_answered_from_the_journal_not_executed(runner: RunnerProcess) -> None:
    run_ok(runner.port, "launchApp", appBundleId="app.once")
    command_id = new_id("once")
    first = post(runner.port, "tap", commandId=command_id, appBundleId="app.once", x=5, y=5)
    second = post(runner.port, "tap", commandId=command_id, appBundleId="app.once", x=5, y=5)
    assert first.body == second.body
    assert taps(runner.port, "app.once") == 1
    journaled = fate(runner.port, command_id)
    assert journaled["state"] == "completed"
    assert journaled["responseOk"] is True
    assert journaled["responseJson"].encode() == first.body


def test_resend_of_a_failed_id_answers_the_journaled_error(runner: RunnerProcess) -> None:
    command_id = new_id("failed")
    first = post(runner.port, "tap", commandId=command_id, appBundleId="app.not-running", x=1, y=1)
    second = post(runner.port, "tap", commandId=command_id, appBundleId="app.not-running", x=1, y=1)
    assert first.code == second.code == e.APP_NOT_AVAILABLE
    journaled = fate(runner.port, command_id)
    assert journaled["state"] == "failed"
    assert journaled["responseOk"] is False
    assert journaled["errorCode"] == e.APP_NOT_AVAILABLE
    assert journaled["errorMessage"] == first.envelope["error"]["message"]


def test_resend_of_a_completed_snapshot_is_command_already_completed(runner: RunnerProcess) -> None:
    run_ok(runner.port, "launchApp", appBundleId="app.snap")
    command_id = new_id("snap")
    assert post(runner.port, "snapshot", commandId=command_id, appBundleId="app.snap").data["nodes"]
    again = post(runner.port, "snapshot", commandId=command_id, appBundleId="app.snap")
    assert again.code == e.COMMAND_ALREADY_COMPLETED
    assert again.envelope["error"]["hint"]
    journaled = fate(runner.port, command_id)
    assert journaled["state"] == "completed"
    assert "responseJson" not in journaled  # snapshots are never retained


def test_a_commandid_reused_for_another_command_is_invalid_request(runner: RunnerProcess) -> None:
    command_id = new_id("reuse")
    run_ok(runner.port, "listApps", commandId=command_id)
    response = post(runner.port, "reset", commandId=command_id)
    assert response.code == e.INVALID_REQUEST
    assert "listApps" in response.envelope["error"]["message"]


def test_journal_evicts_the_65th_id(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="app.evict", commandId="evict-launch")
    ids = [f"evict-{i}" for i in range(c.JOURNAL_MAX_ENTRIES)]
    for command_id in ids:  # with the launch, 65 ids have now been touched
        run_ok(port, "tap", commandId=command_id, appBundleId="app.evict", x=1, y=1)
    assert fate(port, "evict-launch")["state"] == "notAccepted"
    assert all(fate(port, command_id)["state"] == "completed" for command_id in ids)
    one_more = post(port, "tap", commandId="evict-65", appBundleId="app.evict", x=1, y=1).data
    assert one_more
    assert fate(port, ids[0])["state"] == "notAccepted"  # the oldest tap is gone now
    assert fate(port, ids[1])["state"] == "completed"
    # An evicted id is unknown: sending it again executes it again (the reason the client never resends blindly).
    run_ok(port, "tap", commandId=ids[0], appBundleId="app.evict", x=1, y=1)
    assert taps(port, "app.evict") == c.JOURNAL_MAX_ENTRIES + 2


def test_journal_retains_replies_up_to_16kb_only(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    # listApps grows with the apps launched: long ids push its reply past 16 KB.
    long_ids = [f"app.{i:03d}." + "x" * 180 for i in range(90)]
    small_id, big_id = new_id("small"), new_id("big")
    run_ok(port, "launchApp", appBundleId=long_ids[0])
    small = post(port, "listApps", commandId=small_id)
    assert len(small.body) <= c.JOURNAL_MAX_RETAINED_BYTES
    assert fate(port, small_id)["responseJson"].encode() == small.body
    assert post(port, "listApps", commandId=small_id).body == small.body
    for app in long_ids[1:]:
        run_ok(port, "launchApp", appBundleId=app)
    big = post(port, "listApps", commandId=big_id)
    assert len(big.body) > c.JOURNAL_MAX_RETAINED_BYTES
    big_fate = fate(port, big_id)
    assert big_fate["state"] == "completed" and big_fate["responseOk"] is True
    assert "responseJson" not in big_fate
    assert post(port, "listApps", commandId=big_id).code == e.COMMAND_ALREADY_COMPLETED


def test_duplicate_of_an_in_flight_id_attaches_and_shares_the_reply(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="hang.2000")
    body = json.dumps({"command": "tap", "commandId": "dup", "appBundleId": "hang.2000", "x": 1, "y": 1}).encode()
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(post_raw, port, body)
        wait_for_state(port, "busy")
        assert fate(port, "dup")["state"] == "started"
        second = pool.submit(post_raw, port, body)
        replies = [first.result(30), second.result(30)]
    assert replies[0].body == replies[1].body
    assert replies[0].envelope["ok"] is True
    assert taps(port, "hang.2000") == 1


def test_status_is_answered_while_a_command_hangs(fresh_runner: RunnerProcess) -> None:
    port = fresh_runner.port
    run_ok(port, "launchApp", appBundleId="hang.2000")
    with ThreadPoolExecutor(1) as pool:
        hanging = pool.submit(post, port, "tap", commandId="hangs", appBundleId="hang.2000", x=1, y=1)
        busy = wait_for_state(port, "busy")
        uptime = post(port, "uptime").data
        journaled = fate(port, "hangs")
        still_running = not hanging.done()
        result = hanging.result(30)
    assert still_running
    assert busy["state"] == "busy"
    assert busy["running"]["command"] == "tap"
    assert busy["running"]["commandId"] == "hangs"
    assert busy["running"]["runningMs"] >= 0
    assert uptime["uptimeMs"] >= 0
    assert journaled["state"] == "started"
    assert result.envelope["ok"] is True
    assert status(port)["state"] == "idle"


# -- the one runner-side retry: a snapshot capture that throws is retried once after a pause -------------------------
def test_a_snapshot_capture_that_throws_once_is_retried_once_and_succeeds(runner: RunnerProcess) -> None:
    run_ok(runner.port, "launchApp", appBundleId="flaky.1")
    data = run_ok(runner.port, "snapshot", appBundleId="flaky.1")
    assert data["quality"]["state"] == "healthy"
    assert status(runner.port)["device"]["captures"]["flaky.1"] == 2  # one failure, exactly one retry


def test_a_snapshot_capture_that_throws_twice_is_snapshot_failed_after_exactly_one_retry(runner: RunnerProcess) -> None:
    run_ok(runner.port, "launchApp", appBundleId="flaky.5")
    response = post(runner.port, "snapshot", appBundleId="flaky.5")
    assert response.code == e.SNAPSHOT_FAILED
    assert status(runner.port)["device"]["captures"]["flaky.5"] == 2


def test_app_state_failures_are_not_capture_failures_and_are_not_retried(runner: RunnerProcess) -> None:
    response = post(runner.port, "snapshot", appBundleId="flaky.3")  # never launched: APP_NOT_AVAILABLE
    assert response.code == e.APP_NOT_AVAILABLE
    assert "flaky.3" not in status(runner.port)["device"]["captures"]
