"""Streamlit 1.67 (apps/streamlit_orders.py): the first view after `open` can be a screen Streamlit has not finished
drawing (findings 4, F1).

Streamlit's page loads, opens a WebSocket, and the server streams the script's elements in over it; `open` and the
first `snapshot -i` do not wait for that stream, so the view lists the header and the first widgets but not the
select box, the button or the table that show a moment later (an agent reading it thinks the form has one field).
Each run starts a fresh phone (a cold browser, as an agent's first call).
Run with the app served: `bash tests/realapps/repro/apps/setup_round4.sh`.
"""

import time

from _common import STREAMLIT, verdict

import phonewire

short = 0
RUNS = 3
for run in range(RUNS):
    with phonewire.Phone(device="web") as phone:
        phone.open(f"{STREAMLIT}/")
        first = phone.snapshot(interactive=True).text
        time.sleep(1.5)
        later = phone.snapshot(interactive=True).text
        print(f"run {run + 1}: first view {len(first.splitlines())} lines, 1.5 s later {len(later.splitlines())}")
        missing = [ln.strip().split(" ", 1)[1] for ln in later.splitlines() if ln not in first.splitlines()]
        if missing:
            short += 1
            print("  missing from the first view:", "; ".join(missing))
verdict(short == 0, f"the first view after open lists the whole form ({RUNS - short} of {RUNS} runs did)")
