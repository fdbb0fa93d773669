"""Benchmark of a tap by ref against a tap at a point on the same element (issue 22 item 5: ``tap @eN`` costs at
most 1.1x ``tap X Y``), on one phone in one run: tests/e2e/aim/wide620.html's Near button, tapped alternately by its
ref and at the point its snapshot gives, the order swapped every round so both see the same machine load.  The same
for ``fill``: a text field filled by its ref and at its point, alternately (issue 27: ``fill @eN`` at most 1.1x).

    .venv/bin/python bench/bench_aim.py [--rounds 40]

Prints the medians, the p90s and the ratio ref/point; asserts nothing.  The page counts its clicks (aim/recorder.js
reports each to the bench's loopback server): the bench checks that every tap was one click on the button.
"""

from __future__ import annotations

import argparse
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
from phonewire.devices.web.gestures import APART_S  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    site = AimSite()
    try:
        import os

        os.environ["PHONEWIRE_STATE_DIR"] = tempfile.mkdtemp(prefix="bench-aim-")
        os.environ.pop("PHONEWIRE_RUNNER_ADDR", None)
        with phonewire.Phone(device="web") as phone:
            phone.open(site.url("wide620.html"))
            phone.tap("id=near")  # (the first tap focuses the button: a change of the screen, before the view)
            time.sleep(APART_S)
            view = phone.snapshot()
            ref = next(r for r, n in view.refs.items() if n.get("identifier") == "near")
            rect = view.refs[ref]["rect"]
            point = f"{rect['x'] + rect['width'] / 2} {rect['y'] + rect['height'] / 2}"
            times: dict[str, list[float]] = {"ref": [], "point": []}
            site.clear()
            for i in range(args.rounds):
                order = [("ref", f"@{ref}"), ("point", point)]
                for kind, target in order if i % 2 == 0 else order[::-1]:
                    started = time.perf_counter()
                    phone.tap(target)
                    times[kind].append(time.perf_counter() - started)
                    time.sleep(APART_S)  # apart by more than a double click's window (gestures.apart)
            clicks = site.clicks()
            fills = fill_times(phone, site, args.rounds)
    finally:
        site.close()
    if clicks != ["near"] * (2 * args.rounds):  # (each tap once, on the button)
        raise SystemExit(f"the taps did not land once each on the button: {clicks[:10]}…")
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    p90 = {k: statistics.quantiles(v, n=10)[-1] * 1000 for k, v in times.items()}
    print(f"tap X Y : median {med['point']:.1f} ms, p90 {p90['point']:.1f} ms ({args.rounds} taps)")
    print(f"tap @eN : median {med['ref']:.1f} ms, p90 {p90['ref']:.1f} ms ({args.rounds} taps)")
    print(f"ratio tap @eN / tap X Y (medians): {med['ref'] / med['point']:.2f}")
    fmed = {k: statistics.median(v) * 1000 for k, v in fills.items()}
    print(f"fill X Y : median {fmed['point']:.1f} ms ({args.rounds} fills)")
    print(f"fill @eN : median {fmed['ref']:.1f} ms ({args.rounds} fills)")
    print(f"ratio fill @eN / fill X Y (medians): {fmed['ref'] / fmed['point']:.2f}")


FIELD_PAGE = (
    '<!doctype html><meta name="viewport" content="width=device-width"><title>fill</title>'
    '<label>Name <input id="name" style="width:200px"></label><output id="out"></output>'
    "<script>const f=document.getElementById('name');f.addEventListener('input',()=>{out.value=f.value;});</script>"
)


def fill_times(phone: phonewire.Phone, site: AimSite, rounds: int) -> dict[str, list[float]]:
    """``fill`` by ref and at the field's point, alternately; each fill's text is read back from the view."""
    phone.open(site.put("fill.html", FIELD_PAGE))
    view = phone.snapshot()
    ref = next(r for r, n in view.refs.items() if n.get("identifier") == "name")
    rect = view.refs[ref]["rect"]
    point = f"{rect['x'] + rect['width'] / 2} {rect['y'] + rect['height'] / 2}"
    times: dict[str, list[float]] = {"ref": [], "point": []}
    for i in range(rounds):
        order = [("ref", f"@{ref}"), ("point", point)]
        for kind, target in order if i % 2 == 0 else order[::-1]:
            text = f"{kind} {i}"
            started = time.perf_counter()
            phone.fill(target, text)
            times[kind].append(time.perf_counter() - started)
            time.sleep(0.1)
    if phone.snapshot().refs[ref].get("value") != text:
        raise SystemExit("the last fill did not land in the field")
    return times


if __name__ == "__main__":
    main()
