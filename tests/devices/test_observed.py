"""What a device observed on the side (phonewire.devices.observed and the web device's event reader), with no
browser: rings with reader cursors, console and request events turned into entries, and the documented bounds."""

from __future__ import annotations

import json
from pathlib import Path

from phonewire.devices import observed
from phonewire.devices.observed import Ring, cut
from phonewire.devices.web import observe, screencast
from phonewire.devices.web.observe import Observer
from phonewire.protocol import commands as c

ROOT = Path(__file__).resolve().parents[2]


def test_a_ring_answers_from_a_cursor_keeps_the_newest_and_says_how_many_a_reader_missed() -> None:
    ring = Ring(3)
    for i in range(5):
        ring.append({"text": f"line {i}"})
    read = ring.since(0)
    assert [x["text"] for x in read["entries"]] == ["line 2", "line 3", "line 4"]
    assert (read["next"], read["dropped"]) == (5, 2)
    assert ring.since(4) == {"entries": [{"seq": 4, "text": "line 4"}], "next": 5, "dropped": 0, "truncated": 0}
    assert ring.since(c.MAX_SEQ) == {"entries": [], "next": 5, "dropped": 0, "truncated": 0}  # a trace's cursor


def test_console_messages_page_errors_and_log_entries_become_entries_of_their_app() -> None:
    seen = Observer()
    seen.on_event("Runtime.consoleAPICalled", {"type": "warning", "timestamp": 1767000000123.0, "args": [
        {"type": "string", "value": "careful"}, {"type": "number", "value": 3}, {"type": "boolean", "value": True},
        {"type": "object", "description": "Object"}]}, "app.one", "s1")  # fmt: skip
    seen.on_event("Runtime.exceptionThrown", {"timestamp": 1767000000200.0, "exceptionDetails": {
        "text": "Uncaught", "url": "http://127.0.0.1/a.js", "exception": {"description": "Error: Boom"}}},
        "app.one", "s1")  # fmt: skip
    seen.on_event("Log.entryAdded", {"entry": {"level": "error", "text": "x" * 5000}}, "app.two", "s2")
    entries = seen.logs.since(0)["entries"]
    assert [(x["kind"], x["level"], x["app"]) for x in entries] == [
        ("console", "warning", "app.one"), ("error", "error", "app.one"), ("log", "error", "app.two")]  # fmt: skip
    assert entries[0]["text"] == "careful 3 true Object" and entries[0]["time"] == 1767000000.123
    assert entries[1]["text"] == "Error: Boom" and entries[1]["url"] == "http://127.0.0.1/a.js"
    assert len(entries[2]["text"]) == c.MAX_ENTRY_CHARS and entries[2]["text"].endswith("x…[truncated: 5000 chars]")


def _request(seen: Observer, rid: str, url: str, t0: float) -> None:
    seen.on_event("Network.requestWillBeSent", {"requestId": rid, "timestamp": t0, "wallTime": 1767000000.5,
                  "type": "Fetch", "request": {"method": "POST", "url": url}}, "app.one", "s1")  # fmt: skip


def test_requests_become_entries_when_they_finish_or_fail_and_only_once_capture_is_on() -> None:
    seen = Observer()
    _request(seen, "1", "http://127.0.0.1/early", 1.0)
    seen.on_event("Network.loadingFinished", {"requestId": "1", "timestamp": 1.1}, "app.one", "s1")
    assert seen.requests.since(0)["entries"] == []  # the Network domain is not on: nothing is followed
    seen.network_domain = True
    _request(seen, "2", "http://127.0.0.1/save", 10.0)
    _request(seen, "3", "http://127.0.0.1/gone", 10.0)
    seen.on_event("Network.responseReceived", {"requestId": "2", "response": {"status": 201}}, "app.one", "s1")
    seen.on_event("Network.loadingFailed", {"requestId": "3", "timestamp": 10.25, "errorText": "net::ERR_FAILED"},
                  "app.one", "s1")  # fmt: skip
    seen.on_event("Network.loadingFinished", {"requestId": "2", "timestamp": 10.0145, "encodedDataLength": 312},
                  "app.one", "s1")  # fmt: skip
    failed, saved = seen.requests.since(0)["entries"]
    assert (saved["method"], saved["status"], saved["size"], saved["ms"], saved["type"]) == ("POST", 201, 312, 14.5,
                                                                                           "Fetch")  # fmt: skip
    assert (failed["status"], failed["error"], failed["ms"]) == (0, "net::ERR_FAILED", 250.0)
    assert "_t0" not in saved


def test_in_flight_requests_are_bounded() -> None:
    seen = Observer()
    seen.network_domain = True
    for i in range(c.MAX_PENDING_REQUESTS + 5):
        _request(seen, str(i), f"http://127.0.0.1/{i}", float(i))
    seen.on_event("Network.loadingFinished", {"requestId": "0", "timestamp": 1.0}, "app.one", "s1")
    assert seen.requests.since(0)["entries"] == []  # the oldest was forgotten
    assert cut("abc", 2) == "a…"  # too short a limit for the long marker


def test_a_read_answers_the_newest_entries_that_fit_its_bytes_and_counts_the_older_ones_left_out() -> None:
    ring = Ring(c.MAX_LOG_ENTRIES)
    for i in range(c.MAX_LOG_ENTRIES + 500):  # a flood: 1500 lines of about 1 KB
        ring.append({"text": f"line {i} " + "x" * 1000, "app": "app.one" if i % 2 else "app.two"})
    read = ring.since(0)
    size = len(json.dumps(read["entries"], ensure_ascii=False, separators=(",", ":")).encode())
    assert size <= c.MAX_OBSERVED_REPLY_BYTES < size + 1100  # as many as fit
    assert read["entries"][-1]["text"].startswith(f"line {c.MAX_LOG_ENTRIES + 499} ")  # the newest
    assert (read["dropped"], read["truncated"]) == (500, c.MAX_LOG_ENTRIES - len(read["entries"]))
    assert read["next"] == c.MAX_LOG_ENTRIES + 500
    mine = ring.since(1400, keep=lambda x: x["app"] == "app.one")  # one app's: 50 lines, they fit
    assert (len(mine["entries"]), mine["truncated"]) == (50, 0)
    huge = Ring(3)
    huge.append({"text": "y" * 200_000})
    assert [len(x["text"]) for x in huge.since(0)["entries"]] == [200_000]  # the newest always (cut on the way in)


def test_console_events_kept_raw_are_decoded_only_when_a_read_reaches_them_and_read_as_decoded_ones() -> None:
    seen = Observer()
    decoded = Observer()
    for i in range(c.MAX_LOG_ENTRIES + 200):
        params = {"type": "log", "timestamp": 1767000000000.0 + i,
                  "args": [{"type": "string", "value": f"{i} " + "x" * 1000}],
                  "stackTrace": {"callFrames": [{"url": "http://127.0.0.1/flood.html"}]}}  # fmt: skip
        event = {"method": observe.CONSOLE_API, "params": params, "sessionId": "S"}
        seen.on_console(json.dumps(event, separators=(",", ":")).encode(), "app.one")
        decoded.on_event(observe.CONSOLE_API, params, "app.one", "S")
    assert sum(observed.RAW in e for e in seen.logs._entries) == c.MAX_LOG_ENTRIES  # nothing decoded yet
    read = seen.logs.since(0)
    assert read == decoded.logs.since(0)  # the same entries, counts and cursor as decoding on arrival
    # decoded: the entries read, and the one before them that was found not to fit
    assert sum(observed.RAW in e for e in seen.logs._entries) == c.MAX_LOG_ENTRIES - len(read["entries"]) - 1
    assert seen.logs.since(0) == read  # a second read of the same entries (decoded once, in place)
    big = {"method": observe.CONSOLE_API, "params": {"args": [{"type": "string", "value": "y" * 50_000}]}}
    seen.on_console(json.dumps(big).encode(), "app.one")  # over RAW_CONSOLE_BYTES: decoded and cut on arrival
    assert observed.RAW not in seen.logs._entries[-1] and len(seen.logs._entries[-1]["text"]) == c.MAX_ENTRY_CHARS
    seen.on_console(b'{"method":"Runtime.consoleAPICalled","params":{"args":[', "app.one")  # cut short
    assert seen.logs.since(seen.logs.next - 1)["entries"][0]["text"] == "[a console message that could not be read]"


def test_a_console_event_of_an_unexpected_shape_reads_as_the_placeholder_and_the_others_as_they_were() -> None:
    """Valid JSON, shaped otherwise than Chromium's events: decoding never raises (a read would fail), the entry
    says it could not be read, and the entries around it read as usual, in seq order."""
    seen = Observer()
    unread = "[a console message that could not be read]"
    fine = {"method": observe.CONSOLE_API, "params": {"args": [{"type": "string", "value": "before"}]}}
    odd = [
        {"method": observe.CONSOLE_API, "params": {"args": [], "stackTrace": {"callFrames": {"url": "x"}}}},
        {"method": observe.CONSOLE_API, "params": {"args": {"not": "a list"}}},
        {"method": observe.CONSOLE_API, "params": {"args": [], "stackTrace": {"callFrames": ["not a frame"]}}},
        [observe.CONSOLE_API],
    ]
    for event in [fine, *odd, {**fine, "params": {"args": [{"type": "string", "value": "after"}]}}]:
        seen.on_console(json.dumps(event).encode(), "app.one")
    read = seen.logs.since(0)
    assert [x["text"] for x in read["entries"]] == ["before", *[unread] * len(odd), "after"]
    assert [x["seq"] for x in read["entries"]] == list(range(len(odd) + 2))


def test_the_documented_bounds_are_the_declared_ones() -> None:
    doc = (ROOT / "docs" / "trace.md").read_text(encoding="utf-8").replace("\n", " ")
    for text in (f"newest {c.MAX_LOG_ENTRIES} log entries and {c.MAX_NETWORK_ENTRIES} finished requests",
                 f"follows at most {c.MAX_PENDING_REQUESTS} requests in flight",
                 f"cuts a text or URL at {c.MAX_ENTRY_CHARS} characters",
                 f"answers at most {c.MAX_OBSERVED_REPLY_BYTES // 1024} KB of entries per read",
                 f"no more frames after {c.MAX_RECORD_S} s",
                 f"while {screencast.MAX_QUEUED} wait to be encoded"):  # fmt: skip
        assert " ".join(text.split()) in " ".join(doc.split()), text
