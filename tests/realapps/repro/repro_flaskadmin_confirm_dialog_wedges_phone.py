"""Flask-Admin: a tap that opens the browser's own confirm() dialog never finishes; the phone is restarted.

Flask-Admin's row "Delete Record" button is `<button onclick="return faHelpers.safeConfirm('Are you sure you want
to delete this record?')">`, i.e. window.confirm().  A person sees a system dialog with Cancel / OK.
Seen (CLI, default budgets): `tap @e386` → after 75.1 s `COMMAND_TIMED_OUT … its effect is unknown`, then every
call `RUNNER_BUSY … retry this command in a few seconds` for two minutes, then `RUNNER_WEDGED … the runner was
stuck and has been recycled` and `APP_NOT_AVAILABLE`, "the phone was restarted: every app's state … was lost".
No view ever shows the dialog; nothing can answer it; the record is not deleted.
Expected: the tap answers at once; the dialog shows in the view (an Alert with its message and its buttons, as the
iOS backend shows alerts) and a tap on "OK"/"Cancel" (or `press escape`/`back`) answers it.
This script runs with PHONEWIRE_TIME_SCALE=0.1 (budgets 7.5 s, wedge at 12 s) so it takes about 30 s.
"""

import os
import time

os.environ.setdefault("PHONEWIRE_TIME_SCALE", "0.1")

from _common import FLASKADMIN, Timer, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{FLASKADMIN}/admin/book/?search=Book+001")
    phone.wait('role=Button label="Delete Record"')
    print(phone.snapshot(interactive=True).text)
    err = None
    with Timer() as t:
        try:
            r = phone.tap('role=Button label="Delete Record"')
            print("tap ->", r.data)
        except phonewire.ProtocolError as exc:
            err = exc
            print("tap ->", exc.code, exc.message, "| hint:", exc.hint)
    print(f"tap took {t.s:.1f} s")
    verdict(err is None and t.s < 2, "the tap that opens confirm() answers at once")
    view = ""
    for _ in range(30):  # what the agent does next: look at the screen, retrying as the hint says
        try:
            view = phone.snapshot(interactive=True).text
            break
        except phonewire.ProtocolError as exc:
            print("snapshot ->", exc.code, exc.message)
            if exc.code == "APP_NOT_AVAILABLE":  # the phone was restarted: the app and its state are gone
                break
            time.sleep(1)
    print(view)
    verdict("Are you sure" in view, "the dialog (its message, Cancel / OK) is in the view")
