"""A page that floods its console (tests/e2e/hostile/flood.html), read through the CLI (thin client → daemon → runner
→ real Chromium): a ``logs`` reply stays small, keeps the newest lines, and says what it left out."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from cli_harness import Cli, Result, web_cli
from web_runner import HostileSite

from phonewire.protocol import commands as c

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    with web_cli(tmp_path_factory, "flood-web", "apps") as cli:
        yield cli


def run(cli: Cli, *argv: str) -> Result:
    result = cli("--device", "web", "--session", "flood", *argv)
    assert result.code == 0, result.err
    return result


def test_logs_after_a_flood_of_10000_lines_answers_the_newest_within_its_bytes_and_counts_the_rest(
    web: Cli, hostile_site: HostileSite
) -> None:
    run(web, "open", hostile_site.url("flood.html?n=10000&size=1024"))
    run(web, "wait", "text=flood done", "--timeout", "30000")
    reply = run(web, "--json", "logs")
    data = reply.json()["data"]
    entries = data["entries"]
    kept = c.MAX_LOG_ENTRIES  # the device keeps the newest 1000 of the 10 001 lines
    assert entries[-1]["text"].startswith("line 9999 x")  # the newest is there
    assert [x["text"].split()[1] for x in entries] == [str(i) for i in range(10000 - len(entries), 10000)]
    assert data["dropped"] == 10001 - kept and data["truncated"] == kept - len(entries) > 0
    size = len(json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode())
    assert size <= c.MAX_OBSERVED_REPLY_BYTES
    assert run(web, "logs").out == "ok 0 log entries\n"  # each line once: nothing new since

    run(web, "open", hostile_site.url("flood.html?n=0"))  # only the long line, on a page of its own
    run(web, "wait", "text=flood done", "--timeout", "30000")
    plain = run(web, "logs").out.splitlines()
    assert plain[0] == "ok 1 log entry"
    assert plain[1].startswith("[console.log] long yyy")
    assert plain[1].endswith(f"y…[truncated: 5005 chars] ({hostile_site.url('flood.html?n=0')})")
    assert len(plain[1]) == len("[console.log] ") + c.MAX_ENTRY_CHARS + len(hostile_site.url("flood.html?n=0")) + 3


def test_the_plain_logs_output_says_what_it_left_out(web: Cli, hostile_site: HostileSite) -> None:
    run(web, "--session", "other", "open", hostile_site.url("flood.html?n=3000&size=1024"))
    run(web, "--session", "other", "wait", "text=flood done", "--timeout", "30000")
    head = run(web, "--session", "other", "logs").out.splitlines()[0]
    assert head.startswith(f"ok {head.split()[1]} log entries (")
    assert "older one(s) were dropped: the device keeps the newest only; …truncated: " in head
    assert head.endswith(f"older one(s) left out, this reply holds the newest {c.MAX_OBSERVED_REPLY_BYTES // 1024} KB)")


def test_a_page_that_logs_forever_still_answers_snapshots_and_each_logs_read_stays_within_its_bytes(
    web: Cli, hostile_site: HostileSite
) -> None:
    page = hostile_site.url("flood.html?n=0&forever=1")
    run(web, "--session", "forever", "open", page)
    run(web, "--session", "forever", "wait", "text=flood done", "--timeout", "30000")
    for _ in range(3):
        snap = run(web, "--session", "forever", "snapshot", "-i").out
        assert snap == '@e1 Heading "flood done"\n', snap
        data = run(web, "--session", "forever", "--json", "logs").json()["data"]
        size = len(json.dumps(data["entries"], ensure_ascii=False, separators=(",", ":")).encode())
        assert 0 < size <= c.MAX_OBSERVED_REPLY_BYTES
        assert {x["text"][:5] for x in data["entries"]} <= {"tick ", "long "}
        assert [x["seq"] for x in data["entries"]] == sorted(x["seq"] for x in data["entries"])
    run(web, "--session", "forever", "close")
