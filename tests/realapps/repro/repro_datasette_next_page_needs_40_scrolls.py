"""Datasette on a phone: "Next page" is below 100 row cards. There is no find / scroll-into-view: `tap "Next page"`
is NOT_FOUND until it has been scrolled into view, so the agent scrolls and re-reads, one step per call.

Seen (iPhone 15 profile, loaded machine): 40 x `scroll down --amount 1` (+ 40 snapshots), about 39 s and 80 tool
calls, before `tap "Next page"` works.  Expected: one call (a `scroll --to SELECTOR`, a `find`, or `tap`
scrolling its off-screen target into view as WebDriver does).
"""

import time

from _common import DATASETTE

import phonewire
from phonewire import ProtocolError

with phonewire.Phone(device="web") as phone:
    phone.open(f"{DATASETTE}/db/people")
    try:
        phone.tap('"Next page"')
    except ProtocolError as err:
        print('tap "Next page" ->', err.code, err)
    t, n = time.monotonic(), 0
    while '"Next page"' not in phone.snapshot(interactive=True).text and n < 100:
        phone.scroll("down", amount=1)
        n += 1
    print(f"FINDING   {n} scrolls and {time.monotonic() - t:.1f} s to bring 'Next page' on screen")
    print(phone.tap('"Next page"').data)
