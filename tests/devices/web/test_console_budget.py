"""The console budget (issue 28, finding 4: a page flooding its console held every other app of the phone for
16–30 s): what the device makes of the page's count of calls it dropped (console_budget.js), and whose call an
entry names.  The page side — the newest kept, each read seeing them — is tests/e2e/test_console_flood_web.py;
what a flood costs the rest of the phone is bench/bench_hostile.py."""

from __future__ import annotations

import json

from phonewire.devices.web.observe import CONSOLE_DROPPED, MAX_CONSOLE_PER_S, Observer, console_entry
from phonewire.protocol.commands import MAX_LOG_ENTRIES


def event(text: str, url: str = "http://127.0.0.1/flood.html") -> bytes:
    frames = [{"url": "", "functionName": ""}, {"url": url, "functionName": "tick"}]  # the budget's wrapper first
    params = {"type": "log", "args": [{"type": "string", "value": text}], "stackTrace": {"callFrames": frames}}
    return json.dumps({"method": "Runtime.consoleAPICalled", "params": params}).encode()


def test_the_pages_count_of_dropped_calls_counts_among_the_logs_dropped_entries_and_is_no_entry() -> None:
    observer = Observer()
    observer.on_console(event("line 0"), "app")
    observer.on_console(event(CONSOLE_DROPPED + "5000"), "app")
    observer.on_console(event("line 5001"), "app")
    read = observer.logs.since(1)
    assert [x["text"] for x in read["entries"]] == ["line 5001"]
    assert read["dropped"] == 5000 and read["next"] == 5002


def test_a_line_that_only_looks_like_the_count_is_an_entry() -> None:
    observer = Observer()
    observer.on_console(event(CONSOLE_DROPPED + "many"), "app")
    assert [x["text"] for x in observer.logs.since(0)["entries"]] == [CONSOLE_DROPPED + "many"]


def test_an_entry_names_the_pages_own_call_not_the_wrapper_of_the_budget() -> None:
    frames = json.loads(event("hi"))["params"]
    assert console_entry(frames)["url"] == "http://127.0.0.1/flood.html"


def test_a_second_of_calls_passes_whole_up_to_what_the_log_keeps() -> None:
    assert MAX_CONSOLE_PER_S == MAX_LOG_ENTRIES  # a read after a burst can hold the newest the ring keeps
