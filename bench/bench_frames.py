"""Benchmark of the snapshot of a page with frames of another origin (issue 22 item 2), against the same page whose
frames are of its own origin (walked in place, in the page's one evaluation) and the same page without frames, on
one phone in one run: each round opens each page in turn (the order rotated every round, so all see the same
machine load) and takes ``--per`` snapshots of it (the first after the open is left out: it waits for the page to
settle).

    .venv/bin/python bench/bench_frames.py [--rounds 12] [--per 6]

The pages: two buttons and a field, and two 320 x 140 frames of the same content (two buttons and a field each).
"cross": one frame of another port of the same host (another origin of the same site: in the page's renderer) and
one of another host (another site: a renderer of its own, under site isolation).  Prints the p50s and the ratios;
asserts nothing but that every view lists the frames' buttons.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [
    str(Path(__file__).resolve().parent.parent / "tests"),
    str(Path(__file__).resolve().parent.parent / "tests" / "e2e"),
]

from aim_site import AimSite  # noqa: E402

import phonewire  # noqa: E402

_FRAME = (
    '<!doctype html><html><head><meta name="viewport" content="width=device-width"></head><body style="margin:0">'
    '<button id="{p}-a" style="position:absolute;left:10px;top:10px;width:120px;height:40px">{p} one</button>'
    '<button id="{p}-b" style="position:absolute;left:150px;top:10px;width:120px;height:40px">{p} two</button>'
    '<input id="{p}-field" aria-label="{p} field" style="position:absolute;left:10px;top:70px;width:200px">'
    "</body></html>"
)


def _page(frames: list[str]) -> str:
    boxes = "".join(
        f'<iframe src="{src}" style="position:absolute;left:20px;top:{120 + 170 * i}px;width:320px;height:140px">'
        "</iframe>"
        for i, src in enumerate(frames)
    )
    return (
        '<!doctype html><html><head><meta name="viewport" content="width=device-width"><title>bench</title></head>'
        '<body style="margin:0"><button id="top" style="position:absolute;left:10px;top:40px">top</button>'
        '<input id="top-field" aria-label="top field" style="position:absolute;left:150px;top:40px">'
        f"{boxes}</body></html>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--per", type=int, default=6)
    args = parser.parse_args()
    site = AimSite()
    try:
        os.environ["PHONEWIRE_STATE_DIR"] = tempfile.mkdtemp(prefix="bench-frames-")
        os.environ.pop("PHONEWIRE_RUNNER_ADDR", None)
        other_site = site.other.replace("127.0.0.1", "localhost")
        for p in ("near", "far"):
            site.put(f"bench-frame-{p}.html", _FRAME.format(p=p))
        urls = {
            "none": site.put("bench-none.html", _page([])),
            "same": site.put(
                "bench-same.html", _page([f"{site.base}/bench-frame-near.html", f"{site.base}/bench-frame-far.html"])
            ),
            "cross": site.put(
                "bench-cross.html",
                _page([f"{site.other}/bench-frame-near.html", f"{other_site}/bench-frame-far.html"]),
            ),
        }
        times: dict[str, list[float]] = {kind: [] for kind in urls}
        with phonewire.Phone(device="web") as phone:
            kinds = list(urls)
            for i in range(args.rounds):
                for kind in kinds[i % 3 :] + kinds[: i % 3]:
                    phone.open(urls[kind])
                    view = phone.snapshot()
                    listed = {str(n.get("identifier")) for n in view.nodes}
                    if kind != "none" and not {"near-a", "far-b"} <= listed:
                        raise SystemExit(f"{kind}: the frames' buttons are not in the view:\n{view.text}")
                    for _ in range(args.per):
                        started = time.perf_counter()
                        phone.snapshot()
                        times[kind].append(time.perf_counter() - started)
    finally:
        site.close()
    p50 = {kind: statistics.median(samples) * 1000 for kind, samples in times.items()}
    load = os.getloadavg()[0]
    print(f"snapshot p50 ({args.rounds} rounds x {args.per}, load {load:.1f}):", end="")
    print("".join(f" {kind} {ms:.2f} ms;" for kind, ms in p50.items()))
    print(
        f"ratio cross/same {p50['cross'] / p50['same']:.2f}, cross/none {p50['cross'] / p50['none']:.2f}, "
        f"same/none {p50['same'] / p50['none']:.2f}"
    )


if __name__ == "__main__":
    main()
