"""Screens with no tree, on real Chromium: a Chart.js chart and a Phaser 3 game (npm packages) draw every word on a
canvas.  The view still says what a person sees — the text read from the screen, marked (seen) — and a tap on a
seen line lands where it is drawn: the game's own pointer handler counts the taps on its PLAY button, Chart.js's
legend hit boxes say which legend item a tap reached.  Each page publishes what it drew and what it saw in its
document's title (JSON), so the checks read the page's own record, not phonewire's."""

from __future__ import annotations

import json
from typing import Any

from realapps_env import Cli, StaticSite

import phonewire


def record(phone: phonewire.Phone) -> dict[str, Any]:
    view = phone.snapshot()
    title = next(str(n.get("label")) for n in view.nodes if n.get("type") == "Application")
    published: dict[str, Any] = json.loads(title)
    return published


def seen_lines(view: Any) -> dict[str, str]:
    """Seen text → its ref."""
    return {str(n["label"]): r for r, n in view.refs.items() if n.get("seen")}


def test_a_game_drawn_on_a_canvas_is_read_and_its_button_is_tapped_by_text_and_by_ref(
    phone: phonewire.Phone, canvas_pages: StaticSite
) -> None:
    phone.open(canvas_pages.base + "/ocr/game.html")
    phone.wait(idle=True)
    view = phone.snapshot()
    assert view.text.splitlines()[0].startswith("# sparse view:")  # read by itself: the tree says nothing
    lines = seen_lines(view)
    drawn = record(phone)["drawn"]
    assert {"SPACE BLASTER", "PLAY", "HIGH SCORES"} <= set(lines) and "PLAY" in drawn
    assert '"PLAY" (seen)' in view.text

    phone.tap("text=PLAY")  # exact text beats "Tap PLAY to start"
    assert record(phone)["plays"] == 1
    view = phone.snapshot()
    phone.tap("@" + seen_lines(view)["PLAY"])
    assert record(phone)["plays"] == 2
    assert "Plays: 2" in seen_lines(phone.snapshot())  # the canvas redrawn, read again


def test_a_chart_is_read_with_ocr_and_a_legend_item_is_tapped_where_it_is_drawn(
    phone: phonewire.Phone, canvas_pages: StaticSite
) -> None:
    phone.open(canvas_pages.base + "/ocr/chart.html")
    phone.wait(idle=True)
    view = phone.snapshot(ocr=True)
    assert view.text.splitlines()[0].startswith("# text read from the screen (OCR):")
    lines = seen_lines(view)
    assert {"Quarterly sales report", "Jan", "Jun", "350"} <= set(lines)
    phone.tap("text=Costs")
    assert record(phone)["legendClicks"] == ["Costs"]


def test_the_cli_prints_seen_lines(cli: Cli, canvas_pages: StaticSite) -> None:
    assert cli("open", canvas_pages.base + "/ocr/game.html").code == 0
    assert cli("wait", "--idle").code == 0
    done = cli("snapshot", "-i", "--ocr")
    assert done.code == 0, done.err
    assert '"SPACE BLASTER" (seen)' in done.out and done.out.startswith("# text read from the screen (OCR):")
