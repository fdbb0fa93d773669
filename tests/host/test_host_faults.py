"""Host session against a real runner process (``--device double``) through a real loopback fault proxy.

Each test names the rule it checks.  Counters are read back from the device itself (the double's tap counts in
``status``), and requests are counted at the proxy, never inside the host.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from host_fault_proxy import Fault, FaultProxy, Plan, Rule, pass_all
from host_helpers import running_runner, tap, tap_count

from phonewire.host import HostError, HostSession
from phonewire.host import diagnostics as d
from phonewire.host import rules as r
from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing
from phonewire.protocol.errors import ProtocolError

APP = "app.counter"


def run(
    scenario: Callable[[HostSession, FaultProxy], Awaitable[None]],
    rule: Rule = pass_all,
    *,
    runner_scale: float = 1.0,
    host_scale: float = 1.0,
) -> None:
    """Runner process → fault proxy → HostSession attached to the proxy; everything stopped afterwards."""

    async def main() -> None:
        async with running_runner("double", runner_scale) as process, FaultProxy(process.port, rule) as proxy:
            env = dict(os.environ, PHONEWIRE_RUNNER_TOKEN=process.token)
            host = HostSession(runner_addr=proxy.address, timing=Timing(host_scale), write_diagnostics=False, env=env)
            try:
                await scenario(host, proxy)
            finally:
                await host.close()

    asyncio.run(main())


def invalidations(host: HostSession) -> list[dict[str, Any]]:
    return host.diagnostics(event=d.INVALIDATION)


def only_commands(*commands: str, fault: Fault) -> Rule:
    def rule(_index: int, body: dict[str, Any]) -> Plan:
        return Plan(fault) if body.get("command") in commands else Plan(Fault.PASS)

    return rule


def nth(command: str, n: int, fault: Fault) -> Rule:
    """``fault`` for the ``n``-th request of ``command`` (1-based), PASS for everything else."""
    seen = {"n": 0}

    def rule(_index: int, body: dict[str, Any]) -> Plan:
        if body.get("command") == command:
            seen["n"] += 1
            if seen["n"] == n:
                return Plan(fault)
        return Plan(Fault.PASS)

    return rule


# --- healthy-mutation skip ----------------------------------------------------------------------------------------
def test_hot_loop_of_200_taps_makes_one_runner_request_per_tap_after_the_first() -> None:
    """lifecycle: 1 runner request per hot allowlisted command after the first (counted at the proxy)."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        await host.send("tap", tap(APP))  # the first tap preflights: no healthy record yet
        before = proxy.count()
        for _ in range(199):
            await host.send("tap", tap(APP))
        assert proxy.count() - before == 199
        assert proxy.count("uptime") == 2  # launchApp (startup) and the first tap (noRecord), never again
        assert await tap_count(host, APP) == 200
        skipped = [ev for ev in host.diagnostics(event=d.PREFLIGHT) if ev["reason"] == r.SKIP_HEALTHY_MUTATION]
        assert len(skipped) == 199
        assert all(ev["recencyAgeMs"] is not None for ev in skipped)

    run(scenario)


def test_read_only_replies_never_earn_the_skip() -> None:
    """lifecycle: snapshots and other read-only responses never count as a health signal."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        await host.send("snapshot", {"appBundleId": APP})
        uptimes = proxy.count("uptime")
        await host.send("tap", tap(APP))
        assert proxy.count("uptime") == uptimes + 1

    run(scenario)


def test_snapshots_in_a_loop_make_one_runner_request_each() -> None:
    """issue 27: a read-only command within the healthy window skips uptime: requests per snapshot = 1.0, counted
    at the proxy in front of a real runner process; after a tap the snapshot skips too."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        before = proxy.count()
        for _ in range(50):
            await host.send("snapshot", {"appBundleId": APP})
            await host.send("tap", tap(APP))
        for _ in range(50):
            await host.send("snapshot", {"appBundleId": APP})
        assert proxy.count("snapshot") == 100
        assert proxy.count() - before == 151  # 100 snapshots, 50 taps and one uptime (the first tap's noRecord)
        assert proxy.count("uptime") == 2  # launchApp (startup) and the first tap, never before a snapshot
        reasons = [ev["reason"] for ev in host.diagnostics(event=d.PREFLIGHT) if ev["command"] == "snapshot"]
        assert reasons == [r.SKIP_HEALTHY_REPLY] * 100
        assert await tap_count(host, APP) == 50

    run(scenario)


def test_a_read_only_command_after_an_idle_moment_preflights() -> None:
    """issue 27: past the healthy window the read-only skip ends (a negative window: every reply is stale)."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        host.healthy_window_s = -1.0
        await host.send("launchApp", {"appBundleId": APP})
        uptimes = proxy.count("uptime")
        await host.send("snapshot", {"appBundleId": APP})
        assert proxy.count("uptime") == uptimes + 1
        assert host.diagnostics(event=d.PREFLIGHT)[-1]["reason"] == r.PREFLIGHT_NO_RECENT_REPLY

    run(scenario)


def test_a_different_app_preflights_again() -> None:
    """lifecycle: the record counts only for the same appBundleId."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": "app.b"})
        await host.send("launchApp", {"appBundleId": APP})
        await host.send("tap", tap(APP))
        uptimes = proxy.count("uptime")
        await host.send("tap", tap("app.b"))  # re-fronts app.b: activation is uncertain
        assert proxy.count("uptime") == uptimes + 1
        reasons = [ev["reason"] for ev in host.diagnostics(event=d.PREFLIGHT)]
        assert reasons[-1] == r.PREFLIGHT_APP_ACTIVATION_UNCERTAIN

    run(scenario)


# --- lost replies: status-before-invalidate ---------------------------------------------------------------------------
def test_1000_taps_with_10_percent_dropped_replies_count_exactly_once() -> None:
    """send-once + recovery: the counter equals the taps reported done or recovered — never more — and
    at least 99 % of dropped replies are recovered without invalidating the session."""
    rng = random.Random(4)

    def rule(_index: int, body: dict[str, Any]) -> Plan:
        if body.get("command") == "tap" and rng.random() < 0.10:
            return Plan(Fault.DROP_REPLY)
        return Plan(Fault.PASS)

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        done = recovered = failed = 0
        for _ in range(1000):
            try:
                reply = await host.send("tap", tap(APP))
            except ProtocolError:
                failed += 1
                continue
            done += 1
            if reply.recovered == r.RECOVERED_COMPLETED:
                recovered += 1
        dropped = proxy.faults[Fault.DROP_REPLY]
        assert dropped >= 50  # the fault really happened, many times
        assert await tap_count(host, APP) == done  # never more than reported
        assert done + failed == 1000
        assert recovered >= 0.99 * dropped
        assert invalidations(host) == []
        assert proxy.count("tap") == 1000  # no tap was ever sent twice

    run(scenario, rule)


def test_reset_mid_reply_is_recovered_from_the_journal() -> None:
    """recovery: a connection reset mid-reply runs one status probe with the original id; completed → the reply."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        reply = await host.send("tap", tap(APP))
        assert reply.ok and reply.recovered == r.RECOVERED_COMPLETED
        assert reply.data == {"message": "tapped (10, 20)"}
        assert proxy.count("status") == 1
        assert await tap_count(host, APP) == 1
        assert invalidations(host) == []

    run(scenario, only_commands("tap", fault=Fault.RESET_MID_REPLY))


def test_failed_command_with_lost_reply_surfaces_the_runners_own_error() -> None:
    """recovery: failed → the runner failure code/message/hint instead of a generic transport failure."""
    app = "fail.APP_NOT_AVAILABLE"

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": app})
        with pytest.raises(ProtocolError) as info:
            await host.send("tap", tap(app))
        assert info.value.code == e.APP_NOT_AVAILABLE
        assert info.value.hint == "scripted hint"
        assert proxy.count("status") == 1
        assert invalidations(host) == []

    run(scenario, only_commands("tap", fault=Fault.DROP_REPLY))


def test_command_still_running_when_the_connection_dies_is_reported_in_flight() -> None:
    """recovery: accepted/started → session kept, COMMAND_IN_FLIGHT, and the command is not replayed."""
    app = "hang.400"

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": app})
        with pytest.raises(ProtocolError) as info:
            await host.send("tap", tap(app))
        assert info.value.code == e.COMMAND_IN_FLIGHT
        assert invalidations(host) == []
        await asyncio.sleep(0.6)  # let the hang finish on the device
        assert await tap_count(host, app) == 1
        assert proxy.count("tap") == 1

    run(scenario, only_commands("tap", fault=Fault.HANG_UP_EARLY))


def test_a_tap_the_runner_never_received_is_resent_once_and_lands_once() -> None:
    """Issue 15: status says notAccepted (the request was lost on the way): nothing ran, so it is sent once more
    on the same runner instead of invalidating it; the tap lands exactly once."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        first = host.runner
        reply = await host.send("tap", tap(APP))
        assert reply.ok
        assert proxy.count("tap") == 2
        assert [ev["reason"] for ev in host.diagnostics(event=d.RETRY)] == ["notAcceptedResent"]
        assert invalidations(host) == [] and host.runner is first
        assert await tap_count(host, APP) == 1

    run(scenario, nth("tap", 1, Fault.DROP_REQUEST))


def test_a_tap_lost_on_the_way_twice_is_not_sent_a_third_time_and_keeps_the_runner() -> None:
    """Issue 15: resent once only; the error says nothing ran; the runner (which answers status) is kept."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        first = host.runner
        with pytest.raises(HostError) as info:
            await host.send("tap", tap(APP))
        assert info.value.code == e.TRANSPORT_FAILED
        assert "nothing ran" in info.value.message and info.value.hint and "safe" in info.value.hint
        assert proxy.count("tap") == 2
        assert invalidations(host) == [] and host.runner is first
        assert await tap_count(host, APP) == 0

    run(scenario, only_commands("tap", fault=Fault.DROP_REQUEST))


def test_read_only_command_with_lost_unretained_reply_is_retried() -> None:
    """recovery: a read-only command whose response was not retained keeps the retry behaviour."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        reply = await host.send("snapshot", {"appBundleId": APP})
        assert reply.ok and reply.data is not None and reply.data["nodes"]
        assert proxy.count("snapshot") == 2
        retries = host.diagnostics(event=d.RETRY)
        assert [ev["reason"] for ev in retries] == ["readOnlyReplyLost"]
        assert invalidations(host) == []

    run(scenario, nth("snapshot", 1, Fault.DROP_REPLY), host_scale=0.1)


def test_timeout_after_a_skipped_preflight_clears_the_record_and_carries_the_skip_context() -> None:
    """lifecycle: a transport failure after a skip clears the recency record and is marked with the skip
    context; timeout-shaped failures propagate (no status recovery)."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        await host.send("tap", tap(APP))
        with pytest.raises(HostError) as info:
            await host.send("tap", tap(APP))  # skipped preflight, then blackholed
        assert info.value.code == e.TRANSPORT_FAILED
        assert info.value.context[r.PREFLIGHT_SKIPPED_MARKER] is True
        assert info.value.context["shape"] == "timeout"
        assert proxy.count("status") == 0
        await host.send("tap", tap(APP))
        assert host.diagnostics(event=d.PREFLIGHT)[-1]["reason"] == r.PREFLIGHT_NO_RECORD
        assert await tap_count(host, APP) == 2

    run(scenario, nth("tap", 2, Fault.BLACKHOLE), host_scale=0.01)


def test_connection_failure_after_a_skip_runs_status_recovery() -> None:
    """lifecycle: connection-shaped failures after a skipped preflight run status recovery, never a replay."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        await host.send("tap", tap(APP))
        reply = await host.send("tap", tap(APP))  # skipped preflight; reply dropped; recovered
        assert reply.recovered == r.RECOVERED_COMPLETED
        failed = host.diagnostics(event=d.SEND_FAILED)
        assert failed[-1]["skipReason"] == r.SKIP_HEALTHY_MUTATION
        assert failed[-1]["action"] == "statusRecovery"
        assert proxy.count("tap") == 2
        assert await tap_count(host, APP) == 2

    run(scenario, nth("tap", 2, Fault.DROP_REPLY))


def test_slow_reply_within_the_window_is_just_slow() -> None:
    """issue 4: one whole-transport deadline; a delay inside it is not a failure."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        reply = await host.send("tap", tap(APP))
        assert reply.ok and reply.recovered is None
        assert host.diagnostics(event=d.SEND_FAILED) == []

    def rule(_index: int, body: dict[str, Any]) -> Plan:
        return Plan(Fault.DELAY, 0.2) if body.get("command") == "tap" else Plan(Fault.PASS)

    run(scenario, rule)


# --- busy / wedged ---------------------------------------------------------------------------------------------------
def test_runner_busy_is_retried_after_a_backoff_because_nothing_ran() -> None:
    """issue 4: RUNNER_BUSY is retried after a backoff (300 ms × 2^n); the command then runs exactly once."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        await host.send("launchApp", {"appBundleId": "hang.1000"})
        # runner budget for tap at scale 0.01 is 0.75 s: the hang is abandoned and drains 0.25 s later
        with pytest.raises(ProtocolError) as info:
            await host.send("tap", tap("hang.1000"))
        assert info.value.code == e.COMMAND_TIMED_OUT
        reply = await host.send("tap", tap(APP))
        assert reply.ok
        retries = [ev for ev in host.diagnostics(event=d.RETRY) if ev["reason"] == "runnerBusy"]
        assert retries and retries[0]["delayMs"] == pytest.approx(300.0)
        assert await tap_count(host, APP) == 1

    run(scenario, runner_scale=0.01)


def test_failed_status_probe_invalidates_and_reports_an_unknown_fate() -> None:
    """recovery: a status timeout preserves the invalidation behaviour; the mutating command is not replayed."""

    def rule(_index: int, body: dict[str, Any]) -> Plan:
        command = body.get("command")
        if command == "tap":
            return Plan(Fault.DROP_REPLY)
        if command == "status" and "statusCommandId" in body:
            return Plan(Fault.BLACKHOLE)
        return Plan(Fault.PASS)

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        with pytest.raises(HostError) as info:
            await host.send("tap", tap(APP))
        assert info.value.code == e.TRANSPORT_FAILED and info.value.hint == r.HINT_REOBSERVE
        [invalidation] = invalidations(host)
        assert (invalidation["reason"], invalidation["reachable"]) == (r.INVALIDATE_PROBE_FAILED, False)
        assert proxy.count("tap") == 1
        assert await tap_count(host, APP) == 1  # it did run, once; the host said it could not tell

    run(scenario, rule, host_scale=0.01)


def test_failed_readiness_preflight_invalidates_before_the_command_is_sent() -> None:
    """lifecycle: a failed uptime preflight (runnerReadinessPreflightFailed) invalidates; the command, never sent,
    goes to the next runner session exactly once."""

    async def scenario(host: HostSession, proxy: FaultProxy) -> None:
        await host.send("launchApp", {"appBundleId": APP})
        first = host.runner
        reply = await host.send("tap", tap(APP))  # its preflight (noRecord) is blackholed
        assert reply.ok
        assert [ev["reason"] for ev in invalidations(host)] == [r.INVALIDATE_PREFLIGHT_FAILED]
        assert host.runner is not first
        assert proxy.count("tap") == 1
        assert await tap_count(host, APP) == 1

    run(scenario, nth("uptime", 2, Fault.BLACKHOLE), host_scale=0.01)
