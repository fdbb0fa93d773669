"""Text seen on screens with no tree (agent/seen.py), measured: ``python bench/bench_ocr.py [ROUNDS]``.

Two real-app pages from npm (tests/realapps/ocr/, installed by scripts/realapps.sh): a Chart.js bar chart and a
Phaser 3 game title screen, both drawn on a canvas, nothing of their text in the accessibility tree.  Each page
publishes the strings it drew (its document title, as JSON: Chart.js's title, legend, axis labels and ticks; the
game's text objects), which is the truth here.

* recall: the words a person sees (the drawn strings, split into words) found among the seen lines' words;
* precision: the seen words that are drawn words (the rest is what the engine made up);
* cost: a snapshot with ``ocr=True`` against one without, alternating, ROUNDS of each (default 5), p50 and the
  ratio (the first snapshot after a change reads the screen; an unchanged screen reuses its lines, so each round
  asks for a fresh reading by reopening the page first — the cost of a first look).

Words are compared lower-case, without surrounding punctuation, as a multiset.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import phonewire  # noqa: E402
from loopback import serving  # noqa: E402
from phonewire.protocol.snapshot import Node  # noqa: E402

PAGES = ("chart.html", "game.html")
REALAPPS = HERE.parent / "tests" / "realapps"


def words(texts: list[str]) -> Counter[str]:
    out: Counter[str] = Counter()
    for text in texts:
        for word in text.split():
            w = re.sub(r"^\W+|\W+$", "", word.lower())
            if w:
                out[w] += 1
    return out


def truth(nodes: list[Node]) -> list[str]:
    title = next(str(n.get("label")) for n in nodes if n.get("type") == "Application")
    drawn: list[str] = json.loads(title)["drawn"]
    return drawn


def measure(phone: phonewire.Phone, url: str, rounds: int) -> dict[str, Any]:
    plain, read = [], []
    for _ in range(rounds):
        phone.open(url)
        phone.wait(idle=True)
        t0 = time.perf_counter()
        phone.snapshot()  # the automatic reading is measured with it: the page is sparse
        auto = (time.perf_counter() - t0) * 1000
        phone.open(url)
        phone.wait(idle=True)
        t0 = time.perf_counter()
        view = phone.snapshot(ocr=True)
        read.append((time.perf_counter() - t0) * 1000)
        plain.append(auto)
    seen_lines = [str(n["label"]) for n in view.nodes if n.get("seen")]
    drawn = truth(view.nodes)
    want, got = words(drawn), words(seen_lines)
    hit = sum((want & got).values())
    return {
        "recall": hit / max(1, sum(want.values())),
        "precision": hit / max(1, sum(got.values())),
        "missed": sorted((want - got).elements()),
        "made_up": sorted((got - want).elements()),
        "ocr_p50_ms": statistics.median(read),
        "auto_p50_ms": statistics.median(plain),
        "lines": len(seen_lines),
    }


def baseline(phone: phonewire.Phone, rounds: int) -> float:
    """A snapshot of the demo (a page with a tree: no reading) in the same run."""
    phone.open("dev.phonewire.demo")
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        phone.snapshot()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    if not (REALAPPS / "node" / "node_modules" / "chart.js").is_dir():
        raise SystemExit("bench_ocr: run bash scripts/realapps.sh first (chart.js, phaser)")
    with serving(REALAPPS) as base, phonewire.Phone() as phone:
        base_ms = baseline(phone, rounds)
        print(f"baseline: a snapshot of the demo (tree, no reading) p50 {base_ms:.0f} ms")
        for page in PAGES:
            m = measure(phone, base + "ocr/" + page, rounds)
            print(f"{page}: recall {m['recall']:.2f}, precision {m['precision']:.2f} ({m['lines']} seen lines); "
                  f"snapshot --ocr p50 {m['ocr_p50_ms']:.0f} ms, automatic (sparse) p50 {m['auto_p50_ms']:.0f} ms "
                  f"= x{m['ocr_p50_ms'] / base_ms:.1f} the demo's snapshot")  # fmt: skip
            print(f"  missed {m['missed']}; made up {m['made_up']}")


if __name__ == "__main__":
    main()
