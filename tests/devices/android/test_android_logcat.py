"""Android ``logs``: the logcat lines of the app's process, on a synthetic ``logcat -v threadtime`` fixture
(fixtures/README.md says how it was written) served by the agent double's shell."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from android_agent_double import AgentDouble, FakeAdb, FakeClock

from phonewire.devices.android.device import AndroidDevice
from phonewire.devices.android.logcat import FIRST_LINES, parse_threadtime
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

LOGCAT = (Path(__file__).parent / "fixtures" / "logcat-threadtime-shop-synthetic.txt").read_text(encoding="utf-8")
SHOP = "com.example.shop"
#: The fixture up to the two identical lines of one millisecond (the second read must take neither again).
FIRST_PART = LOGCAT[: LOGCAT.index("11-30 07:05:41.540")]


def opened(agent: AgentDouble) -> AndroidDevice:
    clock = FakeClock()
    agent.clock = clock
    device = AndroidDevice(None, adb=FakeAdb(("emulator-5554", "device")), connect=lambda _: agent,
                           sleep=clock.sleep, clock=clock)  # fmt: skip
    asyncio.run(device.open())
    agent.calls.clear()
    return device


def test_threadtime_lines_parse_with_level_tag_and_message_and_markers_are_skipped() -> None:
    lines = parse_threadtime(LOGCAT)
    assert len(lines) == 13  # 15 lines minus the two buffer markers
    first, okhttp = lines[0], lines[2]
    assert (first["stamp"], first["pid"], first["tid"], first["level"], first["tag"]) == (
        "11-30 07:05:37.102",
        4242,
        4242,
        "info",
        "ActivityThread",
    )
    assert okhttp["tag"] == "OkHttp" and okhttp["message"].startswith("--> GET https://shop.example.com/")
    assert lines[-1]["level"] == "error" and lines[-1]["message"].startswith("\tat com.example.shop.CartActivity")
    assert [x["level"] for x in lines].count("warning") == 1


def test_logs_takes_each_line_of_the_apps_process_once_even_two_identical_lines_in_one_millisecond() -> None:
    agent = AgentDouble(logcat=FIRST_PART)
    agent.running.add(SHOP)
    device = opened(agent)
    first = asyncio.run(device.logs(SHOP, 0))
    texts = [x["text"] for x in first["entries"]]
    assert len(texts) == 8 and texts.count("ShopApp: cart: add sku=8841 qty=1") == 2
    assert {x["kind"] for x in first["entries"]} == {"logcat"} and first["entries"][0]["app"] == SHOP
    assert ("shell", ("logcat", "-d", "-v", "threadtime", "--pid", "4242", "-t", str(FIRST_LINES))) in agent.calls
    assert asyncio.run(device.logs(SHOP, first["next"]))["entries"] == []  # nothing new: nothing again
    agent.logcat = LOGCAT  # the app goes on logging, then crashes
    later = asyncio.run(device.logs(SHOP, first["next"]))
    assert [x["text"] for x in later["entries"]] == [
        "OkHttp: <-- HTTP FAILED: java.net.SocketTimeoutException: timeout",
        "AndroidRuntime: FATAL EXCEPTION: main",
        "AndroidRuntime: Process: com.example.shop, PID: 4242",
        "AndroidRuntime: java.lang.IllegalStateException: cart is empty",
        "AndroidRuntime: \tat com.example.shop.CartActivity.checkout(CartActivity.kt:88)",
    ]
    assert ("shell", ("logcat", "-d", "-v", "threadtime", "--pid", "4242", "-t", "11-30 07:05:41.231")) in agent.calls
    assert asyncio.run(device.logs(SHOP, 0))["next"] == 13  # everything kept, each line once


def test_logs_of_an_app_that_is_not_running_reads_no_logcat_and_logs_without_an_app_is_refused() -> None:
    agent = AgentDouble(logcat=LOGCAT)
    device = opened(agent)
    assert asyncio.run(device.logs(SHOP, 0))["entries"] == []
    assert not any(c[0] == "shell" and c[1][0] == "logcat" for c in agent.calls)
    with pytest.raises(ProtocolError) as info:
        asyncio.run(device.logs(None, 0))
    assert info.value.code == e.INVALID_REQUEST and info.value.hint
