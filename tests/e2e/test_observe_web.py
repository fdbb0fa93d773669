"""logs, network and record against the real runner and Chromium: a page that logs, fetches and throws
(tests/e2e/hostile/chatty.html over loopback HTTP), read through the Python API; videos decoded with PyAV."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_runner import HostileSite, own_phone

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(hostile_site: HostileSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[phonewire.Phone]:
    with own_phone(tmp_path_factory.mktemp("state")) as p:  # its own browser: logs and network start empty
        p.open(hostile_site.url("chatty.html"))
        yield p


def texts(result: phonewire.ActionResult) -> list[str]:
    return [str(x["text"]) for x in result.data["entries"]]


def test_logs_answers_console_messages_once_each_and_page_errors(phone: phonewire.Phone) -> None:
    first = phone.logs()
    assert "chatty ready" in texts(first)  # logged while the page loaded, before anyone asked
    again = phone.logs().data["entries"]
    assert [x for x in again if x["kind"] == "console"] == [], again  # nothing new since the previous call
    phone.tap("id=load")
    phone.wait("text=Loads 1")
    new = phone.logs()
    # the console's lines (the browser's own "Failed to load resource" for the favicon may arrive late, under load)
    console = [x for x in new.data["entries"] if x["kind"] == "console"]
    assert [str(x["text"]) for x in console][:2] == ["loaded 1", "careful Object"]
    assert [(x["kind"], x["level"]) for x in console[:2]] == [("console", "log"), ("console", "warning")]
    assert "chatty ready" not in texts(new)
    phone.tap("id=fail")
    phone.wait(idle=True)
    thrown = phone.logs()
    errors = [x for x in thrown.data["entries"] if x["kind"] == "error"]
    assert len(errors) == 1 and "Boom 1" in errors[0]["text"]
    assert "\n[error] Error: Boom 1" in thrown.data["message"]  # what the CLI, MCP and bridge show


def test_network_starts_capturing_at_its_first_call_and_filters_by_url_and_status(phone: phonewire.Phone) -> None:
    assert phone.network().data["requests"] == []  # the page loaded before capture started
    phone.tap("id=load")
    phone.wait("text=Loads 2")
    phone.wait(idle=True)
    requests = phone.network().data["requests"]
    assert [(r["method"], r["url"].rsplit("/", 1)[1], r["status"]) for r in requests] == [
        ("GET", "chatty.json?n=2", 200), ("GET", "missing.json?n=2", 404)]  # fmt: skip
    assert requests[0]["size"] > 0 and requests[0]["ms"] >= 0 and requests[0]["type"] == "Fetch"
    assert phone.network().data["requests"] == []  # each request once
    phone.tap("id=load")
    phone.wait("text=Loads 3")
    phone.wait(idle=True)
    missing = phone.network(status=404)
    assert [r["url"].rsplit("/", 1)[1] for r in missing.data["requests"]] == ["missing.json?n=3"]
    assert missing.data["message"].splitlines()[1].startswith("GET 404 ")


@pytest.mark.parametrize(("suffix", "codec"), [(".mp4", "h264"), (".webm", "vp8")])
def test_a_recording_decodes_into_frames_at_css_scale(
    phone: phonewire.Phone, tmp_path: Path, suffix: str, codec: str
) -> None:
    av = pytest.importorskip("av")
    video = tmp_path / f"screen{suffix}"
    started = phone.record_start(video)
    assert (started.data["width"], started.data["height"]) == (392, 852)  # 393 x 852 points, made even
    for _ in range(3):
        phone.tap("id=load")
        phone.wait(idle=True)
    stopped = phone.record_stop()
    assert stopped.data["path"] == str(video) and stopped.data["frames"] > 1
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == codec
        frames = [f for f in container.decode(stream)]
    assert len(frames) == stopped.data["frames"] > 1
    assert {(f.width, f.height) for f in frames} == {(392, 852)}
    assert phone.record_stop().data["frames"] == 0  # nothing is recording any more


def test_record_refuses_an_unknown_extension_with_a_hint(phone: phonewire.Phone, tmp_path: Path) -> None:
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.record_start(tmp_path / "screen.gif")
    assert info.value.code == "INVALID_REQUEST" and ".mp4" in (info.value.hint or "")


def test_a_traced_step_carries_its_console_and_requests_and_the_report_shows_them(
    phone: phonewire.Phone, tmp_path: Path
) -> None:
    import subprocess

    from lxml import html as lxml_html

    from phonewire.agent.trace import read_steps
    from phonewire.frontends.cli.main import main as cli_main

    directory = tmp_path / "trace"
    phone.trace_start(str(directory))
    try:
        loads = int(str(next(n for n in phone.snapshot().nodes if n["identifier"] == "count")["label"]).split()[1])
        phone.tap("id=load")
        phone.wait(f"text=Loads {loads + 1}")
        phone.wait(idle=True)
    finally:
        phone.trace_stop()
    steps = read_steps(directory)
    tap = next(s for s in steps if s["op"] == "tap")
    assert tap["before"].endswith("-before.jpg") and tap["shot"] != tap["before"]
    logged = [x for s in steps for x in s.get("console", [])]
    console = [x["text"] for x in logged if x["kind"] == "console"]
    assert console == [f"loaded {loads + 1}", "careful Object"]  # each message once, in the step it arrived in
    assert [x["text"] for x in logged if x["kind"] == "log"] == [
        "Failed to load resource: the server responded with a status of 404 (File not found)"
    ]  # the browser's own
    assert "loaded" in " ".join(x["text"] for x in tap.get("console", []))
    urls = [r["url"].rsplit("/", 1)[1] for s in steps for r in s.get("network", [])]
    assert urls == [f"chatty.json?n={loads + 1}", f"missing.json?n={loads + 1}"]
    report = tmp_path / "report.html"
    assert cli_main(["trace", "view", str(directory), "-o", str(report)]) == 0
    dom = subprocess.run(
        ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    page = lxml_html.fromstring(dom)
    assert len(page.xpath("//img[contains(@class, 'before')]")) == 1  # the tap's; the snapshot and waits read only
    first = page.xpath("//ul[@class='console']/li")[0].text_content()
    assert first.startswith(f"[log] loaded {loads + 1} http://127.0.0.1:")  # the message and where it came from
    rows = page.xpath("//table[@class='network']//tr")
    assert [r.get("class") for r in rows] == ["request", "request failed"]  # the 404 is highlighted


def test_the_cli_prints_logs_and_filtered_requests_and_records_into_a_file_of_its_working_directory(
    hostile_site: HostileSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cli_harness import cli_for

    monkeypatch.chdir(tmp_path)
    with cli_for(tmp_path, monkeypatch) as cli:

        def ok(*argv: str) -> str:
            res = cli("--device", "web", "--session", "observe", *argv)
            assert res.code == 0, res.err
            return res.out

        ok("open", hostile_site.url("chatty.html"))
        assert ok("network") == "ok 0 request(s)\n"
        assert ok("record", "start", "screen.webm").startswith(f"ok recording to {tmp_path / 'screen.webm'}")
        ok("tap", "id=load")
        ok("wait", "text=Loads 1")
        ok("wait", "--idle")
        missing = ok("network", "--status", "404", "--url", "missing").splitlines()
        assert (
            missing[0] == "ok 1 request(s)" and missing[1].startswith("GET 404 ") and "missing.json?n=1" in missing[1]
        )
        assert "\n[console.log] loaded 1 (http://127.0.0.1:" in ok("logs")
        stopped = cli("--device", "web", "--session", "observe", "--json", "record", "stop")
        assert stopped.code == 0 and stopped.json()["data"]["frames"] > 1
        assert stopped.json()["data"]["path"] == str(tmp_path / "screen.webm")
        assert (tmp_path / "screen.webm").stat().st_size > 0
        bad = cli("--device", "web", "--session", "observe", "network", "--status", "many")
        assert bad.code != 0 and "--status" in bad.err
